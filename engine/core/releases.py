"""Every game's released bot versions, one registry shape: a record replays with the bots that
played it, so a deploy fails no honest game.

A record names the engine that played it (F6 ``engine``, G9's ``gin-log/1``); replaying it with
other bots gives a ``bot_mismatch`` for an honest game. So each game keeps a :class:`Releases` of
its bots by engine version, and the worker replays a record with its own. The versions a game is
built with stay for good; frozen previous releases (and tests') come and go with
:meth:`Releases.register` and :meth:`Releases.unregister`. A version not kept fails loudly with the
game's own :class:`~engine.core.errors.UnknownRelease` subclass instead of rejecting an honest
player.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TypeVar

from engine.core.errors import UnknownRelease

Bots = TypeVar("Bots")


class Releases(Mapping[str, Bots]):
    """Engine version -> the bots that played under it; read as a mapping (``sorted``, ``in``)."""

    def __init__(self, builtin: Mapping[str, Bots], unknown: type[UnknownRelease]) -> None:
        self._builtin = frozenset(builtin)
        self._kept: dict[str, Bots] = dict(builtin)
        self._unknown = unknown

    @property
    def builtin(self) -> tuple[str, ...]:
        """The versions the game is built with, sorted: they stay whatever is unregistered."""
        return tuple(sorted(self._builtin))

    def __getitem__(self, version: str) -> Bots:
        return self._kept[version]

    def __iter__(self) -> Iterator[str]:
        return iter(self._kept)

    def __len__(self) -> int:
        return len(self._kept)

    def register(self, version: str, bots: Bots) -> None:
        """Keep ``bots`` as the bots of ``version`` (a frozen release; tests register their own)."""
        self._kept[version] = bots

    def unregister(self, version: str) -> None:
        """Forget a registered version (tests); the versions the game is built with stay."""
        if version not in self._builtin:
            self._kept.pop(version, None)

    def bots_of(self, version: object) -> Bots:
        """The bots that played under ``version`` (any JSON value a record holds); raises the
        game's :class:`UnknownRelease` for one not kept."""
        if isinstance(version, str) and version in self._kept:
            return self._kept[version]
        raise self._unknown(version, self._kept)


__all__ = ["Releases", "UnknownRelease"]
