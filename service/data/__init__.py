"""The data layer: everything the web, the workers and the CLI share, without Flask.

Settings from the environment (``config``), the clock, Redis key names, attempts (``store``),
rankings, player names, the verification queue and its reconciler, the archive of closed days and
the replays read from it. Imports only ``engine`` and itself; the HTTP layer (``service``'s
blueprints), ``worker`` and the CLI import it, never the other way round.
"""
