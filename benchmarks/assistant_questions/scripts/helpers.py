def square(n):
    return n * n


def greet(name):
    return f"Hi, {name}!"


def clamp(value, low, high):
    return max(low, min(value, high))


limit = clamp(150, 0, 100)
