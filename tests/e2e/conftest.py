"""Fixtures of the end-to-end tests: ``registered``, the toy plug-in game installed for a test the way a package
declares it."""

from __future__ import annotations

import pytest


@pytest.fixture
def registered(tmp_path, monkeypatch):
    """The toy game installed the way a package declares it: an entry_points.txt in a dist-info folder."""
    info = tmp_path / "site" / "three_cards-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "entry_points.txt").write_text("[sleuth.games]\nthree-cards = tests.toygame.game:GAME\n"
                                           "bare-cards = tests.toygame.game:BARE\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
