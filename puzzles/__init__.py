"""The bundled example puzzles and data files, shipped inside the wheel (read with importlib.resources)."""
