"""The move-by-move analysis of a Pik Dame round (docs/ANALYSIS.md, ``pikdame-analysis/1``):
what it says about hand-made decisions whose worth is certain, that a move equal to the bot's
costs nothing, that one record always gives one document, and that no document holds the seed
or a card the seat could not see."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import Any

import pytest

from engine.core.analysis import FLOOR
from engine.core.records import commitment, parse_seed
from engine.pikdame.analysis import ANALYSIS_FORMAT, SAMPLING, analyse, analyse_position
from engine.pikdame.bots import choose_move
from engine.pikdame.daily import DAILY_DEALER, DAILY_RULES, daily_seats
from engine.pikdame.errors import FormatError, ReplayError
from engine.pikdame.game import Game
from engine.pikdame.match import Match
from engine.pikdame.rules import Rules, Seat
from engine.pikdame.state import State, deal_for
from engine.pikdame.view import view
from tests.support.engine_cli import run
from tests.support.pikdame import doc

SEED = hashlib.sha256(b"analysis/daily").digest()

#: R4.4/R7.2: the stock is empty and seat 1 holds one card, so it cannot take (R4.1): whatever
#: seat 0 discards ends the round, and the Q♠ kept in hand costs 100 (R1, R7.2).
LAST_DISCARD = doc(["QS 5C", "2D"], melds=[["run 7H 8H 9H"], []], discard="KC", phase="play")


def analysis_of(position: dict[str, Any], moves: list[str], **kw: Any) -> dict[str, Any]:
    return analyse_position(
        {"position": position, "moves": [{"seat": 0, "move": m} for m in moves], "seat": 0}, **kw
    )


@pytest.mark.parametrize("mode", ["view", "deal"])
def test_a_discard_that_loses_the_round_is_named_a_blunder(mode: str) -> None:
    """Keeping the Q♠ (discarding 5C) ends the round with 7H 8H 9H − Q♠ = −85; the zen bot lets
    the Q♠ go and keeps 15 − 5 = 10 (R7.2): the discard cost 95 round points in every world."""
    got = analysis_of(LAST_DISCARD, ["discard 5C"], mode=mode, samples=4)
    (decision,) = got["decisions"]
    assert decision["played"] == "discard 5C"
    assert decision["best"] == "discard QS"
    assert decision["cost"] == "95"
    assert decision["expected"] == {"best": "10", "played": "-85"}
    assert decision["mark"] == "blunder"
    assert decision["interval"] == (["95.00", "95.00"] if mode == "view" else None)
    assert got["summary"]["blunders"] == 1
    assert got["summary"]["result"] == -85


def test_the_command_line_analyses_a_position_input() -> None:
    """``python -m engine analyse`` reads a position input as ``check`` does (F7)."""
    doc = {"position": LAST_DISCARD, "moves": [{"seat": 0, "move": "discard 5C"}], "seat": 0}
    status, out, err = run("analyse", "--mode", "deal", stdin=json.dumps(doc))
    assert (status, err) == (0, "")
    assert out == analysis_of(LAST_DISCARD, ["discard 5C"], mode="deal")
    assert out["source"] is None and out["decisions"][0]["cost"] == "95"


@pytest.mark.parametrize("mode", ["view", "deal"])
def test_the_bots_own_move_costs_nothing(mode: str) -> None:
    got = analysis_of(LAST_DISCARD, ["discard QS"], mode=mode, samples=4)
    (decision,) = got["decisions"]
    assert decision["best"] == decision["played"] == "discard QS"
    assert (decision["same"], decision["cost"], decision["mark"]) == ("move", "0", None)
    assert (decision["samples"], decision["interval"], decision["expected"]) == (0, None, None)
    assert got["summary"]["result"] == 10


def test_lay_offs_in_another_order_cost_nothing() -> None:
    """R4.2: two lay-offs on own melds in either order leave the same position when the turn
    ends, so the other order is the same decision ('turn'), exactly zero."""
    position = doc(
        ["TH KC 2D 5S 4C", "2H 3H 4H 5H 6H 7H"],
        melds=[["run 7H 8H 9H", "set KS KH KD"], []],
        stock="9C 9D 9S",
        discard="QC",
        phase="play",
    )
    state = State.from_position(position)
    first = str(choose_move("zen", view(state, 0)))
    assert first in ("lay TH 1", "lay KC 2")
    other = "lay KC 2" if first == "lay TH 1" else "lay TH 1"
    got = analysis_of(position, [other, first], samples=4)
    assert [(d["played"], d["same"], d["cost"]) for d in got["decisions"]] == [
        (other, "turn", "0"),
        (first, "move", "0"),
    ]


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A daily round (R11) whose player (seat 0) plays like the beginner bot."""
    game = Game.start(SEED, DAILY_RULES, daily_seats("Ada"), DAILY_DEALER)
    while not game.finished:
        game.play(str(choose_move("beginner", view(game.state, 0))), 0)
    return game.to_record(SEED)


@pytest.fixture(scope="module")
def analysed(record: dict[str, Any]) -> dict[str, Any]:
    return analyse(record, samples=3)


def test_the_document_has_its_documented_shape(
    record: dict[str, Any], analysed: dict[str, Any]
) -> None:
    got = analysed
    assert got["format"] == ANALYSIS_FORMAT
    assert got["source"] == {"format": "pikdame-log/1", "engine": record["engine"], "round": 1}
    assert (got["seat"], got["mode"], got["analyst"]) == (0, "view", "zen")
    assert got["sampling"] == {"fixed": 3}
    assert all(d["samples"] == 3 for d in got["decisions"] if d["same"] is None)
    assert all(p["samples"] == 3 for p in got["graph"])
    assert got["rules"] == record["rules"]
    own = [i for i, m in enumerate(record["moves"]) if m["seat"] == 0]
    assert [d["move_index"] for d in got["decisions"]] == own
    assert [d["played"] for d in got["decisions"]] == [record["moves"][i]["move"] for i in own]
    turns = [d["turn"] for d in got["decisions"] if d["phase"] == "draw"]
    assert turns == list(range(1, len(turns) + 1))
    assert [p["turn"] for p in got["graph"]] == turns  # one point per turn (R4)
    assert got["summary"]["result"] == record["result"]["round_scores"][0]
    judged = [d for d in got["decisions"] if d["same"] is None]
    assert judged, "the beginner differs from zen somewhere"
    for d in judged:
        low, high = (Fraction(x) for x in d["interval"])
        assert low <= Fraction(d["cost"]) <= high
        best, played = d["expected"]["best"], d["expected"]["played"]
        assert Fraction(best) - Fraction(played) == Fraction(d["cost"])


def test_the_same_record_gives_the_same_document_twice_and_on_the_command_line(
    record: dict[str, Any], analysed: dict[str, Any]
) -> None:
    assert analyse(record, samples=3) == analysed
    status, out, err = run("analyse", "--samples", "3", stdin=json.dumps(record))
    assert (status, err) == (0, "")
    assert out == analysed


def test_a_secret_record_analyses_with_the_services_seed_and_says_nothing_of_it(
    record: dict[str, Any], analysed: dict[str, Any]
) -> None:
    """R11/F4: while the day runs the record holds no seed; the service passes it, and the
    document is the one the revealed record gives, with neither the seed nor its commitment."""
    secret = {**record, "deal": {**record["deal"], "seed": None}}
    assert analyse(secret, samples=3, seed=SEED) == analysed
    text = json.dumps(analysed)
    assert SEED.hex() not in text and commitment(SEED) not in text
    with pytest.raises(FormatError) as info:
        analyse(secret)
    assert SEED.hex() not in str(info.value)
    status, out, err = run("analyse", stdin=json.dumps(secret))
    assert status == 2 and out is None and "not revealed" in err


def test_a_wrong_seed_is_refused(record: dict[str, Any]) -> None:
    with pytest.raises(FormatError, match="commitment"):
        analyse(record, seed=hashlib.sha256(b"another").digest())


def test_the_document_names_no_card_the_seat_could_not_see(
    record: dict[str, Any], analysed: dict[str, Any]
) -> None:
    """Every card a decision names is in the seat's hand then, or the pile's top it takes
    (R4.1, R10): the moves are the seat's own and the analyst's from the seat's view."""
    state = State.new_round(SEED, DAILY_RULES, DAILY_DEALER)
    decisions = {d["move_index"]: d for d in analysed["decisions"]}
    for i, entry in enumerate(record["moves"]):
        if i in decisions:
            visible = {str(c) for c in state.hand(0)} | {str(c) for c in state.discard[-1:]}
            for text in (decisions[i]["played"], decisions[i]["best"]):
                named = {t for t in text.split()[1:] if not t.isdigit()}
                named -= {"set", "run", "low", "high"}
                assert named <= visible, (text, visible)
        state.push(entry["move"], entry["seat"])


def test_an_illegal_move_in_the_record_is_named_with_its_index(record: dict[str, Any]) -> None:
    broken = {**record, "moves": [*record["moves"][:1], {"seat": 0, "move": "draw"}]}
    with pytest.raises(ReplayError) as info:
        analyse(broken, samples=2)
    assert (info.value.code, info.value.move_index) == ("wrong_phase", 1)
    status, out, _ = run("analyse", "--samples", "2", stdin=json.dumps(broken))
    assert status == 3 and out["error"]["move_index"] == 1


def test_the_real_deal_mode_plays_each_decision_out_once(
    record: dict[str, Any], analysed: dict[str, Any]
) -> None:
    """The second mode (the cards public): every value certain, no interval, one play-out."""
    got = analyse(record, mode="deal")
    assert got["mode"] == "deal" and got["sampling"] is None
    assert [d["move_index"] for d in got["decisions"]] == [
        d["move_index"] for d in analysed["decisions"]
    ]
    for d in got["decisions"]:
        assert d["interval"] is None
        if d["same"] is None:
            assert d["samples"] == 1
            assert int(d["expected"]["best"]) - int(d["expected"]["played"]) == int(d["cost"])
    assert all(p["interval"] is None and p["samples"] == 1 for p in got["graph"])
    assert analyse(record, mode="deal") == got


def test_bad_arguments_are_format_errors(record: dict[str, Any]) -> None:
    for kw in ({"mode": "peek"}, {"samples": 1}, {"seat": 4}, {"round": 2}):
        with pytest.raises(FormatError):
            analyse(record, **kw)
    status, _, err = run("analyse", "--mode", "peek", stdin=json.dumps(record))
    assert status == 2 and err


def test_the_default_sampling_spends_its_budget_of_play_out_moves(
    record: dict[str, Any],
) -> None:
    """docs/ANALYSIS.md: without a fixed count each judged decision gets at least FLOOR deals
    and at most ``most``, fewer than ``least`` only once the budget of work is spent (no deal
    starts past it), and the document says which budget shared them out and what it spent;
    the graph points of their own get ``graph`` deals while half the budget lasts."""
    got = analyse(record)
    assert got["sampling"] == SAMPLING.to_json()
    assert set(got["sampling"]) == {"moves", "graph", "least", "most"}
    judged = [d["samples"] for d in got["decisions"] if d["same"] is None]
    assert judged and all(FLOOR <= n <= SAMPLING.most for n in judged)
    if any(n < SAMPLING.least for n in judged):
        assert got["work"] >= SAMPLING.moves
    assert not any(d["unjudged"] for d in got["decisions"])
    own = [
        p["samples"]
        for p in got["graph"]
        if p["move_index"] not in {d["move_index"] for d in got["decisions"] if d["same"] is None}
    ]
    assert own and all(1 <= n <= SAMPLING.graph for n in own)


def table_record() -> dict[str, Any]:
    """A Tausende table's game (``pikdame-game/1``, R12): Ada (seat 0) plays like the advanced
    bot against zen and the beginner, through round 1 into round 2, then resigns."""
    counter = [0]

    def new_seed() -> bytes:
        counter[0] += 1
        return hashlib.sha256(b"analysis/tausende/%d" % counter[0]).digest()

    rules = Rules(players=3, ruleset="tausende")
    seats = (Seat("human", name="Ada"), Seat("bot", level="zen"), Seat("bot", level="beginner"))
    match, _ = Match.start(rules, seats, 0, new_seed)
    while len(match.rounds) < 2 and not match.finished:
        if match.awaiting_cut:
            match.play("cut 20", 0, new_seed)
            continue
        game = match.game
        assert game is not None
        match.play(str(choose_move("advanced", view(game.state, 0))), 0, new_seed)
    match.resign(0)
    return match.to_record()


def test_a_tausende_table_round_is_analysed_like_a_daily_round() -> None:
    """R12 at a table (``pikdame-game/1``): a round picked by number, its own level changes
    and rules; the same record gives the same document; the real-deal mode too."""
    record = table_record()
    got = analyse(record, round=1, samples=2)
    assert got["rules"]["ruleset"] == "tausende"
    assert got["source"] == {"format": "pikdame-game/1", "engine": record["engine"], "round": 1}
    moves = record["rounds"][0]["moves"]
    assert got["decisions"] and got["graph"]
    assert [d["played"] for d in got["decisions"]] == [
        m["move"] for m in moves if m["seat"] == 0 and m["move"] != "resign"
    ]
    assert got["summary"]["result"] == record["rounds"][0]["result"]["round_scores"][0]
    assert analyse(record, round=1, samples=2) == got
    deal = analyse(record, round=1, mode="deal")
    assert deal["summary"]["result"] == got["summary"]["result"]
    with pytest.raises(FormatError):
        analyse(record, round=3)


def test_a_table_rounds_decisions_are_costed_in_standing_too() -> None:
    """Issue 40: at a table played to a target, a decision is costed in the seat's standing
    against the others as well (``standing``: its round score minus the others' mean, R7,
    R12.7). In the real deal each judged decision's standing cost is recomputed by brute force:
    the best and the played move played out by every seat's bot (Ada's by the analyst, zen); a
    daily round's document has no standing (its score is against the field, not the table)."""
    record = table_record()
    got = analyse(record, round=1, mode="deal")
    judged = {d["move_index"]: d for d in got["decisions"] if d["same"] is None}
    assert judged, "the advanced bot differs from zen somewhere"
    same = [d for d in got["decisions"] if d["same"] is not None]
    assert all(d["standing"] == {"cost": "0", "interval": None} for d in same)
    levels = ["zen", "zen", "beginner"]
    rnd = record["rounds"][0]
    rules = Rules.from_json(record["rules"])
    dealt = deal_for(parse_seed(rnd["seed"]), rules, rnd["dealer"], rnd["cut"])
    state = State.from_deal(dealt, rules, rnd["dealer"], round=1)
    checked = 0
    for index, entry in enumerate(rnd["moves"]):
        d = judged.get(index)
        if d is not None:
            standing = {}
            for move in (d["best"], d["played"]):
                line = state.copy()
                line.push(move, 0)
                while line.outcome is None:
                    s = line.turn
                    line.push(choose_move(levels[s], view(line, s)), s)
                scores = line.outcome.round_scores
                standing[move] = scores[0] - Fraction(sum(scores) - scores[0], len(scores) - 1)
            assert Fraction(d["standing"]["cost"]) == standing[d["best"]] - standing[d["played"]]
            checked += 1
        state.push(entry["move"], entry["seat"])
    assert checked == len(judged)
    total = sum((Fraction(d["standing"]["cost"]) for d in got["decisions"]), Fraction(0))
    assert Fraction(got["summary"]["total_standing"]) == total
    viewed = analyse(record, round=1, samples=3)
    for d in viewed["decisions"]:
        if d["same"] is None and not d["unjudged"]:
            low, high = (Fraction(x) for x in d["standing"]["interval"])
            assert low <= Fraction(d["standing"]["cost"]) <= high


def test_a_daily_document_has_no_standing(analysed: dict[str, Any]) -> None:
    assert all("standing" not in d for d in analysed["decisions"])
    assert "total_standing" not in analysed["summary"]
