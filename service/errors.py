"""Every exception of the service and its workers, in one place (as rq keeps its own): each class
is one meaning, raised by the store or job that finds it and answered by the web platform's one
error envelope (service.web.envelope: API.md's ``{"error": {"code", "message"}}``) or by RQ's
failed-job registry. Flask-free.
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error the API reports as is: status, stable code, message, optional extra fields."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


class AttemptExists(Exception):
    """The player already has this day's ranked attempt."""

    def __init__(self, attempt_id: str) -> None:
        super().__init__(attempt_id)
        self.attempt_id = attempt_id


class NameTaken(Exception):
    """Another player of the day has a name that looks the same
    (service.accounts.names.skeleton)."""


class Stale(Exception):
    """The client's ``seq`` is not the record's length any more."""


class ArchiveBusy(Exception):
    """Another writer held the archive file's lock longer than we could wait."""


class DayNotClosed(Exception):
    """The day cannot be archived yet: it is open, or verdicts are still due."""


class LeagueFull(Exception):
    """The league already has MAX_MEMBERS members."""


class TableError(Exception):
    """A refused table operation: API.md's status and a stable code."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class BadName(ValueError):
    """A name the service refuses; the message says why (API: 422 ``bad_value``)."""


class UnknownReplay(Exception):
    """No such attempt, neither stored nor archived."""


class DayOpen(Exception):
    """The attempt is unfinished, or its day has not closed: its seed is still secret."""


class AttemptNotFinished(RuntimeError):
    """The attempt does not exist or is not finished: the job fails (RQ's failed registry)."""


class RoundNotAnalysable(RuntimeError):
    """A table's round (hand) asked of the analysis job can't be analysed (not ended, or its
    seed still secret for the real deal): the job fails (RQ's failed registry)."""


class NotReplicated(RuntimeError):
    """The ranking was not confirmed by the rankings server's replicas in time (with
    PIKDAME_REDIS_WAIT_REPLICAS): no verdict yet, the job fails and is retried (the ranking is
    idempotent), so a failover never leaves a verified attempt off the board."""


class EngineMismatch(RuntimeError):
    """The record was played by an engine version this worker does not keep (it keeps every
    released one, engine.pikdame.releases): no verdict is possible here, so the job fails
    loudly instead of rejecting an honest player (deploy a worker that has it, then requeue)."""


class TurnMoved(Exception):
    """A turn timer's job found its turn over (the table moved on, or its deadline lies ahead on
    a clock behind): the job does nothing."""


class NoHint(Exception):
    """No hint now: ``code`` is the API's stable error code (``not_your_turn``, ``wrong_phase``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class PhraseTooSoon(Exception):
    """A seat said a phrase less than the table talk's gap ago (429 ``phrase_too_soon``)."""

    def __init__(self, wait_ms: int) -> None:
        super().__init__(f"one phrase every few seconds: wait {wait_ms} ms")
        self.wait_ms = wait_ms


class MatchError(Exception):
    """A refused quick-match request: API.md's status and a stable code (docs/LOBBY.md)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
