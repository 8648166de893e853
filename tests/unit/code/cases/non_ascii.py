PRIX = "Prix en €"


def résumé(texte: str = "café, crème") -> str:
    """Résumé du texte — court."""
    return texte[:10]
