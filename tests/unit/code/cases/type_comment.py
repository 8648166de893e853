def scale(values, factor):
    # type: (list[float], float) -> list[float]
    return [v * factor for v in values]
