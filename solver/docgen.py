"""Fill the generated parts of docs/ from the games' declarations: key tables, option tables, complete examples.

A page marks each generated part with a pair of comments, e.g. ``<!-- keys:clue -->`` ... ``<!-- /keys:clue -->``
(also ``options:GAME``, ``methods:GAME`` and ``example:GAME``).  ``python -m sleuth.docgen DOCS_FOLDER``
rewrites them in place; a test checks that the pages in the repository are up to date.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .derive import markdown_methods
from .registry import find_game
from .resources import find_example
from .spec import markdown_keys, markdown_options

_BLOCK = re.compile(r"(<!-- (keys|options|methods|example):([a-z-]+) -->\n)(.*?)(<!-- /\2:\3 -->)", re.S)


def _content(kind: str, game: str) -> str:
    spec = find_game(game)
    if kind == "keys":
        return markdown_keys(spec.all_keys())
    if kind == "options":
        return markdown_options(spec.all_options())
    if kind == "methods":
        return markdown_methods(spec.methods)
    example = find_example(spec.template)
    return (f"`sleuth new {spec.name}` prints this file (the bundled `example:{example.ref}`):\n\n"
            f"```toml\n{example.text().rstrip()}\n```")


def render(text: str) -> str:
    """The page with every generated part brought up to date."""
    return _BLOCK.sub(lambda m: f"{m.group(1)}{_content(m.group(2), m.group(3))}\n{m.group(5)}", text)


def main(argv: list[str] | None = None) -> int:
    folder = Path((argv or sys.argv[1:] or ["docs"])[0])
    for page in sorted(folder.glob("*.md")):
        old = page.read_text(encoding="utf-8")
        new = render(old)
        if new != old:
            page.write_text(new, encoding="utf-8")
            print(f"updated {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
