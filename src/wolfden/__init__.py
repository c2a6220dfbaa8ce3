"""wolfden: a digital moderator and table for werewolf-themed games."""

__version__ = "0.1.0"
