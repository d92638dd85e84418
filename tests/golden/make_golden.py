"""Write the golden deals that ``tests/test_deals.py`` compares every seed-to-deal run against.

    python tests/golden/make_golden.py            # add the layouts that have no golden deals yet
    python tests/golden/make_golden.py --check    # only compare; exit 1 on any difference

``deals.json`` holds, for every built-in card layout (peg boards have no shuffle), the deals of
seeds 1, 2 and 1000 and the name of the generator that dealt them, plus a few reduced decks
(``--max-ranks``).  A generator name stands for one mapping from seeds to deals forever
(``solver/deal.py``), so an existing entry is never rewritten: when a run disagrees with it this
script stops and changes nothing.  The only deliberate way to change a layout's deals is to give
the layout a new generator name; then ``--replace LAYOUT`` drops and rewrites that layout's
entry, and the commit says why.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from solver import deal as deals  # noqa: E402
from solver.families import load_layout  # noqa: E402
from solver.schema import builtin_names  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "deals.json"
SEEDS = (1, 2, 1000)
# Reduced decks use patience-v1 whatever the layout's own generator: (layout, max_rank).
REDUCED = (("debutante", 6), ("twenty", 5))


def key(name: str, max_rank: int = 13) -> str:
    return name if max_rank == 13 else f"{name} --max-ranks {max_rank}"


def card_layouts() -> list[str]:
    return [n for n in builtin_names() if load_layout(n).family != "peg"]


def entry(name: str, max_rank: int = 13) -> dict[str, Any]:
    """The golden record of one layout (or reduced deck): its generator and its deals."""
    lay = load_layout(name)
    if max_rank != 13:
        lay = lay.with_max_rank(max_rank)
    return {
        "generator": deals._generator(lay),
        "deals": {str(s): deals.to_json(deals.from_seed(lay, s)) for s in SEEDS},
    }


def wanted() -> list[tuple[str, int]]:
    return [(n, 13) for n in card_layouts()] + list(REDUCED)


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
    for name, max_rank in wanted():
        k = key(name, max_rank)
        now = entry(name, max_rank)
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
