from dataclasses import dataclass


@dataclass
class User:
    name: str
    age: int


users = [User("ada", 36), User("linus", 28), User("grace", 45)]
oldest = max(users, key=lambda user: user.age)
ages = {user.name: user.age for user in users}
