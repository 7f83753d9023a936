import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import DealError, card_text, card_value, deal_from_number, parse_card, parse_deal
from engine.deals import MAX_DEAL_NUMBER

from .strategies import engine_settings

# Pinned deal texts: a change here breaks every stored game and every client. Never update them.
GOLDEN_DEALS = {
    0: "JC JS QC TH 9H 8D 9C JD 7D 5D 2S 4C 6D 6S 5C 2C KS 3H QD 8H KC KD 4D 2H 2D AS 4H 7C 3S 4S 7S QH AD 6C "
    "7H JH 5S TS 8C KH AH 3C TC AC 6H TD 9D 5H 8S QS 9S 3D",
    1: "7S 8C TC QS 9D 4H 3D QC 3C 9C AD 2H 5D 7H QH QD 7C 9S 6C AC AS TH 6D JD JH 3H 8D 6S 5S 4C KD TD JC AH "
    "4D 8H 8S 2S 5C 9H 4S KS 2C JS KC 6H 2D 3S 5H KH 7D TS",
    412: "JD 4H 3S 2H 8D JS 5C KD 9S 4C KS 7D 5S KH AC KC 9C AH 8H QS 9D JC JH 9H 5H 6C TD 6S 6H 3C 2S 3D 3H AD "
    "2C QC 6D 2D 5D TH 4D 8S TS 7S 7C QH QD 8C AS 4S TC 7H",
    2**32: "8C QD TH 4S 9H 5S 2D 3C KS 9D JH QS 9S AC TD 9C 5D QH 6C AS 2H KH 6D 8S 8D QC 3S 7H 4H 5H TC 2C 7C "
    "KC KD 3H 4C 8H 7S 3D JS TS 4D 6H JD 2S JC 6S 7D AH 5C AD",
    2**64 - 1: "8H 6S KD 9S JH 2H AH 5C 4D 5D 7C QH 9H 8D 3H 4H JC 3C 2D 6H 2C 2S KS 3S 9D 7S TS 5S 9C 5H KC AC "
    "QC KH 7D AD 8C TH 6C 3D AS 4S QS 8S 7H 6D 4C JS TD JD QD TC",
}


@pytest.mark.parametrize("number", sorted(GOLDEN_DEALS))
def test_deal_numbers_are_pinned(number):
    assert deal_from_number(number).text == GOLDEN_DEALS[number]


def test_documented_shuffle_reimplemented_from_the_readme_gives_the_same_deals():
    import hashlib

    def documented(n):
        deck = [r + s for r in "A23456789TJQK" for s in "CDHS"]
        stream = b"".join(
            hashlib.sha256(b"pyramid-deal" + n.to_bytes(8, "big") + k.to_bytes(4, "big")).digest() for k in range(8)
        )
        words = iter(int.from_bytes(stream[i : i + 4], "big") for i in range(0, len(stream), 4))
        for i in range(51, 0, -1):
            bound = i + 1
            w = next(words)
            while w >= 2**32 - 2**32 % bound:
                w = next(words)
            j = w % bound
            deck[i], deck[j] = deck[j], deck[i]
        return " ".join(deck)

    for n in list(range(50)) + [2**63, 2**64 - 2]:
        assert deal_from_number(n).text == documented(n)


def test_deal_numbers_spread_cards_evenly():
    # each card lands on pyramid position 0 about 1/52 of the time; a biased shuffle fails this
    counts = [0] * 52
    deals = 5200
    for n in range(deals):
        counts[deal_from_number(n).cards[0]] += 1
    chi_square = sum((c - deals / 52) ** 2 / (deals / 52) for c in counts)
    assert chi_square < 90  # 51 degrees of freedom: p < 0.001 beyond this


@pytest.mark.parametrize("bad", [-1, MAX_DEAL_NUMBER, 1.5, "7", True])
def test_deal_number_out_of_range_is_refused(bad):
    with pytest.raises(DealError):
        deal_from_number(bad)


def test_card_tokens():
    assert card_text(parse_card("10h")) == "TH"
    assert card_text(parse_card("td")) == "TD"
    assert card_value(parse_card("KS")) == 13
    assert card_value(parse_card("AC")) == 1
    assert card_value(parse_card("QD")) == 12
    with pytest.raises(DealError, match="'1H'"):
        parse_card("1H")


def test_deal_text_accepts_ten_and_lower_case():
    text = GOLDEN_DEALS[1]
    lowered = text.lower().replace("t", "10")
    assert parse_deal(lowered).text == text


def test_deal_text_refusals_name_the_problem():
    cards = GOLDEN_DEALS[1].split()
    with pytest.raises(DealError, match="has 51"):
        parse_deal(" ".join(cards[:-1]))
    with pytest.raises(DealError, match="missing: TS"):
        parse_deal(" ".join(cards[:-1]))
    with pytest.raises(DealError, match="token 3: unknown card 'XX'"):
        parse_deal(" ".join(cards[:2] + ["XX"] + cards[3:]))
    with pytest.raises(DealError, match="card 7S appears 2 times .*; missing: TS"):
        parse_deal(" ".join(cards[:-1] + ["7S"]))
    with pytest.raises(DealError, match="card 3C appears 2 times"):
        parse_deal(" ".join(cards + ["3C"]))
    with pytest.raises(DealError, match="has 0"):
        parse_deal("  ")


@engine_settings
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_deal_text_round_trips(number):
    deal = deal_from_number(number)
    assert parse_deal(deal.text) == deal
    assert parse_deal(deal.layout_text(7)) == deal
