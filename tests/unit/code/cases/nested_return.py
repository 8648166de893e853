def make_handler(prefix):
    def handler(message):
        raise NotImplementedError
        return prefix + message

    label = lambda: prefix
    print(label())
