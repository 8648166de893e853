"""Orders: lines, totals and their life cycle."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime, timezone

from inventory.models import OutOfStock, Product, Warehouse
from inventory.pricing import apply_discount, bulk_discount, round_money, tax_for

log = logging.getLogger(__name__)

STATUSES = ("open", "placed", "shipped", "cancelled")


@dataclass
class OrderLine:
    product: Product
    quantity: int

    def subtotal(self):
        discount = bulk_discount(self.quantity)
        return apply_discount(self.product.unit_price * self.quantity, discount)

    def tax(self):
        return tax_for(self.product.category, self.subtotal())


@dataclass
class Order:
    """A customer's order; lines can change until it is placed."""

    customer: str
    lines: list[OrderLine] = field(default_factory=list)
    status: str = "open"
    placed_at: datetime | None = None

    def add_line(self, product, quantity=1):
        if self.status != "open":
            raise RuntimeError(f"order is {self.status}, lines cannot change")
        for line in self.lines:
            if line.product.sku == product.sku:
                line.quantity += quantity
                return line
        line = OrderLine(product, quantity)
        self.lines.append(line)
        return line

    def total(self):
        net = sum(line.subtotal() for line in self.lines)
        tax = sum(line.tax() for line in self.lines)
        return round_money(net + tax)

    def place(self, warehouse: Warehouse):
        reserved = []
        started = datetime.now(timezone.utc)
        try:
            for line in self.lines:
                warehouse.get(line.product.sku).remove(line.quantity)
                reserved.append(line)
        except OutOfStock:
            for line in reserved:
                warehouse.get(line.product.sku).add(line.quantity)
            raise
        self.status = "placed"
        self.placed_at = datetime.now(timezone.utc)
        log.info("order for %s placed: %d lines", self.customer, len(self.lines))

    def cancel(self, warehouse):
        if self.status == "shipped":
            raise RuntimeError("a shipped order cannot be cancelled")
        if self.status == "placed":
            for line in self.lines:
                warehouse.get(line.product.sku).add(line.quantity)
        self.status = "cancelled"


def order_from_dict(data, catalogue):
    order = Order(customer=data["customer"])
    for entry in data.get("lines", []):
        order.add_line(catalogue[entry["sku"]], entry.get("quantity", 1))
    return order
