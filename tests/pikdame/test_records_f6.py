"""F6 game records: seeded games written as records replay to the identical final position; forged
records are rejected with the right F7 code and move index."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from typing import Any

import pytest

from engine import Game, PikDameError, ReplayError, Rules, Seat, State, commitment, replay
from engine.pikdame.record import LOG_FORMAT
from tests.support.pikdame import choose, expected_scores


def seed_of(n: int) -> bytes:
    return hashlib.sha256(f"records {n}".encode()).digest()


def human_game(n: int, players: int = 3, dealer: int = 0, cut: int | None = None) -> Game:
    """A full round of random legal moves by human seats."""
    rng = random.Random(n)
    seats = tuple(Seat("human", name=f"p{i}") for i in range(players))
    game = Game.start(seed_of(n), Rules(players=players), seats, dealer, cut)
    while not game.finished:
        seat = game.state.turn
        game.play(choose(game.state, rng), seat)
    return game


def record_of(game: Game, n: int) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(json.dumps(game.to_record(seed_of(n))))
    return record


GAMES = [(n, 2 + n % 3, n % (2 + n % 3), None if n % 2 else 17 + n) for n in range(6)]


@pytest.mark.parametrize(("n", "players", "dealer", "cut"), GAMES)
def test_f6_record_replays_to_identical_position(
    n: int, players: int, dealer: int, cut: int | None
) -> None:
    game = human_game(n, players, dealer, cut)
    record = record_of(game, n)
    assert record["format"] == LOG_FORMAT
    assert record["deal"]["seed"] == seed_of(n).hex()
    assert record["deal"]["commitment"] == hashlib.sha256(seed_of(n)).hexdigest()
    assert record["deal"]["dealer"] == dealer
    if cut is not None:
        assert record["deal"]["cut"] == cut
    assert [(m["seat"], m["move"]) for m in record["moves"]] == game.state.history
    final = game.state.to_position()
    assert record["result"] == final["outcome"]
    assert final["outcome"]["round_scores"] == expected_scores(final)
    again = replay(record)
    assert again.state.to_position() == final
    assert again.state.history == game.state.history
    # the seed may also be given separately (a record written while the seed was secret)
    secret = copy.deepcopy(record)
    secret["deal"]["seed"] = None
    assert replay(secret, seed_of(n)).state.to_position() == final


def test_f6_record_without_seed_and_without_seed_argument_is_bad_format() -> None:
    record = record_of(human_game(1), 1)
    record["deal"]["seed"] = None
    with pytest.raises(ReplayError) as info:
        replay(record)
    assert info.value.code == "bad_format"


def test_f6_moves_replay_one_by_one_from_the_deal() -> None:
    """The record's moves, pushed on a fresh deal (F3), give the same position (no hidden input)."""
    game = human_game(4, players=2, dealer=0, cut=21)
    s = State.new_round(seed_of(4), Rules(players=2), 0, 21)
    for entry in record_of(game, 4)["moves"]:
        s.push(entry["move"], entry["seat"])
    assert s.to_position() == game.state.to_position()


# -- forged records -------------------------------------------------------------------------------


def forged(n: int = 2) -> tuple[Game, dict[str, Any]]:
    game = human_game(n)
    return game, record_of(game, n)


def expect(record: dict[str, Any], code: str, index: int | None) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        replay(record)
    assert (info.value.code, info.value.move_index) == (code, index), info.value
    assert info.value.to_json()["move_index"] == index
    return info.value


def test_forged_discard_of_card_not_in_hand() -> None:
    game, record = forged()
    i = next(k for k, m in enumerate(record["moves"]) if m["move"].startswith("discard"))
    # a card that seat cannot hold: both copies lie elsewhere in the final position
    position = game.state.to_position()
    seat = record["moves"][i]["seat"]
    s = State.new_round(seed_of(2), Rules(players=3), 0)
    for m in record["moves"][:i]:
        s.push(m["move"], m["seat"])
    held = {str(c) for c in s.hand(seat)}
    absent = next(f"discard {r}{u}" for u in "SHDC" for r in "A23456789TJQK" if r + u not in held)
    record["moves"][i]["move"] = absent
    assert position  # the original game was complete
    expect(record, "card_not_in_hand", i)


def test_forged_move_by_wrong_seat() -> None:
    _, record = forged()
    i = 3
    record["moves"][i]["seat"] = (record["moves"][i]["seat"] + 1) % 3
    expect(record, "not_your_turn", i)


def test_forged_syntax() -> None:
    _, record = forged()
    record["moves"][5]["move"] = "discard the queen"
    expect(record, "syntax", 5)


def test_forged_draw_instead_of_play() -> None:
    _, record = forged()
    i = next(k for k, m in enumerate(record["moves"]) if m["move"].startswith("discard"))
    record["moves"][i]["move"] = "draw"
    expect(record, "wrong_phase", i)


def test_forged_changed_result() -> None:
    _, record = forged()
    record["result"]["round_scores"][0] += 5
    expect(record, "score_mismatch", None)
    _, record = forged()
    record["result"]["doubled"] = not record["result"]["doubled"]
    expect(record, "score_mismatch", None)


def test_forged_truncated_record_with_result() -> None:
    _, record = forged()
    record["moves"].pop()
    expect(record, "score_mismatch", None)


def test_forged_move_after_the_end() -> None:
    _, record = forged()
    record["moves"].append({"seat": 0, "move": "draw"})
    expect(record, "round_over", len(record["moves"]) - 1)


def test_forged_wrong_commitment() -> None:
    _, record = forged()
    record["deal"]["commitment"] = commitment(seed_of(99))
    expect(record, "bad_format", None)


def test_forged_other_seed_same_commitment() -> None:
    _, record = forged()
    record["deal"]["seed"] = seed_of(99).hex()
    expect(record, "bad_format", None)


def test_forged_other_cut_changes_the_deal() -> None:
    """A different cut deals different cards, so the moves no longer replay (or the result
    differs)."""
    game, record = forged()
    record["deal"]["cut"] = record["deal"]["cut"] % 109 + 1
    with pytest.raises(ReplayError) as info:
        replay(record)
    assert info.value.code in (
        "card_not_in_hand",
        "take_not_allowed",
        "invalid_meld",
        "must_keep_card",
        "stock_empty",
        "round_over",
        "score_mismatch",
        "not_your_turn",
        "no_such_meld",
        "wrong_phase",
    )
    assert game.finished


@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: r.update(format="pikdame-log/2"),
        lambda r: r.update(rules={"players": 9}),
        lambda r: r.update(seats=r["seats"][:2]),
        lambda r: r["seats"].__setitem__(0, {"kind": "alien"}),
        lambda r: r["seats"].__setitem__(1, {"kind": "bot", "level": "grandmaster"}),
        lambda r: r.update(deal=None),
        lambda r: r["deal"].update(dealer=3),
        lambda r: r["deal"].update(cut=0),
        lambda r: r["deal"].update(cut=110),
        lambda r: r["deal"].update(cut="5"),
        lambda r: r["deal"].update(seed="zz" * 32),
        lambda r: r["deal"].update(seed="00"),
        lambda r: r.update(moves="draw"),
        lambda r: r["moves"].__setitem__(0, {"seat": 0}),
        lambda r: r["moves"].__setitem__(0, {"seat": "0", "move": "draw"}),
        lambda r: r["moves"].__setitem__(0, {"seat": 7, "move": "draw"}),
        lambda r: r["moves"].__setitem__(0, {"seat": 1, "move": ["draw"]}),
    ],
)
def test_forged_malformed_record_is_bad_format(mutate: Any) -> None:
    _, record = forged()
    mutate(record)
    expect(record, "bad_format", None)


def test_replay_of_non_object_is_bad_format() -> None:
    bads: list[Any] = [None, [], "record", 5]
    for bad in bads:
        with pytest.raises(ReplayError) as info:
            replay(bad)
        assert info.value.code == "bad_format"


# -- bot seats (R10): every bot move is recomputed ---------------------------------------------


def bot_game(n: int, dealer: int = 2) -> Game:
    rng = random.Random(n)
    seats = (Seat("human", name="Ada"), Seat("bot", level="zen"), Seat("bot", level="beginner"))
    game = Game.start(seed_of(n), Rules(players=3), seats, dealer)
    while not game.finished:
        game.play(choose(game.state, rng), 0)
    return game


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_f6_bot_game_replays(dealer: int) -> None:
    """Bots move first when the round starts with them (R2: the seat after the dealer)."""
    game = bot_game(7, dealer)
    record = record_of(game, 7)
    assert record["moves"][0]["seat"] == (dealer + 1) % 3
    assert any(m["seat"] != 0 for m in record["moves"])
    assert replay(record).state.to_position() == game.state.to_position()


def test_forged_bot_move_is_bot_mismatch() -> None:
    game = bot_game(7)
    record = record_of(game, 7)
    # replace a bot's discard by another legal discard of the same seat
    for i, m in enumerate(record["moves"]):
        if m["seat"] == 0 or not m["move"].startswith("discard"):
            continue
        s = State.new_round(seed_of(7), Rules(players=3), 2)
        for e in record["moves"][:i]:
            s.push(e["move"], e["seat"])
        others = [str(x) for x in s.legal_moves() if x.kind == "discard" and str(x) != m["move"]]
        if others:
            record["moves"][i]["move"] = others[0]
            expect(record, "bot_mismatch", i)
            return
    pytest.fail("no bot discard with an alternative found")


def test_forged_bot_resign_out_of_turn_is_rejected() -> None:
    """R10: a bot never moves out of its turn; a record claiming a bot resigned while a human was
    to move is not what the bots played."""
    game = bot_game(8)
    record = record_of(game, 8)
    i = next(k for k, m in enumerate(record["moves"]) if m["seat"] == 0)
    record["moves"] = [*record["moves"][:i], {"seat": 1, "move": "resign"}]
    record["result"] = None
    with pytest.raises(ReplayError) as info:
        replay(record)
    assert info.value.move_index == i
    assert info.value.code == "not_your_turn"


def test_f6_resigned_round_replays() -> None:
    """R8: a human's resign is a move of the record; the replay ends the same way."""
    rng = random.Random(3)
    seats = (Seat("human", name="a"), Seat("human", name="b"))
    game = Game.start(seed_of(3), Rules(players=2), seats, 1, 40)
    for _ in range(9):
        game.play(choose(game.state, rng), game.state.turn)
    game.play("resign", 1 - game.state.turn)  # the seat not to move may resign (F2)
    record = record_of(game, 3)
    assert record["result"]["end"] == "resign" and record["result"]["winner"] is None
    assert replay(record).state.to_position() == game.state.to_position()


def test_game_storage_round_trip() -> None:
    """Game.to_json / from_json (the service's storage) keep record and position."""
    game = bot_game(9)
    back = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert back.to_record() == game.to_record()
    assert back.state.to_position() == game.state.to_position()


def test_game_play_by_unknown_seat_is_not_your_turn() -> None:
    """Bad input to Game.play gets a stable code and changes nothing (no IndexError)."""
    game = bot_game(10)
    game2 = Game.start(seed_of(11), Rules(players=3), game.seats, 2)
    before = game2.state.to_position()
    for seat in (3, 9, -1):
        with pytest.raises(PikDameError) as info:
            game2.play("resign", seat)
        assert info.value.code == "not_your_turn"
    assert game2.state.to_position() == before and not game2.finished


@pytest.mark.parametrize("value", [None, "", 5, "DEL"])
def test_forged_missing_commitment_is_bad_format(value: Any) -> None:
    """F4/F6: anyone checks SHA-256(seed) = commitment; a record without its commitment (null,
    empty, not a string, removed) cannot be checked, so it is bad_format like a wrong one."""
    _, record = forged()
    if value == "DEL":
        del record["deal"]["commitment"]
    else:
        record["deal"]["commitment"] = value
    expect(record, "bad_format", None)


def test_forged_upper_case_commitment_is_bad_format() -> None:
    """F4: the commitment is lower-case hex."""
    _, record = forged()
    record["deal"]["commitment"] = record["deal"]["commitment"].upper()
    expect(record, "bad_format", None)


def test_r9_turn_timer_autoplay_finishes_the_humans_turn_and_replays() -> None:
    """R9 turn_timer: when time runs out the bot logic plays the turn for the player; those are
    ordinary moves of that seat in the record, and the record replays."""
    seats = (Seat("human", name="Ada"), Seat("bot", level="advanced"), Seat("human", name="Bo"))
    game = Game.start(seed_of(12), Rules(players=3), seats, 2)
    assert game.state.turn == 0
    with pytest.raises(PikDameError) as info:
        game.autoplay_turn(2)
    assert info.value.code == "not_your_turn"
    events = game.autoplay_turn(0)
    assert events[0] == (0, "draw") or events[0][1].startswith("take")
    own = [m for seat, m in events if seat == 0]
    assert own[-1].startswith("discard")
    assert game.finished or game.state.turn == 2  # seat 1 (a bot) answered, now Bo
    record = record_of(game, 12)
    assert replay(record).state.to_position() == game.state.to_position()


@pytest.mark.parametrize("seed", [b"abc", bytes(31), bytes(33), "ab" * 32, 7])
def test_replay_with_a_malformed_seed_argument_is_bad_format(seed: Any) -> None:
    """F3 seeds are 32 bytes; a wrong seed given beside the record is bad_format, even when the
    record's commitment was forged to match it (was ValueError/TypeError)."""
    _, record = forged()
    record["deal"]["seed"] = None
    if isinstance(seed, bytes):
        record["deal"]["commitment"] = hashlib.sha256(seed).hexdigest()
    with pytest.raises(ReplayError) as info:
        replay(record, seed)
    assert (info.value.code, info.value.move_index) == ("bad_format", None)
