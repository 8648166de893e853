greeting = "hello world"
words = greeting.split()
shout = greeting.upper()
count = len(words)
