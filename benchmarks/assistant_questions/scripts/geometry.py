class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def distance(a):
    return (a.x**2 + a.y**2) ** 0.5


origin_offset = Point(3, 4)
span = distance(origin_offset)
