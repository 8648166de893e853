"""Docstrings, one package: read and write a node's docstring (``edit``), draft its
summary with the model (``draft``), check the words (``prose``) and what they claim
about the code (``claims``, on the facts of ``behaviour`` and ``vocabulary``), leave
alone what Python never shows or the program reads (``left_alone``), build the sections
from the code (``sections``), judge the model's pieces (``pieces``), compose the whole
text in a style (``text``), and show a
node too long for the model's context shortened (``view``). What the ``remora_code``
functions give is typed in ``docstring_results``.

Importing the package registers its ``remora_code`` functions.
"""

from remora.code.docstring import draft, edit, prose, sections, text, view

__all__ = ["draft", "edit", "prose", "sections", "text", "view"]
