jobs = ["build", "test"]
done = jobs[0]
third = jobs[2]
