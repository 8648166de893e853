class Registry:
    items: tuple[str, ...] = ()
