"""Capabilities declared, not implied (issue 39 item 2): every game has the small core
(service.games.adapter.Game) and declares the capabilities it offers (``offers``: tables, house
rules, the daily challenge, analysis, lessons); shared code asks the registry which games offer
what (``games.offering``), and each game that declares one has every member of its protocol."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from flask.testing import FlaskClient

from service import games
from service.games import adapter
from service.pages import learn
from service.pages.strings import strings
from tests.support.api import caller

PROTOCOLS: dict[adapter.Capability[Any], type] = {
    adapter.TABLES: adapter.Tables,
    adapter.HOUSE_RULES: adapter.HouseRules,
    adapter.DAILY: adapter.Daily,
    adapter.ANALYSIS: adapter.Analysis,
    adapter.LESSONS: adapter.Lessons,
    adapter.EVENT: adapter.Event,
    adapter.PAR: adapter.Par,
}


def members(protocol: type) -> set[str]:
    """A protocol's own members (its methods and properties, not its bases')."""
    return {
        name
        for name, value in vars(protocol).items()
        if not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, property))
    }


def test_the_core_is_small_and_the_capabilities_split_the_whole() -> None:
    core = members(adapter.Game)
    assert len(core) <= 12, sorted(core)
    parts = [core, *(members(protocol) for protocol in PROTOCOLS.values())]
    every = set().union(*parts)
    assert sum(len(part) for part in parts) == len(every), "each member in one protocol"
    whole = {
        name for base in adapter.GameAdapter.__mro__ if base is not object for name in members(base)
    }
    assert whole == every
    assert set(PROTOCOLS) == set(adapter.CAPABILITIES)
    for protocol in PROTOCOLS.values():
        assert adapter.Game in protocol.__mro__, protocol


@pytest.mark.parametrize("name", games.GAMES)
def test_every_game_has_the_core_and_what_it_declares(name: str) -> None:
    game = games.get(name)
    assert len(set(game.offers)) == len(game.offers)
    assert set(game.offers) <= set(adapter.CAPABILITIES)
    for member in members(adapter.Game):
        assert hasattr(game, member), (name, member)
    for capability in game.offers:
        for member in members(PROTOCOLS[capability]):
            assert hasattr(game, member), (name, capability.name, member)


def test_shared_lists_of_games_are_the_registrys_answers() -> None:
    """The daily games, the table games and the lessons are those that declare them: a game
    without a daily challenge (Tausende, R12) is in none of the daily lists."""
    assert tuple(games.offering(games.DAILY)) == games.DAILY_GAMES
    assert tuple(games.offering(games.TABLES)) == games.TABLE_GAMES
    assert set(learn.LESSONS) == set(games.offering(games.LESSONS))
    for name in games.GAMES:
        for capability in adapter.CAPABILITIES:
            offered = name in games.offering(capability)
            assert (
                offered == games.offers(name, capability) == (capability in games.get(name).offers)
            )
    assert "tausende" not in games.offering(games.DAILY)
    assert {"pikdame", "gin"} <= set(games.offering(games.DAILY))
    # a daily without a bot's par (Gin) declares none, rather than answering par() by raising
    assert "pikdame" in games.offering(games.PAR) and "gin" not in games.offering(games.PAR)
    for name in games.offering(games.PAR):
        assert name in games.offering(games.DAILY)


def test_a_game_that_declares_no_analysis_has_none_to_ask_for(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analysis route asks the registry: a game that does not declare ``ANALYSIS`` answers
    404 ``not_found`` where another's is computed (a finished table's round, docs/ANALYSIS.md)."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "plain"}]
    spec = {"game": "gin", "name": "Ada", "seats": seats}  # no cut (G3): hand 1 is dealt
    status, made = caller(client)("POST", "/api/tables", spec)
    assert status == 201, made
    call = caller(client, made["token"])
    table = made["table"]["id"]
    assert call("POST", f"/api/tables/{table}/start", {})[0] == 200
    assert call("POST", f"/api/tables/{table}/resign", {})[0] == 200  # R8: alone with a bot
    path = f"/api/tables/{table}/analysis?hand=1&seat=0"
    assert call("GET", path, None)[0] in (200, 202), call("GET", path, None)
    game = made["table"]["game"]
    without = {n: a for n, a in games.offering(games.ANALYSIS).items() if n != game}
    monkeypatch.setitem(games._OFFERING, games.ANALYSIS, without)
    status, body = call("GET", path, None)
    assert (status, body["error"]["code"]) == (404, "not_found")


@pytest.mark.parametrize("lang", ["de", "en", "nl"])
def test_every_bot_level_has_its_name_where_shared_scripts_read_it(lang: str) -> None:
    """A defect: the lobby (js/tables/lobby.js) and the invite and waiting room
    (js/lib/table/summary.js) name any game's bot ``level.<level>``, which Gin's levels lacked
    (an invite to a Gin table against the computer showed "level.plain"). Every level every
    game declares has its name there, and the new-table form reads the same."""
    table = strings(lang)
    for name in games.GAMES:
        for level in games.get(name).levels:
            assert f"level.{level}" in table, (lang, name, level)
    for form in (adapter.form_facts(t) for t in games.offering(games.TABLES).values()):
        assert all(level["text"] == f"level.{level['level']}" for level in form["levels"])
