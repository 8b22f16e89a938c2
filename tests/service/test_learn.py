"""The guided first rounds (service/pages/learn.py) are true to the rules: every scripted step is a
legal move of the engine from the position before it, with the effect its explanation states;
every wrong try the page explains is refused by the engine with the code it names; the pages
exist in both languages and link the rules pages' sections that exist."""

from __future__ import annotations

import json
import re
from copy import deepcopy
from pathlib import Path
from typing import Any

import pytest

from engine import State, games
from engine.core.errors import EngineError
from engine.gin import HandState
from service.app import create_app
from service.pages import learn
from service.pages.strings import LANGS

I18N = Path(__file__).resolve().parents[2] / "templates" / "static" / "i18n"
STRINGS = {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGS}


def _state(lesson: learn.Lesson) -> Any:
    """The lesson's start, read by its game's engine (the engine's registry, engine/games.py)."""
    return games.GAMES[lesson.game].from_position(deepcopy(lesson.start))


def _after(lesson: learn.Lesson) -> list[dict[str, Any]]:
    """The position after each step, pushed one by one by the seat to move."""
    state = _state(lesson)
    docs = []
    for step in lesson.steps:
        seat = state.turn
        assert (seat == 0) == step.mine, f"{step.move}: the learner acts on seat 0 only"
        # push() checks every rule and raises on an illegal move; a game that tells one move's
        # legality (Gin's is_legal) says so too; a draw or a discard, written one way only, is
        # among the engine's legal moves in every game.
        if hasattr(state, "is_legal"):
            assert state.is_legal(step.move)
        legal = {str(move) for move in state.legal_moves()}
        pushed = str(state.push(step.move))
        if pushed.split()[0] in ("draw", "discard"):
            assert pushed in legal, f"{pushed} is among the engine's legal moves"
        docs.append(state.to_position())
    return docs


@pytest.mark.parametrize("game", learn.LESSONS)
def test_every_step_is_legal_and_the_page_shows_the_engines_positions(game: str) -> None:
    lesson = learn.BY_GAME[game]
    docs = _after(lesson)
    page = learn.document(game)
    assert len(page["steps"]) == len(lesson.steps)
    assert page["end"] == learn.scene(game, docs[-1])
    for i, step in enumerate(page["steps"][1:], start=1):
        assert step["scene"] == learn.scene(game, docs[i - 1])
    for step in (step for step in lesson.steps if step.mine):
        # What the learner selects and clicks is the move: the action, its cards, the meld.
        action, *rest = step.move.split()
        assert action == step.action
        assert set(step.cards) <= set(rest), f"{step.cards} belong to {step.move}"
        if step.action == "lay":
            assert step.target is not None
            seat, number = step.target.split(".")
            assert rest[1] in (step.target, number) and (rest[1] == step.target or seat == "0")


@pytest.mark.parametrize("game", learn.LESSONS)
def test_every_explained_wrong_try_is_refused_by_the_engine_with_its_code(game: str) -> None:
    lesson = learn.BY_GAME[game]
    state = _state(lesson)
    tried = 0
    for step in lesson.steps:
        for key, (move, code) in step.wrong.items():
            copy = state.copy()
            with pytest.raises(EngineError) as refused:
                copy.push(move)
            assert refused.value.code == code, f"{move}: {refused.value}"
            action, *cards = key.split()
            assert move.split()[0] == action and set(cards) <= set(move.split())
            tried += 1
        state.push(step.move)
    assert tried >= 1


def test_pikdame_round_draw_meld_take_lay_out_r4_r5_r7() -> None:
    """R4.1 draw gives the stock's top; R5.2 run and R5.1 set laid; R4.1 take lays the meld and
    brings the pile's rest (2D) to the hand; R4.2 lay extends the run; R4.3/R7.1 going out wins
    70 (the melds) and the opponent loses 120 (Q♠ 100, R1)."""
    lesson = learn.BY_GAME["pikdame"]
    docs = _after(lesson)
    assert "KC" in docs[0]["hands"][0]
    assert docs[1]["melds"][0] == [{"kind": "run", "cards": ["7H", "8H", "9H"]}]
    assert docs[2]["melds"][0][1] == {"kind": "set", "cards": ["KS", "KD", "KC"]}
    assert docs[3]["discard"] == ["2D"] and docs[3]["turn"] == 1
    assert docs[5]["discard"][-1] == "7C"
    take = docs[6]
    assert take["melds"][0][2] == {"kind": "run", "cards": ["5C", "6C", "7C"]}
    assert sorted(take["hands"][0]) == ["2D", "TH"] and take["discard"] == []
    assert docs[7]["melds"][0][0]["cards"] == ["7H", "8H", "9H", "TH"]
    outcome = docs[8]["outcome"]
    assert outcome == {"end": "out", "winner": 0, "round_scores": [70, -120], "doubled": False}
    assert "QS" in docs[8]["hands"][1]
    assert (
        "70" in STRINGS["de"]["learn.pikdame.done"] and "120" in STRINGS["de"]["learn.pikdame.done"]
    )


def test_gin_round_take_deadwood_gin_g5_g6() -> None:
    """G5 take then a discard that is not the taken card; G6 deadwood 10 after it (a knock would
    be allowed); the drawn 8S makes the hand gin: knocker 25 + the defender's 29 = 54."""
    lesson = learn.BY_GAME["gin"]
    docs = _after(lesson)
    page = learn.document("gin")
    assert docs[0]["taken"] == "9H"
    assert page["steps"][2]["scene"]["counters"]["deadwood"] == 10
    assert docs[4]["hands"][0].count("8S") == 1
    assert docs[5]["knock"]["deadwood"] == 0
    outcome = docs[6]["outcome"]
    assert outcome["end"] == "gin" and outcome["winner"] == 0 and outcome["scores"] == [54, 0]
    assert outcome["deadwood"] == [0, 29]
    assert "54" in STRINGS["de"]["learn.gin.defend"] and "29" in STRINGS["de"]["learn.gin.defend"]


def test_gin_knock_was_already_allowed_with_ten_deadwood_g6() -> None:
    """The explanation says a knock with 10 deadwood was allowed instead of the discard."""
    state = HandState.from_position(deepcopy(learn.BY_GAME["gin"].start))
    state.push("take")
    state.push("knock KC 5S 6S 7S | 9H 9D 9C | 2H 3H 4H")
    assert state.knock is not None and state.knock.deadwood == 10


def test_tausende_opening_r12_3_lay_off_r12_5() -> None:
    """R12.3: 25 points laid is not yet an opening, 40 is; R12.5: the lay-off on the other
    seat's run counts for the learner; the Q♠ stays in hand (R12.6)."""
    docs = _after(learn.BY_GAME["tausende"])
    assert docs[1]["turn_points"] == 25 and docs[1]["opened"] == [False, True]
    assert docs[2]["turn_points"] == 40 and docs[2]["opened"] == [True, True]
    assert docs[3]["melds"][1][0]["cards"] == ["6C", "7C", "8C", "9C"]
    assert docs[3]["laid"][0] == 45
    assert docs[4]["hands"][0] == ["QS", "7D"] and docs[4]["discard"][-1] == "4D"
    # The explanation's other claim: discarding at 25 takes the melds back into the hand.
    below = State.from_position(deepcopy(learn.BY_GAME["tausende"].start))
    for move in ("draw", "meld 9H TH JH", "discard 4D"):
        below.push(move)
    assert below.to_position()["melds"][0] == [] and "9H" in below.to_position()["hands"][0]


def test_every_step_has_its_texts_in_both_languages() -> None:
    for lesson in learn.BY_GAME.values():
        keys = {f"learn.{lesson.game}.{part}" for part in ("title", "lead", "done")}
        for step in lesson.steps:
            keys |= {step.text, f"{step.text}Hint"}
            keys |= {f"learn.{lesson.game}.error.{code}" for _, code in step.wrong.values()}
        for lang, table in STRINGS.items():
            assert keys <= set(table), (lang, keys - set(table))


def test_the_lesson_pages_and_their_rule_links(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "PIKDAME_SECRET": "test-secret"})
    client = app.test_client()
    for game in learn.LESSONS:
        for lang in LANGS:
            response = client.get(f"/lernen/{game}?lang={lang}")
            assert response.status_code == 200
            html = response.get_data(as_text=True)
            assert STRINGS[lang][f"learn.{game}.title"] in html
            doc = json.loads(re.search(r'id="lesson">(.*?)</script>', html, re.S)[1])  # type: ignore[index]
            rules = client.get(f"{doc['rules']}?lang={lang}").get_data(as_text=True)
            for step in doc["steps"]:
                assert f'id="{step["anchor"]}"' in rules, (game, lang, step["anchor"])
            assert f'href="/lernen/{game}"' in rules
    assert client.get("/lernen/skat").status_code == 404
    home = client.get("/").get_data(as_text=True)
    assert 'id="learn-offer"' in home and 'href="/lernen/pikdame"' in home
