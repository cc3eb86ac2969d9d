"""Every relative link of README.md and docs/*.md leads to a file that exists (docs/ ships as sleuth.docs, so a
page's links must stay inside docs/ to work for an installed user)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def relative_links(text: str) -> list[str]:
    """The link targets of a Markdown text outside code, without web links and in-page anchors."""
    targets = [m.group(1) for m in _LINK.finditer(_CODE.sub("", text))]
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


def test_relative_links_are_found():
    text = "see [a](docs/a.md#x), [b](https://x.org), [c](#top), `[d](no.md)` and ![e](figures/e.png)"
    assert relative_links(text) == ["docs/a.md#x", "figures/e.png"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path):
    missing = [t for t in relative_links(page.read_text(encoding="utf-8"))
               if not (page.parent / t.split("#", 1)[0]).resolve().exists()]
    assert not missing, f"{page.name}: links to nothing: {missing}"


@pytest.mark.parametrize("page", PAGES[1:], ids=lambda p: p.name)
def test_docs_pages_link_only_inside_docs(page: Path):
    docs = (ROOT / "docs").resolve()
    outside = [t for t in relative_links(page.read_text(encoding="utf-8"))
               if docs not in (page.parent / t.split("#", 1)[0]).resolve().parents]
    assert not outside, f"{page.name}: links outside docs/ (not in the installed package): {outside}"


def test_what_docs_pages_link_ships_in_the_wheel():
    """Pages, figures and tables a page links are package data of ``sleuth.docs`` (pyproject.toml)."""
    import fnmatch
    import tomllib

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["sleuth.docs"]
    docs = (ROOT / "docs").resolve()
    linked = {(page.parent / t.split("#", 1)[0]).resolve().relative_to(docs).as_posix()
              for page in PAGES[1:] for t in relative_links(page.read_text(encoding="utf-8"))}
    assert linked, "no links found"
    unshipped = sorted(p for p in linked if not any(fnmatch.fnmatch(p, pat) for pat in patterns))
    assert not unshipped, f"linked but not package data of sleuth.docs: {unshipped}"
