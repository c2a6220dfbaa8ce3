"""Benchmarks of wolfden, run by ``wolfden bench``: measurements, never part of the game."""
