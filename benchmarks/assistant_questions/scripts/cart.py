items = [3, 1, 2]
total = sum(items)
discount = 0.15
prices = {"tea": 4.5, "cake": 3.25, "milk": 1.2}
bill = round(sum(prices.values()) * (1 - discount), 2)
