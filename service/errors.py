"""Every exception of the service and its workers, in one place (as rq keeps its own): each class
is one meaning, raised by the store or job that finds it and answered by the web platform's one
error envelope (service.web.envelope: API.md's ``{"error": {"code", "message"}}``) or by RQ's
failed-job registry. Flask-free.
"""

from __future__ import annotations

from typing import Any, Final

from engine.gin.errors import CODES as GIN_CODES
from engine.pikdame.errors import CODES as PIKDAME_CODES
from engine.pikdame.errors import TAUSENDE_CODES

#: Every stable error code the service itself answers with (``{"error": {"code"}}``), sorted: the
#: routes' ApiError, TableError, MatchError and NoHint, the envelope's (service.web.envelope) and
#: the table analyses' reasons. Each has a text in every language (``err.<code>`` in
#: templates/static/i18n/*.json, tests/service/test_error_texts.py, which also finds every code
#: written in the service's source here).
CODES: Final = (
    "account_required",
    "already_matched",
    "already_queued",
    "already_seated",
    "already_started",
    "analysis_failed",
    "attempt_exists",
    "bad_credential",
    "bad_format",
    "bad_idempotency_key",
    "bad_json",
    "bad_request",
    "bad_value",
    "conflict",
    "credential_exists",
    "day_closed",
    "day_open",
    "deal_running",
    "deal_seen",
    "error",
    "event_deal_seen",
    "event_done",
    "event_not_open",
    "finished",
    "forbidden",
    "hints_off",
    "idempotency_key_in_use",
    "idempotency_key_reused",
    "internal",
    "last_device",
    "league_full",
    "method_not_allowed",
    "no_resign_proposal",
    "not_a_bot",
    "not_a_rematch",
    "not_claimable",
    "not_finished",
    "not_found",
    "not_member",
    "not_playing",
    "not_queued",
    "not_ranked",
    "not_started",
    "not_verified",
    "not_your_turn",
    "phrase_too_soon",
    "private_table",
    "rate_limited",
    "rematch_declined",
    "rematch_not_agreed",
    "round_running",
    "seed_secret",
    "stale",
    "table_full",
    "too_large",
    "too_many_streams",
    "unauthorized",
    "unavailable",
    "unknown_attempt",
    "unknown_day",
    "unknown_device",
    "unknown_event",
    "unknown_hand",
    "unknown_invite",
    "unknown_league",
    "unknown_round",
    "unknown_seat",
    "unknown_table",
    "unsupported_media_type",
    "wrong_phase",
)

#: The engines' codes the API passes on (an illegal move's 422, a replay's verdict): F7's and
#: Tausende's (engine.pikdame.errors), G9's (engine.gin.errors), a record's unknown engine, and
#: ``bad_value`` (a move's value out of range).
ENGINE_CODES: Final = tuple(
    sorted({*PIKDAME_CODES, *TAUSENDE_CODES, *GIN_CODES, "unknown_engine", "bad_value"})
)

#: Every code the API can return.
API_CODES: Final = tuple(sorted({*CODES, *ENGINE_CODES}))

#: The codes the pages give a failure that brought no error document
#: (templates/static/js/lib/api.js): no network, or a status nginx answered itself (its 413 for a
#: body too large, 502/504 with the app away) or the app answered without one.
PAGE_CODES: Final = (
    "http_404",
    "http_413",
    "http_429",
    "http_500",
    "http_502",
    "http_503",
    "http_504",
    "network",
)


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
    (service.common.names.skeleton)."""


class Stale(Exception):
    """The client's ``seq`` is not the record's length any more."""


class ArchiveBusy(Exception):
    """Another writer held the archive file's lock longer than we could wait."""


class DayNotClosed(Exception):
    """The day cannot be archived yet: it is open, or verdicts are still due."""


class BackupError(Exception):
    """A backup that cannot be written or restored (service.backup); the message says why.
    Raised before anything is written when the file or the target servers are wrong."""


class LeagueFull(Exception):
    """The league already has MAX_MEMBERS members."""


#: Consent at tables (docs/TABLES.md "Rematch: everyone's consent", "Resign (R8)", "Claiming an
#: away seat's game"), each answered as a 409 with its code:
#: the creator's start of a rematch before every human seat accepted it
REMATCH_NOT_AGREED: Final = "rematch_not_agreed"
#: starting, accepting or asking again for a rematch one of its seats declined
REMATCH_DECLINED: Final = "rematch_declined"
#: accepting or declining at a table that is no rematch offer
NOT_A_REMATCH: Final = "not_a_rematch"
#: declining a resign proposal when none is pending
NO_RESIGN_PROPOSAL: Final = "no_resign_proposal"
#: claiming the game against a seat that is present, or whose turn the timer has not played
NOT_CLAIMABLE: Final = "not_claimable"


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


class AnalysisOverBudget(RuntimeError):
    """An analysis job used up its CPU budget (PIKDAME_ANALYSIS_CPU_S, worker.analysis): the job
    fails (RQ's failed registry) and the route answers 503 ``analysis_failed`` once."""


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
