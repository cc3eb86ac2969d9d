"""Explicit (``--method table``) against symbolic (``--method symbolic``) on SMCDEL's benchmark families.

Each cell runs in a fresh child process (so the peak resident memory is that run's own, the BDD package's
native allocations included); the figure is the median CPU time of ``--runs`` children (CPU, not wall: the
machine is shared; the decision diagrams run on one thread), measured inside the child around the work:
loading the document (parsing and type-checking its formulas, the same for every method; shown apart) and
solving or checking (imports excluded).  The families are generated as puzzle documents here:

- muddy children: n children, all muddy, the father's announcement and n - 1 rounds of "nobody knows";
  checked: after them every child knows it is muddy (at the actual world);
- dining cryptographers: SMCDEL's benchmark (a coin per pair of agents, the XOR of all reveals announced;
  checked: the first agent, if it did not pay, knows that nobody did or that another did but not which; the
  announced XOR is ~8 n^2 characters, longer than a file's strings may be past n = 35: the child lifts that
  limit of the file format, the engine's path is the same);
- drinking logicians: n logicians, the first n - 1 say "I don't know"; checked: the last one knows;
- Russian cards: every check of SMCDEL's checkSet over all hand lists: the 102 safe announcements;
- What Sum and Sum and Product at growing bounds (solve).

SMCDEL's figures are the published ones (van Benthem, van Eijck, Gattinger and Su 2018), measured on another
machine; the targets are sleuth's issue 25.  Run: ``python tests/bench/bench_symbolic.py [--runs 3] [--quick]
[--base PYTHON]`` (``--base``: the Python of another checkout's environment, for a "before" column; the documents
are generated here and handed to it as files).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

SMCDEL = {"muddy": "dozens of children (figure plotted only)", "dining": "1.10 s at n = 90",
          "drinking": "1.79 s at n = 400", "russian": "0.37 s", "what-sum": "0.22-0.83 s (bounds 10-50)",
          "sum-and-product": "0.98 s"}
TARGET = {("muddy", 40): 1.0, ("muddy", 100): 30.0, ("dining", 90): 1.1, ("drinking", 400): 1.8,
          ("russian", 0): 0.37}
SIZES = {"muddy": [8, 12, 40, 100], "dining": [6, 30, 90], "drinking": [10, 100, 400], "russian": [0],
         "what-sum": [10, 50, 100], "sum-and-product": [100, 200]}
QUICK = {"muddy": [8, 40], "dining": [6, 30], "drinking": [10, 100], "russian": [0], "what-sum": [10, 50],
         "sum-and-product": [100]}
EXPLICIT_MAX = {"muddy": 16, "dining": 6, "drinking": 400, "what-sum": 100, "sum-and-product": 200,
                "russian": 0}   # larger explicit runs are refused or take minutes: not run


def muddy(n: int) -> dict[str, Any]:
    from sleuth.models.epistemic import classic
    doc = classic.muddy_children(n, n)
    doc["claim"] = [{"text": " and ".join(f"knows(c{i}, m{i} == 1)" for i in range(1, n + 1)), "at": "actual"}]
    return doc


def dining(n: int) -> dict[str, Any]:
    from sleuth.models.epistemic import classic
    doc = classic.dining_cryptographers(n)
    others = [f"paid == 'A{i}'" for i in range(2, n + 1)]
    doc["claim"] = [{"text": f"paid != 'A1' implies (knows(A1, paid == 'NSA') or (knows(A1, {' or '.join(others)})"
                             f" and {' and '.join(f'not knows(A1, {o})' for o in others)}))"}]
    return doc


def drinking(n: int) -> dict[str, Any]:
    from sleuth.models.epistemic import classic
    doc = classic.drinking_logicians(n)
    every = f"min({', '.join(f'w{i}' for i in range(1, n + 1))})"
    doc["claim"] = [{"text": f"knows(L{n}, {every} == 1)", "at": "actual"}]
    return doc


def document(family: str, size: int) -> dict[str, Any] | None:
    """The family's puzzle document at this size (None for Russian cards: a module's checks, not a file)."""
    from sleuth.models.epistemic import classic
    if family == "russian":
        return None
    if family in ("what-sum", "sum-and-product"):
        return classic.what_sum(size) if family == "what-sum" else classic.sum_and_product(size)
    return {"muddy": muddy, "dining": dining, "drinking": drinking}[family](size)


def run_one(family: str, doc: dict[str, Any] | None, method: str) -> dict[str, Any]:
    """One measurement (in this process): the answer, the CPU time of the work and of loading the document."""
    from sleuth import files
    from sleuth.formula import parse
    from sleuth.models.epistemic import classic, russian
    from sleuth.loading import load_data

    load_data(classic.what_sum(3), file="<warm-up>").solve(options={"method": method})   # imports: not timed
    files.MAX_STRING_CHARS = max(files.MAX_STRING_CHARS, 100_000)   # dining 90's XOR: ~8 n^2 characters
    t = time.process_time()
    load = 0.0
    if doc is None:
        answer: Any = len(russian.safe_announcements(method=method))
    elif family in ("what-sum", "sum-and-product"):
        puzzle = load_data(doc, file="<bench>")
        load = time.process_time() - t
        answer = puzzle.solve(options={"method": method}).fields["count"]
    else:
        puzzle = load_data(doc, file="<bench>")   # the checks themselves (verify would add explanations)
        load = time.process_time() - t
        state = puzzle.final_state(method=method)
        answer = True
        for claim in puzzle.claims:
            node = parse(claim.text)
            if dict(claim.options).get("at") == "actual":
                answer = answer and state.at_point(node)
            else:
                true, total = state.judge(node)
                answer = answer and true == total
    seconds = time.process_time() - t
    return {"answer": answer, "seconds": seconds, "load": load,
            "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def measure(family: str, size: int, method: str, runs: int, timeout: float,
            python: str = sys.executable) -> dict[str, Any]:
    """Median over ``runs`` child processes of ``python`` (``refused``/``timeout`` when one does not finish)."""
    got = []
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(document(family, size), f)
    try:
        for _ in range(runs):
            try:
                out = subprocess.run([python, __file__, "--one", family, f.name, method], capture_output=True,
                                     text=True, timeout=timeout, env={**os.environ, "PYTHONHASHSEED": "0"})
            except subprocess.TimeoutExpired:
                return {"status": f"> {timeout:g} s"}
            if out.returncode != 0:
                last = (out.stderr.strip().splitlines() or ["?"])[-1]
                return {"status": "refused: " + last.split(": ", 1)[-1].split(" (")[0][:60]}
            got.append(json.loads(out.stdout))
    finally:
        os.unlink(f.name)
    return {"status": "ok", "answer": got[0]["answer"], "seconds": statistics.median(g["seconds"] for g in got),
            "load": statistics.median(g["load"] for g in got), "peak_mib": max(g["peak_mib"] for g in got)}


def cell(m: dict[str, Any], load: bool = False) -> str:
    if m["status"] != "ok":
        return str(m["status"])
    return f"{m['seconds']:.3f} s" + (f" ({m['load']:.2f} s loading)" if load and m["load"] else "") + \
        f", {m['peak_mib']:.0f} MiB"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="the small sizes only")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per child run")
    ap.add_argument("--base", metavar="PYTHON", help="also time the symbolic engine of another checkout (the Python "
                    "of its environment): the 'before' column")
    ap.add_argument("--only", nargs="*", help="these families only")
    ap.add_argument("--one", nargs=3, metavar=("FAMILY", "DOC", "METHOD"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        family, path, method = args.one
        with open(path) as f:
            print(json.dumps(run_one(family, json.load(f), method)))
        return 0
    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; "
          f"median CPU time of {args.runs} runs, each in its own process")
    before = " symbolic before |" if args.base else ""
    print(f"| family | size | answer | explicit (table) |{before} symbolic | ratio | target | SMCDEL (published) |")
    print("| --- | --- | --- | --- |" + (" --- |" if args.base else "") + " --- | --- | --- | --- |")
    for family, sizes in (QUICK if args.quick else SIZES).items():
        if args.only and family not in args.only:
            continue
        for size in sizes:
            sym = measure(family, size, "symbolic", args.runs, args.timeout)
            exp = measure(family, size, "table", args.runs, args.timeout) if size <= EXPLICIT_MAX[family] \
                else {"status": "not run (past explicit enumeration)"}
            old = measure(family, size, "symbolic", args.runs, args.timeout, args.base) if args.base else None
            for other in (exp, old):
                if other and sym["status"] == other["status"] == "ok" and sym["answer"] != other["answer"]:
                    print(f"MISMATCH {family} {size}: symbolic {sym['answer']} other {other['answer']}")
                    return 1
            ratio = f"{exp['seconds'] / sym['seconds']:.1f}x" if sym["status"] == exp["status"] == "ok" else ""
            target = TARGET.get((family, size))
            verdict = "" if target is None or sym["status"] != "ok" else \
                f"< {target:g} s: {'met' if sym['seconds'] < target else 'MISSED'}"
            answer = sym.get("answer", exp.get("answer", ""))
            was = f" {cell(old)} |" if old else ""
            print(f"| {family} | {size or ''} | {answer} | {cell(exp)} |{was} {cell(sym, True)} | {ratio} | {verdict} "
                  f"| {SMCDEL[family]} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
