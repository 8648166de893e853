def scale(values, factor):
    # type: (list[float], float) -> list[float]
    """Multiply each value by factor."""
    return [v * factor for v in values]
