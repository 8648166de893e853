def parse_int(text):
    # raise ValueError if ... (a comment, not code)
    message = "raise KeyError here"
    try:
        return int(text)
    except ValueError:
        return None  # never raise ValueError to callers
