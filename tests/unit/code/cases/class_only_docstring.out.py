class Marker:
    """Mark things for later.

    A class with no body but its docstring.
    """
