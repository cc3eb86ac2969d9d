"""Helpers of the companion's tests: a real server on 127.0.0.1 (a free port) in a thread or a process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def thread_server(folder: Path, *, token: str | None = None) -> Iterator[str]:
    """The companion over ``folder`` served by Uvicorn in a thread; yields its base URL."""
    import uvicorn

    from sleuth.serve import free_port
    from sleuth.serve.app import create_app
    from sleuth.serve.store import Store

    port = free_port("127.0.0.1")
    app = create_app(Store(folder), token=token, hosts={"127.0.0.1", "localhost"})
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def process_server(folder: Path, *args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``sleuth serve ARGS`` as a child process on a free port; yields the URL it printed and the process."""
    from sleuth.serve import free_port

    env = {**os.environ, "SLEUTH_GAMES_DIR": str(folder)}
    port = free_port("127.0.0.1")
    proc = subprocess.Popen([sys.executable, "-m", "sleuth", "serve", "--port", str(port), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        match = re.search(r"http://\S+", line)
        assert match, f"no URL printed: {line!r} {proc.stderr.read() if proc.stderr else ''}"
        url = match.group()
        for _ in range(500):
            try:
                urllib.request.urlopen(re.sub(r"/g/[^?]*", "/", url), timeout=2).read()
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.02)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()


def call(base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
         ) -> tuple[int, Any]:
    """One HTTP request with a JSON body; the status and the decoded JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            raw = response.read()
            status = response.status
    except urllib.error.HTTPError as exc:
        raw, status = exc.read(), exc.code
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode("utf-8", "replace")
