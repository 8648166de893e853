grid = [[1, 2], [3, 4], [5, 6]]
flat = [cell for row in grid for cell in row]
rows = len(grid)
biggest = max(flat)
