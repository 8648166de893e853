import re


def digits(text):
    r"""Return every run of \d+ in text."""
    return re.findall(r"\d+", text)
