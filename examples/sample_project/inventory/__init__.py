"""Inventory and order handling for a small shop."""

from inventory.models import Product, StockItem
from inventory.orders import Order, OrderLine

__all__ = ["Order", "OrderLine", "Product", "StockItem"]
