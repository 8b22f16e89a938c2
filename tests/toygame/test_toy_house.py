"""Issue 39: a game is its own folders plus one registry line per layer. The toy game kept here
(tests/toygame/: its engine package, its adapter, its pages, script and strings) is registered
through the house's registries at start-up (``PIKDAME_EXTRA_GAMES``, docs/ARCHITECTURE.md "A
fourth game") and plays a whole table game over the API and on its page in Chromium; no file
outside this folder names it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

from service import games
from service.common import config
from tests.support.processes import WEB_SECRET, WebServer, service_env, start_web
from tests.toygame.engine.game import NAME, replay

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
REGISTER = "tests.toygame.register"
HUMAN: dict[str, Any] = {"kind": "human"}
BOT: dict[str, Any] = {"kind": "bot", "level": "plain"}
CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 15_000  # two shared cores: room before an expectation is called a failure


@pytest.fixture(scope="module")
def web(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """The house's gunicorn with the toy game registered at start-up (one process)."""
    log = tmp_path_factory.mktemp("toy") / "web.log"
    # threads enough for the page's live streams (the lobby's, the table's) and its requests
    env = service_env(redis_url, WEB_SECRET, PIKDAME_EXTRA_GAMES=REGISTER, PIKDAME_THREADS="8")
    server = start_web(env, log, processes="1")
    yield server
    server.process.stop()


def choice(view: dict[str, Any]) -> str:
    """A scripted player: draw, then discard the first card it may."""
    if view["phase"] == "draw":
        return "draw"
    return "discard " + str(next(c for c in view["hand"] if c != view["taken"]))


def test_the_toy_plays_a_whole_table_game_over_the_api(web: WebServer) -> None:
    status, body = web.call(
        "POST", "/api/tables", {"game": NAME, "name": "Ada", "seats": [HUMAN, BOT]}
    )
    assert status == 201, body
    table_id, token = body["table"]["id"], body["token"]
    status, body = web.call("POST", f"/api/tables/{table_id}/start", {}, token)
    assert status == 200, body
    table = body["table"]
    for _ in range(200):
        if table["status"] == "finished":
            break
        assert table["turn"] == 0 and table["view"]["seat"] == 0
        move = {"move": choice(table["view"]), "seq": table["seq"]}
        status, body = web.call("POST", f"/api/tables/{table_id}/moves", move, token)
        assert status == 200, body
        table = body["table"]
    assert table["status"] == "finished"
    assert table["result"]["end"] in ("threes", "wall")
    status, record = web.call("GET", f"/api/tables/{table_id}/record", None, token)
    assert status == 200, record
    assert replay(record).result_json() == table["result"]  # every bot move recomputed
    # the API's enums are built from the registry: the toy is a game and its level a level
    _, doc = web.call("GET", "/api/openapi.json", None)
    assert NAME in json.dumps(doc["components"]["schemas"])
    # the toy declares tables only: no daily challenge of its own
    status, _ = web.call("GET", f"/api/daily?game={NAME}", None)
    assert status == 422


@pytest.mark.browser
def test_the_toy_plays_a_whole_table_game_on_its_page(web: WebServer) -> None:
    """The "Spielen" form offers it (built from its declaration), its table page (its template,
    its script, the shared shell) plays it to the end with the mouse."""
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        page = browser.new_page(base_url=web.base, locale="de-DE")
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/spielen")
        page.wait_for_selector("body[data-ready='1']")
        page.locator(f"input[name=game][value={NAME}]").check()
        page.locator("#name").fill("Ada")
        page.locator("#kind-1").select_option("bot")
        page.locator("#create-button").click()
        page.wait_for_url("**/tables/*")
        page.wait_for_selector("body[data-ready='1']")
        expect(page.locator("#waiting")).to_be_visible(timeout=WAIT_MS)
        page.locator("#start-button").click()
        expect(page.locator("#table")).to_be_visible(timeout=WAIT_MS)
        for _ in range(200):
            if page.locator("body[data-status='finished']").count():
                break
            seq = page.evaluate("Number(document.body.dataset.seq)")
            if page.locator("#draw:enabled").count():
                page.locator("#draw").click()
            else:
                page.locator("#hand button:enabled").first.click()
            page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq)
        expect(page.locator("#standings")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#standings-outcome")).not_to_be_empty(timeout=WAIT_MS)
        browser.close()
    assert not errors, errors


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as e:
        return e.code


def test_its_folder_serves_its_files_and_nothing_beside(web: WebServer) -> None:
    """Its script at /static/games/<name>/; nothing outside its folder's static/, and no folder
    for a house game."""
    assert status_of(f"{web.base}/static/games/{NAME}/table.js") == 200
    for path in (f"{NAME}/../register.py", f"{NAME}/%2e%2e/register.py", "gin/table.js"):
        assert status_of(f"{web.base}/static/games/{path}") == 404, path
    assert status_of(f"{web.base}/rules/{NAME}?lang=nl") == 200  # its rules page, its template


def test_the_setting_is_read_alike_by_the_registry_and_the_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(games.EXTRA_GAMES, f"{REGISTER}, other.game")
    assert games.extra_modules() == (REGISTER, "other.game")
    assert config.load({"PIKDAME_SECRET": "s"}).extra_games == (REGISTER, "other.game")


def test_the_engine_registry_runs_its_command_line() -> None:
    """Registered, its engine package's ``cli`` answers ``python -m engine <name> …``."""
    code = f"import {REGISTER}; from engine.cli import main; raise SystemExit(main())"
    done = subprocess.run(
        [sys.executable, "-c", code, NAME, "deal", "00" * 32],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["hands"][0]) == 5


def test_no_shared_file_names_the_toy() -> None:
    """Its name is in its own folder only: every registry learned it from its declaration."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    here = str(HERE.relative_to(ROOT)) + "/"
    word = re.compile(rf"\b{NAME}\b", re.IGNORECASE)
    naming = []
    for name in filter(None, tracked.split("\0")):
        path = ROOT / name
        if name.startswith(here) or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if word.search(text):
            naming.append(name)
    assert naming == []
