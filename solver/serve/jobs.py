"""Slow answers (what the others know, advice) computed in a child process: never blocking the sheet,
cancellable at any time (the process is ended), with their elapsed time and limit as progress."""

from __future__ import annotations

import contextlib
import multiprocessing
import secrets
import sys
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

LIMIT_GRACE = 5.0  # seconds past its limit after which a job is ended (the commands stop at it themselves)
MAX_RUNNING = 3  # background computations at once, over all tables (the machine's cores are shared)


def run_command(text: str, name: str, command: str, options: dict[str, Any]) -> dict[str, Any]:
    """``solve``, ``suggest`` or ``review`` on a puzzle's text, as the CLI runs them; the report as JSON (with
    ``text``).  A review takes ``budget`` and ``time-limit`` (``sleuth review --budget --time-limit``)."""
    from ..notes import NOTES
    from ..loading import loads

    NOTES.disabled = True
    puzzle = loads(text, name=name)
    opts = dict(options)
    if command == "suggest":
        report = puzzle.suggest(method=opts.pop("method", None), options=opts)
    elif command == "review":
        report = puzzle.doc.game.review_report(puzzle, {"budget": opts.get("budget"),
                                                        "time-limit": opts.get("time-limit")})
    else:
        report = puzzle.solve(options=opts)
    return {**report.to_json(), "text": report.text}


def _child(conn: Connection, text: str, name: str, command: str, options: dict[str, Any], folder: str | None
           ) -> None:
    from ..errors import SleuthError
    from ..files import named_files_in
    from ..limits import LimitReached

    try:
        with named_files_in(Path(folder)) if folder else contextlib.nullcontext():
            result = run_command(text, name, command, options)
        conn.send({"result": result})
    except (SleuthError, LimitReached) as exc:
        conn.send({"error": str(exc)})
    except Exception as exc:  # reported to the page without the details (a path of the server); the server
        import traceback       # keeps serving, and its terminal gets the traceback

        traceback.print_exc()
        conn.send({"error": f"internal error ({type(exc).__name__}); please report it"})
    finally:
        conn.close()


@dataclass
class Job:
    id: str
    game: str
    command: str
    limit: float
    process: Any
    conn: Connection
    started: float = field(default_factory=time.monotonic)
    state: str = "running"          # running | done | failed | cancelled
    result: dict[str, Any] | None = None
    error: str | None = None
    elapsed: float = 0.0

    def poll(self) -> None:
        if self.state != "running":
            return
        self.elapsed = time.monotonic() - self.started
        try:
            ready = self.conn.poll()
            message = self.conn.recv() if ready else None
        except (EOFError, OSError):
            ready, message = True, None
        if ready:
            if message and "result" in message:
                self.state, self.result = "done", message["result"]
            else:
                self.state = "failed"
                self.error = (message or {}).get("error") or "the computation stopped without an answer"
            self.process.join(5)
        elif not self.process.is_alive():
            self.state, self.error = "failed", "the computation stopped without an answer"
        elif self.elapsed > self.limit + LIMIT_GRACE:  # a command without a time limit of its own (a review)
            self.process.terminate()
            self.process.join(5)
            self.state, self.error = "failed", f"stopped at the limit of {self.limit:g} s"

    def to_json(self) -> dict[str, Any]:
        self.poll()
        return {"id": self.id, "game": self.game, "command": self.command, "state": self.state,
                "elapsed": round(self.elapsed, 1), "limit": self.limit, "result": self.result, "error": self.error}


def _context() -> Any:
    """Where the children come from: a fork server (never a fork of the threaded server itself) that imported
    the games and loaded the compiled kernels once (:mod:`.warm`), so that each answer starts at once instead
    of importing them again (0.3 s, and 0.6-0.9 s more when an answer needs numba); on Linux (elsewhere forks
    of a process that loaded numpy's system libraries are unsafe, as for the executor's local workers: spawned
    children).  The fork server starts here, in the background."""
    if sys.platform != "linux":
        return multiprocessing.get_context("spawn")
    from multiprocessing import forkserver

    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([f"{__package__}.warm"])
    forkserver.ensure_running()  # now, so that it has loaded them before the first answer is asked
    return ctx


class Jobs:
    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._ctx = _context()

    def wait_warm(self, timeout: float = 120.0) -> None:
        """Return once the fork server has run its warm-up (:mod:`.warm`): a child that does nothing is forked
        only after it; at once where children are spawned."""
        if self._ctx.get_start_method() != "forkserver":
            return
        process = self._ctx.Process(target=int, daemon=True)
        process.start()
        process.join(timeout)

    def running(self) -> int:
        for job in self._jobs.values():
            job.poll()
        return sum(job.state == "running" for job in self._jobs.values())

    def start(self, game: str, text: str, command: str, options: dict[str, Any], limit: float,
              folder: Path | None = None) -> Job | None:
        """A new job, or None when :data:`MAX_RUNNING` are already running (``folder``: the only folder a file
        the puzzle names may be read from)."""
        with self._lock:
            if self.running() >= MAX_RUNNING:
                return None
            # a review keeps its own time-limit (checked by the app: at most a job's) or its default
            run = options if command == "review" else {**options, "time-limit": limit}
            parent, child = self._ctx.Pipe(duplex=False)
            process = self._ctx.Process(target=_child, args=(child, text, game, command, run,
                                                              str(folder) if folder else None), daemon=True)
            process.start()
            child.close()
            job = Job(secrets.token_hex(8), game, command, limit, process, parent)
            self._jobs[job.id] = job
            for old in [j for j in self._jobs.values() if j.state != "running"][:-50]:
                del self._jobs[old.id]
            return job

    def get(self, job_id: str) -> Job | None:
        return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self._jobs.get(job_id)
        if job is not None:
            job.poll()
            if job.state == "running":
                job.process.terminate()
                job.process.join(5)
                job.state = "cancelled"
        return job

    def stop_all(self) -> None:
        for job_id in list(self._jobs):
            self.cancel(job_id)
