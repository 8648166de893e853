def parse_int(text):
    try:
        return int(text)
    except ValueError:
        return None  # never raise ValueError to callers


x = 1
