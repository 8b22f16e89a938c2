"""The ``pikdame`` operator command (click, as Flask uses): serve, worker, reconcile, archive,
suspicious, seed-info."""

from __future__ import annotations

import json
import os
import time

import click

from engine import commitment, daily_seed
from engine.gin import daily_seed as gin_daily_seed
from service import commands
from service.data import clock, config, connect, queue


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
    """Re-enqueue finished attempts that are neither verified nor rejected, and the par job of
    a recent day that has verified attempts and no par."""
    from service.data.reconcile import reconcile as run
    from service.data.reconcile import reconcile_par

    cfg = config.load()
    client, rankings = connect.role_clients(cfg)
    q = queue.queue(cfg.redis_queue_url, cfg.queue, cfg.retry_intervals)
    ids = run(client, q, int(time.time() * 1000), older_than)
    days = reconcile_par(client, rankings, q)
    click.echo(json.dumps({"requeued": ids, "par": days}))


@main.command()
@click.argument("date", required=False)
def archive(date: str | None) -> None:
    """Archive DATE's finished records (default: every closed day not archived yet, then give
    older keys without one an expiry) to PIKDAME_ARCHIVE_DIR; the day's attempts then expire
    after PIKDAME_KEEP_DAYS."""
    from service.data import archive as archives

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
    except archives.NotReady as e:
        raise click.ClickException(str(e)) from None
    click.echo(json.dumps({"archived": {date: written}}))


@main.command("migrate-keys")
def migrate_keys() -> None:
    """Give the game-state keys stored before issue 16 their hash tags (once, between days, on
    the single Redis, before moving game state to a Redis Cluster)."""
    from service.data.migrate import rename_legacy

    cfg = config.load()
    click.echo(json.dumps({"renamed": rename_legacy(connect.state_client(cfg))}))


@main.command()
@click.argument("date", required=False)
def suspicious(date: str | None) -> None:
    """Patterns of DATE (default: today) for review: one address (IPv6: /64) starting several
    ranked attempts, an account created minutes before a top score, many accounts from one
    address."""
    from service.data.suspicious import report

    if date is not None and clock.parse_date(date) is None:
        raise click.BadParameter("a date is YYYY-MM-DD", param_hint="DATE")
    cfg = config.load()
    state = connect.state_client(cfg)
    rankings = connect.text_client(cfg, cfg.redis_rankings_url)
    click.echo(json.dumps(report(state, rankings, date or clock.today(cfg)), indent=2))


@main.command("seed-info")
@click.argument("date")
@click.option(
    "--game",
    type=click.Choice(["pikdame", "gin"]),
    default="pikdame",
    help="the daily game (docs/GIN_DAILY.md)",
)
def seed_info(date: str, game: str) -> None:
    """A day's commitment, and its seed once the day has closed."""
    if clock.parse_date(date) is None:
        raise click.BadParameter("a date is YYYY-MM-DD", param_hint="DATE")
    cfg = config.load()
    seed = daily_seed(cfg.secret, date) if game == "pikdame" else gin_daily_seed(cfg.secret, date)
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
