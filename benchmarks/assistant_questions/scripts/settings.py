config = {"host": "localhost", "port": 8080, "debug": False}
retries = 3
timeout = config["timeout"]
