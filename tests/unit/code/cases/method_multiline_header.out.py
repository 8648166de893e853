class Cart:
    async def fetch(
        self,
        url: str,  # the url
    ):  # fetches
        """Fetch the url.

        Returns:
            The url.
        """
        return url
