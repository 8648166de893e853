def describe(name):
    """Describe name."""
    f"""Not a docstring: {name} (an f-string is an expression)."""
    message = f"raise {name!r} ValueError"
    if not name:
        raise TypeError(f"{message}")
    return message
