"""How many live streams a seat and a client address hold at once (docs/TABLES.md, "Streams per
seat and per address").

Each open stream holds a lease in two Redis sorted sets, member -> until when it counts (ms on
the app's clock): the table's presence set (``seat:stream``, which also says who is connected)
and its address's set (``table:seat:stream``, over every table). A stream takes both before its
first byte, renews them with each heartbeat (valid three heartbeats, as presence) and gives them
back when it ends. A lease of a killed process is renewed by nobody: the next admission drops it
once it has run out, and the whole set expires after three heartbeats without a renewal. Redis,
not a count in each process: a client's streams spread over every worker and host of the stream
group, and a process that dies takes its count with it but not its leases' end.

Flask-free: the route takes the leases (its 429), the stream's generator renews and returns them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

import redis

from service.common import keys

# KEYS[1]: a lease set. ARGV: now, until (ms, the app's clock), the cap (0: none), the member,
# the prefix of the members that count ('' for all), the set's expiry (s). 1: taken, 0: full.
TAKE: Final = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
local cap = tonumber(ARGV[3])
if cap > 0 then
  local held = 0
  local prefix = ARGV[5]
  for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    if string.sub(member, 1, #prefix) == prefix and member ~= ARGV[4] then
      held = held + 1
    end
  end
  if held >= cap then
    return 0
  end
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[6])
return 1
"""

Holder = Literal["seat", "address"]


@dataclass(frozen=True)
class Lease:
    """One stream's place: its table, seat, client address (as limits count it) and id."""

    table_id: str
    seat: int
    address: str
    stream: str

    @property
    def seat_member(self) -> str:
        return f"{self.seat}:{self.stream}"

    @property
    def address_member(self) -> str:
        return f"{self.table_id}:{self.seat}:{self.stream}"


@dataclass(frozen=True)
class Caps:
    """Streams held at once per seat and per address (0: no cap), and the heartbeat (s) that
    renews a lease (valid three heartbeats)."""

    per_seat: int
    per_address: int
    heartbeat_seconds: int

    @property
    def valid_ms(self) -> int:
        return 3 * self.heartbeat_seconds * 1000

    @property
    def expiry_s(self) -> int:
        return 3 * self.heartbeat_seconds + 1


def take(client: redis.Redis[str], lease: Lease, caps: Caps, now_ms: int) -> Holder | None:
    """Take the stream's two leases; None when both were free, else which holder is full (then
    nothing is held). One script per set: each set is one key, so this works on a Redis Cluster."""
    until = now_ms + caps.valid_ms
    presence = keys.table_presence(lease.table_id)
    seat = client.eval(  # type: ignore[no-untyped-call]
        TAKE,
        1,
        presence,
        now_ms,
        until,
        caps.per_seat,
        lease.seat_member,
        f"{lease.seat}:",
        caps.expiry_s,
    )
    if not seat:
        return "seat"
    address = client.eval(  # type: ignore[no-untyped-call]
        TAKE,
        1,
        keys.stream_address(lease.address),
        now_ms,
        until,
        caps.per_address,
        lease.address_member,
        "",
        caps.expiry_s,
    )
    if not address:
        client.zrem(presence, lease.seat_member)
        return "address"
    return None


def renew(client: redis.Redis[str], lease: Lease, caps: Caps, now_ms: int) -> None:
    """A heartbeat: both leases (and the seat's presence) count three heartbeats more."""
    until = now_ms + caps.valid_ms
    pipe = client.pipeline(transaction=False)
    for key, member in (
        (keys.table_presence(lease.table_id), lease.seat_member),
        (keys.stream_address(lease.address), lease.address_member),
    ):
        pipe.zadd(key, {member: until})
        pipe.expire(key, caps.expiry_s)
    pipe.execute()


def give_back(client: redis.Redis[str], lease: Lease) -> None:
    """The stream ended: its seat and address may hold another (idempotent)."""
    pipe = client.pipeline(transaction=False)
    pipe.zrem(keys.table_presence(lease.table_id), lease.seat_member)
    pipe.zrem(keys.stream_address(lease.address), lease.address_member)
    pipe.execute()
