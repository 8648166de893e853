def make_handler(prefix):
    """Print the prefix."""

    def handler(message):
        raise NotImplementedError
        return prefix + message

    label = lambda: prefix
    print(label())
