class Client:
    async def fetch(self, url: str, *args, retries: int = 3, **kwargs) -> bytes:
        if retries < 0:
            raise ValueError(f"retries must be >= 0, not {retries}")
        data = await self.get(url)
        return data
