"""How long ``pikdame backup`` and ``pikdame restore`` take (deploy/README.md, "Backup and
restore": the recovery time): a redis-server filled with KEYS keys shaped as the game state's
(a hash of a few hundred bytes per attempt or table, a list of events, a ranking's sorted set,
a third of them expiring), backed up to a file and restored into a fresh server, each timed.

    .venv/bin/python -m bench.bench_backup [KEYS]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import redis

from service import backup
from service.common import config
from tests.support.servers import start_redis


def fill(client: redis.Redis[bytes], keys: int) -> None:
    pipe = client.pipeline(transaction=False)
    for i in range(keys):
        kind = i % 3
        if kind == 0:
            pipe.hset(f"pd:{{a:{i}}}:attempt", mapping={"game": "x" * 400, "seq": i, "p": "Ada"})
            pipe.pexpire(f"pd:{{a:{i}}}:attempt", 86_400_000)
        elif kind == 1:
            pipe.rpush(f"pd:{{t:{i}}}:events", *[f'{{"seq": {n}, "move": "d"}}' for n in range(20)])
        else:
            pipe.zadd(f"pd:rank:{i % 50}", {f"attempt{i}": i})
        if i % 1000 == 999:
            pipe.execute()
    pipe.execute()


def main(keys: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        source, target = start_redis(), start_redis()
        try:
            fill(redis.Redis.from_url(source.url), keys)
            file = Path(tmp) / "pikdame.backup"
            settings = config.load(
                {"REDIS_URL": source.url, "PIKDAME_SECRET": "bench", "PIKDAME_VAR": tmp}
            )
            began = time.perf_counter()
            manifest = backup.backup(settings, file)
            took_backup = time.perf_counter() - began
            settings = config.load(
                {"REDIS_URL": target.url, "PIKDAME_SECRET": "bench", "PIKDAME_VAR": tmp}
            )
            began = time.perf_counter()
            backup.restore(settings, file)
            took_restore = time.perf_counter() - began
            count = manifest["redis"]["state"]["keys"]
            mb = file.stat().st_size / 1e6
            print(
                f"{count} keys ({mb:.1f} MB file): backup {took_backup:.2f} s,"
                f" restore {took_restore:.2f} s"
            )
        finally:
            source.close()
            target.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
