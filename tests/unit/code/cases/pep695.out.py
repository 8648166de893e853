def first[T, *Ts, **P](items: list[T], default: T, /) -> T:
    """Return the first item, or default when there is none."""
    if not items:
        raise LookupError("empty")
    return items[0] if items else default
