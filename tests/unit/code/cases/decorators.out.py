import functools


@functools.lru_cache(maxsize=None)
@staticmethod
def cached(
    key: str,  # the key
    default: int = 0,
) -> int:  # trailing comment
    """Return the key's length plus default."""
    return len(key) + default
