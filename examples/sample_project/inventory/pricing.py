"""Prices: discounts, tax and rounding."""

import math
from decimal import ROUND_HALF_UP, Decimal

TAX_RATES = {"general": 0.20, "food": 0.05, "books": 0.0}


def round_money(amount):
    return float(Decimal(str(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def apply_discount(price, percent):
    """Price after a percentage discount (0-100)."""
    if not 0 <= percent <= 100:
        raise ValueError(f"discount must be between 0 and 100, got {percent}")
    return round_money(price * (1 - percent / 100))


def tax_for(category, amount):
    rate = TAX_RATES.get(category, TAX_RATES["general"])
    return round_money(amount * rate)


def bulk_discount(quantity):
    if quantity >= 100:
        return 15
    if quantity >= 20:
        return 10
    if quantity >= 10:
        return 5
    return 0
