class Outer:
    class Inner:
        def method(self):
            """Return one."""
            return 1

    def method(self):
        pass
