def split_text(text):
    """Split the text on "\\n" characters."""
    return text.split("\n")
