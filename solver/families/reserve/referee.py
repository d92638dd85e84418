"""Referee for the debutante family: replays a solution from the rules in words.

Works on card names and plain lists; shares nothing with ``solver.games``.
"""

from __future__ import annotations

from typing import Any

from ...layout import Layout

RANKS = "A23456789TJQK"


def replay(layout: Layout, deal: dict[str, list[int]], solution: list[dict[str, Any]]) -> str | None:
    from ... import cards

    r, s = layout.reserve, layout.stock
    top_rank = layout.max_rank
    cols = [cards.names(deal.get(f"reserve:{i}", [])) for i in range(r.count)]
    nf = 4 * len(layout.foundations.rows)
    found = [cards.names(deal.get(f"foundation:{i}", [])) for i in range(nf)]
    stock = cards.names(deal.get("stock", []))  # stock[0] turns next
    waste: list[str] = []
    redeals_left = s.redeals if s.redeals >= 0 else 10**9
    batch_left = 0
    capacity = r.capacity or 10**9

    def rank(card: str) -> int:
        return RANKS.index(card[0]) + 1

    def foundation_wants(i: int) -> str | None:
        """The card foundation i takes next, or None when it is full."""
        row = layout.foundations.rows[i // 4]
        suit = "CDHS"[i % 4]
        base = top_rank if row.base == 13 else row.base
        if not found[i]:
            want = base
        else:
            want = rank(found[i][-1]) + row.direction
        if not 1 <= want <= top_rank:
            return None
        return RANKS[want - 1] + suit

    def available(i: int) -> str | None:
        col = cols[i]
        if not col:
            return None
        return col[0] if r.access == "first" else col[-1]

    def column_takes(i: int, card: str) -> str | None:
        col = cols[i]
        if len(col) >= capacity:
            return f"reserve:{i} is full ({len(col)} cards)"
        if r.accepts == "suit-sequence" and col:
            last = col[-1]
            if last[1] != card[1] or abs(rank(last) - rank(card)) != 1:
                return f"reserve:{i} takes only a card of {last}'s suit and next rank"
        return None

    def index(name: str, kind: str, n: int) -> int | None:
        if not name.startswith(kind + ":"):
            return None
        try:
            i = int(name.split(":", 1)[1])
        except ValueError:
            return None
        return i if 0 <= i < n else None

    for n, move in enumerate(solution, 1):
        try:
            card, src, dst = move["card"], move["from"], move["to"]
        except (KeyError, TypeError):
            return f"move {n}: expected an object with card, from and to"
        count = move.get("count", 1)
        where = f"move {n} ({card} from {src} to {dst})"
        empty_gap = next((i for i, c in enumerate(cols) if not c), None)
        if r.fill == "immediate" and stock and empty_gap is not None:
            if not (src == "stock" and index(dst, "reserve", r.count) is not None
                    and not cols[index(dst, "reserve", r.count)]):
                return f"{where}: an empty column must first be filled from the pack"
        # take the card from its source
        if src == "stock":
            if not stock:
                return f"{where}: the pack is empty"
            if dst == "reserve" and s.turn == "deal-row":
                k = min(r.count, len(stock))
                if count != k or stock[0] != card:
                    return f"{where}: a deal puts {k} cards, from {stock[0]}, one on each column"
                for i in range(k):
                    cols[i].append(stock.pop(0))
                continue
            if dst == "waste":
                if s.turn != "waste":
                    return f"{where}: this game has no waste pile"
                if stock[0] != card:
                    return f"{where}: the next card of the pack is {stock[0]}"
                k = min(s.deal_count, len(stock))
                if count != k:
                    return f"{where}: a turn moves {k} cards"
                for _ in range(k):
                    waste.append(stock.pop(0))
                continue
            if stock[0] != card:
                return f"{where}: the next card of the pack is {stock[0]}"
            refill = r.fill == "immediate" and index(dst, "reserve", r.count) is not None \
                and not cols[index(dst, "reserve", r.count)]
            if s.turn not in ("place",) and not refill and not (
                    s.top_playable and dst.startswith("foundation")):
                return f"{where}: pack cards are not played straight from the pack in this game"
            stock.pop(0)
        elif src == "waste":
            if dst == "stock":
                if stock or not waste:
                    return f"{where}: a redeal needs an empty pack and a waste pile"
                if redeals_left <= 0:
                    return f"{where}: no redeal left"
                if count != len(waste) or waste[0] != card:
                    return f"{where}: the redeal turns over all {len(waste)} waste cards, from {waste[0]}"
                stock = waste
                waste = []
                redeals_left -= 1
                continue
            if not waste or waste[-1] != card:
                return f"{where}: {card} is not on top of the waste"
            waste.pop()
        else:
            i = index(src, "reserve", r.count)
            if i is None:
                return f"{where}: unknown source {src!r}"
            if available(i) != card:
                return f"{where}: {card} is not the available card of {src}"
            if batch_left and dst.startswith("foundation"):
                return f"{where}: columns may not play to foundations while pack cards are being placed"
            if dst.startswith("reserve"):
                j = index(dst, "reserve", r.count)
                if not (r.gaps == "any-top" and not stock and j is not None and not cols[j]):
                    return f"{where}: cards never move between columns here"
            if r.access == "first":
                cols[i].pop(0)
            else:
                cols[i].pop()
        # put it on its destination
        f = index(dst, "foundation", nf)
        j = index(dst, "reserve", r.count)
        if f is not None:
            want = foundation_wants(f)
            if want != card:
                return f"{where}: {dst} takes {want or 'nothing more'}, not {card}"
            found[f].append(card)
        elif j is not None:
            problem = column_takes(j, card)
            if problem:
                return f"{where}: {problem}"
            cols[j].append(card)
            if s.batch and src == "stock":
                batch_left = (batch_left or s.batch) - 1
                if not stock:
                    batch_left = 0
        else:
            return f"{where}: unknown destination {dst!r}"
    if any(cols) or stock or waste:
        left = sum(map(len, cols)) + len(stock) + len(waste)
        return f"after all {len(solution)} moves, {left} cards are not on the foundations"
    return None
