def first[T, *Ts, **P](items: list[T], default: T, /) -> T:
    if not items:
        raise LookupError("empty")
    return items[0] if items else default
