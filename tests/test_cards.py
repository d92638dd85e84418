"""Cards: names, parsing, the integer encoding, packs; the parser fuzzed."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import cards
from solver.errors import CardError, InputError


def test_encoding_is_rank_major_with_suits_cdhs() -> None:
    assert cards.make(1, 0) == 0  # AC
    assert cards.make(13, 3) == 51  # KS
    assert [cards.name(c) for c in range(8)] == ["AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S"]
    for c in range(52):
        assert cards.make(cards.rank(c), cards.suit(c)) == c
        assert 1 <= cards.rank(c) <= 13 and 0 <= cards.suit(c) <= 3
        assert cards.is_red(c) == (cards.name(c)[1] in "DH")


@pytest.mark.parametrize("card", range(52))
def test_every_name_parses_back(card: int) -> None:
    n = cards.name(card)
    assert len(n) == 2
    assert cards.parse(n) == card
    assert cards.parse(n.lower()) == card
    assert cards.parse(f"  {n}\t") == card


@pytest.mark.parametrize("text, card", [("10D", "TD"), ("10s", "TS"), ("td", "TD"), ("qh", "QH"),
                                        ("As", "AS"), ("kC", "KC")])
def test_accepted_spellings(text: str, card: str) -> None:
    assert cards.name(cards.parse(text)) == card


@pytest.mark.parametrize("text", ["", " ", "A", "AX", "XZ", "1D", "11D", "100D", "0S", "ASS", "A S",
                                  "SA", "10", "1OD", "♠A", "aſ", "Ａs", "ＡＳ", "AS,"])
def test_rejected_spellings(text: str) -> None:
    with pytest.raises(CardError) as e:
        cards.parse(text)
    assert repr(text) in str(e.value)
    assert isinstance(e.value, InputError)  # the CLI turns it into exit code 2


@pytest.mark.parametrize("obj", [None, 1, 3.0, b"AS", ["AS"], ("A", "S")])
def test_non_strings_are_card_errors(obj: object) -> None:
    with pytest.raises(CardError):
        cards.parse(obj)  # type: ignore[arg-type]


@pytest.mark.parametrize("decks, max_rank", [(1, 13), (2, 13), (1, 1), (2, 6)])
def test_pack(decks: int, max_rank: int) -> None:
    pack = cards.pack(decks, max_rank)
    assert len(pack) == 4 * max_rank * decks
    count = Counter(pack)
    assert set(count.values()) == {decks}
    assert {cards.rank(c) for c in count} == set(range(1, max_rank + 1))
    assert {cards.suit(c) for c in count} == {0, 1, 2, 3}


def _spelled(text: str, card: int) -> bool:
    """``text`` is one of the documented spellings of ``card``."""
    t = text.strip().upper()
    n = cards.name(card)
    return t == n or (n[0] == "T" and t == "10" + n[1])


CARDISH = st.text(alphabet="A23456789TJQK10CDHSacdhsjqkt \t", max_size=5)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=6), CARDISH))
def test_parse_fuzz_gives_a_card_or_a_card_error(text: str) -> None:
    try:
        card = cards.parse(text)
    except CardError as e:
        assert len(str(e).splitlines()) == 1, str(e)
        return
    assert isinstance(card, int) and 0 <= card < 52
    assert _spelled(text, card), text


@settings(max_examples=100, deadline=None)
@given(st.from_type(object))
def test_parse_fuzz_on_any_object(obj: object) -> None:
    try:
        card = cards.parse(obj)  # type: ignore[arg-type]
    except CardError:
        return
    assert isinstance(obj, str) and _spelled(obj, card)
