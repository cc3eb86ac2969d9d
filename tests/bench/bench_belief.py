"""Belief in the symbolic engine: private events, explicit (``--method table``) against symbolic.

The family ("whisper"): n children, the first three muddy (all of them when n < 3); the father whispers "at
least one of you is muddy" to child 1 only (a private event: the others believe nothing was said, so they get
observation laws over a doubled vocabulary), then twice, publicly, "nobody knows whether they are muddy"
(which removes the told world where child 1 alone is muddy).  Checked at the actual world: child 1's
knowledge of its state, and child 2's belief that child 1 does not know.  The answer printed is (worlds
left, the model's size, the two checks); the symbolic and the explicit answers must agree where both run.
Also Sally-Anne (the bundled file, every claim).

Each cell is the median CPU time over ``--runs`` child processes (CPU, not wall: the machine is shared),
measured around the work (imports excluded), with the child's peak resident memory.
Run: ``python tests/bench/bench_belief.py [--runs 3] [--sizes 8,12,16,40,100]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

EXPLICIT_MAX = 16   # 2^17 worlds in the explicit model; past it the table takes minutes


def whisper(n: int) -> dict[str, Any]:
    ms = [f"m{i}" for i in range(1, n + 1)]
    nobody = " and ".join(f"not knows(c{i}, m{i})" for i in range(1, n + 1))
    return {"game": "epistemic", "variables": {m: [0, 1] for m in ms},
            "agents": {f"c{i}": [m for m in ms if m != f"m{i}"] for i in range(1, n + 1)},
            "actual": {m: int(i < 3) for i, m in enumerate(ms)},
            "event": [{"kind": "private", "to": ["c1"], "formula": " + ".join(ms) + " >= 1"},
                      {"formula": nobody, "repeat": 2}]}


def run_one(family: str, size: int, method: str) -> dict[str, Any]:
    from sleuth.formula import parse
    from sleuth.models.epistemic import classic
    from sleuth.loading import load_data, load_puzzle

    load_data(classic.what_sum(3), file="<warm-up>").solve(options={"method": method})   # imports: not timed
    t = time.process_time()
    answer: Any
    if family == "sally-anne":
        puzzle = load_puzzle("example:epistemic/sally-anne")
        answer = [c.verdict.value for c in puzzle.verify(puzzle.claims, options={"method": method})]
    else:
        state = load_data(whisper(size), file="<bench>").final_state(method=method)
        answer = [state.count, state.size] + ([state.at_point(parse(f)) for f in (
            "knows(c1, m1)", "believes(c2, not knows(c1, m1))")] if state.point is not None else [])
    return {"answer": answer, "seconds": time.process_time() - t,
            "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def measure(family: str, size: int, method: str, runs: int, timeout: float) -> dict[str, Any]:
    got = []
    for _ in range(runs):
        try:
            out = subprocess.run([sys.executable, __file__, "--one", family, str(size), method], capture_output=True,
                                 text=True, timeout=timeout, env={**os.environ, "PYTHONHASHSEED": "0"})
        except subprocess.TimeoutExpired:
            return {"status": f"> {timeout:g} s"}
        if out.returncode != 0:
            return {"status": "failed: " + (out.stderr.strip().splitlines() or ["?"])[-1][:80]}
        got.append(json.loads(out.stdout))
    return {"status": "ok", "answer": got[0]["answer"], "seconds": statistics.median(g["seconds"] for g in got),
            "peak_mib": max(g["peak_mib"] for g in got)}


def cell(m: dict[str, Any]) -> str:
    return f"{m['seconds']:.3f} s, {m['peak_mib']:.0f} MiB" if m["status"] == "ok" else m["status"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", default="8,12,16,40,100")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per child run")
    ap.add_argument("--one", nargs=3, metavar=("FAMILY", "SIZE", "METHOD"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(args.one[0], int(args.one[1]), args.one[2])))
        return 0
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; median CPU of {args.runs} runs, "
          "each in its own process")
    print("| family | size | answer | explicit (table) | symbolic | ratio |")
    print("| --- | --- | --- | --- | --- | --- |")
    for family, size in [("sally-anne", 0)] + [("whisper", int(s)) for s in args.sizes.split(",")]:
        sym = measure(family, size, "symbolic", args.runs, args.timeout)
        exp = measure(family, size, "table", args.runs, args.timeout) if size <= EXPLICIT_MAX \
            else {"status": "not run (past explicit enumeration)"}
        if sym["status"] == exp["status"] == "ok" and sym["answer"] != exp["answer"]:
            print(f"MISMATCH {family} {size}: symbolic {sym['answer']} explicit {exp['answer']}")
            return 1
        ratio = f"{exp['seconds'] / sym['seconds']:.1f}x" if sym["status"] == exp["status"] == "ok" else ""
        answer = sym.get("answer", exp.get("answer", ""))
        print(f"| {family} | {size or ''} | {answer} | {cell(exp)} | {cell(sym)} | {ratio} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
