"""Kernels written once in the plain-Python subset numba compiles, loaded as Python or compiled.

A game declares each of its kernels once, as a :class:`Kernel` in its ``Game`` (``kernels``): the module, the
functions numba compiles, the environment switch that turns it off (``SLEUTH_CLUE_KERNEL=numpy``: the plain
code runs, which tests use to compare both), and every call site asks that object whether it is
:meth:`~Kernel.available` (numba installed, not switched off: nothing loaded), :meth:`~Kernel.loaded` (this
process asked for it already) or for the compiled module (:meth:`~Kernel.load`, None where unavailable).

:func:`load_kernel` imports a kernel module a second time (a private copy) and, when ``compiled``, replaces
the named functions of that copy with numba dispatchers, so that calls between them (the copy's globals) run
compiled; the plain module stays as it is (the reference, and the fallback without numba).  The compiled
code is kept in :func:`kernel_cache_dir` when that folder is safe to use, so that only the first process after
an install or an upgrade pays the compilation; numba's cache is keyed by the kernel file's contents and time
stamp, the numba version and the argument types.  Kernels must not recurse (numba cannot cache a recursive
function: loading it crashes the process).

Compiling takes seconds (5-20 s a game, once per install and machine): when numba starts compiling a kernel of
this process and standard error is a terminal, one line there says so (:func:`watch_compiles`), and
``sleuth cache compile`` (:func:`compile_all`) compiles every game's kernels ahead of time, each game's
``kernels`` routine running the bundled work that needs them.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any


def kernel_cache_dir() -> Path | None:
    """``numba`` in sleuth's cache folder (:mod:`sleuth.cache`), private to the user (mode 700).  None when
    the cache is off (``SLEUTH_NO_CACHE=1``), or the folder cannot be made, or it or the cache folder holding
    it is a link, belongs to another user or is writable by others: numba's cache files are pickles, loaded
    only from a folder nobody else can write."""
    from . import cache

    if not cache.enabled():
        return None
    path = cache.root() / "numba"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        return path if all(_private(p.lstat()) for p in (path, path.parent)) else None
    except OSError:
        return None


def _private(st: os.stat_result) -> bool:
    """A real folder of this user that nobody else may write to (so nobody can swap what it holds)."""
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return stat.S_ISDIR(st.st_mode) and mine and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _stamp(modules: Sequence[str]) -> str | None:
    """What the compiled code of the kernel ``modules`` depends on: their files' and numba's sizes and time
    stamps; None when one is not installed."""
    parts = []
    for name in (*modules, "numba"):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            return None
        try:
            st = os.stat(spec.origin)
        except OSError:
            return None
        parts.append(f"{spec.origin}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


@contextlib.contextmanager
def compile_lock(name: str, sources: Sequence[str] = ()) -> Iterator[None]:
    """Held while a process loads (or compiles, the first time) the kernels ``name``: processes sharing a kernel
    cache (the workers of one machine) compile them once, the others wait and then load them from the cache.
    With ``sources`` (the kernel modules), once a process has loaded them under the lock for these sources
    (files and numba unchanged: a marker in the cache says so), the others load them without waiting for each
    other.  Does nothing without a safe cache folder or where files cannot be locked (Windows)."""
    where = kernel_cache_dir()
    try:
        import fcntl
    except ImportError:
        where = None
    if where is None:
        yield
        return
    stamp = _stamp(sources) if sources else None
    marker = where / f"{name}.ready"
    try:
        ready = stamp is not None and marker.read_bytes() == stamp.encode()
    except OSError:
        ready = False
    if ready:
        yield
        return
    try:
        handle = open(where / f"{name}.lock", "ab")  # noqa: SIM115 - closed below
    except OSError:
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
            if stamp is not None:
                with contextlib.suppress(OSError):
                    part = where / f"{name}.ready.{os.getpid()}"
                    part.write_bytes(stamp.encode())
                    os.replace(part, marker)
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _register_cache(kernel_file: str) -> bool:
    """Point numba's cache for ``kernel_file`` (and no other file) at :func:`kernel_cache_dir`; False when
    there is no safe folder or this numba has no cache locators to extend (then nothing is cached)."""
    where = kernel_cache_dir()
    try:
        from numba.core import caching
    except ImportError:
        return False
    locators = getattr(getattr(caching, "CacheImpl", None), "_locator_classes", None)
    base = getattr(caching, "UserProvidedCacheLocator", None)
    if where is None or not isinstance(locators, list) or base is None:
        return False
    target = os.path.abspath(kernel_file)
    name = f"SleuthCacheLocator_{abs(hash(target))}"

    def init(self: Any, py_func: Any, py_file: str) -> None:
        base.__init__(self, py_func, py_file)
        self._cache_path = str(where / self.get_suitable_cache_subpath(py_file))

    def from_function(cls: Any, py_func: Any, py_file: str) -> Any:
        if os.path.abspath(py_file) != target:
            return None
        return super(base, cls).from_function(py_func, py_file)  # the mixin's: skip numba's CACHE_DIR test

    locator = type(name, (base,), {"__init__": init, "from_function": classmethod(from_function),
                                   "__doc__": "numba's user-provided locator, for one kernel file only."})
    locators[:] = [c for c in locators if c.__name__ != name]
    locators.insert(0, locator)
    return True


def load_kernel(module_name: str, names: Sequence[str], compiled: bool, internal: Sequence[str] = (),
                inline: Sequence[str] = ()) -> ModuleType:
    """A fresh copy of the kernel module ``module_name``; with ``compiled``, its functions ``names`` compiled
    by numba (cached, see the module docstring), never with the wrapper that would let C call them (unused).
    The functions ``internal`` (among ``names``) are compiled without the wrapper that lets Python call them
    either (callable from the other kernel functions only; each wrapper costs numba about 0.05 s more to
    compile); the functions ``inline`` (internal too) are inlined into their callers by numba (no call at
    run time).  Raises ImportError when numba (or the module) is missing."""
    spec = importlib.util.find_spec(module_name)
    if spec is None or spec.loader is None or spec.origin is None:
        raise ImportError(f"the kernel {module_name} is not installed", name=module_name)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    if compiled:
        import numba

        watch_compiles(spec.origin)
        cache = _register_cache(spec.origin)
        for name in names:
            wrappers: dict[str, Any] = {"no_cfunc_wrapper": True, "no_cpython_wrapper": name in internal}
            if name in inline:
                wrappers["inline"] = "always"
            setattr(mod, name, numba.njit(getattr(mod, name), cache=cache, **wrappers))
    return mod


# -- the kernel object: one declaration, one policy ------------------------------------------------------

OFF = ("numpy", "python")  # values of a kernel's switch that turn it off (the plain code runs)
_tried: set[str] = set()  # the kernel modules this process asked for (loaded, or found unavailable)
_loaded: dict[str, ModuleType | None] = {}  # kernel module -> its compiled copy (None: numba is missing)
_plain: dict[str, ModuleType] = {}  # kernel module -> its plain-Python copy


@functools.lru_cache(maxsize=1)
def numba_installed() -> bool:
    """Whether numba can be imported (found, not imported: importing it takes about 0.5 s); asked once a process
    (a split pass asks at each step)."""
    return importlib.util.find_spec("numba") is not None


@dataclass(eq=False)
class Kernel:
    """One compiled kernel a game declares (``Game.kernels``): the ``module`` holding it, the ``functions``
    numba compiles (:func:`load_kernel`; ``internal`` ones get no Python wrapper, ``inline`` ones are inlined),
    and the environment ``switch`` that turns it off (``numpy`` or ``python``: the plain code runs).  A module
    that compiles itself when imported (its own ``numba.njit``) declares ``self_compiled``.  What this process
    did with it (asked, loaded) is kept per module, once for every object naming it."""

    module: str
    functions: tuple[str, ...] = ()
    switch: str = ""
    summary: str = ""
    internal: tuple[str, ...] = ()
    inline: tuple[str, ...] = ()
    self_compiled: bool = False

    def switched_off(self) -> bool:
        """Whether its switch says to run the plain code (read at each call: a test may set it)."""
        return bool(self.switch) and os.environ.get(self.switch, "").strip().lower() in OFF

    def available(self) -> bool:
        """Whether :meth:`load` may give the compiled kernel (numba installed, not switched off), without loading
        it: importing numba and loading a kernel take 0.4-0.9 s, more than many answers need."""
        return not self.switched_off() and numba_installed()

    def loaded(self) -> bool:
        """Whether this process has asked for the compiled kernel already (:meth:`load`, whatever it answered)."""
        return self.module in _tried

    def load(self, *, switch: bool = True) -> ModuleType | None:
        """The compiled kernel (loaded once per process; compiled where the cache lacks it), or None without
        numba or, unless ``switch`` is False (tests comparing both), where its switch turns it off."""
        _tried.add(self.module)
        if switch and self.switched_off():
            return None
        if self.module not in _loaded:
            try:
                _loaded[self.module] = importlib.import_module(self.module) if self.self_compiled else \
                    load_kernel(self.module, self.functions, True, self.internal, self.inline)
            except ImportError as exc:   # numba missing, or one that does not import here: the plain code runs
                if exc.name == self.module:
                    raise   # the kernel itself is missing: a bug, not a machine without numba
                _loaded[self.module] = None
        return _loaded[self.module]

    def plain(self) -> ModuleType:
        """The kernel as plain Python (the reference, and the code that runs without numba), loaded once."""
        if self.module not in _plain:
            _plain[self.module] = load_kernel(self.module, self.functions, False)
        return _plain[self.module]

    def status(self) -> str:
        """What :meth:`load` gives in this environment, in words (``sleuth games GAME``)."""
        if self.switched_off():
            return f"off ({self.switch}={os.environ.get(self.switch, '').strip()}: the plain code runs)"
        if not numba_installed():
            return "numba is not installed: the plain code runs"
        return "compiled with numba" + (f" ({self.switch}=numpy runs the plain code)" if self.switch else "")

    @contextlib.contextmanager
    def fresh(self) -> Iterator[None]:
        """Within the block, as in a process that has not asked for this kernel yet (tests of when it loads)."""
        asked = self.module in _tried
        _tried.discard(self.module)
        try:
            yield
        finally:
            (_tried.add if asked else _tried.discard)(self.module)


# -- compiling: the notice, and ahead of time -----------------------------------------------------------

_kernel_files: set[str] = set()  # the kernel files of this process (absolute paths)
_compiled: list[str] = []  # the kernel functions numba compiled in this process (not loaded from the cache)
_listening: list[bool] = []
_announce = [True]  # off while ``sleuth cache compile`` runs (it says what it compiles itself)


def watch_compiles(kernel_file: str) -> None:
    """Count numba's compilations of the functions of ``kernel_file`` (:func:`compiled_count`) and, at the first
    one in this process, write one line on standard error where it is a terminal: a first run after an install
    waits seconds for the compiler, and says why.  Loading from the cache is neither counted nor announced."""
    from numba.core import event

    _kernel_files.add(os.path.abspath(kernel_file))
    if _listening:
        return

    class _Watch(event.Listener):
        def on_start(self, ev: Any) -> None:
            code = getattr(getattr(ev.data.get("dispatcher"), "py_func", None), "__code__", None)
            if code is None or os.path.abspath(code.co_filename) not in _kernel_files:
                return
            if not _compiled and _announce[0] and sys.stderr is not None and sys.stderr.isatty():
                game = Path(code.co_filename).parent.name
                print(f"sleuth: compiling {game}'s kernels for this machine, once after an install or an upgrade "
                      "(5-20 s; `sleuth cache compile` does it ahead of time)", file=sys.stderr, flush=True)
            _compiled.append(code.co_name)

        def on_end(self, ev: Any) -> None:
            pass

    event.register("numba:compile", _Watch())  # type: ignore[no-untyped-call]
    _listening.append(True)


def compiled_count() -> int:
    """How many kernel functions numba compiled in this process so far (cache misses)."""
    return len(_compiled)


@dataclass(frozen=True)
class Compiled:
    """What ``sleuth cache compile`` did for one game: ``compiled`` functions (0: all loaded from the cache), or
    the ``error`` that stopped its routine (one line)."""

    game: str
    compiled: int
    seconds: float
    error: str | None = None


def compile_all(routines: Sequence[tuple[str, Callable[[], object]]]) -> Iterator[Compiled]:
    """Run each game's ``kernels`` routine (which loads, and where the cache lacks them compiles, its kernels on
    bundled work), one after the other in this process; what each did, as each ends."""
    _announce[0] = False
    try:
        for game, routine in routines:
            before, start = compiled_count(), time.perf_counter()
            error = None
            try:
                routine()
            except Exception as exc:  # numba's compiler, a cache folder gone...: that game's line says so
                error = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
            yield Compiled(game, compiled_count() - before, time.perf_counter() - start, error)
    finally:
        _announce[0] = True
