class Problem(ValueError):
    code = 3
