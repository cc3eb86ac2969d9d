"""The table of code-breaking optima in docs/mastermind.md, generated from the runs shipped in ``data/``.

``python -m sleuth.models.motus.table_doc docs/mastermind.md`` rewrites the part of the page between
``<!-- table:codebreaking -->`` and ``<!-- /table:codebreaking -->``: one row per cell (the cells of at most
2,401 codes of ``--mastermind-table``, and every other cell a shipped run covers), from the runs of
:data:`RUNS` (results files of ``sleuth experiment wordle --mastermind-table ... --resume FILE``).  Per cell the
exact value of a run that has one, else the run with the narrowest proven bounds; a test checks that the page
is up to date with the files, so the docs and the data cannot drift apart.
"""

from __future__ import annotations

import json
import argparse
import re
import sys
from pathlib import Path
from typing import Any

from .codes import FAMILIES, PUBLISHED, table_cells

DATA = Path(__file__).parent / "data"
BLOCK = re.compile(r"(<!-- table:codebreaking -->\n)(.*?)(<!-- /table:codebreaking -->)", re.S)
# the cells of the runs with isomorphic classes shared (no node limit), and those they left with bounds
ISO_CELLS = "black:2x9,black:2x10,black:3x7,mastermind:3x10,mastermind:10x2,bullscows:4x8"
ISO2_CELLS = "mastermind:9x2,mastermind:7x3"
PARTIAL_CELLS = "black:9x2,black:4x5,black:6x3"
# (results file in data/, its key in the table, the command that made it)
RUNS = (
    ("mastermind-table.resume", "P",
     "sleuth experiment wordle --mastermind-table --node-limit 1000000 --resume FILE"),
    ("mastermind-table-symmetric.resume", "S",
     "sleuth experiment wordle --mastermind-table --symmetry 2 --node-limit 1000000 --resume FILE"),
    ("mastermind-table-cells.resume", "L",
     "sleuth experiment wordle --mastermind-table --cells bullscows:4x6,bullscows:3x9,mastermind:3x8,mastermind:4x5,"
     "bullscows:4x7,bullscows:5x6,bullscows:3x10,mastermind:6x3,mastermind:3x9,mastermind:5x4,mastermind:4x6,"
     "mastermind:4x7,bullscows:6x6 --symmetry 2 --resume FILE"),
    ("mastermind-table-checkpoints.resume", "C",
     "sleuth experiment wordle --mastermind-table --cells bullscows:4x10 --symmetry 4 --checkpoint "
     "models/motus/data/checkpoints --from-checkpoint --resume FILE"),
    ("mastermind-table-iso.resume", "I",
     f"sleuth experiment wordle --mastermind-table --cells {ISO_CELLS} --symmetry 3 --resume FILE"),
    ("mastermind-table-iso2.resume", "J",
     f"sleuth experiment wordle --mastermind-table --cells {ISO2_CELLS} --symmetry 2 --resume FILE"),
    ("mastermind-table-partial.resume", "K",
     f"sleuth experiment wordle --mastermind-table --cells {PARTIAL_CELLS} --symmetry 3 --checkpoint "
     "models/motus/data/table-checkpoints --from-checkpoint --resume FILE"),
)
NOTES = {"L": " (no node limit: the cells the node limit left with bounds)",
         "C": " (the bounds its checkpoint proves, read again after FILE is deleted; the same command without "
              "--from-checkpoint and --resume continues the search itself)",
         "I": " (no node limit, a class isomorphic to one solved takes its value: the cells left with bounds above)",
         "J": " (the same at two levels, for many pegs)",
         "K": " (the bounds the checkpoints of the cells that I and J stopped after 5 to 10 minutes of CPU prove; "
              "the same command without --from-checkpoint and --resume continues their search)"}
FEEDBACK = {"mastermind": "black and white", "black": "black pegs only", "bullscows": "Bulls and Cows"}


def load(name: str) -> list[dict[str, Any]]:
    """The cell rows of a shipped results file (empty when it is absent)."""
    path = DATA / name
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [json.loads(line)["r"] for line in lines if line.strip()]


def best_rows() -> list[tuple[dict[str, Any], str]]:
    """Per cell (by family, pegs, colours) the row shown and its run's key: the exact row of least CPU time,
    else the row of narrowest bounds."""
    found: dict[tuple[str, int, int], list[tuple[dict[str, Any], str]]] = {}
    for name, key, _ in RUNS:
        for r in load(name):
            found.setdefault((r["family"], r["pegs"], r["colours"]), []).append((r, key))
    cells = sorted({*table_cells(max_codes=2401), *found}, key=lambda c: (FAMILIES.index(c[0]), c[1], c[2]))
    out = []
    for cell in cells:
        rows = found.get(cell)
        if not rows:
            continue
        exact = [x for x in rows if x[0]["exact"]]
        out.append(min(exact, key=lambda x: x[0]["cpu_seconds"]) if exact else
                   min(rows, key=lambda x: x[0]["upper"] - x[0]["lower"]))
    return out


def _number(x: int) -> str:
    return f"{x:,}"


def _cpu(r: dict[str, Any]) -> str:
    """The CPU seconds of a cell's run: of its search for a row read from a checkpoint (n/a when the checkpoint
    holds only classes from before the CPU was recorded)."""
    if "search_cpu_seconds" in r:
        return f"{r['search_cpu_seconds']:.1f}" if r["search_cpu_seconds"] else "n/a"
    return f"{r['cpu_seconds']:.1f}"


def table() -> str:
    """The generated part of the page: the table, then the runs' commands."""
    head = ("| feedback | pegs | colours | codes | optimal total | average | CPU s | run | published |\n"
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | :---: | --- |")
    lines = [head]
    for r, key in best_rows():
        codes = r["codes"]
        if r["exact"]:
            value, avg = f"**{_number(r['total'])}**", f"{r['total'] / codes:.4f}"
        else:
            value = f"[{_number(r['lower'])}, {_number(r['upper'])}]"
            avg = f"[{r['lower'] / codes:.3f}, {r['upper'] / codes:.3f}]"
        pub = PUBLISHED.get((r["family"], r["pegs"], r["colours"]))
        published = pub[1] if pub else "new"
        lines.append(f"| {FEEDBACK[r['family']]} | {r['pegs']} | {r['colours']} | {_number(codes)} | {value} | "
                     f"{avg} | {_cpu(r)} | {key} | {published} |")
    lines.append("")
    lines.append("Runs (FILE: the file of the same name in `models/motus/data/`; the same command again resumes it):")
    lines.append("")
    for name, key, command in RUNS:
        if load(name):
            lines.append(f"- {key} (`{name}`): `{command}`{NOTES.get(key, '')}")
    return "\n".join(lines)


def render(text: str) -> str:
    """The page with its generated table brought up to date."""
    return BLOCK.sub(lambda m: f"{m.group(1)}{table()}\n{m.group(3)}", text)


def main(argv: list[str] | None = None) -> int:
    """Rewrite the page named (default docs/mastermind.md) when its table is not up to date."""
    parser = argparse.ArgumentParser(prog="python -m sleuth.models.motus.table_doc",
                                     description="Bring the codebreaking table of a page (between its "
                                                 "<!-- table:codebreaking --> markers) up to date with the run "
                                                 "files shipped in sleuth.models.motus/data.")
    parser.add_argument("page", nargs="?", default="docs/mastermind.md", help="the page (docs/mastermind.md)")
    page = Path(parser.parse_args(argv).page)
    try:
        text = page.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"table_doc: {page}: cannot read it ({exc.strerror}); give the page to update, "
              "e.g. docs/mastermind.md", file=sys.stderr)
        return 2
    if not BLOCK.search(text):
        print(f"table_doc: {page}: no <!-- table:codebreaking --> block to update", file=sys.stderr)
        return 2
    if render(text) != text:
        page.write_text(render(text), encoding="utf-8")
        print(f"updated {page}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
