class Client:
    async def fetch(self, url: str, *args, retries: int = 3, **kwargs) -> bytes:
        """Fetch url, retrying on failure.

        Args:
            url (str): Where to fetch from.

        Raises:
            ValueError: If retries is negative.
        """
        if retries < 0:
            raise ValueError(f"retries must be >= 0, not {retries}")
        data = await self.get(url)
        return data
