"""The shared core of every game: card ids and notation (F1), the F3 random stream, the error
classes, meld primitives, the Game → State → View shape each game package follows, live play (a
human's move, then the bots') and, for the games dealt from one 52-card deck, that deck as masks
and the exact deadwood search.

Nothing here chooses a game's rules: what a card is worth, a meld's limits, when a hand may end
are each game's; the core offers the pieces (the usual deadwood values among them) a game picks
from, and imports nothing else of the engine.
"""
