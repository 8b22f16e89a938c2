"""The ``pikdame`` operator command (click, as Flask uses): serve, worker, reconcile, archive,
suspicious, seed-info, redis-promotable."""

from __future__ import annotations

import json
import os
import time

import click

from engine.core.records import commitment
from service import commands, games
from service.common import clock, config, connect
from service.dailies import queue
from service.errors import DayNotClosed


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
    """Run one verification worker (RQ with worker.steady.SteadyWorker)."""
    args = commands.worker_args(burst)
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
    from service.habit.suspicious import report

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
    seed = games.get(game).seed(cfg.secret, date)
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


if __name__ == "__main__":
    main()
