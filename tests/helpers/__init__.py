"""Helpers shared by several test modules, one module per subject (a test module imports no other test module)."""
