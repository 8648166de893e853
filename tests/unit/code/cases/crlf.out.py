def greet(name):
    """Greet someone.

    Args:
        name: Who to greet.
    """
    # say hello
    return "hi " + name
