raw = "42, 17, x9"
parts = [part.strip() for part in raw.split(",")]
numbers = [int(part) for part in parts]
