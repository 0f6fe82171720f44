"""fails.py — a script whose check fails, for tests/test_python.c: the harness must see
the failure (exit 1, the AssertionError in the output)."""
from common import expect

expect(False, "deliberately")
