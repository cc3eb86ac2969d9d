"""Benchmark of the table companion's start: ``sleuth serve`` started as a user starts it, then at once (as soon
as it printed its URL) a game opened and two background answers asked in a row (`solve --others` on the
bundled 6-player Clue game, then the same again).  Prints, over the rounds, the medians of: the time to the
printed URL, whether the URL answered at once (connection attempts before the first answer), the first
background answer and the second one, from the request to the answer.

    python tests/bench/bench_serve_start.py [--rounds 5] [--example clue/six-players]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.serve_util import call  # noqa: E402


def job_seconds(base: str, game: str) -> float:
    t0 = time.perf_counter()
    status, job = call(base, "POST", f"/api/games/{game}/jobs", {"command": "solve", "options": {"others": True}})
    assert status == 202, job
    while True:
        status, state = call(base, "GET", f"/api/jobs/{job['id']}")
        if state["state"] != "running":
            assert state["state"] == "done", state
            return time.perf_counter() - t0
        time.sleep(0.01)


def one_round(example: str) -> tuple[float, int, float, float]:
    from sleuth.serve import free_port

    with tempfile.TemporaryDirectory() as folder:
        port = free_port("127.0.0.1")
        env = {**os.environ, "SLEUTH_GAMES_DIR": folder}
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "sleuth", "serve", "--port", str(port)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            to_url = time.perf_counter() - t0
            match = re.search(r"http://\S+", line)
            assert match, line
            base = match.group().rstrip("/")
            attempts = 0
            while True:
                attempts += 1
                try:
                    urllib.request.urlopen(base + "/api/games", timeout=5).read()
                    break
                except (urllib.error.URLError, ConnectionError):
                    time.sleep(0.005)
            status, game = call(base, "POST", "/api/games", {"example": example})
            assert status == 201, game
            first = job_seconds(base, game["name"])
            second = job_seconds(base, game["name"])
            return to_url, attempts, first, second
        finally:
            proc.kill()
            proc.wait(10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--example", default="clue/six-players")
    args = parser.parse_args(argv)
    rows = [one_round(args.example) for _ in range(args.rounds)]
    load = os.getloadavg()
    print(f"bench_serve_start: {args.rounds} starts of sleuth serve, background answer: solve --others on "
          f"{args.example}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for i, label in enumerate(("to the printed URL (s)", "connection attempts after the URL", "first answer (s)",
                               "second answer (s)")):
        values = [r[i] for r in rows]
        print(f"{label:<36} median {statistics.median(values):7.3f}   all: "
              + " ".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in values))
    first, second = statistics.median(r[2] for r in rows), statistics.median(r[3] for r in rows)
    print(f"first / second answer: x{first / second:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
