"""Test doubles that only tests and benchmarks use (not part of the installed package)."""
