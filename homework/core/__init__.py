"""Plain-Python core of problem sets: a student's standing on an item, the set's matrix. No Django."""
