"""A toy game registered the way a real one is: its rules (the simulator's tiny game), bots,
PettingZoo environment and terminal renderer, each in its own module named by one entry."""
