"""Solvitaire's files: its game rules (``--custom-rules FILE.json``) and its deals, read and written.

Solvitaire (Blake and Gent's solver) describes a game as a JSON object of eight sections
(``tableau piles``, ``foundations``, ``hole``, ``cells``, ``stock``, ``reserve``,
``accordion``, ``sequences``) and two keys (``max rank``, ``two decks``); a key left out
keeps Solvitaire's default (``DEFAULTS``, its "default" preset).  ``rules_to_layout``
maps such an object onto our layout schema; a rule the schema cannot say is never
guessed: every one of them is named, in one line, and the file is refused (exit 2).
``hole_rules`` and ``tableau_rules`` are the way back, for running Solvitaire on our layouts
(``None`` when Solvitaire cannot play the layout); each family answers through its
``solvitaire_rules`` (Accordion's and Gaps' layouts say their own).

The mapping, rule by rule (Solvitaire's word, then ours):

- ``tableau piles``: ``count``; ``build policy`` any-suit / red-black / same-suit /
  no-build = ``tableau.build`` any / alternate / suit / none (always built down; no-build
  piles take no card, not even when empty);
  ``spaces policy`` any / kings / no-build / auto-reserve-then-any / auto-reserve-then-waste =
  ``tableau.spaces`` any / kings / none / reserve-then-any / reserve-then-waste (Solvitaire's rule
  as its solver plays it: the reserve fills a space at once; once the reserve is empty, while a
  column is empty only the waste's card goes onto a column, into the space or not) /
  auto-waste-then-stock = waste-then-stock; ``move built
  group`` no = single cards, yes and partial-if-card-above-buildable = ``moves = "sequence"``
  (Solvitaire's "partial" is a pruning of "yes" that it proves keeps every win), with ``move built
  group policy`` same-as-build only; ``face up cards`` top = every card but the top one face down;
  ``diagonal deal``: pile i (from 0) takes at most i + 1 cards, dealt row by row from the
  last pile (``deal.reverse``), the rest dealt in full rows.  The cards left after the
  stock, the reserve, the cells and the foundations are dealt row by row over the piles.
- ``foundations``: ``initial cards`` none / all (with base A: ``preset = true``) / one with
  ``base card`` random (``base = "deal"``, ``wrap = true`` and columns ranked from the
  base, ``tableau.wrap = "from-base"``: Solvitaire's Canfield); ``removable``.
- ``hole``: the hole family: ``base card`` (a card, or random: the first card after the
  columns), ``build loops`` = ``hole.wrap``; a stock of ``deal type`` hole turns onto it;
  ``cells`` beside it are free cells (Worm Hole).
- ``cells``: ``count``, ``pre-filled`` = ``cells.count``, ``cells.deal``.
- ``stock``: ``size`` cards; ``deal type`` waste with ``deal count`` and ``redeal``
  (true: no limit) = ``stock.turn = "waste"``, ``deal_count``, ``redeals`` -1 or 0.
- ``reserve``: ``size`` cards; ``stacked`` = one pile (``reserve.count = 1``), else a pile
  per card; a reserve takes no cards (``accepts = "none"``).
- ``two decks`` = ``decks = 2``; ``max rank`` R < 13 = a reduced deck of ranks A..R (``max_rank = R``).

- ``accordion`` (a row of ``size`` piles, ``moves`` such as L1 and L3, ``build policies``
  same-suit / same-rank / red-black / any-suit) = the accordion family's ``[accordion]``
  ``piles``, ``moves``, ``match`` suit / rank / alternate / any.
- ``sequences`` (Gaps: ``count`` 4 rows built from the left, ``direction`` L, ``build policy``,
  ``fixed suit``: row s takes only the two of Solvitaire's suit s, clubs, hearts, spades,
  diamonds) = the gaps family's ``[gaps]`` ``build`` and ``row_suits``.

Not in our schema (named and refused): Gaps' rows other than four built from the left, of one
pack; a Gaps or Accordion game dealing other piles beside its own; foundations that take only
whole suits (``only complete pile moves``, the Spider games), a ``move built group policy``
other than the build policy, ``maximal-group`` moves, a stock that deals a row onto the
piles (``deal type`` tableau piles), and foundations of a fixed base other than the ace.  Some
rules map onto the schema but no engine plays them yet (a reserve of single cards, a
preset foundation in a game of two packs ...): the engine names those when asked to play.

Deals.  Solvitaire's deal file has ``tableau piles`` (a list of piles, each bottom card
first), ``foundations`` (cards placed on their suit's foundation, in order), ``cells``,
``stock`` (bottom card first: the last card is turned first), ``waste``, ``reserve``
(bottom card first when stacked, else one card per pile), ``hole`` (one card), ``accordion``
(the row, one card a pile) and ``sequences`` (Gaps' rows, a gap as ``""``).  Card
names are ranks ``A 2..10 J Q K`` (or ``1..13``) then a suit, in lower case for a face-down card
(Solvitaire reads an upper-case card of a column as face up, whatever its rules say: a deal
written without them is a game with every card face up).  ``deal_from_json`` reads
one onto a layout; ``deal_to_json`` writes one (``patience deal --solvitaire``).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import cards, moves
from .deal import Deal, expected_counts
from .errors import CardError, DealError, LayoutError
from .files import LAYOUT_LIMIT, json_text, parse_json, read_text, shown
from .layout import DEFAULT_SUITS, Layout, parse
from .schema import apply_settings

# Solvitaire's defaults: its "default" preset, the values of every key a rules file leaves out.
DEFAULTS: dict[str, Any] = {
    "tableau piles": {"count": 8, "build policy": "any-suit", "spaces policy": "any", "diagonal deal": False,
                      "move built group": "no", "move built group policy": "same-as-build", "face up cards": "all"},
    "foundations": {"present": True, "initial cards": "none", "base card": "A", "removable": False,
                    "only complete pile moves": False},
    "hole": {"present": False, "base card": "AS", "build loops": True},
    "cells": {"count": 0, "pre-filled": 0},
    "stock": {"size": 0, "deal type": "waste", "deal count": 1, "redeal": False},
    "reserve": {"size": 0, "stacked": False},
    "accordion": {"size": 0, "moves": [], "build policies": []},
    "sequences": {"count": 0, "direction": "L", "build policy": "same-suit", "fixed suit": False},
    "max rank": 13,
    "two decks": False,
}

_BUILD = {"any-suit": "any", "red-black": "alternate", "same-suit": "suit", "no-build": "none"}
_SPACES = {"any": "any", "kings": "kings", "no-build": "none", "auto-reserve-then-any": "reserve-then-any",
           "auto-reserve-then-waste": "reserve-then-waste", "auto-waste-then-stock": "waste-then-stock"}
_ALLOWED: dict[str, dict[str, tuple[Any, ...] | type | None]] = {
    # per section and key: the values Solvitaire's own schema allows (a tuple), or their type
    "tableau piles": {"count": int, "build policy": tuple(_BUILD), "spaces policy": (
        "any", "no-build", "kings", "auto-reserve-then-any", "auto-reserve-then-waste", "auto-waste-then-stock"),
        "diagonal deal": bool, "move built group": ("yes", "no", "whole-pile", "maximal-group",
                                                    "partial-if-card-above-buildable"),
        "move built group policy": ("same-as-build", "any-suit", "red-black", "same-suit", "no-build"),
        "face up cards": ("all", "top")},
    "foundations": {"present": bool, "initial cards": ("none", "one", "all"), "base card": str, "removable": bool,
                    "only complete pile moves": bool},
    "hole": {"present": bool, "base card": str, "build loops": bool},
    "cells": {"count": int, "pre-filled": int},
    "stock": {"size": int, "deal type": ("waste", "tableau piles", "hole"), "deal count": int, "redeal": bool},
    "reserve": {"size": int, "stacked": bool},
    "accordion": {"size": int, "moves": list, "build policies": list},
    "sequences": {"count": int, "direction": ("L", "R", "LR"), "fixed suit": bool,
                  "build policy": ("any-suit", "red-black", "same-suit")},
}
_TOP = {"max rank": int, "two decks": bool}
_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(r): r for r in range(1, 14)}}


# ------------------------------------------------------------------ rules


def _shown_key(key: Any) -> str:
    """A key as messages print it: quoted when it is not one printable line."""
    return key if isinstance(key, str) and key.isprintable() else repr(key)


def _checked(obj: Any, where: str) -> dict[str, Any]:
    """Solvitaire's rules with every default filled in; a key or value its schema does not
    allow is a ``LayoutError`` naming it."""
    if not isinstance(obj, dict):
        raise LayoutError(f"{where}: expected a JSON object of Solvitaire game rules")
    out: dict[str, Any] = json.loads(json.dumps(DEFAULTS))
    for key, value in obj.items():
        if key in _TOP:
            if type(value) is not _TOP[key]:
                want = "an integer" if _TOP[key] is int else "true or false"
                raise LayoutError(f"{where}: [{key}]: expected {want}, got {json_text(value)}")
            out[key] = value
            continue
        if key not in _ALLOWED:
            near = difflib.get_close_matches(str(key), [*_ALLOWED, *_TOP], n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise LayoutError(f"{where}: [{_shown_key(key)}]: not a key of Solvitaire's rules{hint}; "
                              f"expected one of {', '.join(repr(k) for k in [*_ALLOWED, *_TOP])}")
        if not isinstance(value, dict):
            raise LayoutError(f"{where}: [{key}]: expected an object, got {json_text(value)}")
        for k, v in value.items():
            allowed = _ALLOWED[key].get(k)
            if allowed is None and k not in _ALLOWED[key]:
                raise LayoutError(f"{where}: [{key}][{_shown_key(k)}]: not a key of Solvitaire's rules; "
                                  f"expected one of {', '.join(repr(a) for a in _ALLOWED[key])}")
            ok = v in allowed if isinstance(allowed, tuple) else type(v) is allowed
            if isinstance(v, bool) and allowed is int:
                ok = False
            if not ok or (allowed is int and v < 0):
                words: dict[Any, str] = {int: "an integer >= 0", bool: "true or false", str: "a string",
                                         list: "a list"}
                want = "one of " + ", ".join(repr(a) for a in allowed) if isinstance(allowed, tuple) else words[allowed]
                raise LayoutError(f"{where}: [{key}][{k}]: expected {want}, got {json_text(v)}")
            out[key][k] = v
    if not 1 <= out["max rank"] <= 13:
        raise LayoutError(f"{where}: [max rank]: expected an integer 1..13, got {json_text(out['max rank'])}")
    return out


def diagonal_sizes(piles: int, cards_left: int) -> list[int]:
    """Solvitaire's diagonal deal: row r puts a card on piles r..piles-1 (from the last), so
    pile i takes at most i + 1 cards; rows after the triangle are full."""
    sizes = [0] * piles
    row = 0
    while cards_left > 0 and piles:
        for p in range(piles - 1, -1, -1):
            if cards_left and (row >= piles or p >= row):
                sizes[p] += 1
                cards_left -= 1
        row += 1
    return sizes


def _ours(rule: str, said: dict[str, Any]) -> Any:
    """The value of our move rule ``rule`` ("section.key") that Solvitaire's keys ``said`` (of its
    section, every key not in a way of the table at its default) give, by the move table's names
    (``moves.RULES``); None when no value of ours does."""
    section = DEFAULTS[moves.SOLVITAIRE_SECTIONS[rule.split(".")[0]]]
    for r in moves.RULES:
        if r.rule == rule and any(all(v == way.get(k, section[k]) for k, v in said.items()) for way in r.solvitaire):
            return r.value
    return None


def _theirs(rule: str, value: Any) -> dict[str, Any] | None:
    """Solvitaire's keys for our ``rule`` = ``value`` (the move table's first way), or None when
    Solvitaire has no such rule."""
    ways = moves.rule(rule, value).solvitaire
    return dict(ways[0]) if ways else None


def rules_to_data(obj: Any, where: str) -> tuple[dict[str, Any], int]:
    """Our layout file's TOML data for Solvitaire's rules ``obj``, and the top rank of its deck.
    A ``LayoutError`` names, in one line, every rule our schema cannot say."""
    r = _checked(obj, where)
    tab, fo, hole, cel, st, res = (r["tableau piles"], r["foundations"], r["hole"], r["cells"], r["stock"],
                                   r["reserve"])
    decks = 2 if r["two decks"] else 1
    top = r["max rank"]
    missing: list[str] = []

    def cannot(key: str, why: str) -> None:
        missing.append(f"{key} ({why})")

    ends = sum((hole["present"], fo["present"], r["sequences"]["count"] > 0, r["accordion"]["size"] > 0))
    if ends != 1:
        raise LayoutError(f"{where}: expected exactly one of [hole][present], [foundations][present], "
                          f"[accordion][size] > 0 and [sequences][count] > 0 (how the game is won)")
    if r["accordion"]["size"] or r["sequences"]["count"]:
        return _spread_data(r, where), top
    # the move rules, by the move table's names (``moves.RULES``)
    takes = _ours("foundations.takes", {"only complete pile moves": fo["only complete pile moves"]})
    if takes is None:
        cannot(f"[foundations][only complete pile moves] = {json.dumps(fo['only complete pile moves'])}",
               "no foundations.takes of ours says it (Spider's whole suits)")
    policy = tab["move built group policy"]
    if policy == "same-as-build" or tab["move built group"] == "no" or _BUILD[policy] == _BUILD[tab["build policy"]]:
        policy = "same-as-build"  # groups built as the columns are
    group = {"move built group": tab["move built group"], "move built group policy": policy}
    group_moves = _ours("tableau.moves", group)
    if group_moves is None:
        plain = _ours("tableau.moves", {**group, "move built group policy": "same-as-build"})
        key = "move built group" if plain is None else "move built group policy"
        cannot(f"[tableau piles][{key}] = {group[key]!r}", "no tableau.moves of ours says it: our moves are "
               "single cards, any built group, whole columns, or as many as cells and spaces carry")
    turn = _ours("stock.turn", {"deal type": st["deal type"]}) if st["size"] else "none"
    if turn is None:
        cannot(f"[stock][deal type] = {st['deal type']!r}", "no stock.turn of ours says it (a stock dealt in rows "
               "onto the piles)")
    if tab["spaces policy"] not in _SPACES:
        cannot(f"[tableau piles][spaces policy] = {tab['spaces policy']!r}", "spaces filled from the waste or stock")
    if st["size"] and st["deal type"] == "hole" and not hole["present"]:
        cannot("[stock][deal type] = 'hole'", "a stock turned onto a hole needs [hole][present]")
    base = fo["base card"]
    if fo["present"] and base not in ("A", "a", "1", "random"):
        cannot(f"[foundations][base card] = {base!r}", "foundations start at the ace or at a card of the deal")
    if fo["present"] and fo["initial cards"] == "one" and base != "random":
        cannot("[foundations][initial cards] = 'one'", "one foundation dealt only with [base card] = 'random'")
    if fo["present"] and fo["initial cards"] != "one" and base == "random":
        cannot("[foundations][base card] = 'random'", "a base from the deal only with [initial cards] = 'one'")
    if hole["present"] and (res["size"] or tab["build policy"] != "no-build"):
        cannot("[hole][present] with a reserve or building piles", "the hole family's columns only feed the hole")
    if cel["pre-filled"] > cel["count"]:
        raise LayoutError(f"{where}: [cells][pre-filled]: expected at most [cells][count] = {cel['count']}")
    if missing:
        raise LayoutError(f"{where}: Solvitaire rules our layout schema cannot say: " + "; ".join(missing))

    data: dict[str, Any] = {"title": Path(where).stem, "decks": decks, "rules_version": 1,
                            "description": "Solvitaire rules from " + Path(where).name}
    if top < 13:
        data["max_rank"] = top
    pack = 4 * top * decks
    dealt = st["size"] + res["size"] + cel["pre-filled"]
    order: list[str] = []
    if fo["present"]:
        if fo["initial cards"] == "one":
            data["foundations"] = {"rows": [{"base": "deal", "build": "up"}] * decks, "wrap": True}
            dealt += 1
            order.append("base")
        else:
            data["foundations"] = {"rows": [{"base": "A", "build": "up"}] * decks,
                                   "preset": fo["initial cards"] == "all"}
            dealt += 4 * decks if fo["initial cards"] == "all" else 0
        if fo["removable"]:
            data["foundations"]["removable"] = True
        if takes != "card":
            data["foundations"]["takes"] = takes
    else:
        start = hole["base card"]
        if start != "random":
            try:
                start = cards.name(_card(start))
            except CardError as e:
                raise LayoutError(f"{where}: [hole][base card]: {e}") from None
        data["hole"] = {"start": "stock" if start == "random" else start, "wrap": hole["build loops"]}
        dealt += 1
    if cel["count"]:
        data["cells"] = {"count": cel["count"], "deal": cel["pre-filled"]}
        if cel["pre-filled"]:
            order.append("cells")
    if st["size"]:
        data["stock"] = {"turn": turn}
        if turn == "waste":
            data["stock"].update({"deal_count": st["deal count"], "redeals": -1 if st["redeal"] else 0})
    if res["size"]:
        stacked = res["stacked"]
        data["reserve"] = {"count": 1 if stacked else res["size"], "deal": res["size"] if stacked else 1,
                           "accepts": "none"}
        order.append("reserve")
    n = tab["count"]
    left = pack - dealt
    if left < 0:
        raise LayoutError(f"{where}: the rules deal {dealt} cards before the piles but the pack has {pack}")
    if n == 0 and left:
        raise LayoutError(f"{where}: [tableau piles][count] = 0 leaves {left} cards of the pack undealt")
    sizes = diagonal_sizes(n, left) if tab["diagonal deal"] else [left // n + (i < left % n) for i in range(n)]
    if n:
        data["tableau"] = {
            "count": n, "deal": sizes,
            "face_down": [max(0, k - 1) for k in sizes] if tab["face up cards"] == "top" else [0] * n,
            "build": _BUILD[tab["build policy"]], "direction": "down",
            # Solvitaire's no-build piles take no card at all, empty or not
            "spaces": "none" if tab["build policy"] == "no-build" else _SPACES[tab["spaces policy"]],
            "moves": group_moves,
        }
        if fo["present"] and fo["initial cards"] == "one":
            data["tableau"]["wrap"] = "from-base"
        order.append("tableau")
    if hole["present"] and hole["base card"] == "random":
        order.append("hole")
    # seed N is Solvitaire's --random N, as for the built-in layouts of its games (somerset.toml)
    data["deal"] = {"generator": "solvitaire", "order": order,
                    "reverse": ["tableau"] if tab["diagonal deal"] and n else []}
    return data, top


def _spread_data(r: dict[str, Any], where: str) -> dict[str, Any]:
    """Our layout file's TOML data for Solvitaire's Accordion (``[accordion][size] > 0``) or Gaps
    (``[sequences][count] > 0``) rules ``r`` (defaults filled in): the accordion or the gaps family."""
    acc, seq = r["accordion"], r["sequences"]
    missing: list[str] = []
    game = "[accordion]" if acc["size"] else "[sequences]"
    for key, value, default in (("tableau piles", "count", 0), ("cells", "count", 0), ("stock", "size", 0),
                                ("reserve", "size", 0)):
        if r[key][value] != default:
            missing.append(f"[{key}][{value}] = {r[key][value]} beside {game} (these games deal nothing else)")
    decks = 2 if r["two decks"] else 1
    pack = 4 * r["max rank"] * decks
    data: dict[str, Any] = {"title": Path(where).stem, "rules_version": 1,
                            "description": "Solvitaire rules from " + Path(where).name}
    if acc["size"]:
        data["decks"] = decks
        words = {"same-suit": "suit", "same-rank": "rank", "red-black": "alternate", "any-suit": "any"}
        bad = [m for m in acc["moves"] if not (isinstance(m, str) and len(m) > 1 and m[0] in "LR"
                                               and m[1:].isdigit() and 1 <= int(m[1:]) <= 103)]
        if bad:
            raise LayoutError(f"{where}: [accordion][moves]: expected moves such as 'L1' or 'R3', "
                              f"got {json_text(bad[0])}")
        pols = acc["build policies"]
        if not all(isinstance(p, str) and p in words for p in pols):
            raise LayoutError(f"{where}: [accordion][build policies]: expected a list drawn from "
                              f"{', '.join(map(repr, words))}, got {json_text(pols)}")
        if acc["size"] > pack:
            raise LayoutError(f"{where}: [accordion][size]: expected at most the {pack} cards of the pack, "
                              f"got {acc['size']}")
        data["accordion"] = {"piles": acc["size"], "moves": list(dict.fromkeys(acc["moves"])),
                             "match": list(dict.fromkeys(words[p] for p in pols))}
    else:
        if seq["count"] != 4:
            missing.append(f"[sequences][count] = {seq['count']} (Gaps has four rows, one a suit)")
        if seq["direction"] != "L":
            missing.append(f"[sequences][direction] = {seq['direction']!r} (rows built from the left only)")
        if decks != 1:
            missing.append("[two decks] = true beside [sequences] (Gaps with one pack only)")
        data["gaps"] = {"build": _BUILD[seq["build policy"]],
                        "row_suits": list(GAPS_SUITS) if seq["fixed suit"] else []}
    if missing:
        raise LayoutError(f"{where}: Solvitaire rules our layout schema cannot say: " + "; ".join(missing))
    return data


def rules_to_layout(obj: Any, where: str, name: str, settings: tuple[str, ...] = (),
                    reader: Callable[[dict[str, Any], str, str], Any] = parse) -> Any:
    """Our layout for Solvitaire's rules ``obj`` (``where`` names the file in messages);
    ``settings`` (``--set KEY=VALUE``) change keys of the mapped layout, checked like a file's.
    ``reader`` reads the layout's TOML data: the card schema's, or (``solver.families``) any
    family's, for Accordion and Gaps."""
    data, top = rules_to_data(obj, where)
    data["name"] = name
    data, shown_as = apply_settings(data, where, settings)
    try:
        layout = reader(data, shown_as, name)
    except LayoutError as e:
        raise _in_solvitaire_words(e, shown_as, settings) from None
    if top < 13 and not isinstance(layout, Layout):  # Accordion and Gaps (a card layout reads max_rank itself)
        layout = layout.with_max_rank(top)
    return layout


# Our keys that a Solvitaire rule sets alone, by that rule's name: a range our schema refuses is named
# as the rules file says it (unless --set changed our key: then ours).
THEIR_KEY = {"tableau.count": "[tableau piles][count]", "cells.count": "[cells][count]",
             "cells.deal": "[cells][pre-filled]", "stock.deal_count": "[stock][deal count]",
             "reserve.deal": "[reserve][size]", "reserve.count": "[reserve][size]"}


def _in_solvitaire_words(e: LayoutError, where: str, settings: tuple[str, ...]) -> LayoutError:
    text = str(e)
    for ours, theirs in THEIR_KEY.items():
        if text.startswith(f"{where}: {ours}: ") and not any(s.partition("=")[0].strip() == ours for s in settings):
            return LayoutError(f"{where}: {theirs}: " + text[len(f"{where}: {ours}: "):])
    return e


def read_rules(path: str, settings: tuple[str, ...] = (),
               reader: Callable[[dict[str, Any], str, str], Any] = parse) -> Any:
    """A Solvitaire rules file (JSON) as our layout, named after the file (``reader``: see
    ``rules_to_layout``)."""
    text = read_text(path, LAYOUT_LIMIT, "rules file", "Solvitaire's game rules as JSON", LayoutError)
    where = shown(path)
    return rules_to_layout(parse_json(text, where, LayoutError), where, Path(path).stem, settings, reader)


def hole_rules(layout: Layout) -> dict[str, Any] | None:
    """Solvitaire's rules for our ``layout`` of the hole family (``HoleFamily.solvitaire_rules``),
    or None when Solvitaire cannot play it: a stock turned onto the hole or none, no reserve."""
    st, res, cel, t, h = layout.stock, layout.reserve, layout.cells, layout.tableau, layout.hole
    assert h is not None
    if st.turn not in ("hole", "none") or res.count:
        return None
    out: dict[str, Any] = {"two decks": layout.decks == 2, "max rank": layout.max_rank}
    out["foundations"] = {"present": False}
    out["hole"] = {"present": True, "base card": "random" if h.start == "stock" else _solvitaire_name(
        cards.parse(h.start)), "build loops": h.wrap}
    out["tableau piles"] = {"count": t.count, "build policy": "no-build"}
    if st.turn == "hole":
        out["stock"] = {"size": len(layout.pack()) - sum(t.deal) - 1 - cel.deal, "deal type": "hole"}
    if cel.count:
        out["cells"] = {"count": cel.count, "pre-filled": cel.deal}
    return out


def tableau_rules(layout: Layout) -> dict[str, Any] | None:
    """Solvitaire's rules for our ``layout`` of the tableau family (``TableauFamily.solvitaire_rules``),
    or None when Solvitaire cannot play it.

    Only rules Solvitaire has: foundations up from the ace (or from a base in the deal, with
    Solvitaire's Canfield columns), built down, no waste capacity, batches or placements.
    ``supermove`` becomes single cards: a supermove is a shortcut for single moves through
    the free cells and spaces, so the games are won by the same deals."""
    fo, t, st, res, cel = layout.foundations, layout.tableau, layout.stock, layout.reserve, layout.cells
    if layout.suits != DEFAULT_SUITS:  # (Solvitaire's packs hold every suit)
        return None
    out: dict[str, Any] = {"two decks": layout.decks == 2, "max rank": layout.max_rank}
    if t.direction != -1 or not t.to_foundation:
        return None
    stock, group, takes = (_theirs("stock.turn", st.turn), _theirs("tableau.moves", t.moves),
                           _theirs("foundations.takes", fo.takes))
    if (stock is None and st.turn != "none") or group is None or takes is None:
        return None  # a move rule Solvitaire has not (the move table's names)
    if st.waste_capacity or st.top_playable or st.batch:
        return None
    if res.count and not (res.accepts == "none" and (res.count == 1 or res.deal == 1)):
        return None
    rows = [(r.base, r.direction) for r in fo.rows]
    if fo.base_from_deal:
        if t.wrap != "from-base" or not fo.wrap or fo.preset:
            return None
        found: dict[str, Any] = {"initial cards": "one", "base card": "random"}
    else:
        if rows != [(1, 1)] * layout.decks or fo.wrap or t.wrap != "none":
            return None
        found = {"initial cards": "all" if fo.preset else "none", "base card": "A"}
    found["removable"] = fo.removable
    found.update({k: v for k, v in takes.items() if v != DEFAULTS["foundations"][k]})
    out["foundations"] = found
    spaces = {v: k for k, v in _SPACES.items()}
    faces = ("top" if all(d == max(0, k - 1) for d, k in zip(t.face_down, t.deal, strict=True)) and any(t.face_down)
             else "all" if not any(t.face_down) else None)
    if faces is None:
        return None
    out["tableau piles"] = {"count": t.count, "build policy": {v: k for k, v in _BUILD.items()}[t.build],
                            "spaces policy": spaces[t.spaces],
                            **group,
                            "face up cards": faces, "diagonal deal": False}
    if cel.count:
        out["cells"] = {"count": cel.count, "pre-filled": cel.deal}
    if stock is not None:
        out["stock"] = {"size": expected_counts(layout).get("stock", 0), **stock}
    if st.turn == "waste":
        if st.redeals not in (0, -1):
            return None
        out["stock"].update({"deal count": st.deal_count, "redeal": st.redeals == -1})
    if res.count:
        out["reserve"] = {"size": res.count * res.deal, "stacked": res.count == 1 and res.deal > 1}
    return out


# ------------------------------------------------------------------ deals


def _card(text: Any) -> int:
    """A card in Solvitaire's names (``10H``, ``1s``, ``13D``) or ours."""
    if not isinstance(text, str) or len(text) < 2:
        raise CardError(f"expected a card name such as 'AS' or '10D', got {json_text(text)}")
    rank, suit = text[:-1].upper(), text[-1].upper()
    if rank in _RANK_WORDS and suit in cards.SUITS:
        return cards.make(_RANK_WORDS[rank], cards.SUITS.index(suit))
    return cards.parse(text)


def _solvitaire_name(card: int) -> str:
    rank = cards.rank(card)
    word = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
    return word + cards.SUITS[cards.suit(card)]


def is_solvitaire_deal(obj: Any) -> bool:
    """Whether a JSON deal is in Solvitaire's form (its keys, or a hole given as one card)."""
    return isinstance(obj, dict) and (any(k in obj for k in ("tableau piles", "foundations", "cells", "waste",
                                                              "reserve", "sequences", "accordion"))
                                      or isinstance(obj.get("hole"), str))


def deal_from_json(obj: Any, layout: Layout, where: str) -> Deal:
    """Our deal of ``layout`` from Solvitaire's deal file ``obj`` (not yet checked against the
    layout: the reader registered with the card families does that, ``families.card.DEAL_READERS``)."""
    if not isinstance(obj, dict):
        raise DealError(f"{where}: expected a JSON object (a Solvitaire deal)")
    deal: Deal = {}

    def cards_of(key: str, value: Any, nested: bool = False) -> list[int]:
        """The cards of a list; "" is an empty place (Solvitaire writes an empty cell or
        foundation so); with ``nested`` an item may itself be a pile (a list of cards)."""
        if value == "":
            return []
        if not isinstance(value, list):
            raise DealError(f"{where}: [{key}]: expected a list of card names, got {json_text(value)}")
        out = []
        for i, c in enumerate(value):
            if c == "":
                continue
            if nested and isinstance(c, list):
                out += cards_of(f"{key}][{i}", c)
                continue
            try:
                out.append(_card(c))
            except CardError as e:
                raise DealError(f"{where}: [{key}][{i}]: {e}") from None
        return out

    for key, value in obj.items():
        if key == "tableau piles":
            if not isinstance(value, list) or len(value) != layout.tableau.count:
                raise DealError(f"{where}: [tableau piles]: expected a list of {layout.tableau.count} piles")
            piles = [cards_of(f"tableau piles][{i}", pile) for i, pile in enumerate(value)]
            sizes = list(layout.tableau.deal)
            if [len(p) for p in piles] != sizes and sorted(map(len, piles)) == sorted(sizes):
                # the same piles in another order (Solvitaire writes Klondike's longest pile
                # first): columns are interchangeable, each goes where its size is dealt
                by_size = sorted(piles, key=len)
                piles = [by_size.pop(next(j for j, p in enumerate(by_size) if len(p) == k)) for k in sizes]
            for i, got in enumerate(piles):
                if got:
                    deal[f"tableau:{i}"] = got
        elif key == "cells":
            for i, c in enumerate(cards_of(key, value, nested=True)):
                deal[f"cell:{i}"] = [c]
        elif key == "stock":
            got = cards_of(key, value)
            if got:
                deal["stock"] = got[::-1]  # Solvitaire's last card is turned first
        elif key == "waste":
            if cards_of(key, value):
                raise DealError(f"{where}: [waste]: expected an empty waste at the deal")
        elif key == "reserve":
            got = cards_of(key, value, nested=True)
            if layout.reserve.count == 1:
                if got:
                    deal["reserve:0"] = got
            else:
                for i, c in enumerate(got):
                    deal[f"reserve:{i}"] = [c]
        elif key == "hole":
            try:
                deal["hole"] = [_card(value)]
            except CardError as e:
                raise DealError(f"{where}: [hole]: {e}") from None
        elif key == "foundations":
            got = cards_of(key, value, nested=True)
            if layout.foundations.base_from_deal:
                if len(got) != 1:
                    raise DealError(f"{where}: [foundations]: expected the one base card of the deal, got {len(got)}")
                deal["base"] = got
            else:
                seen: dict[int, int] = {}
                for c in got:
                    row = seen.get(c, 0)
                    seen[c] = row + 1
                    deal[f"foundation:{row * 4 + cards.suit(c)}"] = [c]
        else:
            raise DealError(f"{where}: [{_shown_key(key)}]: not a key of a Solvitaire deal this layout has; expected "
                            "'tableau piles', 'foundations', 'cells', 'stock', 'waste', 'reserve' or 'hole'")
    return deal


def deal_to_json(layout: Layout, deal: Deal) -> dict[str, Any]:
    """Solvitaire's deal file for our ``deal`` of a card ``layout`` (``CardFamily.solvitaire_deal``; a
    family's own layout, Accordion's or Gaps', writes its own).  An empty cell cannot be written
    (Solvitaire reads every cell as a card): a deal with some cells empty and some not is refused."""
    out: dict[str, Any] = {}
    name = _solvitaire_name
    t = layout.tableau
    if t.count:
        piles = []
        for i in range(t.count):
            pile = [name(c) for c in deal.get(f"tableau:{i}", [])]
            down = min(t.face_down[i] if i < len(t.face_down) else 0, max(0, len(pile) - 1))
            piles.append([c[:-1] + c[-1].lower() for c in pile[:down]] + pile[down:])  # lower case: face down
        out["tableau piles"] = piles
    found = [name(deal[f"foundation:{i}"][0]) for i in range(layout.foundations.count) if f"foundation:{i}" in deal]
    if "base" in deal:
        found = [name(deal["base"][0])]
    if found:
        out["foundations"] = found
    cells_ = [name(deal[f"cell:{i}"][0]) for i in range(layout.cells.count) if f"cell:{i}" in deal]
    if cells_:
        if len(cells_) != layout.cells.count:
            raise DealError(f"layout {layout.name!r}: Solvitaire's deal file cannot hold {len(cells_)} of "
                            f"{layout.cells.count} cells filled (it reads every cell as a card)")
        out["cells"] = cells_
    if "hole" in deal:
        out["hole"] = name(deal["hole"][0])
    if deal.get("stock"):
        out["stock"] = [name(c) for c in reversed(deal["stock"])]
    reserve = [c for i in range(layout.reserve.count) for c in deal.get(f"reserve:{i}", [])]
    if reserve:
        out["reserve"] = [name(c) for c in reserve]
    return out


# Gaps' rows in Solvitaire's suit numbering, for ``[sequences][fixed suit]``: row s takes the two of suit s.
GAPS_SUITS = "CHSD"


def _flat_cards(obj: dict[str, Any], key: str, where: str) -> list[Any]:
    extra = [k for k in obj if k != key]
    if extra:
        raise DealError(f"{where}: [{_shown_key(extra[0])}]: not a key of a Solvitaire deal of this game; "
                        f"expected {key!r}")
    value = obj.get(key)
    if not isinstance(value, list):
        raise DealError(f"{where}: [{key}]: expected a list, got {json_text(value)}")
    return value


def accordion_from_json(obj: dict[str, Any], piles: int, where: str) -> list[int]:
    """The row of Solvitaire's Accordion deal file, left to right: ``accordion``, one card a pile
    (a card, or a list of one card as its ``--deal-only`` prints it)."""
    value = _flat_cards(obj, "accordion", where)
    if len(value) != piles:
        raise DealError(f"{where}: [accordion]: expected {piles} piles, got {len(value)}")
    row = []
    for i, c in enumerate(value):
        if isinstance(c, list) and len(c) == 1:
            c = c[0]
        try:
            row.append(_card(c))
        except CardError as e:
            raise DealError(f"{where}: [accordion][{i}]: {e}") from None
    return row


def accordion_to_json(row: list[int]) -> dict[str, Any]:
    return {"accordion": [_solvitaire_name(c) for c in row]}


def sequences_from_json(obj: dict[str, Any], rows: int, width: int, where: str) -> list[list[int | None]]:
    """The grid of Solvitaire's Gaps deal file (``sequences``: each row left to right), a gap as
    None: Solvitaire writes a gap as ``""`` or as ``AS`` (its placeholder; the aces are out)."""
    value = _flat_cards(obj, "sequences", where)
    if len(value) != rows or not all(isinstance(r, list) and len(r) == width for r in value):
        raise DealError(f"{where}: [sequences]: expected {rows} rows of {width} places")
    grid: list[list[int | None]] = []
    for r, row in enumerate(value):
        out: list[int | None] = []
        for c, text in enumerate(row):
            try:
                card = None if text in ("", "AS") else _card(text)
            except CardError as e:
                raise DealError(f"{where}: [sequences][{r}][{c}]: {e}") from None
            if card is not None and cards.rank(card) == 1:
                raise DealError(f"{where}: [sequences][{r}][{c}]: {text!r} (the aces are out of a Gaps deal; "
                                "a gap is written \"\")")
            out.append(card)
        grid.append(out)
    return grid


def sequences_to_json(grid: list[list[int | None]]) -> dict[str, Any]:
    return {"sequences": [["" if c is None else _solvitaire_name(c) for c in row] for row in grid]}

