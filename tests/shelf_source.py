"""A made-up class of elements, ``Shelf``, as source text, for the tests of a method that
looks its argument up in its instance or takes a collection of its kind of elements.

Shared by tests/unit/code/test_instance_members.py (read with ``ast``, nothing runs) and
tests/integration/test_test_agent_elements.py (the test search runs it in the sandbox);
tests/conftest.py puts this folder on ``sys.path`` (pytest's default import mode).

``labels`` fills a shelf (``for label in labels: self.put(label)``). ``take`` does its work
only for a label the shelf holds and ``slot`` reads one; ``put`` assigns under a key (no
lookup) and ``resize`` keeps a plain value. ``within``, ``minus`` and ``merge`` compare
another collection's labels with the shelf's own, or put them in. ``Loose`` keeps its
constructor's value whole: nothing fills it.
"""

from __future__ import annotations

__all__ = ["SHELF"]

SHELF = """\
class Shelf:
    def __init__(self, labels=None, width=3):
        self.order = []
        self.where = {}
        self.width = width
        if labels is not None:
            for label in labels:
                self.put(label)

    def __iter__(self):
        return iter(self.order)

    def __contains__(self, label):
        return label in self.where

    def put(self, label):
        self.where[label] = len(self.order)
        self.order.append(label)

    def take(self, label):
        if label in self:
            del self.order[self.where.pop(label)]
            self.where = {kept: at for at, kept in enumerate(self.order)}

    def slot(self, label):
        return self.where[label]

    def within(self, other):
        return all(label in other for label in self)

    def minus(self, *groups):
        if groups:
            gone = set().union(*map(set, groups))
            return [label for label in self if label not in gone]
        return list(self)

    def merge(self, more):
        for label in more:
            self.put(label)

    def resize(self, width):
        self.width = width


class Loose:
    def __init__(self, first):
        self.first = first

    def has(self, key):
        return key in self.first
"""
