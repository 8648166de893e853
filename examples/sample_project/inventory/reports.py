"""Plain-text and CSV reports over a warehouse and its orders."""

import csv
import io
import os
import sys

from inventory.models import Warehouse


def stock_table(warehouse: Warehouse):
    rows = []
    for item in sorted(warehouse.low_stock(), key=lambda i: i.quantity):
        rows.append(f"{item.product.sku:<10} {item.product.name:<24} {item.quantity:>5}")
    header = f"{'SKU':<10} {'Product':<24} {'Qty':>5}"
    return "\n".join([header, "-" * len(header), *rows])


def orders_csv(orders):
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["customer", "status", "lines", "total"])
    for order in orders:
        writer.writerow([order.customer, order.status, len(order.lines), order.total()])
    return buffer.getvalue()


def revenue_by_customer(orders):
    totals = {}
    for order in orders:
        if order.status in ("placed", "shipped"):
            totals[order.customer] = totals.get(order.customer, 0) + order.total()
    return dict(sorted(totals.items(), key=lambda kv: kv[1], reverse=True))


class ReportWriter:
    def __init__(self, directory):
        self.directory = directory

    def write(self, name, text):
        path = os.path.join(self.directory, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return path

    async def write_all(self, reports):
        return [self.write(name, text) for name, text in reports.items()]
