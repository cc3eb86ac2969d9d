"""The table companion (``sleuth serve``): a local web page over the same API the CLI uses.

Needs the ``serve`` extra (``pip install 'sleuth[serve]'``): Starlette and Uvicorn for HTTP, tomli-w to save
games as the TOML puzzle files the CLI reads.  See docs/companion.md.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import sys
from pathlib import Path

from ..errors import PuzzleError, SleuthError

INSTALL = "sleuth serve needs the 'serve' extra: pip install 'sleuth[serve]'"
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "ip6-localhost"}


def missing_extra() -> str | None:
    """The one line telling how to install the extra, or None when it is installed."""
    import importlib.util

    for module in ("starlette", "uvicorn", "tomli_w"):
        if importlib.util.find_spec(module) is None:
            return INSTALL
    return None


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


DEFAULT_PORT = 8765


def _free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def resume(store: object, file: str) -> str:
    """The game to open for ``sleuth serve FILE``: a game of the folder by name or path, else a copy of FILE
    imported into the folder (the user's file is never written)."""
    from ..files import read_document
    from ..loading import load_puzzle
    from .store import NAME, SUFFIX, Store

    assert isinstance(store, Store)
    path = Path(file)
    if NAME.match(file) and store.exists(file):
        return file
    if path.suffix == SUFFIX and path.resolve().parent == store.folder and NAME.match(path.stem):
        load_puzzle(str(path))
        return path.stem
    load_puzzle(file)  # any error: the CLI's own message, exit 2
    data = read_document(file)
    return store.create(data, store.unused_name(path.stem if not file.startswith("example:") else
                                                file.rsplit("/", 1)[-1]))


def serve(file: str | None, host: str, port: int | None, open_browser: bool) -> int:
    """Run the companion until interrupted; prints one line with the URL."""
    line = missing_extra()
    if line:
        print(f"sleuth: {line}", file=sys.stderr)
        return 2
    import uvicorn

    from .app import create_app
    from .store import Store

    if port is not None and not 0 <= port <= 65535:
        raise PuzzleError(f"{port} is not a port number", place="--port", allowed="0 to 65535 (0: any free port)")
    store = Store()
    start = resume(store, file) if file else None
    loopback = is_loopback(host)
    token = None if loopback else secrets.token_urlsafe(18)
    try:
        port = DEFAULT_PORT if port is None and _free(host, DEFAULT_PORT) else port or free_port(host)
    except OSError as exc:
        raise SleuthError(f"cannot serve on {host}: {exc.strerror or exc}") from None
    shown = f"[{host}]" if ":" in host else host
    hosts = ({"localhost", "127.0.0.1", "::1", host.lower()} if loopback else set())
    url = f"http://{shown}:{port}/" + (f"g/{start}" if start else "") + (f"?token={token}" if token else "")
    app = create_app(store, token=token, hosts=hosts, start=start)
    print(f"sleuth companion: {url}  (games in {store.folder}; Ctrl-C stops)", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            limit_concurrency=64, timeout_keep_alive=5, h11_max_incomplete_event_size=64 * 1024)
    try:
        uvicorn.Server(config).run()
    except OSError as exc:
        raise SleuthError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    return 0

