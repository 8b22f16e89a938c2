"""``pikdame backup`` / ``pikdame restore``'s promises beside the drill
(tests/service/test_backup_drill.py): expiries are absolute (Redis' clock), a file that is not
what its manifest says or a target that is not the backup's shape is refused before anything is
written, a non-empty server only with --force, and game state on a Redis Cluster comes back
into a fresh cluster. Real redis-servers."""

from __future__ import annotations

import io
import json
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.cluster import RedisCluster

from service import backup
from service.common import config
from service.errors import BackupError
from tests.support.cluster import start_cluster
from tests.support.processes import pikdame, service_env
from tests.support.servers import RedisServer, one_server, start_redis

# own_servers: every server started here, every role placed here (make test-roles skips them)
pytestmark = [pytest.mark.integration, pytest.mark.own_servers]

SECRET = "backup-test-secret"


@pytest.fixture
def pair() -> Iterator[tuple[RedisServer, RedisServer]]:
    source, target = start_redis(), start_redis()
    try:
        yield source, target
    finally:
        source.close()
        target.close()


def settings(url: str, var: Path, secret: str | None = SECRET) -> config.Settings:
    given = {"REDIS_URL": url, **one_server(url), "PIKDAME_VAR": str(var)}
    if secret is not None:
        given["PIKDAME_SECRET"] = secret
    return config.load(given)


def test_expiries_come_back_at_the_same_moment_and_a_passed_one_stays_gone(
    pair: tuple[RedisServer, RedisServer], tmp_path: Path
) -> None:
    source, target = pair
    db: redis.Redis[str] = redis.Redis.from_url(source.url, decode_responses=True)
    now_ms = int(db.time()[0]) * 1000
    db.set("pd:kept", "v")
    db.set("pd:later", "v", pxat=now_ms + 86_400_000)
    db.set("pd:soon", "v", pxat=now_ms + 60_000)
    file = tmp_path / "b.backup"
    manifest = backup.backup(settings(source.url, tmp_path), file)
    assert manifest["redis"]["state"]["keys"] == 3
    assert manifest["redis"]["state"]["roles"] == ["state", "queue", "rankings"]
    # the file waits a while before it is restored: "soon" expired meanwhile (rewritten here to
    # a moment already past on Redis' clock, as a restore an hour later would find it)
    data = backup.read(file)[1]["redis/state.keys"]
    records = [
        (k, p, now_ms - 1 if k == b"pd:soon" else e) for k, p, e in backup.read_records(data)
    ]
    assert {k for k, _, _ in records} == {b"pd:kept", b"pd:later", b"pd:soon"}
    rewritten = b"".join(backup.RECORD.pack(len(k), len(p), e) + k + p for k, p, e in records)
    backup.restore_server(redis.Redis.from_url(target.url), rewritten, replace=False)
    back: redis.Redis[str] = redis.Redis.from_url(target.url, decode_responses=True)
    assert back.get("pd:kept") == "v" and back.execute_command("PEXPIRETIME", "pd:kept") == -1
    # the same moment, not a new TTL counted from the restore
    assert back.execute_command("PEXPIRETIME", "pd:later") == now_ms + 86_400_000
    assert back.exists("pd:soon") == 0


def test_a_restore_refuses_a_server_that_holds_keys_unless_forced(
    pair: tuple[RedisServer, RedisServer], tmp_path: Path
) -> None:
    source, target = pair
    redis.Redis.from_url(source.url).set("pd:a", "backed up")
    file = tmp_path / "b.backup"
    env = service_env(source.url, SECRET, **one_server(source.url), PIKDAME_VAR=str(tmp_path))
    assert pikdame(env, "backup", str(file)).returncode == 0
    target_db: redis.Redis[str] = redis.Redis.from_url(target.url, decode_responses=True)
    target_db.set("pd:a", "newer")
    target_db.set("pd:b", "other")
    env = service_env(target.url, SECRET, **one_server(target.url), PIKDAME_VAR=str(tmp_path))
    refused = pikdame(env, "restore", str(file))
    assert refused.returncode != 0 and "not empty: state" in refused.stderr
    assert target_db.get("pd:a") == "newer"  # nothing written
    forced = pikdame(env, "restore", "--force", str(file))
    assert forced.returncode == 0, forced.stderr
    assert json.loads(forced.stdout)["restored"] == {"state": 1}
    assert target_db.get("pd:a") == "backed up" and target_db.get("pd:b") == "other"


def test_a_damaged_file_another_secret_or_other_roles_are_refused_before_any_write(
    pair: tuple[RedisServer, RedisServer], tmp_path: Path
) -> None:
    source, target = pair
    redis.Redis.from_url(source.url).set("pd:a", "1")
    file = tmp_path / "b.backup"
    backup.backup(settings(source.url, tmp_path), file)
    target_db = redis.Redis.from_url(target.url)

    # a member changed after the backup: its checksum no longer matches
    damaged = tmp_path / "damaged.backup"
    with tarfile.open(file, "r:gz") as src, tarfile.open(damaged, "w:gz") as out:
        for member in src.getmembers():
            f = src.extractfile(member)
            assert f is not None
            data = f.read()
            if member.name == "redis/state.keys":
                data = data[:-1] + bytes([data[-1] ^ 1])
            out.addfile(member, io.BytesIO(data))
    with pytest.raises(BackupError, match="checksum"):
        backup.restore(settings(target.url, tmp_path), damaged)

    with pytest.raises(BackupError, match="PIKDAME_SECRET"):
        backup.restore(settings(target.url, tmp_path, secret="another"), file)

    split = config.load(
        {
            "REDIS_URL": target.url,
            **one_server(target.url),
            "PIKDAME_REDIS_RANKINGS_URL": source.url,
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_VAR": str(tmp_path),
        }
    )
    with pytest.raises(BackupError, match="same roles"):
        backup.restore(split, file)
    assert target_db.dbsize() == 0


def test_the_generated_secret_comes_back_into_a_fresh_var(
    pair: tuple[RedisServer, RedisServer], tmp_path: Path
) -> None:
    source, target = pair
    old_var, new_var = tmp_path / "old", tmp_path / "new"
    before = settings(source.url, old_var, secret=None)  # generated into old/pikdame_secret
    (before.archive_dir / "2030").mkdir(parents=True)
    (before.archive_dir / "2030" / "day.jsonl.gz").write_bytes(b"\x1f\x8b archived")
    file = tmp_path / "b.backup"
    backup.backup(before, file)
    after = settings(target.url, new_var, secret=None)  # a fresh secret of its own, replaced
    assert after.secret != before.secret
    backup.restore(after, file)
    assert settings(target.url, new_var, secret=None).secret == before.secret
    assert (new_var / "archive" / "2030" / "day.jsonl.gz").read_bytes() == b"\x1f\x8b archived"


def test_game_state_on_a_cluster_comes_back_into_a_fresh_cluster(tmp_path: Path) -> None:
    nodes, fresh = start_cluster(), start_cluster()
    others = {"queue": start_redis(), "rankings": start_redis()}
    try:

        def on(cluster_url: str) -> config.Settings:
            return config.load(
                {
                    "REDIS_URL": others["queue"].url,
                    "PIKDAME_REDIS_STATE_URL": cluster_url,
                    "PIKDAME_REDIS_STATE_CLUSTER": "1",
                    "PIKDAME_REDIS_QUEUE_URL": others["queue"].url,
                    "PIKDAME_REDIS_RANKINGS_URL": others["rankings"].url,
                    "PIKDAME_SECRET": SECRET,
                    "PIKDAME_VAR": str(tmp_path),
                }
            )

        state: RedisCluster[str] = RedisCluster.from_url(nodes.url, decode_responses=True)
        names = [f"pd:{{a:{i}}}:attempt" for i in range(200)]  # spread over every node
        for i, name in enumerate(names):
            state.hset(name, mapping={"seq": str(i)})
        file = tmp_path / "c.backup"
        manifest = backup.backup(on(nodes.url), file)
        assert manifest["redis"]["state"]["cluster"] and manifest["redis"]["state"]["keys"] == 200
        redis.Redis.from_url(others["queue"].url).flushall()
        redis.Redis.from_url(others["rankings"].url).flushall()
        done = backup.restore(on(fresh.url), file)
        assert done["restored"] == {"state": 200, "queue": 0, "rankings": 0}
        back: RedisCluster[str] = RedisCluster.from_url(fresh.url, decode_responses=True)
        assert [back.hget(name, "seq") for name in names] == [str(i) for i in range(200)]
    finally:
        nodes.close()
        fresh.close()
        for server in others.values():
            server.close()
