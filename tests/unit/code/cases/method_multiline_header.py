class Cart:
    async def fetch(
        self,
        url: str,  # the url
    ):  # fetches
        return url
