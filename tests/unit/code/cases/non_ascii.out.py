PRIX = "Prix en €"


def résumé(texte: str = "café, crème") -> str:
    """Résumé du texte — plus long, « avec des guillemets ».

    Args:
        texte: Le texte à résumer.
    """
    return texte[:10]
