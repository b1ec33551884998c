"""Dice for the post-battle sequence: entered as the player rolled them at the table, else rolled by a
seeded generator, so a battle can be replayed and audited from its record (the seed and every die).

Entered dice are read in order per purpose ("injury:champion", "exploration"...); when a purpose's
entered dice run out the generator rolls the rest. Every die used is noted, whoever rolled it.
"""
from __future__ import annotations

import random
from typing import Iterable, Mapping


class DiceError(ValueError):
    """An entered die that is no face of its die (a 7 on a D6, a 17 as D66)."""

    def __init__(self, purpose: str, value: object, die: str) -> None:
        super().__init__(f"{value!r} is not a {die} roll")
        self.purpose, self.value, self.die = purpose, value, die


class Dice:
    def __init__(self, seed: int | None, entered: Mapping[str, Iterable[int]] | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)
        self._entered = {key: list(values) for key, values in (entered or {}).items()}
        self.used: list[tuple[str, str, int, bool]] = []  # (purpose, die, value, rolled by the site)
        self.rolled_any = False

    def _next(self, purpose: str, die: str, low: int, high: int, valid=None) -> int:
        queue = self._entered.get(purpose)
        if queue:
            value = queue.pop(0)
            if not isinstance(value, int) or isinstance(value, bool) or not (valid(value) if valid else low <= value <= high):
                raise DiceError(purpose, value, die)
            self.used.append((purpose, die, value, False))
            return value
        value = self._roll(die)
        self.rolled_any = True
        self.used.append((purpose, die, value, True))
        return value

    def _roll(self, die: str) -> int:
        d6 = lambda: self._random.randint(1, 6)  # noqa: E731
        if die == "D6":
            return d6()
        if die == "D3":
            return (d6() + 1) // 2
        if die == "2D6":
            return d6() + d6()
        return d6() * 10 + d6()  # D66: the first die is the tens

    def d6(self, purpose: str) -> int:
        return self._next(purpose, "D6", 1, 6)

    def d3(self, purpose: str) -> int:
        return self._next(purpose, "D3", 1, 3)

    def two_d6(self, purpose: str) -> int:
        return self._next(purpose, "2D6", 2, 12)

    def d66(self, purpose: str) -> int:
        return self._next(purpose, "D66", 11, 66, lambda v: 1 <= v // 10 <= 6 and 1 <= v % 10 <= 6)

    def roll(self, die: str, purpose: str) -> int:
        return {"D6": self.d6, "D3": self.d3, "2D6": self.two_d6, "D66": self.d66}[die](purpose)

    def unused(self) -> dict[str, list[int]]:
        """Entered dice nothing asked for (told back to the caller, never silently dropped)."""
        return {k: v for k, v in self._entered.items() if v}
