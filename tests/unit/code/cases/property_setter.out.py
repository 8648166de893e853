class Box:
    @property
    def value(self) -> int:
        """The stored value."""
        return self._value

    @value.setter
    def value(self, new: int) -> None:
        """Store a new value."""
        if new < 0:
            raise ValueError("negative")
        self._value = new
