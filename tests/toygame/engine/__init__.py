"""The toy game's engine package (its ``GameType``, match and command line) on engine.core."""
