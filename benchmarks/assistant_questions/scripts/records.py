record = {"id": 7, "tags": ["new", "sale"]}
tag_count = len(record["tags"])
identifier = record.id
