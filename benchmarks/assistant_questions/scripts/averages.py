def average(values):
    return sum(values) / len(values)


scores = []
passed = 0
result = average(scores)
