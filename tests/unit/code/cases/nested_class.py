class Outer:
    class Inner:
        def method(self):
            return 1

    def method(self):
        pass
