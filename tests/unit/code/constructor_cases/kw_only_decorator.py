from dataclasses import dataclass, field


@dataclass(kw_only=True)
class Options:
    verbose: bool = False
    level: int
    tags: list[str] = field(default_factory=list)
