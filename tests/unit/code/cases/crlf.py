def greet(name):
    # say hello
    return "hi " + name
