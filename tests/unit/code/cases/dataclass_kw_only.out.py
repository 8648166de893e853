from dataclasses import KW_ONLY, dataclass, field


@dataclass
class Order:
    """An order of one customer."""

    customer: str
    _: KW_ONLY
    quantity: int = 1
    total: float = field(init=False, default=0.0)
