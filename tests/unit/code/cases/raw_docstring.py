import re


def digits(text):
    r"""Find runs of \d+ in text."""
    return re.findall(r"\d+", text)
