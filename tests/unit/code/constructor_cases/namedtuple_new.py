from collections import namedtuple


class Segment(namedtuple("SegmentBase", ["start", "stop", "label"])):
    __slots__ = ()

    def __new__(cls, start, stop, label=None):
        return super().__new__(cls, start, stop, label)

    def width(self):
        return self.stop - self.start
