"""Deterministic, verifiable shuffles derived from a match's secret seed, and the seed's
public commitment.

The algorithm (``docs/dealing.md``):

* A byte stream for a *label* is the concatenation of the blocks
  ``HMAC-SHA256(key=seed, msg=label || ":" || counter)`` for counter = 0, 1, 2, ...
  (counter written in decimal ASCII). The label says what is shuffled; each game
  documents its labels (Golf: ``golf/deal/<hole>``, ``golf/reshuffle/<hole>/<n>/<pile>``).
* Uniform integers in ``[0, bound)`` come from that stream by rejection sampling on
  big-endian unsigned 32-bit words: a word ``w`` is accepted when
  ``w < 2**32 - (2**32 % bound)`` and gives ``w % bound``.
* The shuffle is Fisher-Yates: for ``i`` from ``len(items) - 1`` down to 1, draw
  ``j`` in ``[0, i]`` and swap items ``i`` and ``j``.

Anyone holding the revealed seed can recompute every shuffle.

>>> shuffle_cards(b"seed", "golf/deal/1", ["AS", "2S", "3S", "4S"])
['3S', 'AS', '2S', '4S']
>>> commitment_of(b"seed") == hashlib.sha256(b"seed").hexdigest()
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
SEED_BYTES = 32
_WORD = 2**32


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's secure random source."""
    return secrets.token_bytes(SEED_BYTES)


def commitment_of(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def _words(seed: bytes, label: str) -> Iterator[int]:
    counter = 0
    prefix = label.encode("ascii") + b":"
    while True:
        block = hmac.new(seed, prefix + str(counter).encode("ascii"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def shuffle_cards(seed: bytes, label: str, items: Sequence[T]) -> list[T]:
    """Fisher-Yates shuffle of ``items`` driven by the seed's stream for ``label``."""
    result = list(items)
    words = _words(seed, label)
    for i in range(len(result) - 1, 0, -1):
        bound = i + 1
        limit = _WORD - (_WORD % bound)
        while True:
            w = next(words)
            if w < limit:
                break
        j = w % bound
        result[i], result[j] = result[j], result[i]
    return result
