"""The tests' clock: the service reads it through PIKDAME_NOW (service.common.clock), and the
tests move it by hand between hours and days."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field


@dataclass
class Clock:
    """A settable clock; calling it gives the current moment (an aware UTC datetime)."""

    moment: dt.datetime = field(default_factory=lambda: dt.datetime(2030, 1, 1, 10, tzinfo=dt.UTC))

    def __call__(self) -> dt.datetime:
        return self.moment

    @property
    def today(self) -> str:
        return self.moment.date().isoformat()

    def advance(self, **delta: float) -> None:
        self.moment += dt.timedelta(**delta)

    def set_day(self, date: str, hour: int = 10) -> None:
        self.moment = dt.datetime.combine(dt.date.fromisoformat(date), dt.time(hour), dt.UTC)
