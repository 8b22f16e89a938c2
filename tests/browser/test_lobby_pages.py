"""Playing with strangers in Chromium (docs/LOBBY.md): two browsers that do not know each other,
each signed up with a passkey (a virtual authenticator), meet through the quick match on
``/spielen``, sit at a rated Gin table, see each other's rating, talk in fixed phrases and mute
one another, and after the match see the ratings move, at the table, on the board and in their
statistics; three meet at a rated Pik Dame table, one closes its browser and is resigned by the
turn timer's rule."""

from __future__ import annotations

from typing import Any

import redis
from playwright.sync_api import Browser, BrowserContext, Page, expect

from service.tables import store as tables
from tests.support.browser_stack import Stack
from tests.support.lobby import moves_for, timer_plays
from tests.support.virtual_passkeys import signed_up


def ask_for_rated_gin(page: Page) -> None:
    ask_for_rated(page, "gin")


def ask_for_rated(page: Page, game: str, seats: int = 2) -> None:
    page.goto("/spielen")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#lobby-online")).not_to_be_empty()  # the lobby's stream answered
    page.select_option("#match-game", game)
    if game == "gin":
        expect(page.locator("#match-seats option")).to_have_count(1)  # G2: a duel
    page.select_option("#match-seats", str(seats))
    page.check("#match-rated")
    page.uncheck("#match-bots")  # keep waiting for a person
    page.click("#match-button")


def test_strangers_meet_by_quick_match_play_rated_gin_and_see_ratings_move(
    strangers: list[BrowserContext], stack: Stack
) -> None:
    errors: list[str] = []
    ada = signed_up(strangers[0], "Lobby Ada", errors)
    bo = signed_up(strangers[1], "Lobby Bo", errors)

    ask_for_rated_gin(ada)
    expect(ada.locator("#match-waiting")).to_be_visible()
    expect(ada.locator("#match-status")).to_contain_text("±")  # the range it accepts now
    ask_for_rated_gin(bo)
    for page in (ada, bo):  # matched: each browser is led to the same table
        page.wait_for_url("**/tables/**")
        page.wait_for_selector("body[data-ready='1']")
    table_id = ada.url.rsplit("/", 1)[-1].split("?")[0]
    assert bo.url.rsplit("/", 1)[-1].split("?")[0] == table_id
    table = ada.request.get(f"/api/tables/{table_id}").json()["table"]
    assert table["rated"] is True and table["game"] == "gin"

    # Each sees both seats with their (provisional) rating.
    for page in (ada, bo):
        expect(page.locator("#talk")).to_be_visible()
        expect(page.locator(".talk-seat")).to_have_count(2)
        expect(page.locator(".talk-rating").first).to_have_text("Wertung 1.500 (vorläufig)")

    # A phrase said at one browser arrives at the other through its stream.
    ada.click(".talk-phrase[data-phrase='hello']")
    expect(bo.locator(".talk-heard")).to_contain_text("Hallo")
    expect(ada.locator(".talk-heard")).to_contain_text("Hallo")
    ada.click(".talk-phrase[data-phrase='thanks']")  # too soon: the buttons rest, counting down
    expect(ada.locator("#talk-error")).to_contain_text("Nächster Satz in")
    expect(ada.locator(".talk-phrase[data-phrase='thanks']")).to_be_disabled()
    mute = bo.locator(".talk-mute")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    seen_by_bo = bo.request.get(f"/api/tables/{table_id}").json()["table"]
    assert seen_by_bo["muted"] == [1 - seen_by_bo["seat"]]

    # The match is played to its end (G2: to 100), the timer playing now and then a turn of a
    # slow player (never three in a row: no forfeit); the rated table settles the ratings.
    seat_of = {
        p.request.get(f"/api/tables/{table_id}").json()["table"]["seat"]: p for p in (ada, bo)
    }
    rdb: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    for turn_no in range(3000):
        table = ada.request.get(f"/api/tables/{table_id}").json()["table"]
        if table["status"] == "finished":
            break
        if turn_no % 5 == 4:
            timer_plays(rdb, stack.clock, table_id)
        else:
            mover = seat_of[table["turn"]]
            play_turn(mover, mover.request.get(f"/api/tables/{table_id}").json()["table"])
    rdb.close()
    assert table["status"] == "finished" and not table.get("forfeits")
    assert max(table["result"]["totals"]) >= 100, table["result"]
    # settled by the request that finished the game, before its answer: the server's first
    changes = table["rating_changes"]
    assert sorted(c["name"] for c in changes or []) == ["Lobby Ada", "Lobby Bo"], table
    assert any(c["change"] != 0 for c in changes)
    for page in (ada, bo):  # then each page, from its stream
        try:
            expect(page.locator("#rating-changes li")).to_have_count(2)
        except AssertionError as e:  # where the page stands (its seq, status, stream)
            raise AssertionError(f"{e}\nthe page: {page_state(page)}") from e

    # The board lists them (provisional after one game) and the statistics keep the history.
    ada.goto("/ratings/gin")
    ada.wait_for_selector("body[data-ready='1']")
    expect(ada.locator("#ratings-provisional")).to_contain_text("Lobby Ada")
    expect(ada.locator("#ratings-provisional")).to_contain_text("Lobby Bo")
    bo.goto("/stats")
    bo.wait_for_selector("body[data-ready='1']")
    expect(bo.locator("#ratings-section")).to_be_visible()
    expect(bo.locator(".rating-history[data-game='gin'] li")).to_have_count(1)
    assert errors == []


def test_a_public_table_shows_in_the_lobby_live_and_is_joined_in_one_click(
    browser: Browser, stack: Stack
) -> None:
    errors: list[str] = []
    pages = []
    for _ in range(2):
        ctx = browser.new_context(base_url=stack.base_url, viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(page)
    ada, bo = pages
    bo.goto("/spielen")
    bo.wait_for_selector("body[data-ready='1']")
    expect(bo.locator("#lobby-online")).not_to_be_empty()  # the stream's first message
    bo.fill("#name", "Bo")  # the name a join from the lobby carries

    ada.goto("/spielen")
    ada.wait_for_selector("body[data-ready='1']")
    ada.fill("#name", "Ada")
    ada.check("input[name=players][value='2']")
    ada.select_option("#kind-1", "human")
    ada.check("#table-public")
    ada.click("#create-button")
    ada.wait_for_url("**/tables/**")
    table_id = ada.url.rsplit("/", 1)[-1].split("?")[0]
    assert ada.request.get(f"/api/tables/{table_id}").json()["table"]["public"] is True

    # Bo's lobby shows it without a reload, with its free seat and Ada's seat; one click seats Bo.
    entry = bo.locator(f".lobby-table[data-table='{table_id}']")
    expect(entry).to_contain_text("1 Platz frei")
    expect(entry.locator(".lobby-seats")).to_contain_text("Ada")
    entry.locator(".lobby-join").click()
    bo.wait_for_url(f"**/tables/{table_id}")
    bo.wait_for_selector("body[data-ready='1']")
    # The last seat taken starts the game: both see the table talk beside the board.
    for page in (ada, bo):
        expect(page.locator("#talk")).to_be_visible()
        expect(page.locator(".talk-phrase")).to_have_count(5)
    for page in pages:
        page.context.close()
    assert errors == []


def page_state(page: Page) -> dict[str, Any]:
    """What the page says of itself (body's data: seq, status, stream), for a failure's text."""
    state: dict[str, Any] = page.evaluate("() => ({ ...document.body.dataset })")
    return state


def play_turn(page: Page, table: dict[str, Any]) -> None:
    """The seat's own move at its turn, as the page's player sends it (its session)."""
    for move in moves_for(table):
        answer = page.request.post(
            f"/api/tables/{table['id']}/moves", data={"move": move, "seq": table["seq"]}
        )
        if answer.ok:
            return
        assert answer.status == 422, answer.text()
    raise AssertionError(f"no move found in {table['view']}")


def test_three_strangers_play_rated_pik_dame_and_one_who_leaves_is_resigned(
    strangers: list[BrowserContext], stack: Stack
) -> None:
    """Three browsers meet by quick match at a rated 3-seat Pik Dame table; one closes its
    browser mid-game, the turn timer plays its turns (run at each deadline on the app's clock)
    and at the third in a row resigns it (docs/LOBBY.md "Leaving a rated game"): the others see
    the seat marked as resigned and every account's rating change."""
    errors: list[str] = []
    names = ["Lobby Ann", "Lobby Ben", "Lobby Cem"]
    pages = [signed_up(ctx, name, errors) for ctx, name in zip(strangers, names, strict=True)]
    for page in pages:
        ask_for_rated(page, "pikdame", 3)
    for page in pages:
        page.wait_for_url("**/tables/**", timeout=60_000)
        page.wait_for_selector("body[data-ready='1']")
    table_id = pages[0].url.rsplit("/", 1)[-1].split("?")[0]
    seat_of = {}
    for page in pages:
        assert page.url.rsplit("/", 1)[-1].split("?")[0] == table_id
        table = page.request.get(f"/api/tables/{table_id}").json()["table"]
        assert table["rated"] is True and table["game"] == "pikdame"
        seat_of[table["seat"]] = page
    leaver = pages[2]
    gone = next(seat for seat, page in seat_of.items() if page is leaver)
    strangers[2].close()  # Cem closes the browser mid-game

    rdb: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    watcher = pages[0]
    timer = 0
    for _ in range(400):
        table = watcher.request.get(f"/api/tables/{table_id}").json()["table"]
        if table["status"] == "finished":
            break
        turn = table["turn"]
        if turn == gone:
            timer_plays(rdb, stack.clock, table_id)
            timer += 1
        else:
            mover = seat_of[turn]
            play_turn(mover, mover.request.get(f"/api/tables/{table_id}").json()["table"])
    rdb.close()
    assert table["status"] == "finished" and table["forfeits"] == [gone]
    assert timer == tables.TIMEOUT_RESIGN
    for page in pages[:2]:
        mark = page.locator(f".talk-seat[data-seat='{gone}'] .talk-forfeit")
        expect(mark).to_have_text("aufgegeben (Zeit abgelaufen)")
        expect(page.locator("#rating-changes li")).to_have_count(3)
    changes = {c["seat"]: c for c in table["rating_changes"]}
    assert sorted(c["name"] for c in changes.values()) == sorted(names)
    assert changes[gone]["change"] < 0  # a forfeit is last place
    assert errors == []
