"""The shared core of every game: the F3 random stream and the error classes.

Nothing here knows a game's rules; each game package builds on it.
"""
