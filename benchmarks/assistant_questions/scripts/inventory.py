stock = {"apple": 12, "pear": 0, "plum": 7}
names = sorted(stock)
empty = [name for name, count in stock.items() if count == 0]
restock_level = 5
