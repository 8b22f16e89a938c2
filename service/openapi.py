"""The OpenAPI 3.1 document of the whole API, served at ``/api/openapi.json``."""

from __future__ import annotations

from typing import Any, Final

from flask import Blueprint, Response, jsonify

from engine import ENGINE_VERSION

bp = Blueprint("openapi", __name__)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref("Error")}}}


def _ok(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _param(name: str, where: str, schema: dict[str, Any], required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": where, "required": required or where == "path", "schema": schema}


DATE: Final = {"type": "string", "format": "date", "example": "2026-11-30"}
ID: Final = {"type": "string", "maxLength": 64}
AUTH: Final[list[dict[str, list[str]]]] = [{"bearer": []}, {"session": []}]
ERRORS: Final = {
    "400": _error("malformed request (not JSON, not an object, missing fields)"),
    "401": _error("no credentials for an attempt that needs them"),
    "403": _error("someone else's attempt"),
    "404": _error("unknown day or attempt (a future day is unknown)"),
    "409": _error("conflict: stale, attempt_exists, day_closed, day_open, not_finished …"),
    "413": _error("body too large"),
    "415": _error("state-changing requests must be application/json"),
    "422": _error("an illegal move (FORMATS.md F7 code) or a bad value (bad_value)"),
    "429": _error("rate limited"),
}


def _errors(*codes: str) -> dict[str, Any]:
    return {code: ERRORS[code] for code in codes}


PAGE: Final = [
    _param("offset", "query", {"type": "integer", "minimum": 0, "default": 0}),
    _param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100, "default": 50}),
]
NAME_BODY: Final = {
    "required": True,
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "required": ["name"],
                "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 24}},
            }
        }
    },
}
CREATED: Final = _ok(
    {
        "type": "object",
        "required": ["attempt", "token"],
        "properties": {"attempt": _ref("Attempt"), "token": {"type": "string"}},
    },
    "the attempt and its bearer token (shown once)",
)

SCHEMAS: Final[dict[str, Any]] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "attempt_id": {"type": "string"},
                    "seq": {"type": "integer"},
                },
            }
        },
    },
    "Day": {
        "type": "object",
        "required": ["date", "game", "engine", "commitment", "opens_at", "closes_at", "seed"],
        "properties": {
            "date": DATE,
            "game": {"const": "pikdame"},
            "engine": {"type": "string"},
            "commitment": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            "opens_at": {"type": "string", "format": "date-time"},
            "ends_at": {"type": "string", "format": "date-time", "description": "24:00 UTC"},
            "closes_at": {
                "type": "string",
                "format": "date-time",
                "description": "24:00 UTC + PIKDAME_GRACE_MINUTES: moves stop, seed published",
            },
            "rules": {"type": "object"},
            "seats": {"type": "array", "items": {"type": "object"}},
            "seed": {"type": ["string", "null"], "description": "hex, once the day has closed"},
            "attempts": {"type": "integer"},
        },
    },
    "Meld": {
        "type": "object",
        "properties": {
            "kind": {"enum": ["set", "run"]},
            "cards": {"type": "array", "items": {"type": "string"}},
        },
    },
    "View": {
        "type": "object",
        "description": "what seat 0 may know (RULES.md R10), cards in F5's canonical order",
        "required": ["seat", "turn", "phase", "hand", "melds", "hand_sizes", "stock_size"],
        "properties": {
            "seat": {"const": 0},
            "turn": {"type": "integer"},
            "phase": {"enum": ["draw", "play"]},
            "hand": {"type": "array", "items": {"type": "string"}},
            "melds": {"type": "array", "items": {"type": "array", "items": _ref("Meld")}},
            "hand_sizes": {"type": "array", "items": {"type": "integer"}},
            "stock_size": {"type": "integer"},
            "discard": {"type": "array", "items": {"type": "string"}},
            "removed": {"type": "array", "items": {"type": "string"}},
            "can_draw": {"type": "boolean"},
            "can_take": {"type": "boolean"},
            "outcome": {"type": ["object", "null"]},
        },
    },
    "Verification": {
        "type": ["object", "null"],
        "properties": {
            "status": {"enum": ["queued", "verified", "rejected"]},
            "score": {"type": ["integer", "null"]},
            "turns": {"type": ["integer", "null"]},
            "rank": {"type": ["integer", "null"]},
            "reason": {"type": ["string", "null"]},
        },
    },
    "Attempt": {
        "type": "object",
        "required": ["id", "date", "name", "status", "seq", "view", "verification"],
        "properties": {
            "id": {"type": "string"},
            "date": DATE,
            "name": {"type": "string"},
            "ranked": {"type": "boolean", "description": "false for practice of a closed day"},
            "status": {"enum": ["playing", "finished"]},
            "seq": {"type": "integer", "description": "moves in the record, every seat's"},
            "view": _ref("View"),
            "verification": _ref("Verification"),
        },
    },
    "Record": {"type": "object", "description": "a game record, FORMATS.md F6"},
    "Board": {
        "type": "object",
        "properties": {
            "date": DATE,
            "total": {"type": "integer"},
            "entries": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "rank": {"type": "integer"},
                        "name": {"type": "string"},
                        "score": {"type": "integer"},
                        "turns": {"type": "integer"},
                        "attempt_id": {"type": "string"},
                    },
                },
            },
        },
    },
}

PATHS: Final[dict[str, Any]] = {
    "/api/daily": {
        "get": {"summary": "today's challenge (UTC)", "responses": {"200": _ok(_ref("Day"))}}
    },
    "/api/daily/{date}": {
        "get": {
            "summary": "a day's challenge; its seed once closed",
            "parameters": [_param("date", "path", DATE)],
            "responses": {"200": _ok(_ref("Day")), **_errors("404")},
        }
    },
    "/api/days": {
        "get": {
            "summary": "archive: days that had players, newest first, before a date",
            "parameters": [
                _param("before", "query", DATE),
                _param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100}),
            ],
            "responses": {
                "200": _ok({"type": "object", "properties": {"days": {"type": "array"}}}),
                **_errors("422"),
            },
        }
    },
    "/api/daily/{date}/attempts": {
        "post": {
            "summary": "start today's ranked attempt (one per player per day)",
            "parameters": [_param("date", "path", DATE)],
            "requestBody": NAME_BODY,
            "responses": {
                "201": CREATED,
                **_errors("400", "401", "404", "409", "413", "415", "422", "429"),
            },
        }
    },
    "/api/daily/{date}/practice": {
        "post": {
            "summary": "an unranked replay of a closed day's deal (same API, never ranked)",
            "parameters": [_param("date", "path", DATE)],
            "requestBody": NAME_BODY,
            "responses": {
                "201": CREATED,
                **_errors("400", "401", "404", "409", "413", "415", "422", "429"),
            },
        }
    },
    "/api/attempts/{id}": {
        "get": {
            "summary": "an attempt (owner; public once finished and its day closed)",
            "security": AUTH,
            "parameters": [_param("id", "path", ID)],
            "responses": {
                "200": _ok({"type": "object", "properties": {"attempt": _ref("Attempt")}}),
                **_errors("401", "403", "404"),
            },
        }
    },
    "/api/attempts/{id}/moves": {
        "post": {
            "summary": "play a move (F2); the bots answer until it is your turn again",
            "security": AUTH,
            "parameters": [_param("id", "path", ID)],
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["move", "seq"],
                            "properties": {
                                "move": {"type": "string", "example": "draw"},
                                "seq": {"type": "integer"},
                            },
                        }
                    }
                },
            },
            "responses": {
                "200": _ok(
                    {
                        "type": "object",
                        "properties": {
                            "attempt": _ref("Attempt"),
                            "events": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "properties": {
                                        "seat": {"type": "integer"},
                                        "move": {"type": "string"},
                                    },
                                },
                            },
                        },
                    }
                ),
                **_errors("400", "401", "403", "404", "409", "413", "415", "422", "429"),
            },
        }
    },
    "/api/attempts/{id}/log": {
        "get": {
            "summary": "the game record (F6) once finished; deal.seed null until the day closes",
            "security": AUTH,
            "parameters": [_param("id", "path", ID)],
            "responses": {"200": _ok(_ref("Record")), **_errors("401", "403", "404", "409")},
        }
    },
    "/api/attempts/{id}/hint": {
        "get": {
            "summary": "the moves laying the most points from your hand now (your play phase)",
            "security": AUTH,
            "parameters": [_param("id", "path", ID)],
            "responses": {
                "200": _ok(
                    {
                        "type": "object",
                        "properties": {
                            "moves": {"type": "array", "items": {"type": "string"}},
                            "points": {"type": "integer"},
                        },
                    }
                ),
                **_errors("401", "403", "404", "409"),
            },
        }
    },
    "/api/leaderboard/{date}": {
        "get": {
            "summary": "a day's verified attempts in R11 order",
            "parameters": [_param("date", "path", DATE), *PAGE],
            "responses": {"200": _ok(_ref("Board")), **_errors("404", "422")},
        }
    },
    "/api/leaderboard/{date}/around/{attempt_id}": {
        "get": {
            "summary": "the entries around one ranked attempt",
            "parameters": [
                _param("date", "path", DATE),
                _param("attempt_id", "path", ID),
                _param("radius", "query", {"type": "integer", "minimum": 0, "maximum": 50}),
            ],
            "responses": {"200": _ok(_ref("Board")), **_errors("404", "422")},
        }
    },
    "/api/leaderboard/all-time": {
        "get": {
            "summary": "per player: the sum of verified daily scores",
            "parameters": PAGE,
            "responses": {"200": _ok({"type": "object"}), **_errors("422")},
        }
    },
    "/healthz": {
        "get": {
            "summary": "Redis reachable and the verification queue's length",
            "responses": {
                "200": _ok({"type": "object"}),
                "503": _ok({"type": "object"}, "Redis unreachable"),
            },
        }
    },
    "/api/openapi.json": {
        "get": {"summary": "this document", "responses": {"200": _ok({"type": "object"})}}
    },
}


def document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Pik Dame — Tages-Challenge",
            "version": "1",
            "description": f"The daily challenge API (engine {ENGINE_VERSION}); see API.md.",
        },
        "paths": PATHS,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "session": {"type": "apiKey", "in": "cookie", "name": "session"},
            },
        },
    }


@bp.get("/api/openapi.json")
def openapi() -> Response:
    return jsonify(document())
