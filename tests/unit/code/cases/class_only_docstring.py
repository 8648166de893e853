class Marker:
    """Marks things."""
