"""``Deadline``: the moment by which every wait of one compaction must have ended."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Deadline:
    """A point on the ``time.monotonic`` clock. Each wait takes what is left of it, so waits made
    one after another (starting the server, the fast-anchor check, the projection) together end
    by it instead of each getting a fresh timeout."""

    expires_at: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """The deadline ``seconds`` from now."""
        return cls(time.monotonic() + seconds)

    @classmethod
    def of(cls, limit: Deadline | float) -> Deadline:
        """``limit`` itself, or for a number of seconds the deadline that far from now."""
        return limit if isinstance(limit, Deadline) else cls.after(limit)

    def remaining(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.expires_at - time.monotonic())

    @property
    def expired(self) -> bool:
        """Whether no time is left."""
        return self.remaining() == 0.0

    def within(self, seconds: float) -> Deadline:
        """The earlier of this deadline and ``seconds`` from now."""
        return Deadline(min(self.expires_at, time.monotonic() + seconds))
