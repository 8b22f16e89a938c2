"""Backups that restore (deploy/README.md, "Backup and restore"): everything that must survive a
lost machine in one file, and that file brought back into fresh, empty servers.

The file is a gzipped tar: ``manifest.json`` (format, time, the versions of the service, of
each game's engine and of each Redis, the roles and which server each is on, a SHA-256 and size
of every other member),
``redis/<role>.keys`` for each distinct Redis of the roles (game state, queue, rankings; a
role sharing another's server is named in the manifest, not dumped twice), ``secret`` (the
resolved PIKDAME_SECRET), ``env`` (the operator's environment file, when given) and
``archive/…`` (PIKDAME_ARCHIVE_DIR: the closed days' records).

A Redis is dumped logically (SCAN, then DUMP and PEXPIRETIME per key), so it works on any
server the app reaches, a Redis Cluster's nodes included, and restores into any server of the
same or a later Redis version (RESTORE … ABSTTL). Expiries are absolute (Redis' own clock): a
key expires at the same moment after the restore as it would have before, so the app's clock
and Redis' clock never disagree about it; a key whose moment passed meanwhile is not restored.
Each key is read atomically; the dump as a whole is not one instant (a write racing the backup
may be in it or not), and a write acknowledged before the backup started is always in it.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import io
import json
import struct
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Final

from redis.cluster import RedisCluster

from service import games
from service.common import config, connect
from service.common.config import Settings
from service.errors import BackupError

FORMAT: Final = 1
MANIFEST: Final = "manifest.json"
SECRET: Final = "secret"
ENV: Final = "env"
ARCHIVE: Final = "archive"
BATCH: Final = 500  # keys per round trip
ROLES: Final = ("state", "queue", "rankings")
RECORD: Final = struct.Struct(">IIq")  # key length, payload length, absolute expiry ms (-1: none)


@dataclass(frozen=True)
class Server:
    """One distinct Redis of the deployment and the roles it serves."""

    name: str  # the first role on it: the dump's member name
    url: str
    cluster: bool
    roles: tuple[str, ...]


def servers(settings: Settings) -> list[Server]:
    """The distinct servers of the roles, in ROLES order."""
    urls = {
        "state": settings.redis_state_url,
        "queue": settings.redis_queue_url,
        "rankings": settings.redis_rankings_url,
    }
    found: dict[str, list[str]] = {}
    for role in ROLES:
        found.setdefault(urls[role], []).append(role)
    return [
        Server(
            roles[0],
            url,
            settings.redis_state_cluster and roles[0] == "state",
            tuple(roles),
        )
        for url, roles in found.items()
    ]


def raw_client(settings: Settings, server: Server) -> Any:
    """A bytes client of ``server`` (DUMP payloads are binary): a cluster client for the state
    cluster, else as the app connects (directly or through Sentinel)."""
    if server.cluster:
        return RedisCluster.from_url(server.url, decode_responses=False)
    return connect.client(settings, server.url, text=False)


def _records(client: Any) -> Iterator[tuple[bytes, bytes, int]]:
    """(key, DUMP payload, absolute expiry in ms or -1) of every key; a key gone between the
    SCAN and its DUMP is skipped."""
    batch: list[bytes] = []
    for key in client.scan_iter(count=BATCH):
        batch.append(key)
        if len(batch) >= BATCH:
            yield from _dump(client, batch)
            batch = []
    yield from _dump(client, batch)


def _dump(client: Any, batch: list[bytes]) -> Iterator[tuple[bytes, bytes, int]]:
    if not batch:
        return
    pipe = client.pipeline(transaction=False)
    for key in batch:
        pipe.dump(key)
        pipe.execute_command("PEXPIRETIME", key)
    answers = pipe.execute()
    for i, key in enumerate(batch):
        payload, expires = answers[2 * i], int(answers[2 * i + 1])
        if payload is not None and expires != -2:
            yield key, payload, expires


def dump_server(client: Any) -> tuple[bytes, int]:
    """The server's keys as one member's bytes, and how many."""
    out = io.BytesIO()
    count = 0
    for key, payload, expires in _records(client):
        out.write(RECORD.pack(len(key), len(payload), expires))
        out.write(key)
        out.write(payload)
        count += 1
    return out.getvalue(), count


def read_records(data: bytes) -> Iterator[tuple[bytes, bytes, int]]:
    view, at = memoryview(data), 0
    while at < len(data):
        klen, plen, expires = RECORD.unpack_from(view, at)
        at += RECORD.size
        key = bytes(view[at : at + klen])
        payload = bytes(view[at + klen : at + klen + plen])
        at += klen + plen
        yield key, payload, expires


def service_version() -> str:
    """The installed distribution's version (pyproject.toml), or "unknown" when the code runs
    from a checkout that is not installed."""
    for name in metadata.packages_distributions().get("service", []):
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return "unknown"


def _version(client: Any) -> str:
    info = client.info("server")
    if isinstance(info, dict) and "redis_version" not in info:  # a cluster: one answer a node
        info = next(iter(info.values()))
    return str(info["redis_version"])


def _add(tar: tarfile.TarFile, name: str, data: bytes, files: dict[str, Any]) -> None:
    member = tarfile.TarInfo(name)
    member.size = len(data)
    member.mode = 0o600
    tar.addfile(member, io.BytesIO(data))
    files[name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def backup(settings: Settings, target: Path, env_file: Path | None = None) -> dict[str, Any]:
    """Write the backup to ``target`` (written beside it, then renamed: a half-written backup
    never takes the name of a good one); returns its manifest."""
    files: dict[str, Any] = {}
    redis_part: dict[str, Any] = {}
    started = dt.datetime.now(dt.UTC)
    partial = target.with_name(target.name + ".partial")
    with tarfile.open(partial, "w:gz") as tar:
        for server in servers(settings):
            client = raw_client(settings, server)
            try:
                data, count = dump_server(client)
                version = _version(client)
            finally:
                client.close()
            name = f"redis/{server.name}.keys"
            _add(tar, name, data, files)
            redis_part[server.name] = {
                "roles": list(server.roles),
                "cluster": server.cluster,
                "keys": count,
                "redis_version": version,
                "member": name,
            }
        _add(tar, SECRET, settings.secret, files)
        if env_file is not None:
            _add(tar, ENV, env_file.read_bytes(), files)
        archive_dir = settings.archive_dir
        if archive_dir.is_dir():
            for path in sorted(p for p in archive_dir.rglob("*") if p.is_file()):
                rel = path.relative_to(archive_dir).as_posix()
                _add(tar, f"{ARCHIVE}/{rel}", path.read_bytes(), files)
        manifest = {
            "format": FORMAT,
            "started_at": started.isoformat(timespec="milliseconds"),
            "finished_at": dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
            "service_version": service_version(),
            "engines": {name: adapter.engine_version for name, adapter in games.GAMES.items()},
            "redis": redis_part,
            "files": files,
        }
        data = json.dumps(manifest, indent=2, sort_keys=True).encode()
        member = tarfile.TarInfo(MANIFEST)
        member.size = len(data)
        tar.addfile(member, io.BytesIO(data))
    partial.replace(target)
    return manifest


def read(source: Path) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and every member of a backup, each checked against the manifest."""
    try:
        with tarfile.open(source, "r:gz") as tar:
            members = {}
            for m in tar.getmembers():
                f = tar.extractfile(m) if m.isfile() else None
                if f is not None:
                    members[m.name] = f.read()
    except (OSError, tarfile.TarError, gzip.BadGzipFile, EOFError) as e:
        raise BackupError(f"{source}: not a readable backup ({e})") from None
    if MANIFEST not in members:
        raise BackupError(f"{source}: no {MANIFEST}")
    manifest = json.loads(members.pop(MANIFEST))
    if manifest.get("format") != FORMAT:
        raise BackupError(f"{source}: format {manifest.get('format')!r}, this reads {FORMAT}")
    if set(manifest["files"]) != set(members):
        raise BackupError(f"{source}: its members are not the manifest's")
    for name, want in manifest["files"].items():
        if hashlib.sha256(members[name]).hexdigest() != want["sha256"]:
            raise BackupError(f"{source}: {name} does not match its checksum")
    return manifest, members


def restore(
    settings: Settings, source: Path, *, force: bool = False, env_file: Path | None = None
) -> dict[str, Any]:
    """Bring a backup back: every key into the role's server of ``settings`` (which must be
    empty unless ``force``: then a key of the backup replaces one of the same name), the
    archive's files into PIKDAME_ARCHIVE_DIR, the secret into ``PIKDAME_VAR/pikdame_secret``
    when PIKDAME_SECRET is not set (else it must be the backup's; checked before anything is
    written), the environment file to
    ``env_file``. Returns how many keys each server got."""
    manifest, members = read(source)
    secret = members[SECRET]
    if not settings.secret_generated and settings.secret != secret:
        raise BackupError("PIKDAME_SECRET is not the backup's secret: set it to the backup's")
    targets = {s.name: s for s in servers(settings)}
    if set(targets) != set(manifest["redis"]):
        raise BackupError(
            f"the backup has the servers {sorted(manifest['redis'])}, the settings"
            f" {sorted(targets)}: configure the same roles (README.md, configuration)"
        )
    clients = {name: raw_client(settings, server) for name, server in targets.items()}
    try:
        if not force:
            full = [name for name, c in clients.items() if int(c.dbsize())]
            if full:
                raise BackupError(f"not empty: {', '.join(full)} (restore --force replaces keys)")
        restored = {
            name: restore_server(c, members[manifest["redis"][name]["member"]], force)
            for name, c in clients.items()
        }
    finally:
        for c in clients.values():
            c.close()
    if settings.secret_generated:
        path = settings.var_dir / config.SECRET_FILE
        # config.load() generated one on the fresh machine: the backup's replaces it (an
        # installation whose Redis held keys was refused above, unless forced)
        settings.var_dir.mkdir(parents=True, exist_ok=True)
        path.write_bytes(secret)
        path.chmod(0o600)
    prefix = ARCHIVE + "/"
    for name, data in members.items():
        if name.startswith(prefix):
            path = settings.archive_dir / name[len(prefix) :]
            if ".." in Path(name).parts:
                raise BackupError(f"{name}: not a path inside the archive")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    if env_file is not None and ENV in members:
        env_file.write_bytes(members[ENV])
    return {"restored": restored, "backup_started_at": manifest["started_at"]}


def restore_server(client: Any, data: bytes, replace: bool) -> int:
    """RESTORE every record of a dump into ``client`` (REPLACE with ``replace``); returns how
    many records it read (a key whose absolute expiry has passed is not created)."""
    count = 0
    pipe = client.pipeline(transaction=False)
    for key, payload, expires in read_records(data):
        args: list[Any] = ["RESTORE", key, max(expires, 0), payload]
        if expires >= 0:
            args.append("ABSTTL")
        if replace:
            args.append("REPLACE")
        pipe.execute_command(*args)
        count += 1
        if count % BATCH == 0:
            pipe.execute()
    pipe.execute()
    return count
