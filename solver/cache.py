"""The on-disk cache of derived data (normalised word lists, feedback matrices).

- Location: ``$SLEUTH_CACHE`` if set, else the platform's user cache folder (platformdirs), ``sleuth``.
- ``SLEUTH_NO_CACHE=1`` turns it off; a read-only or full folder turns it off for the run, with a note on stderr.
- Size cap: ``$SLEUTH_CACHE_MAX`` (bytes, or with a suffix: ``500M``, ``4G``; default 4G).  After each write the
  least recently used entries are removed until the total fits.  Reading an entry marks it used.
- Every entry is written atomically (a temporary file, then a rename) with a SHA-256 checksum beside it; an entry
  whose checksum is missing or wrong (a truncated or corrupted file) is removed and rebuilt, never read as an answer.
  An interrupted write (Ctrl-C, SIGTERM) leaves only a temporary file, which is never read and is swept later.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import limits

DEFAULT_MAX_BYTES = 4 * 2**30
_SUM = ".sha256"
_TMP = ".tmp-"
_disabled_reason: str | None = None


def root() -> Path:
    env = os.environ.get("SLEUTH_CACHE")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("sleuth", appauthor=False))


def enabled() -> bool:
    return _disabled_reason is None and os.environ.get("SLEUTH_NO_CACHE", "") in ("", "0")


def max_bytes() -> int:
    """The size cap from ``$SLEUTH_CACHE_MAX`` (a bad value is reported by ``sleuth cache info``, not fatal)."""
    text = os.environ.get("SLEUTH_CACHE_MAX", "")
    return parse_size(text) if text else DEFAULT_MAX_BYTES


def parse_size(text: str) -> int:
    """``"4G"`` -> 4 GiB; ``"500M"``; ``"1000"`` bytes.  ValueError on anything else."""
    value = limits.parse_size(text)
    if value is None or value < 0:
        raise ValueError(f"SLEUTH_CACHE_MAX={text!r} is not a size (allowed: bytes, or a number with K, M, G or T)")
    return value


def _disable(reason: str) -> None:
    global _disabled_reason
    if _disabled_reason is None:
        _disabled_reason = reason
        print(f"sleuth: note: cache turned off for this run ({reason})", file=sys.stderr)


def _digest(data: bytes | memoryview) -> str:
    return hashlib.sha256(data).hexdigest()


def _entries(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return [p for p in folder.rglob("*") if p.is_file() and not p.name.endswith(_SUM) and _TMP not in p.name]


def _atomic_write(path: Path, write: Callable[[io.BufferedWriter], object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + _TMP, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _remove(path: Path) -> None:
    for p in (path, path.with_name(path.name + _SUM)):
        with contextlib.suppress(OSError):
            p.unlink()


def _verified(path: Path, payload: bytes | memoryview) -> bool:
    try:
        want = path.with_name(path.name + _SUM).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    return want == _digest(payload)


def _touch(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.utime(path)


def read_bytes(name: str) -> bytes | None:
    """The entry ``name`` (a relative path such as ``motus/words-x.txt``), or None if absent or damaged."""
    if not enabled():
        return None
    path = root() / name
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not _verified(path, data):
        _remove(path)
        return None
    _touch(path)
    return data


def write_bytes(name: str, data: bytes) -> None:
    _store(name, lambda fh: fh.write(data), _digest(data))


def load_array(name: str) -> np.ndarray | None:
    """A cached numpy array, checked against its checksum (no pickles are ever loaded)."""
    if not enabled():
        return None
    path = root() / name
    try:
        array: np.ndarray = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        if path.exists():
            _remove(path)
        return None
    if not _verified(path, np.ascontiguousarray(array).data.cast("B")):
        _remove(path)
        return None
    _touch(path)
    return array


def save_array(name: str, array: np.ndarray) -> None:
    array = np.ascontiguousarray(array)
    _store(name, lambda fh: np.save(fh, array, allow_pickle=False), _digest(array.data.cast("B")))


def _store(name: str, write: Callable[[io.BufferedWriter], object], digest: str) -> None:
    if not enabled():
        return
    path = root() / name
    try:
        _atomic_write(path, write)
        _atomic_write(path.with_name(path.name + _SUM), lambda fh: fh.write(digest.encode("ascii")))
    except OSError as exc:
        _remove(path)
        _disable(f"cannot write to {root()}: {exc.strerror or exc}")
        return
    evict(keep=path)


def evict(*, keep: Path | None = None, limit: int | None = None) -> int:
    """Remove least recently used entries until the cache fits ``limit`` (default: the cap); bytes freed."""
    cap = max_bytes() if limit is None else limit
    _sweep_temporary(root())
    entries = _entries(root())
    sizes = {p: _size(p) for p in entries}
    total = sum(sizes.values())
    freed = 0
    for p in sorted(entries, key=_mtime):
        if total <= cap:
            break
        if p == keep:
            continue
        _remove(p)
        total -= sizes[p]
        freed += sizes[p]
    return freed


STALE_SECONDS = 3600  # a temporary file this old was left by an interrupted write (a live one is seconds old)


def _sweep_temporary(folder: Path) -> None:
    if not folder.is_dir():
        return
    now = time.time()
    for p in folder.rglob(f"*{_TMP}*"):
        with contextlib.suppress(OSError):
            if now - p.stat().st_mtime > STALE_SECONDS:
                p.unlink()


def _size(p: Path) -> int:
    try:
        return p.stat().st_size + (p.with_name(p.name + _SUM).stat().st_size
                                   if p.with_name(p.name + _SUM).exists() else 0)
    except OSError:
        return 0


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime
    except OSError:
        return 0.0


@dataclass(frozen=True)
class CacheInfo:
    path: Path
    entries: int
    size: int
    limit: int
    enabled: bool


def info() -> CacheInfo:
    entries = _entries(root())
    return CacheInfo(root(), len(entries), sum(map(_size, entries)), max_bytes(), enabled())


def clear() -> int:
    """Remove every entry (and stale temporary files); bytes freed."""
    folder = root()
    freed = 0
    if folder.is_dir():
        for p in folder.rglob("*"):
            if p.is_file():
                freed += p.stat().st_size
                p.unlink()
    return freed


def human(n: int) -> str:
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"
