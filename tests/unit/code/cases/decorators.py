import functools


@functools.lru_cache(maxsize=None)
@staticmethod
def cached(
    key: str,  # the key
    default: int = 0,
) -> int:  # trailing comment
    return len(key) + default
