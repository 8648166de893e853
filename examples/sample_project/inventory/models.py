"""Products and the stock kept of them."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Optional


class OutOfStock(Exception):
    def __init__(self, sku, requested, available):
        super().__init__(f"{sku}: requested {requested}, only {available} left")
        self.sku = sku
        self.requested = requested
        self.available = available


@dataclass(frozen=True)
class Product:
    """Something the shop sells."""

    sku: str
    name: str
    unit_price: float
    category: str = "general"

    def label(self):
        return f"{self.name} ({self.sku})"


@dataclass
class StockItem:
    product: Product
    quantity: int = 0
    reorder_level: int = 5
    history: list[tuple[str, int]] = field(default_factory=list)

    def add(self, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.quantity += amount
        self.history.append(("add", amount))

    def remove(self, amount):
        if amount > self.quantity:
            raise OutOfStock(self.product.sku, amount, self.quantity)
        self.quantity -= amount
        self.history.append(("remove", amount))

    @property
    def needs_reorder(self):
        return self.quantity <= self.reorder_level


class Warehouse:
    """All stock items, by SKU."""

    def __init__(self, name):
        self.name = name
        self._items = {}

    def register(self, product, quantity=0):
        item = StockItem(product, quantity)
        self._items[product.sku] = item
        return item

    def get(self, sku):
        item = self._items.get(sku)
        if item == None:
            raise KeyError(f"unknown SKU {sku!r}")
        return item

    def total_value(self):
        return sum(i.quantity * i.product.unit_price for i in self._items.values())

    def low_stock(self):
        return [i for i in self._items.values() if i.needs_reorder]

    def __len__(self):
        return len(self._items)
