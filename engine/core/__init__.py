"""The shared core of every game: card ids and notation (F1), the F3 random stream, the error
classes, meld primitives and the Game → State → View shape each game package follows.

Nothing here knows a game's rules (not even what a card is worth); each game package builds on it
and imports nothing else of the engine.
"""
