"""Persistence: small interfaces with an embedded SQLite implementation.

Every component keeps its own tables and its own schema version in the shared database file
(``wolfden_schema``: one row per component), so components migrate independently.
"""
