"""A Dask cluster started the ordinary way on 127.0.0.1: ``dask scheduler`` and ``dask worker ADDRESS --nworkers N
--nthreads 1`` (with the nanny) as separate processes, always torn down (used by the tests and the benchmarks)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """End ``proc`` and every process it started (its own session): SIGTERM, then SIGKILL after 10 s."""
    for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(wait)
            break
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError):  # the nanny's worker processes, if any outlived it
        os.killpg(proc.pid, signal.SIGKILL)


@contextlib.contextmanager
def external_cluster(workers: int = 2, env: Mapping[str, str] | None = None, timeout: float = 120.0
                     ) -> Iterator[str]:
    """The address of a scheduler with ``workers`` single-threaded worker processes (each behind a nanny),
    all started as commands; ``env`` is added to the workers' environment."""
    from distributed import Client

    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="sleuth-cluster-") as folder:
        info = Path(folder) / "scheduler.json"
        log = open(Path(folder) / "log.txt", "wb")  # noqa: SIM115 - closed below
        dask = [sys.executable, "-m", "dask"]
        try:
            procs.append(subprocess.Popen([*dask, "scheduler", "--host", "127.0.0.1", "--port", "0",
                                           "--dashboard-address", "127.0.0.1:0", "--scheduler-file", str(info)],
                                          stdout=log, stderr=log, start_new_session=True, cwd=folder))
            deadline = time.monotonic() + timeout
            while not info.exists() or not info.read_text().strip().endswith("}"):
                if procs[0].poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the scheduler did not start: {_tail(folder)}")
                time.sleep(0.2)
            address = json.loads(info.read_text())["address"]
            procs.append(subprocess.Popen([*dask, "worker", address, "--nworkers", str(workers), "--nthreads", "1",
                                           "--host", "127.0.0.1", "--dashboard-address", "127.0.0.1:0"],
                                          stdout=log, stderr=log, start_new_session=True, cwd=folder,
                                          env={**os.environ, **(env or {})}))
            with Client(address, timeout=timeout) as client:
                client.wait_for_workers(workers, timeout=max(1.0, deadline - time.monotonic()))
            yield address
        finally:
            for proc in reversed(procs):
                _stop(proc)
            log.close()


@contextlib.contextmanager
def joining_worker(address: str, folder: str, env: Mapping[str, str] | None = None) -> Iterator[None]:
    """One more single-threaded worker (behind its nanny) joining the scheduler at ``address``, started in
    ``folder`` as a command with ``env`` added; stopped when the block ends."""
    with open(Path(folder) / "joining-worker.txt", "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--nthreads", "1", "--host",
                                 "127.0.0.1", "--dashboard-address", "127.0.0.1:0"], stdout=log, stderr=log,
                                start_new_session=True, cwd=folder, env={**os.environ, **(env or {})})
        try:
            yield
        finally:
            _stop(proc)


def _tail(folder: str) -> str:
    text = (Path(folder) / "log.txt").read_text(errors="replace")
    return " | ".join(text.strip().splitlines()[-3:])


def fake_version_env(folder: str, version: str) -> dict[str, str]:
    """The environment of a worker whose ``sleuth.__version__`` is ``version``: a ``sitecustomize`` in
    ``folder`` sets it as the worker process starts (the sleuth installed is unchanged)."""
    Path(folder, "sitecustomize.py").write_text(f"import sleuth\nsleuth.__version__ = {version!r}\n")
    return {"PYTHONPATH": os.pathsep.join(p for p in (folder, os.environ.get("PYTHONPATH", "")) if p)}
