"""Plain-Python core of accounts (no Django imports)."""
