"""Write the golden deals that ``tests/test_deals.py`` compares every seed-to-deal run against.

    python tests/golden/make_golden.py            # add the layouts that have no golden deals yet
    python tests/golden/make_golden.py --check    # only compare; exit 1 on any difference

``deals.json`` holds, for every built-in card layout (peg boards have no shuffle), the deals of
seeds 1, 2 and 1000 and the name of the generator that dealt them, plus a few reduced decks
(``--max-ranks``) and a few layouts dealt by a generator they used before (``LAYOUT (GENERATOR)``:
the layout with only ``deal.generator`` changed), which keep the retired generators honest.
A generator name stands for one mapping from seeds to deals forever (``solver/deal.py``), so an
existing entry is never rewritten: when a run disagrees with it this script stops and changes
nothing.  The only deliberate way to change a layout's deals is to give the layout a new
generator name; then ``--replace LAYOUT`` drops and rewrites that layout's entry, and the commit
says why.

``pysolfc-deals.json`` beside it is another kind of record: PySolFC's own deals, produced by
running PySolFC, not by this project (see ``README.md`` here).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dataclasses import replace  # noqa: E402

from solver import deal as deals  # noqa: E402
from solver import shuffles  # noqa: E402
from solver.families import load_layout  # noqa: E402
from solver.layout import Layout  # noqa: E402
from solver.schema import builtin_names  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "deals.json"
SEEDS = (1, 2, 1000)
# Reduced decks use patience-v1 whatever the layout's own generator: (layout, max_rank).
REDUCED = (("debutante", 6), ("twenty", 5))
# Layouts dealt by the generator they used before `pysolfc` (rules version 1): patience-v1 and
# pysol stay available to reproduce results recorded with them. (Canfield's old deals also had
# another deal order, so they are not its current layout with the old generator.)
RETIRED = (*((n, "patience-v1") for n in ("colorado", "double-line", "forty-thieves", "grandfather",
                                          "sly-fox", "twenty")),
           *((n, "pysol") for n in ("bakers-dozen", "bakers-game", "black-hole", "eight-off", "forecell",
                                    "golf", "klondike", "klondike-draw-1", "seahaven-towers")))


def key(name: str, max_rank: int = 13, generator: str = "") -> str:
    k = name if max_rank == 13 else f"{name} --max-ranks {max_rank}"
    return f"{k} ({generator})" if generator else k


def golden_layout(k: str) -> Layout:
    """The layout a key of ``deals.json`` stands for."""
    k, _, generator = k.removesuffix(")").partition(" (")
    name, _, rank = k.partition(" --max-ranks ")
    lay = load_layout(name)
    if generator:
        lay = replace(lay, deal=replace(lay.deal, generator=generator))
    return lay.with_max_rank(int(rank)) if rank else lay


def card_layouts() -> list[str]:
    return [n for n in builtin_names() if isinstance(load_layout(n), Layout)]  # the card schema's layouts


def entry(k: str) -> dict[str, Any]:
    """The golden record of one key: its generator and its deals."""
    lay = golden_layout(k)
    return {
        "generator": shuffles.generator(lay),
        "deals": {str(s): deals.to_json(shuffles.from_seed(lay, s)) for s in SEEDS},
    }


def wanted() -> list[str]:
    return [key(n) for n in card_layouts()] + [key(n, r) for n, r in REDUCED] + [key(n, 13, g) for n, g in RETIRED]


def dump(golden: dict[str, Any]) -> str:
    """JSON with one stack per line: readable diffs, a file of modest length."""
    out = ["{"]
    for i, (k, e) in enumerate(sorted(golden.items())):
        out.append(f" {json.dumps(k)}: {{\"generator\": {json.dumps(e['generator'])}, \"deals\": {{")
        for j, (seed, deal) in enumerate(e["deals"].items()):
            out.append(f"  {json.dumps(seed)}: {{")
            stacks = [f"   {json.dumps(st)}: {json.dumps(cs)}" for st, cs in deal.items()]
            out.append(",\n".join(stacks))
            out.append("  }" + ("," if j < len(e["deals"]) - 1 else ""))
        out.append(" }}" + ("," if i < len(golden) - 1 else ""))
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true", help="compare only; write nothing")
    p.add_argument("--replace", action="append", default=[], metavar="KEY",
                   help="drop and rewrite this entry (a layout whose generator was renamed)")
    args = p.parse_args(argv)
    golden: dict[str, Any] = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    for k in args.replace:
        golden.pop(k, None)
    added, bad = [], []
    for k in wanted():
        now = entry(k)
        if k not in golden:
            golden[k] = now
            added.append(k)
        elif golden[k] != now:
            bad.append(k)
    for k in bad:
        print(f"{k}: the deals differ from {GOLDEN.name}; a generator changed. "
              "Give the layout a new generator name instead, then --replace it.", file=sys.stderr)
    if bad:
        return 1
    if added and not args.check:
        GOLDEN.write_text(dump(golden))
        print(f"added {', '.join(added)}")
    elif added:
        print(f"missing: {', '.join(added)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
