"""FORMATS.md F3's random stream, shared by every game's deal (Pik Dame, Tausende, Gin Rommé G3).

Everything random comes from a SHA-256 counter stream over a 32-byte seed, so the same seed gives
the same deck on every machine and every Python version.
"""

from __future__ import annotations

import hashlib

from engine.core.errors import FormatError

SEED_BYTES = 32


class Stream:
    """F3's random stream: block i = SHA-256(seed ‖ i as 8-byte big-endian)."""

    __slots__ = ("_block", "_buffer", "_pos", "_seed")

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_BYTES:
            raise FormatError("a seed is 32 bytes (F3)", seed)
        self._seed = seed
        self._block = 0
        self._buffer = b""
        self._pos = 0

    def next_u32(self) -> int:
        if self._pos + 4 > len(self._buffer):
            # Blocks are 32 bytes, a multiple of 4, so a value never straddles two blocks.
            self._buffer = hashlib.sha256(self._seed + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._pos = 0
        value = int.from_bytes(self._buffer[self._pos : self._pos + 4], "big")
        self._pos += 4
        return value

    def uniform(self, n: int) -> int:
        """An unbiased integer in [0, n) by rejection sampling."""
        limit = 2**32 - (2**32 % n)
        while True:
            u = self.next_u32()
            if u < limit:
                return u % n


def shuffled(stream: Stream, size: int) -> list[int]:
    """F3 step 1: Fisher–Yates over the ids 0 … size−1 (i from size−1 down to 1); [0] is the top."""
    deck = list(range(size))
    for i in range(size - 1, 0, -1):
        j = stream.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


__all__ = ["SEED_BYTES", "Stream", "shuffled"]
