# The case 6: `_: KW_ONLY` is no parameter, `total` is not in __init__.
from dataclasses import KW_ONLY, dataclass, field


@dataclass
class Order:
    customer: str
    _: KW_ONLY
    priority: int = 0
    total: float = field(init=False, default=0.0)
    note: str = ""
