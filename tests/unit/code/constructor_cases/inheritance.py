from dataclasses import KW_ONLY, dataclass, field


@dataclass
class Base:
    id: int
    name: str = "unnamed"


@dataclass
class Middle(Base):
    _: KW_ONLY
    audit: bool = False


@dataclass
class Item(Middle):
    price: float = 0.0
    name: str = "item"
    cache: dict[str, int] = field(init=False, default_factory=dict)
