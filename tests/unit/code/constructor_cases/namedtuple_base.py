import collections


class Pair(collections.namedtuple("PairBase", "left, right", defaults=(0,))):
    def total(self):
        return self.left + self.right
