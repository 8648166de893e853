class Tabbed:
	def run(self, n):
		if n:
			raise RuntimeError("n")
		return n
