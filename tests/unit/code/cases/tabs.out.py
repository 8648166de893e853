class Tabbed:
	def run(self, n):
		"""Run n.

		Raises:
		    RuntimeError: If n is set.
		"""
		if n:
			raise RuntimeError("n")
		return n
