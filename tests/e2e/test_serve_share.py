"""Phone and laptop on one network: `sleuth serve --host 0.0.0.0` prints one URL per address of this machine
(never 0.0.0.0), each live the moment it is printed, with a QR code in the terminal and on the page that decodes
(by zbar's `zbarimg`, an independent reader) back to the URL."""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import urllib.error
import urllib.request
import warnings
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the 'serve' extra is not installed")
pytest.importorskip("segno", reason="the 'serve' extra is not installed")

with warnings.catch_warnings():  # starlette asks for httpx2, which is not on PyPI's stable track yet
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from sleuth.serve import banner, free_port  # noqa: E402
from sleuth.serve.app import create_app  # noqa: E402
from sleuth.serve.share import addresses, qr_matrix_from_terminal, qr_terminal, reachable  # noqa: E402
from sleuth.serve.store import Store  # noqa: E402


def png(matrix: list[list[int]], scale: int = 6) -> bytes:
    """A grey-scale PNG of a QR matrix (1: dark), ``scale`` pixels a module (written here, for the decoder)."""
    rows = b"".join(b"\x00" + bytes(0 if v else 255 for v in row for _ in range(scale))
                    for row in matrix for _ in range(scale))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    width, height = len(matrix[0]) * scale, len(matrix) * scale
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def decode(matrix: list[list[int]], tmp_path: Path) -> str:
    """The text of a QR code, read by zbarimg (Debian's zbar-tools, installed by .ci/setup); where it is
    missing, the matrix is compared with the QR package's own for the text instead (a weaker check)."""
    if shutil.which("zbarimg") is None:
        pytest.skip("zbarimg (zbar-tools) is not installed")
    image = tmp_path / "qr.png"
    image.write_bytes(png(matrix))
    out = subprocess.run(["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(image)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.rstrip("\n")


def svg_matrix(svg: str) -> list[list[int]]:
    """The modules of segno's SVG (``M x y``, then ``m dx dy`` and ``h n`` strokes along the module rows)."""
    size = int(re.search(r'width="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    d = re.findall(r'stroke="#000" d="([^"]+)"', svg)[0]
    matrix = [[0] * size for _ in range(size)]
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:\s(-?[\d.]+))?", d):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for col in range(int(x), int(x + float(a))):
                matrix[int(y)][col] = 1
            x += float(a)
    return matrix


def test_terminal_and_page_qr_codes_decode_to_the_url(tmp_path):
    from sleuth.serve.share import qr_svg

    text = "http://192.168.1.23:8765/g/game-20260101?token=AbCdEfGhIjKlMnOpQrStUvWx"
    assert decode(qr_matrix_from_terminal(qr_terminal(text)), tmp_path) == text
    assert decode(svg_matrix(qr_svg(text)), tmp_path) == text


def test_addresses_never_unspecified_or_loopback():
    for host, version in (("0.0.0.0", 4), ("::", 6)):
        found = addresses(host)
        assert all(reachable(a) and ipaddress.ip_address(a).version == version for a in found)
        for a in found:  # each is an address of this machine: a socket can be bound to it
            with socket.socket(socket.AF_INET6 if ":" in a else socket.AF_INET) as s:
                s.bind((a, 0))
    assert addresses("192.0.2.77") == ["192.0.2.77"] and addresses("127.0.0.1") == []


def test_banner_lines(tmp_path):
    links, lines = banner("127.0.0.1", 8765, "/", None, tmp_path, draw_qr=True)
    assert links == ["http://127.0.0.1:8765/"] and len(lines) == 1 and "0.0.0.0" not in lines[0]
    links, lines = banner("0.0.0.0", 9000, "/g/x", "TOK", tmp_path, draw_qr=False)
    assert all("0.0.0.0" not in line for line in lines)
    if addresses("0.0.0.0"):
        assert links == [f"http://{a}:9000/g/x?token=TOK" for a in addresses("0.0.0.0")]
        assert [line.split()[2] for line in lines if line.startswith("sleuth companion: http")] == links
        assert "this terminal cannot show it" in lines[-1]
    else:
        assert links == ["http://127.0.0.1:9000/g/x?token=TOK"] and "no network address" in lines[1]


@contextmanager
def served(folder: Path, *args: str) -> Iterator[tuple[list[str], subprocess.Popen[str]]]:
    """``sleuth serve ARGS`` as a user starts it; yields the lines it printed up to the first URL and the
    process (the rest of its output is read by the test)."""
    env = {**os.environ, "SLEUTH_GAMES_DIR": str(folder), "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen([sys.executable, "-m", "sleuth", "serve", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8")
    try:
        yield [], proc
    finally:
        proc.kill()
        proc.wait(10)
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()


def fetch(url: str) -> int:
    """One request, no retry: the status (a refused connection is an error of the test)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_lan_urls_are_live_when_printed_and_their_qr_codes_decode(tmp_path, host):
    """Started on 0.0.0.0 (or ::): each URL line names an address of this machine with the token, answers at
    the first connection made right after the line is read, and its terminal QR code decodes to it; the page's
    /api/share gives the same URLs with QR codes that decode to them; without the token: 403."""
    try:
        port = free_port(host)
    except OSError:
        pytest.skip(f"this machine cannot listen on {host}")
    with served(tmp_path / "games", "--host", host, "--port", str(port)) as (_, proc):
        assert proc.stdout is not None
        first = proc.stdout.readline()
        url = re.search(r"http://\S+", first)
        assert url, first + (proc.stderr.read() if proc.stderr else "")
        assert fetch(url.group()) == 200  # at once: printed only once the server accepts connections
        assert "0.0.0.0" not in first and "[::]" not in first
        expected = addresses(host)
        if not expected:
            assert ("[::1]" if ":" in host else "127.0.0.1") in first
            assert "no network address" in proc.stdout.readline()
            return
        urls = [url.group()]
        for _ in expected[1:]:
            urls.append(re.search(r"http://\S+", proc.stdout.readline()).group())  # type: ignore[union-attr]
        token = re.search(r"token=([\w-]+)", urls[0]).group(1)  # type: ignore[union-attr]
        assert len(token) >= 20
        assert urls == [f"http://{f'[{a}]' if ':' in a else a}:{port}/?token={token}" for a in expected]
        for u in urls:
            assert fetch(u) == 200
            assert fetch(u.split("?")[0] + "api/games") == 403
        for u in urls[:3]:
            assert proc.stdout.readline() == "\n"
            assert proc.stdout.readline() == f"scan to open {u}:\n"
            drawing = [proc.stdout.readline().rstrip("\n")]
            while len(drawing) < (len(drawing[0]) + 1) // 2:  # a square: width modules, two rows a line
                drawing.append(proc.stdout.readline().rstrip("\n"))
            assert decode(qr_matrix_from_terminal("\n".join(drawing)), tmp_path) == u
        with urllib.request.urlopen(urls[0].split("?")[0] + f"api/share?token={token}", timeout=30) as r:
            import json

            share = json.loads(r.read())
        assert [s["url"] for s in share["urls"]] == urls
        for s in share["urls"]:
            assert decode(svg_matrix(s["svg"]), tmp_path) == s["url"]


def test_loopback_url_is_live_when_printed(tmp_path):
    port = free_port("127.0.0.1")
    with served(tmp_path / "games", "--port", str(port)) as (_, proc):
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(f"sleuth companion: http://127.0.0.1:{port}/ ") and "token" not in line
        assert fetch(f"http://127.0.0.1:{port}/api/games") == 200


def test_share_route(tmp_path):
    store = Store(tmp_path / "games")
    r = TestClient(create_app(store, hosts={"testserver"})).get("/api/share").json()
    assert r["urls"] == [] and "--host 0.0.0.0" in r["note"]
    link = "http://192.0.2.9:8765/?token=T"
    client = TestClient(create_app(store, token="T", share=[link]))
    r = client.get("/api/share?token=T").json()
    assert [u["url"] for u in r["urls"]] == [link] and r["urls"][0]["svg"].startswith("<svg")
    r = client.get("/api/share?token=T&path=/g/my-game").json()
    assert [u["url"] for u in r["urls"]] == ["http://192.0.2.9:8765/g/my-game?token=T"]
    for bad in ("/static/app.js", "//evil.example/", "/g/../x", "http://x/"):
        r = client.get("/api/share", params={"token": "T", "path": bad})
        assert r.status_code == 400 and "path" in r.json()["error"]


def test_share_button_shows_the_qr_code_of_this_page(tmp_path):
    """In Chromium at phone width, on a game's page served on 0.0.0.0: the Share button shows each URL of the
    page and its QR code (decoded back by zbarimg), and nothing is fetched from another host."""
    from urllib.parse import unquote

    from sleuth.files import parse_text
    from tests.conftest import PUZZLES
    from tests.helpers.browser import CHROMEDRIVER, CHROMIUM, make_driver, wait

    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    from selenium.webdriver.common.by import By

    if not addresses("0.0.0.0"):
        pytest.skip("this machine has no network address but loopback")
    store = Store(tmp_path / "games")
    store.create(parse_text((PUZZLES / "epistemic" / "cheryl.toml").read_text(), "cheryl.toml"), "cheryl")
    port = free_port("0.0.0.0")
    with served(tmp_path / "games", "--host", "0.0.0.0", "--port", str(port), "cheryl") as (_, proc):
        assert proc.stdout is not None
        url = re.search(r"http://\S+", proc.stdout.readline()).group()  # type: ignore[union-attr]
        driver = make_driver(tmp_path / "profile", 390, 844)
        try:
            driver.get(url)
            wait(driver, lambda d: d.find_element(By.ID, "share").is_displayed(), "the Share button")
            driver.find_element(By.ID, "share").click()
            images = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#share-box img"), "the QR codes")
            captions = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "#share-box figcaption")]
            assert captions[0] == url and all("/g/cheryl?token=" in c for c in captions)
            svg = unquote(images[0].get_attribute("src").split(",", 1)[1])
            assert decode(svg_matrix(svg), tmp_path) == url
            hosts = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
            assert all(h.startswith(url.split("/g/")[0]) or h.startswith("data:") for h in hosts), hosts
        finally:
            driver.quit()
