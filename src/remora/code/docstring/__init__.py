"""Docstrings, one package: read and write a node's docstring (``edit``), draft its
summary with the model (``draft``), check the words (``prose``), build the sections
from the code (``sections``) and compose the whole text in a style (``text``).

Importing the package registers its ``remora_code`` functions.
"""

from remora.code.docstring import draft, edit, prose, sections, text

__all__ = ["draft", "edit", "prose", "sections", "text"]
