"""The toy game (issue 39): a fourth game kept under tests/, in its own folder only, registered
through the house's registries at start-up (``PIKDAME_EXTRA_GAMES=tests.toygame.register``) and
played whole at a table over the API and on its page (test_toy_house.py).

Threes: two seats, five cards each from one 52-card deck; a turn draws (the stock's top card, or
the discard pile's) and discards; whoever holds three of a kind after a discard wins. The bot
takes the pile's card when it pairs a rank it holds and discards its highest unmatched card.
"""
