"""The ``pikdame`` operator command (click, as Flask uses): serve, worker, reconcile, archive,
suspicious, seed-info, event-info, redis-promotable, backup, restore."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import click

from engine.core.errors import FormatError
from engine.core.records import commitment
from service import commands, games
from service.common import clock, config, connect
from service.dailies import queue
from service.errors import BackupError, DayNotClosed
from service.events import weeks


@click.group()
def main() -> None:
    """Pik Dame daily challenge: operate the service."""


@main.command()
@click.option("--bind", default=None, help="host:port (default from deploy/gunicorn.conf.py)")
def serve(bind: str | None) -> None:
    """Run the web service under gunicorn."""
    args = commands.gunicorn_args(bind)
    os.execv(args[0], args)


@main.command()
@click.option("--burst", is_flag=True, help="quit when the queue is empty")
def worker(burst: bool) -> None:
    """Run one steady worker: turn timers and verifications (RQ with worker.steady.SteadyWorker)."""
    args = commands.worker_args(burst)
    os.execv(args[0], args)


@main.command("analysis-worker")
@click.option("--burst", is_flag=True, help="quit when the queue is empty")
def analysis_worker(burst: bool) -> None:
    """Run one analysis worker (RQ with worker.analysis.AnalysisWorker, the analyses' queue
    alone)."""
    args = commands.analysis_worker_args(burst)
    os.execv(args[0], args)


@main.command("bots-worker")
@click.option("--burst", is_flag=True, help="quit when the queue is empty")
def bots_worker(burst: bool) -> None:
    """Run one bots worker (RQ with worker.bots.BotWorker, the bots' queue alone: the table bots
    that move off the request, the Meister)."""
    args = commands.bots_worker_args(burst)
    os.execv(args[0], args)


@main.command()
@click.option("--older-than", default=300, show_default=True, help="seconds since finishing")
def reconcile(older_than: int) -> None:
    """Re-enqueue finished attempts that are neither verified nor rejected, the par job of a
    recent day that has verified attempts and no par, and the turn timer of every overdue table
    whose job was lost or failed."""
    from service.reconcile import reconcile as run
    from service.reconcile import reconcile_par, reconcile_timers
    from service.tables import timers

    cfg = config.load()
    client, rankings = connect.role_clients(cfg)
    q = queue.queue(cfg.redis_queue_url, cfg.queue, cfg.retry_intervals)
    ids = run(client, q, int(time.time() * 1000), older_than)
    days = reconcile_par(client, rankings, q)
    timer_q = timers.queue_on(connect.client(cfg, cfg.redis_queue_url, text=False), cfg.table_queue)
    app_ms = int(clock.now(cfg).timestamp() * 1000)  # the deadlines' clock
    turns = reconcile_timers(client, timer_q, app_ms)
    click.echo(json.dumps({"requeued": ids, "par": days, "timers": turns}))


@main.command()
@click.argument("date", required=False)
def archive(date: str | None) -> None:
    """Archive DATE's finished records (default: every closed day not archived yet, then give
    older keys without one an expiry) to PIKDAME_ARCHIVE_DIR; the day's attempts then expire
    after PIKDAME_KEEP_DAYS."""
    from service.dailies import archive as archives

    cfg = config.load()
    client = connect.state_client(cfg)
    store = archives.from_settings(cfg)
    if date is None:
        archived = archives.archive_closed_days(client, store, cfg)
        click.echo(json.dumps({"archived": archived, "swept": archives.sweep(client, cfg)}))
        return
    if clock.parse_date(date) is None:
        raise click.BadParameter("a date is YYYY-MM-DD", param_hint="DATE")
    try:
        written = archives.archive_day(client, store, date, cfg)
    except DayNotClosed as e:
        raise click.ClickException(str(e)) from None
    click.echo(json.dumps({"archived": {date: written}}))


@main.command("migrate-keys")
def migrate_keys() -> None:
    """Give the game-state keys stored without hash tags their tags (once, between days, on
    the single Redis, before moving game state to a Redis Cluster)."""
    from service.common.migrate import rename_legacy

    cfg = config.load()
    click.echo(json.dumps({"renamed": rename_legacy(connect.state_client(cfg))}))


@main.command()
@click.argument("date", required=False)
def suspicious(date: str | None) -> None:
    """Patterns of DATE (default: today) for review: one address (IPv6: /64) starting several
    ranked attempts, an account created minutes before a top score, many accounts from one
    address."""
    from service.accounts.suspicious import report

    if date is not None and clock.parse_date(date) is None:
        raise click.BadParameter("a date is YYYY-MM-DD", param_hint="DATE")
    cfg = config.load()
    state = connect.state_client(cfg)
    rankings = connect.text_client(cfg, cfg.redis_rankings_url)
    click.echo(json.dumps(report(state, rankings, date or clock.today(cfg)), indent=2))


@main.command("redis-promotable")
@click.argument("url")
@click.option("--timeout", default=80, show_default=True, help="seconds to wait for the sync")
def redis_promotable(url: str, timeout: int) -> None:
    """Let Sentinel promote the Redis at URL again once it holds its primary's data.

    A Redis of a Sentinel setup starts with ``replica-priority 0`` (deploy/SCALING.md): after a
    crash it comes back empty, and Sentinel must not make it the primary before its first sync
    has finished (it would serve, and replicate, an empty game state). This waits for that sync
    (at once for a primary), then sets the priority; systemd runs it after each start."""
    import redis

    client: redis.Redis[str] = redis.Redis.from_url(url, decode_responses=True)
    deadline = time.monotonic() + timeout
    while True:
        try:
            if connect.synced(client):
                break
        except redis.RedisError:
            pass  # still loading, or not listening yet
        if time.monotonic() > deadline:
            raise click.ClickException(f"not synced after {timeout} s: stays unpromotable")
        time.sleep(0.5)
    connect.make_promotable(client)
    click.echo(json.dumps({"promotable": url}))


@main.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--env-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="the settings to keep with it (deploy: /etc/pikdame/env)",
)
def backup_command(file: Path, env_file: Path | None) -> None:
    """Back up to FILE everything that must survive a lost machine: every Redis of the roles,
    PIKDAME_ARCHIVE_DIR, the secret and the settings (deploy/README.md, Backup and restore)."""
    from service import backup

    manifest = backup.backup(config.load(), file, env_file)
    summary = {name: part["keys"] for name, part in manifest["redis"].items()}
    click.echo(json.dumps({"backup": str(file), "keys": summary, "at": manifest["started_at"]}))


@main.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="restore into servers that hold keys (replacing)")
@click.option(
    "--env-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="write the backup's settings here",
)
def restore_command(file: Path, force: bool, env_file: Path | None) -> None:
    """Restore FILE (a ``pikdame backup``) into the configured, empty Redis servers and
    PIKDAME_VAR; then start the workers: they queue again what was in flight."""
    from service import backup

    try:
        done = backup.restore(config.load(), file, force=force, env_file=env_file)
    except BackupError as e:
        raise click.ClickException(str(e)) from None
    click.echo(json.dumps(done))


@main.command("seed-info")
@click.argument("date")
@click.option(
    "--game",
    type=click.Choice(games.DAILY_GAMES),
    default=games.DEFAULT,
    help="the daily game (docs/GIN_DAILY.md)",
)
def seed_info(date: str, game: str) -> None:
    """A day's commitment, and its seed once the day has closed."""
    if clock.parse_date(date) is None:
        raise click.BadParameter("a date is YYYY-MM-DD", param_hint="DATE")
    cfg = config.load()
    seed = games.daily(game).seed(cfg.secret, date)
    closed = clock.is_closed(date, cfg)
    click.echo(
        json.dumps(
            {
                "date": date,
                "commitment": commitment(seed),
                "closes_at": clock.iso(clock.closes_at(date, cfg)),
                "seed": seed.hex() if closed else None,
            }
        )
    )


@main.command("event-info")
@click.argument("week", required=False)
@click.option(
    "--game",
    type=click.Choice(games.DAILY_GAMES),
    default=games.DEFAULT,
    help="the daily game whose week's tournament (docs/EVENTS.md)",
)
def event_info(week: str | None, game: str) -> None:
    """A week's tournament (YYYY-Www, default this week): every deal's commitment, and its
    seed once the event has closed (FORMATS.md F4e)."""
    cfg = config.load()
    chosen = week or weeks.current_week(cfg)
    try:
        document = weeks.info(cfg, game, chosen)
    except FormatError as error:
        raise click.BadParameter(error.message, param_hint="WEEK") from None
    click.echo(json.dumps(document))


if __name__ == "__main__":
    main()
