"""Playing matches with bots: the match runner, tournaments and balance statistics."""
