"""A file and its change in three hunks, shared by the review CLI and web tests."""

OLD = "".join(f"x{i} = {i}\n" for i in range(30))
# Three hunks: a replacement at the top, a deletion in the middle, an insertion at the end.
NEW = (
    OLD.replace("x1 = 1\n", "x1 = 100\n")
    .replace("x15 = 15\n", "")
    .replace("x28 = 28\n", "x28 = 28\ny = 0\n")
)
