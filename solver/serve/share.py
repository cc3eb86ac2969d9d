"""How a phone on the same network reaches the companion: the addresses of this machine's network interfaces
(never ``0.0.0.0``, never loopback: a host name may resolve only to loopback), one URL per address, and a QR
code of each, for the terminal and, as SVG generated here, for the page (``GET /api/share``)."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys
from pathlib import Path

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def _ipv4_of_interfaces() -> list[str]:
    """Each interface's IPv4 address (Linux and other systems with ``SIOCGIFADDR``); empty where unsupported."""
    try:
        import fcntl

        names = [name for _, name in socket.if_nameindex()]
    except (ImportError, OSError, AttributeError):
        return []
    out = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            with contextlib.suppress(OSError):
                raw = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
                out.append(socket.inet_ntoa(raw[20:24]))
    return out


def _ipv6_of_interfaces() -> list[str]:
    """Each interface's IPv6 address (Linux: /proc/net/if_inet6)."""
    try:
        lines = Path("/proc/net/if_inet6").read_text(encoding="ascii").splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        hexa = line.split()[0] if line.split() else ""
        with contextlib.suppress(ValueError):
            out.append(str(ipaddress.IPv6Address(bytes.fromhex(hexa))))
    return out


def _fallback() -> list[str]:
    """Where interfaces cannot be listed: the host name's addresses and the address of the default route (a UDP
    socket is "connected" to a documentation address: no packet is sent)."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))
        found.append(str(s.getsockname()[0]))
    return found


def reachable(address: str) -> bool:
    """Whether another machine could open ``address``: not loopback, unspecified, link-local or multicast."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def addresses(host: str) -> list[str]:
    """The addresses a phone can use for a server bound to ``host``: for ``0.0.0.0`` every IPv4 address of this
    machine's interfaces, for ``::`` every IPv6 one (the server's socket is IPv6 only, as asyncio makes it),
    for one address that address, for a name what it resolves to; loopback, link-local and unspecified ones
    left out, duplicates once, in interface order."""
    bare = host.strip("[]")
    try:
        ip = ipaddress.ip_address(bare)
    except ValueError:
        ip = None
    if ip is not None and ip.is_unspecified:
        found = _ipv6_of_interfaces() if ip.version == 6 else _ipv4_of_interfaces() or _fallback()
    elif ip is not None:
        found = [str(ip)]
    else:
        found = []
        with contextlib.suppress(OSError):
            found = [str(info[4][0]) for info in socket.getaddrinfo(bare, None)]
    return list(dict.fromkeys(a for a in found if reachable(a)))


def url(address: str, port: int, path: str = "/", token: str | None = None) -> str:
    shown = f"[{address}]" if ":" in address else address
    return f"http://{shown}:{port}{path}" + (f"?token={token}" if token else "")


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as a standalone SVG document (black on white, a quiet zone of 4 modules, one unit a
    module: the page scales it)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make_qr(text, error="m").save(out, kind="svg", scale=1, border=4, dark="#000", light="#fff",
                                        xmldecl=False, svgns=True, nl=False)
    return out.getvalue().decode("utf-8")


def qr_terminal(text: str) -> str:
    """A QR code of ``text`` for a terminal: two modules a character (▀ ▄ █ and space), dark on light as the
    terminal shows it when its text is dark on a light background; inverted so that it scans either way."""
    import segno

    matrix = [list(row) for row in segno.make_qr(text, error="m").matrix]
    border = 4
    width = len(matrix[0]) + 2 * border
    rows = [[0] * width for _ in range(border)] + [[0] * border + [int(v) for v in r] + [0] * border
                                                   for r in matrix] + [[0] * width for _ in range(border)]
    if len(rows) % 2:
        rows.append([0] * width)
    # a dark module is drawn as the terminal's background, a light one as a block (light text on dark
    # terminals, the usual case; scanners read both polarities)
    chars = {(0, 0): "█", (0, 1): "▀", (1, 0): "▄", (1, 1): " "}
    return "\n".join("".join(chars[(top, bottom)] for top, bottom in zip(rows[i], rows[i + 1], strict=True))
                     for i in range(0, len(rows), 2))


def qr_matrix_from_terminal(drawing: str) -> list[list[int]]:
    """The modules (1: dark) of a terminal drawing made by :func:`qr_terminal`, quiet zone included (tests)."""
    top = {"█": 0, "▀": 0, "▄": 1, " ": 1}
    bottom = {"█": 0, "▀": 1, "▄": 0, " ": 1}
    rows: list[list[int]] = []
    for line in drawing.splitlines():
        rows.append([top[c] for c in line])
        rows.append([bottom[c] for c in line])
    return rows


def can_draw(stream: object = None) -> bool:
    """Whether ``stream`` (default stdout) takes the block characters of :func:`qr_terminal`."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or ""
    try:
        "█▀▄".encode(encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True
