def fold(items, op=lambda a, b: a + b, start=0, sep=", ", pair=(1, [2, 3]), *, key: dict[str, int] = {"a,b": 1}):
    """Fold the items with op.

    Args:
        items: Values to combine.
    """
    total = start
    for item in items:
        total = op(total, item)
    return total
