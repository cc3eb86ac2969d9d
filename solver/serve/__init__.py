"""The table companion (``sleuth serve``): a local web page over the same API the CLI uses.

Needs the ``serve`` extra (``pip install 'sleuth[serve]'``): Starlette and Uvicorn for HTTP, tomli-w to save
the tables (the games in play) as the TOML puzzle files the CLI reads.  See docs/companion.md.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import sys
from pathlib import Path
from typing import Any

from ..errors import PuzzleError, SleuthError

INSTALL = "sleuth serve needs the 'serve' extra: pip install 'sleuth[serve]'"
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "ip6-localhost"}


def missing_extra() -> str | None:
    """The one line telling how to install the extra, or None when it is installed."""
    import importlib.util

    for module in ("starlette", "uvicorn", "tomli_w", "segno"):
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
    """The table to open for ``sleuth serve FILE``: a saved table of the folder by name or path, else a copy of FILE
    imported into the folder (the user's file is never written).  A file it names (a word list) must be in the
    games folder, as the server will read it from there only."""
    from ..files import named_files_in, read_document
    from ..loading import load_puzzle
    from .store import NAME, SUFFIX, Store

    assert isinstance(store, Store)
    path = Path(file)
    if NAME.match(file) and store.exists(file):
        return file
    with named_files_in(store.folder):
        if path.suffix == SUFFIX and path.resolve().parent == store.folder and NAME.match(path.stem):
            load_puzzle(str(path))
            return path.stem
        load_puzzle(file)  # any error: the CLI's own message, exit 2
        data = read_document(file)
        return store.create(data, store.unused_name(path.stem if not file.startswith("example:") else
                                                    file.rsplit("/", 1)[-1]))


def banner(host: str, port: int, path: str, token: str | None, folder: Path, *, draw_qr: bool
           ) -> tuple[list[str], list[str]]:
    """The URLs to print and the lines that say them: on loopback one URL; on any other host one per address of
    this machine a phone can open (from the network interfaces; never ``0.0.0.0``), each with the token, and
    a QR code of each of the first three (``draw_qr``: the terminal can show the block characters)."""
    from .share import addresses, qr_terminal, url

    tail = f"  (tables in {folder}; Ctrl-C stops)"
    if is_loopback(host):
        link = url(host.strip("[]"), port, path, token)
        return [link], [f"sleuth companion: {link}{tail}"]
    found = addresses(host)
    if not found:
        link = url("::1" if ":" in host else "127.0.0.1", port, path, token)
        return [link], [f"sleuth companion: {link}{tail}",
                        f"sleuth companion: no network address of this machine serves {host} "
                        "(a phone cannot reach it; is the network up?)"]
    links = [url(a, port, path, token) for a in found]
    lines = [f"sleuth companion: {link}" + (tail if i == 0 else "") for i, link in enumerate(links)]
    for link in links[:3]:
        if draw_qr:
            lines += ["", f"scan to open {link}:", qr_terminal(link)]
    if not draw_qr:
        lines.append("(no QR code here: this terminal cannot show it; the page's Share button shows it)")
    return links, lines


def serve(file: str | None, host: str, port: int | None, open_browser: bool) -> int:
    """Run the companion until interrupted.  Prints its URL(s) only once the server accepts connections and the
    background answers are warm (the first one answers as fast as the later ones)."""
    line = missing_extra()
    if line:
        print(f"sleuth: {line}", file=sys.stderr)
        return 2
    import asyncio

    import uvicorn

    from .app import create_app
    from .jobs import Jobs
    from .share import can_draw
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
    hosts = ({"localhost", "127.0.0.1", "::1", host.lower()} if loopback else set())
    links, lines = banner(host, port, f"/g/{start}" if start else "/", token, store.folder, draw_qr=can_draw())
    jobs = Jobs()  # its fork server starts warming up now, while the server starts
    app = create_app(store, token=token, hosts=hosts, start=start, share=[] if loopback else links, jobs=jobs)

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.should_exit or not self.started:
                return
            await asyncio.to_thread(jobs.wait_warm)
            print("\n".join(lines), flush=True)
            if open_browser:
                import webbrowser

                webbrowser.open(links[0])

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            limit_concurrency=64, timeout_keep_alive=5, h11_max_incomplete_event_size=64 * 1024)
    try:
        Server(config).run()
    except OSError as exc:
        raise SleuthError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    return 0
