def a():
    '''Triple single quotes.'''


def b():
    """Return two, "quoted" and 'quoted'."""
    return 2
