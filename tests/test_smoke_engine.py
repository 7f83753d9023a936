from engine import Position, deal_from_number, preset


def test_start_position_of_classic_has_bottom_row_free():
    position = Position.start(deal_from_number(1), preset("classic"))
    assert [p for p in range(28) if position.is_free(p)] == list(range(21, 28))
