import pytest

from inventory.pricing import apply_discount, bulk_discount


def test_apply_discount_takes_percentage_off():
    assert apply_discount(200.0, 25) == 150.0


def test_apply_discount_rounds_to_cents():
    assert apply_discount(9.99, 10) == 8.99


def test_apply_discount_rejects_out_of_range():
    with pytest.raises(ValueError):
        apply_discount(10.0, 120)


@pytest.mark.parametrize(("quantity", "percent"), [(1, 0), (10, 5), (20, 10), (150, 15)])
def test_bulk_discount_tiers(quantity, percent):
    assert bulk_discount(quantity) == percent
