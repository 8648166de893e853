def a():
    '''Triple single quotes.'''


def b():
    'One single-quoted line.'
    return 2
