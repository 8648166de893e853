class Outer:
    class Inner:
        def __init__(self, value: int = 1) -> None:
            self.value = value
