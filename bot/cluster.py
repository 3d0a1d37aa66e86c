"""Several worker processes sharing the tables (issue 14).

Every open table is served by exactly one worker at a time: the one holding the lease of its
chat (:func:`storage.api.lease_key`, ``"telegram:-100123"``) in the shared store (PostgreSQL,
or one SQLite file on one machine). A worker

- registers a heartbeat with the URL of its internal endpoint and renews the leases of the
  tables it serves every ``ttl / 4`` seconds; a lease it failed to renew in time is lost and
  its table dropped from memory (:meth:`TableService.release`);
- fences its store (:meth:`Store.fence`): a commit or snapshot of a table whose lease it no
  longer holds is refused in the writing transaction, so a worker that stalled past its lease
  (a zombie) can never settle a hand twice or fire a timer a second time;
- says whether it takes Telegram updates (lease ``telegram-worker:<worker>``, or
  ``telegram-none:<worker>`` for a Discord-only one, and for one stopping, said first as
  it stops: no table is handed to it then), renewed with its other leases: a
  Telegram chat is given by rendezvous hashing only among the live workers that take them
  (:func:`telegram_workers`; one advertising nothing, of the release before, counts as
  taking both platforms), in the orphan sweep, the owed-message sweep, the hand-back and
  the router alike (a chat picked for a Discord-only worker was taken by no sweep, and
  its updates refused by that worker until Telegram gave them up);
- takes over orphaned tables: every sweep it lists the open tables without a live lease and
  claims those that rendezvous hashing over the live workers gives to it (a Telegram
  chat's: over those that take Telegram updates), restoring each from
  its last committed snapshot (``recover this one table``), so a dead worker's tables resume
  elsewhere within about ``ttl`` seconds plus one sweep;
- hands Telegram tables back to the worker rendezvous hashing gives them to now, a few a
  sweep (:meth:`Worker.rebalance`): a worker that joined later (a restart, a second one)
  got only new chats and orphans, and the one that ran alone kept every table for good. A
  table moves only when idle between hands (no hand dealt or played, nothing due for a
  few lease times, nothing owed or being sent: its snapshot is all of it), its chat quiet
  for a few seconds with no update being handled, and to a worker that says it takes
  Telegram updates (its ``telegram-worker:`` lease) seen live for a few lease times (that
  run of it: each run holds a lease of its own, ``worker-run:<worker>:<token>``, so one
  restarted under the same name is seen anew). Holding the chat's claim lock, the
  worker stops taking the chat's updates (each answered 409: the router follows the
  lease, then the pick), saves the table, forgets it
  as a lost one (:meth:`TableService.hand_over`) and gives the lease up; the pick takes
  it over as an orphan at its next sweep, or at the chat's next update. An update is thus
  handled either here before the snapshot or by the pick after it, never lost or done
  twice; no kush moves. The worker that handed it refuses the chat for a few lease times,
  unless the pick dies (or took the chat and lost it) first: then the table is an orphan
  like any other, taken within about one lease time. Discord tables are not handed back
  so: they follow their guild's shard (below);
- sends what a closed table still owes its chat (its closing step's last showdown, final
  standings, closing notice, kept with its final snapshot) when the worker that closed it died
  before sending: every sweep the worker that would serve the chat (its lease's holder, else
  the rendezvous pick, or the guild's shard's worker) takes the lease and sends it
  (:meth:`Worker.sweep_owed`); the closing worker keeps the chat's lease until its own sending
  is done, so one worker sends it, once;
- receives the Telegram updates the :class:`Router` forwards (``POST /telegram``), takes the
  chat's lease (adopting its table) and feeds the update to its python-telegram-bot
  :class:`~telegram.ext.Application`; an update for a chat another live worker holds is
  answered ``409`` with that worker's address.

Discord (issue 14: shard ranges per worker, the same ownership rules): a guild's
interactions reach only the process running its shard (``(guild_id >> 22) % shard_count``),
so each shard is held, like a chat, by one live worker at a time through the lease
``discord-shard:<id>`` (:func:`shard_key`), renewed with the worker's other leases. A worker
starts with its configured shards (``DISCORD_SHARD_IDS``) as the ones it *prefers*, and
advertises that (leases ``discord-prefer:<id>:<worker>``, and ``discord-worker:<worker>``:
it can run shards at all). Every sweep, with one read of those leases (:meth:`Store.leases`):

- a free shard (its worker died, stopped or lost it) is taken by the live worker rendezvous
  hashing picks among the live workers that prefer it, or, when none does, among all the
  live Discord workers: it takes the lease, connects the shard (discord.py, through
  :class:`ShardRunner`) and then takes over that shard's guilds' tables like any orphan
  (:meth:`Worker._my_discord_table` follows the shards it runs now). A worker takes a shard
  it does not prefer only once it has run for one lease time, so workers started together
  each take their own first;
- a worker holding a shard it does not prefer hands it back as soon as a live worker that
  prefers it is there again (a restarted or resumed worker): it disconnects the shard, lets
  its tables go and releases the lease, and the preferring worker takes it at its next sweep.
  A worker never takes a shard another live worker holds;
- fencing: a worker that failed to renew a shard's lease (it was paused or cut off past the
  lease time) disconnects the shard at once and drops that shard's tables, as for a lost
  chat; the fenced store refuses any write it still attempts.

Discord gives every interaction in a DM to shard 0 (its gateway's rule), so a press on a
player's DM hand reaches shard 0's worker whatever the table's guild. That worker serves it
when it holds the table's chat, or may take it (the guild is on a shard it runs:
:meth:`Worker.claim_interaction`); otherwise it never takes the table (its shard's worker
serves the guild's presses) and the adapter defers the interaction at once and forwards the
press (:meth:`Worker.forward_press`, ``POST /discord``) to the live worker holding the chat's
lease, which runs it through its own adapter (:meth:`PressTaker.take_forwarded`: the same
press path as a local one; the DM hand is edited through the REST API) and answers with the
refusal notice, if any, which the receiving worker sends as the interaction's ephemeral
follow-up. No worker taking it (the holder died, a takeover under way): the player is told to
press again. Every request to the internal endpoint (``/telegram`` from the router,
``/discord`` and ``/private`` from another worker) is signed with a key derived from the
platform's bot token (:func:`internal_key`) over its time, a nonce, the receiving worker's
address and its body (:func:`signed_headers`); one unsigned, stale (60 s) or replayed is
refused (:class:`Signatures`, every route's one check). It should still listen where only
the router and the workers reach it.

The :class:`Router` is the small front process: its webhook endpoint (secret token checked)
receives Telegram's updates, the chat of each is read from its JSON and the update, as
Telegram sent it, is forwarded to the worker holding that chat's lease, or, when none holds
it, to the live worker rendezvous hashing picks among those that take Telegram updates.
Which chat an update belongs to
(:func:`route_key`):

- a message, an edited message, a member update: its chat; the message a group upgraded to
  a supergroup gets in its new chat (``migrate_from_chat_id``): the old chat, whose worker
  serves the table and moves it (with its lease) to the new id; the router forwards the new
  chat's updates once that message is through; a command or press typed in the old group
  and delivered after the move: the new chat (storage keeps the move, :meth:`Store.moved_chat`);
- a button press whose payload names a table (the lobby buttons in the group and the hand
  buttons in a private chat alike): that table's chat, so a private hand press reaches the
  worker serving the table;
- a private message: ``/start t<table>`` goes to that table's chat; otherwise the chat of the
  first open table the user has a stack at; otherwise the private chat itself (any worker).

What a private update says of the user's private chat (they showed life there: a command, a
press, an unblock; or Telegram said they blocked the bot) matters at every table they sit at,
and a Telegram private chat that refused the bot is not written to again until they show life
(:meth:`bot.telegram.adapter.TelegramAdapter._private_life`). The worker the router chose
tells the live workers holding the user's other tables (``POST /private``,
:meth:`Worker.private_life`), which post the hand anew there (or mark the seat unreachable):
those tables stayed quiet until the player used their ``/start t<table>`` link. A table no
live worker holds at that moment (a takeover under way) is told once one holds it
(:meth:`Worker._tell_life`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import heapq
import hmac
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from aiohttp import ClientError, ClientSession, ClientTimeout, DummyCookieJar, web

from bot.presses import start_table, table_of
from bot.texts import language_of, tr

# bot.service is imported where a worker uses it, not here: the router imports this
# module, and the table service (with game.strategy, the renderer and Pillow) is most of a
# process's start and memory, none of it a router's (tests/bot/test_fix40f.py)
from storage.api import StorageError, Store, TableRecord, answer_within, lease_key

if TYPE_CHECKING:
    from bot.discord import DiscordAdapter
    from bot.service import TableService
    from bot.telegram import TelegramAdapter

__all__ = [
    "INTERNAL_HEADER",
    "ListenError",
    "PressTaker",
    "Router",
    "ShardRunner",
    "Signatures",
    "Worker",
    "internal_key",
    "platform_keys",
    "rendezvous",
    "route_key",
    "shard_key",
    "signed_headers",
    "telegram_workers",
]

log = logging.getLogger("bot.cluster")


class ListenError(Exception):
    """An endpoint of :class:`Worker` or :class:`Router` cannot listen (its port taken, an
    address not of this machine); the message is the OS's reason ("address already in
    use"). :func:`bot.app.run` says it in one line naming the variable."""


async def _listen(runner: web.AppRunner, host: str, port: int) -> None:
    """Start ``runner``'s site on ``host:port``. :raises ListenError: it cannot listen."""
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:  # (was a traceback ending in "address already in use")
        reason = str(exc.strerror or exc).rpartition("): ")[2]
        raise ListenError(reason) from None


TELEGRAM = "telegram"
DISCORD = "discord"
#: the prefix of every lease about Discord shards (:meth:`Store.leases` reads them at once)
_SHARD_LEASES = "discord-"
_SHARD_KEY = "discord-shard"  # a shard's lease: "discord-shard:<id>" (shard_key)
#: lease times a shard must have run on a worker for its next step aside to be a short one
STEADY_LEASES = 10
#: Telegram tables a worker hands back to their rendezvous pick in one sweep at most
#: (:meth:`Worker.rebalance`): a worker joining moves its share a few at a time, each chat
#: paused for a moment, not all at once
REBALANCE_PER_SWEEP = 3
#: seconds a chat must have had no update on a worker before its table may be handed back
#: (:meth:`Worker.rebalance`): not while its players are pressing (an update in flight)
REBALANCE_QUIET_SECONDS = 5.0
#: lease times a table handed back must have nothing due in (its next deal, a ready timer:
#: :meth:`~bot.service.runtime.Runtime.idle_for_handover`), and a worker (this run of it)
#: must have been seen live for before it is handed tables; also how long at most the worker
#: that handed a chat back refuses to take it again (an update answered 409, its own sweep:
#: the pick takes it), less when the pick dies first (:meth:`Worker._forget_handed`)
REBALANCE_LEASES = 3.0
#: seconds a lease that ran out is kept at least before a sweep deletes it
#: (:meth:`Worker.prune_leases`, :meth:`Store.prune_leases`; :data:`LEASES_KEPT_TTLS` lease
#: times if more): what ran out is read only by a takeover, within a lease time or so of
#: the holder's death (an open table's chat lease is kept however old: the takeover may be
#: a whole outage later), and by the hand-back of a table (:meth:`Worker._forget_handed`,
#: :data:`REBALANCE_LEASES` lease times). A crashed run's ``worker-run:`` lease and a closed
#: chat's lease piled up for good, every orphan sweep reading them all
LEASES_KEPT_SECONDS = 3600.0
#: lease times a lease that ran out is kept at least (:data:`LEASES_KEPT_SECONDS`)
LEASES_KEPT_TTLS = 100
#: seconds between two prunings of the leases that ran out (by the sweep, one statement)
PRUNE_LEASES_SECONDS = 300.0
#: the lease that spaces the IDENTIFYs of every worker of the bot (:meth:`Worker.identify_slot`)
IDENTIFY_LEASE = "identify:discord"

#: the share of the lease time a worker's heartbeat and renewals wait for storage at most
#: (:meth:`Worker.renew`): a renewal older than half of it is not trusted anyway
#: (:meth:`Worker.holds`)
RENEW_SHARE = 0.5
_JSON = {"Content-Type": "application/json"}
#: the header every request to a worker's internal endpoint carries (:func:`signed_headers`)
INTERNAL_HEADER = "X-OFC-Internal-Key"
#: seconds a signed request to a worker's internal endpoint is taken for after (or before: the
#: machines' clocks may differ a little) the time it was signed at (:func:`signed_headers`);
#: its nonce is remembered that long, so a captured request is refused when replayed
SIGNED_SECONDS = 60.0


def internal_key(token: str, route: str) -> str:
    """The secret a request to a worker's internal ``route`` (``"telegram"``, ``"discord"``,
    ``"private"``) is signed with (:func:`signed_headers`): an HMAC of the route under the
    platform's bot token, which every process of the bot has and nobody else (no setting of
    its own)."""
    return hmac.new(token.encode(), f"ofc-internal:{route}".encode(), hashlib.sha256).hexdigest()


def platform_keys(platform: str, token: str) -> dict[str, str]:
    """The keys of the internal routes a worker serving ``platform`` (``"telegram"``,
    ``"discord"``) with that bot ``token`` takes requests on (:func:`internal_key`): route →
    key. Telegram: ``/telegram`` (the router's updates), ``/private`` (news of a user's
    private chat), ``/settings/telegram``; Discord: ``/discord`` (forwarded presses),
    ``/settings/discord``."""
    routes = [r for r, p in _ROUTE_PLATFORMS.items() if p == platform]
    return {route: internal_key(token, route) for route in routes}


def _mac(key: str, stamp: str, nonce: str, address: str, body: bytes) -> str:
    head = f"{stamp}\n{nonce}\n{address}\n".encode()
    return hmac.new(key.encode(), head + body, hashlib.sha256).hexdigest()


def signed_headers(
    key: str, address: str, body: bytes, *, now: float | None = None
) -> dict[str, str]:
    """The headers of one request to the internal endpoint of the worker at ``address`` (its
    URL as it advertises it, without the route), ``body`` its exact bytes, signed with the
    route's ``key`` (:func:`internal_key`): :data:`INTERNAL_HEADER` is
    ``"<unix time>:<nonce>:<HMAC-SHA256 of the time, nonce, address and body>"``. Every
    request (a retry too) is signed anew: the receiving worker takes one only within
    :data:`SIGNED_SECONDS` of its time and once (:class:`Signatures`), so a captured
    request is no key to replay (it was one for good while the key was the route's alone).
    ``now``: the time to sign at (``time.time()``; tests)."""
    stamp = f"{time.time() if now is None else now:.3f}"
    nonce = secrets.token_hex(12)
    return {**_JSON, INTERNAL_HEADER: f"{stamp}:{nonce}:{_mac(key, stamp, nonce, address, body)}"}


class Signatures:
    """What a worker's internal endpoint checks of every request (each route the same way):
    :data:`INTERNAL_HEADER` signed by :func:`signed_headers` with the route's key, for this
    worker's ``address`` and the request's body, its time within :data:`SIGNED_SECONDS` of
    now (either way) and its nonce not seen in that time. The nonces of taken requests are
    remembered until their time is stale anyway (a heap by expiry: each dropped once, as
    later requests come). A request that fails any of it is refused (403) and remembered not.

    :param address: the worker's URL as it advertises it (a request signed for another
        worker is refused here: the same request replayed to each worker in turn).
    :param clock: the wall clock (``time.time``; tests move it).
    """

    def __init__(self, address: str, clock: Callable[[], float] = time.time) -> None:
        self.address = address
        self.clock = clock
        #: route → the key its requests are signed with (:func:`internal_key`); a route
        #: without one refuses every request
        self.keys: dict[str, str] = {}
        self._seen: set[str] = set()
        self._expiry: list[tuple[float, str]] = []  # (when forgotten, nonce), a heap

    def allowed(self, route: str, header: str, body: bytes) -> bool:
        """Whether a request to ``route`` with ``header`` (its :data:`INTERNAL_HEADER`) and
        ``body`` is taken: signed with the route's key for this address (compared in
        constant time), fresh, its nonce new (remembered from now on)."""
        return self.refusal(route, header, body) is None

    def refusal(self, route: str, header: str, body: bytes) -> str | None:
        """Why a request to ``route`` is refused, ``None`` when it is taken (as
        :meth:`allowed`; its nonce remembered from now on): ``"unsigned"`` (no header, a
        malformed one), ``"no key"`` (a route this worker has no key for: it runs without
        that platform's token), ``"key"`` (signed with
        another key: a sender with another bot token, or a request for another worker's
        address), ``"time"`` (signed more than :data:`SIGNED_SECONDS` ago or ahead: the
        machines' clocks apart) or ``"replay"`` (its nonce taken already)."""
        key = self.keys.get(route)
        stamp, _, rest = header.partition(":")
        nonce, _, given = rest.partition(":")
        if key is None:
            return "no key"
        if not nonce or len(nonce) > 64:
            return "unsigned"
        want = _mac(key, stamp, nonce, self.address, body)
        if not hmac.compare_digest(given.encode(), want.encode()):
            return "key"
        try:
            at = float(stamp)
        except ValueError:
            return "unsigned"
        now = self.clock()
        while self._expiry and self._expiry[0][0] < now:
            self._seen.discard(heapq.heappop(self._expiry)[1])
        if not abs(now - at) <= SIGNED_SECONDS:
            return "time"  # (stale, or from too far ahead)
        if nonce in self._seen:
            return "replay"
        self._seen.add(nonce)
        heapq.heappush(self._expiry, (at + SIGNED_SECONDS, nonce))
        return None


#: the platform whose bot token each internal route's key is derived from
_ROUTE_PLATFORMS = {
    "telegram": "telegram",
    "private": "telegram",
    "settings-telegram": "telegram",
    "discord": "discord",
    "settings-discord": "discord",
}
#: the setting whose bot token each internal route's key is derived from (its platform's)
_ROUTE_TOKENS = {
    route: {"telegram": "TELEGRAM_BOT_TOKEN", "discord": "DISCORD_BOT_TOKEN"}[platform]
    for route, platform in _ROUTE_PLATFORMS.items()
}
#: the route whose key signs a worker's news of a community's settings change
#: (``POST /settings/<platform>``, :meth:`Worker.settings_saved`), by the community's
#: platform: a key of its own under that platform's token (every worker serving it has
#: it). Shared with ``/private`` or ``/discord``, whose signatures do not cover the path,
#: a captured request of theirs sent here first was taken (400), and the genuine one then
#: refused as a replay
_SETTINGS_ROUTES = {"telegram": "settings-telegram", "discord": "settings-discord"}
#: seconds between two warnings of the same refusal of the internal endpoint (or of the
#: router's webhook): one line says what to fix, not one per request
REFUSAL_LOG_SECONDS = 60.0


def refusal_advice(route: str, reason: str) -> str:
    """What a worker's warning of a refused internal request (``reason``, from
    :meth:`Signatures.refusal`, to ``route``) tells the operator to do."""
    token = _ROUTE_TOKENS.get(route, "the bot token")
    if reason == "key":
        return (
            f"it was signed with another key: the router and every worker must run with the "
            f"same {token} (and WORKER_ADDRESS must be the URL the others reach this worker at)"
        )
    if reason == "time":
        return (
            f"it was signed more than {SIGNED_SECONDS:g} s before or after this machine's "
            "time: the machines' clocks are apart; keep them in step (NTP)"
        )
    if reason == "no key":
        return (
            f"this worker runs without {token}: give it the same {token} as the router and "
            "the other workers"
        )
    if reason == "replay":
        return "it repeated a request taken already (a replay): someone else reaches WORKER_LISTEN"
    return "it was not signed: only the router and the workers may post to WORKER_LISTEN"


class _Quiet:
    """Says a refusal once per :data:`REFUSAL_LOG_SECONDS` per kind (``key``): the first
    one logged, the next ones counted and told with the next line."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._said: dict[str, tuple[float, int]] = {}  # kind → (when said, refused since)

    def due(self, kind: str) -> int | None:
        """``None`` when a line of ``kind`` was logged within the last
        :data:`REFUSAL_LOG_SECONDS` (this refusal counted), else how many were refused
        since that line (0 for the first line)."""
        now = self.clock()
        said = self._said.get(kind)
        if said is not None and now - said[0] < REFUSAL_LOG_SECONDS:
            self._said[kind] = (said[0], said[1] + 1)
            return None
        self._said[kind] = (now, 0)
        return 0 if said is None else said[1]

    def warn(self, kind: str, message: str, *args: object) -> None:
        """Log ``message % args`` at WARNING when a line of ``kind`` is :meth:`due`, with how
        many such refusals went unsaid since the last one (" (N more refused since the last
        such line)"); else only count this one."""
        more = self.due(kind)
        if more is not None:
            tail = f" ({more} more refused since the last such line)" if more else ""
            log.warning(message + "%s", *args, tail)


def shard_key(shard_id: int) -> str:
    """The lease key of a Discord shard (``"discord-shard:3"``): held by the one worker
    running that shard."""
    return f"{_SHARD_KEY}:{shard_id}"


def _prefer_key(shard_id: int, worker: str) -> str:
    return f"discord-prefer:{shard_id}:{worker}"


def _runner_key(worker: str) -> str:
    return f"discord-worker:{worker}"


#: the prefix of the leases saying whether a worker takes Telegram updates (one
#: :meth:`Store.leases` read); a chat's lease is ``"telegram:<chat>"``, not one of them
_TELEGRAM_ADS = "telegram-"


def _telegram_ad(worker: str, takes: bool) -> str:
    """The lease ``worker`` holds saying it takes Telegram updates (``telegram-worker:<w>``)
    or that it takes none (``telegram-none:<w>``: Discord only)."""
    return f"telegram-{'worker' if takes else 'none'}:{worker}"


def telegram_workers(live: Mapping[str, str], ads: Mapping[str, str]) -> dict[str, str]:
    """Of the ``live`` workers (name → address), those a Telegram chat may be given to by
    rendezvous hashing: all but the ones advertising that they take no Telegram updates
    (``ads``: :meth:`Store.leases` of :data:`_TELEGRAM_ADS`; :func:`_telegram_ad`). A worker
    advertising nothing (of the release before the advertisements) counts as taking both
    platforms, as every worker did then."""
    return {w: a for w, a in live.items() if ads.get(_telegram_ad(w, False)) != w}


#: the prefix of the leases naming each run of a worker (:func:`_run_key`, one
#: :meth:`Store.leases` read): a worker restarted under the same name holds a new one
_RUN_LEASES = "worker-run:"


def _run_key(worker: str, run: str) -> str:
    """The lease ``worker`` holds while this run of it lives (``worker-run:<w>:<run>``,
    ``run`` a random token drawn at each :meth:`Worker.start`): what tells a restart under
    the same name from the run before (:meth:`Worker.rebalance`), without a column of its
    own; renewed and given up with the worker's other leases."""
    return f"{_RUN_LEASES}{worker}:{run}"


def worker_runs(leases: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Worker → the tokens of its runs holding a live lease (``leases``: :meth:`Store.leases`
    of :data:`_RUN_LEASES`, key → holder; :func:`_run_key`): one a worker, two for a moment
    after a restart while the dead run's lease runs out; none for a worker of a release
    before the run leases."""
    runs: dict[str, set[str]] = {}
    for key, holder in leases.items():
        head = _run_key(holder, "")
        if key.startswith(head):
            runs.setdefault(holder, set()).add(key[len(head) :])
    return {w: frozenset(r) for w, r in runs.items()}


#: seconds a start's probe of another process's internal endpoint waits for its answer
PROBE_SECONDS = 2.0


async def probe(address: str, route: str, key: str) -> tuple[str | None, float | None]:
    """Ask the worker at ``address`` whether it takes what this process signs for ``route``
    with ``key`` (``POST /hello``, :meth:`Worker._on_hello`): ``(reason, lease seconds)``.
    ``reason``: its refusal's (:meth:`Signatures.refusal`: ``"key"``, another bot token;
    ``"time"``, the clocks apart), ``None`` when it takes it, has no key for the route (a
    worker of the other platform) or cannot say (unreachable, or older code without
    ``/hello``: nothing to refuse the start for). ``lease seconds``: its ``LEASE_SECONDS``
    when it took the request and said it (``None`` otherwise: older code)."""
    body = json.dumps({"route": route}).encode()
    try:
        async with (
            ClientSession(timeout=ClientTimeout(total=PROBE_SECONDS)) as http,
            http.post(
                f"{address}/hello", data=body, headers=signed_headers(key, address, body)
            ) as resp,
        ):
            if resp.status not in (200, 403):
                return None, None
            reply = await resp.json()
    except (ClientError, OSError, TimeoutError, ValueError, RecursionError):
        return None, None
    if not isinstance(reply, Mapping):
        return None, None
    reason = reply.get("refused")
    lease = reply.get("lease_seconds")
    seconds = float(lease) if isinstance(lease, int | float) and lease > 0 else None
    return (reason if reason in ("key", "time") else None), seconds


def probe_refusal(worker: str, address: str, route: str, reason: str, this: str) -> str:
    """The one line (a :class:`bot.config.ConfigError`, exit status 2) of a start that the
    live worker ``worker`` at ``address`` refused (:func:`probe`'s ``reason`` for
    ``route``); ``this``: the process starting ("this worker", "the router")."""
    token = _ROUTE_TOKENS.get(route, "the bot token")
    if reason == "time":
        return (
            f"the worker {worker} at {address} refused {this}'s signed request: the two "
            f"machines' clocks are more than {SIGNED_SECONDS:g} s apart; keep them in step "
            "(NTP), then start again"
        )
    return (
        f"the worker {worker} at {address} runs with another {token} than {this} (it "
        f"refused {this}'s signed request): give the router and every worker the same {token}"
    )


async def _first_refusal(
    asks: Sequence[tuple[str, str, str, str]], this: str, lease: float | None = None
) -> str | None:
    """Ask every live worker at once (``asks``: ``(worker, address, route, key)``, each a
    :func:`probe`) and give the line of the first in ``asks``' order that refused ``this``
    (the process starting: :func:`probe_refusal`) or, with ``lease`` (this worker's
    ``LEASE_SECONDS``), said another lease time (:func:`lease_refusal`), else ``None``.
    Together, not one after another: beside hung workers (a stopped process, a machine gone
    whose heartbeat has not expired) a start waited :data:`PROBE_SECONDS` for each worker
    and route in turn."""
    answers = await asyncio.gather(*(probe(address, route, key) for _, address, route, key in asks))
    for (name, address, route, _), (reason, theirs) in zip(asks, answers, strict=True):
        if reason is not None:
            return probe_refusal(name, address, route, reason, this)
        if lease is not None and theirs is not None and theirs != lease:
            return lease_refusal(name, address, theirs, lease)
    return None


def takeover_line(worker: str, count: int, owner: str | None) -> str:
    """The one INFO line of a takeover (:meth:`Worker.sweep`; each table's own line is at
    DEBUG): ``worker`` took ``count`` tables whose leases ``owner`` held until they ran out
    (it died, or stalled past its lease time); ``None``: tables nobody held (their worker let
    them go at its stop, or a start of the cluster)."""
    tables = f"{count} table{'' if count == 1 else 's'}"
    if owner is None:
        return f"worker {worker} took over {tables} whose leases were let go or never taken"
    return f"worker {worker} took over {tables} of {owner} (its lease ran out)"


def lease_refusal(worker: str, address: str, theirs: float, ours: float) -> str:
    """The one line (a :class:`bot.config.ConfigError`, exit status 2) of a worker's start
    whose ``LEASE_SECONDS`` (``ours``) differs from the live worker ``worker``'s at
    ``address`` (``theirs``, told by :func:`probe`): a takeover reads the dead worker's
    last renewal as its lease's end less its own lease time (R8.5), and a worker with a
    shorter lease than another's takes its tables over while it still runs."""
    return (
        f"the worker {worker} at {address} runs with LEASE_SECONDS={theirs:g} and this worker "
        f"with LEASE_SECONDS={ours:g}: give every worker the same LEASE_SECONDS"
    )


class ShardRunner(Protocol):
    """What a worker needs of its Discord adapter (:class:`bot.discord.DiscordAdapter`):
    run and stop one shard, and which run."""

    @property
    def shards(self) -> frozenset[int]:
        """The shards running now (a connection given up is not)."""

    async def connect_shard(self, shard_id: int) -> None:
        """Connect the shard; return once it is ready. Raises when it cannot."""

    async def disconnect_shard(self, shard_id: int) -> None:
        """Disconnect the shard (nothing when it does not run)."""


class PressTaker(Protocol):
    """What a worker needs of its Discord adapter to serve the presses another worker
    received (:meth:`bot.discord.DiscordAdapter.take_forwarded`)."""

    async def take_forwarded(self, press: Mapping[str, Any]) -> dict[str, Any]:
        """Run a forwarded press (its JSON, as the receiving adapter wrote it); its answer's
        JSON once the player is answered."""


def rendezvous(key: str, workers: Mapping[str, str]) -> str | None:
    """The worker (of ``workers``' names) that serves ``key`` when nobody holds it: highest
    random weight hashing, so every process picks the same one and a worker joining or leaving
    moves only its own share of the keys. ``None`` when there is no worker."""
    best: tuple[bytes, str] | None = None
    for worker in workers:
        score = hashlib.sha256(f"{worker}\0{key}".encode()).digest()
        if best is None or score > best[0]:
            best = (score, worker)
    return None if best is None else best[1]


async def route_key(
    store: Store, update: Mapping[str, Any], chats: dict[int, str] | None = None
) -> str | None:
    """The lease key of the chat a Telegram update (its JSON) belongs to, or ``None`` for an
    update with no chat (answered by nobody). ``chats`` caches table id → chat id."""
    query = update.get("callback_query")
    if isinstance(query, Mapping):
        # (a replay's ◀ ▶ carries a hand's history id, no table's: routed by its chat)
        table = table_of(query.get("data"))
        message = query.get("message")
        chat = message.get("chat", {}) if isinstance(message, Mapping) else {}
        if table is not None:
            key = await _table_key(store, table, chats)
            if key is not None:
                return key
        if "id" in chat:
            return await _chat_key(store, chat)
        user = query.get("from", {})
        return lease_key(TELEGRAM, str(user["id"])) if "id" in user else None
    for name in ("message", "edited_message", "my_chat_member", "chat_member"):
        item = update.get(name)
        if not isinstance(item, Mapping) or "id" not in item.get("chat", {}):
            continue
        chat = item["chat"]
        if item.get("migrate_from_chat_id"):  # a group upgraded: its table is the old chat's
            return lease_key(TELEGRAM, str(item["migrate_from_chat_id"]))
        if chat.get("type") != "private":
            return await _chat_key(store, chat) if name in _MOVED_WITH else _key(chat)
        text = str(item.get("text") or "")
        arg = text.split()[1] if text.startswith("/start ") and len(text.split()) > 1 else ""
        number = start_table(arg)
        if number is not None:
            key = await _table_key(store, number, chats)
            if key is not None:
                return key
        user_id = str(item.get("from", {}).get("id", chat["id"]))
        for table_id in await store.seated_tables(TELEGRAM, user_id):
            key = await _table_key(store, table_id, chats)
            if key is not None:
                return key
        return lease_key(TELEGRAM, str(chat["id"]))
    return None


#: The updates of an upgraded group's old chat that go where the group went (its commands and
#: presses, typed before the upgrade and delivered after); a member update stays with its chat.
_MOVED_WITH = ("message", "edited_message")


def _key(chat: Mapping[str, Any]) -> str:
    return lease_key(TELEGRAM, str(chat["id"]))


async def _chat_key(store: Store, chat: Mapping[str, Any]) -> str:
    """The lease key of a group's update: of the supergroup a basic group (``"group"``, the
    only kind upgraded) became when storage has it moved (:meth:`Store.moved_chat`: the
    worker serving the group's table moved it, with its lease), else of the chat itself.
    The old chat's key went to a worker that never heard of the move, which served it
    apart from the table (a second table opened in the supergroup)."""
    if chat.get("type") == "group":
        moved = await store.moved_chat(TELEGRAM, str(chat["id"]))
        if moved is not None:
            return lease_key(TELEGRAM, moved)
    return _key(chat)


async def _table_key(store: Store, table_id: int, chats: dict[int, str] | None) -> str | None:
    chat = chats.get(table_id) if chats is not None else None
    if chat is None:
        record = await store.get_table(table_id)
        if record is None:
            return None
        chat = record.chat_id
        if chats is not None:
            chats[table_id] = chat
    return lease_key(TELEGRAM, chat)


def _malformed() -> web.Response:
    """An internal request's answer for a body it cannot read (400)."""
    return web.json_response({"error": "malformed"}, status=400)


class Worker:
    """One of the processes sharing the tables (see the module doc).

    :param service: this process's table service (its store is the shared one).
    :param worker_id: a name unique among the workers.
    :param address: the URL the router reaches :meth:`serve`'s endpoint at.
    :param ttl: seconds a lease and the heartbeat last unrenewed.
    :param telegram: the adapter fed with forwarded Telegram updates (``None``: no endpoint).
    :param discord_shards: ``(shard ids, shard count)``: the Discord shards this worker
        prefers (it takes them when free; an empty list: it only takes over others') of how
        many; it serves (and takes over) the Discord tables of the shards it runs now, the
        guilds whose interactions reach it. ``None``: no Discord.
    :param discord: connects and disconnects the shards it takes and loses (``None``: the
        leases are kept all the same, nothing is connected: tests).

    A worker with a Discord adapter (:meth:`attach_discord`) also serves, on its internal
    endpoint (``POST /discord``), the presses other workers forward to it: Discord gives every
    DM interaction to shard 0's worker, so a press on a DM hand of a table held here arrives
    there (:meth:`forward_press`).
    """

    #: seconds a forwarded Discord press may take to be answered by the worker holding its
    #: table (the interaction is deferred meanwhile; then the player is told to press again)
    FORWARD_SECONDS = 5.0
    #: seconds a user's command or press in their private chat is told to the other workers
    #: once at most (:meth:`private_life`; Telegram's block and unblock always are)
    LIFE_SECONDS = 30.0
    #: lease times a user's news is kept for a table of theirs nobody held when it was heard
    #: (a takeover under way: the dead worker's lease runs out, a sweep, the restore), told
    #: once one holds it (:meth:`_tell_life`)
    LIFE_WAIT_LEASES = 3.0

    def __init__(
        self,
        service: TableService,
        worker_id: str,
        address: str,
        *,
        ttl: float = 5.0,
        telegram: TelegramAdapter | None = None,
        discord_shards: tuple[Sequence[int], int] | None = None,
        discord: ShardRunner | None = None,
    ) -> None:
        self.service = service
        self.store = service.store
        self.worker_id = worker_id
        self.address = address
        self.ttl = ttl
        self.telegram = telegram
        #: the Discord shards this worker prefers and the shard count (``None``: no Discord)
        self.discord_shards = (
            None if discord_shards is None else (frozenset(discord_shards[0]), discord_shards[1])
        )
        self.discord = discord
        #: runs the Discord presses other workers forward here (``None``: no ``/discord``)
        self.presses: PressTaker | None = None
        #: the Discord shards this worker holds and runs now
        self.shards: set[int] = set()
        self._taking: set[int] = set()  # shards whose lease is taken, being connected
        self._shard_lock = asyncio.Lock()
        #: until when this worker, having failed to connect a shard, does not say it runs
        #: shards (so the others do not leave a shard to it) nor tries one
        self._quiet_until = 0.0
        self._asides = 0  # steps aside since a shard last ran here for a while
        self._took_shard_at: float | None = None  # when the last shard taken here connected
        self._started = time.monotonic()
        self._guilds: dict[int, str] = {}  # table id → its Discord guild
        self._channel_guilds: dict[str, str] = {}  # a claimed channel's key → its guild
        self._claimed: dict[str, float] = {}  # key → when this worker last claimed it
        self._renewed: dict[str, float] = {}  # key → when its lease was last taken or renewed
        #: chat key → when its table was handed back (:meth:`rebalance`) and to which worker
        self._handed: dict[str, tuple[float, str]] = {}
        #: chat key → the forwarded Telegram updates of the chat being handled here now
        self._updating: dict[str, int] = {}
        #: worker → when this worker's sweep first saw it (this run of it) live
        #: (:meth:`rebalance`)
        self._seen_live: dict[str, float] = {}
        #: worker → the tokens of its runs seen since it was first seen live
        #: (:func:`worker_runs`): a token not among them is a restart, newly seen
        self._runs_seen: dict[str, frozenset[str]] = {}
        #: this run's token (:func:`_run_key`; drawn anew at each :meth:`start`)
        self.run_token = secrets.token_hex(8)
        self._locks: dict[str, asyncio.Lock] = {}
        self._chats: dict[int, str] = {}
        self._table_keys: dict[int, str] = {}  # Discord table id → its chat's lease key
        #: closed table id → when to try again to send what it owes (a sending failed)
        #: and how many times it failed here
        self._owed_retry: dict[int, tuple[float, int]] = {}
        #: closed tables whose owed messages are being sent (:meth:`sweep_owed`), by id
        self._delivering: dict[int, asyncio.Task[None]] = {}
        #: forwarded Discord presses and the private chats' news (:meth:`private_life`) go out
        #: on it
        self._session: ClientSession | None = None
        #: user → when their sign of life in private was last told to the other workers
        self._life_told: dict[str, float] = {}
        self._life_pruned = time.monotonic()  # when the old ones were last forgotten
        #: when (``time.monotonic()``) the sweep last pruned the leases that ran out
        #: (:meth:`prune_leases`); ``None``: not yet (the first sweep does)
        self._leases_pruned: float | None = None
        self._telling: set[asyncio.Task[None]] = set()  # those tellings under way
        #: user → their last telling under way, which the next one waits for (in order)
        self._last_telling: dict[str, asyncio.Task[None]] = {}
        self._loop: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        self.stopping = False
        #: what the internal endpoint checks of every request (:class:`Signatures`)
        self.signatures = Signatures(address)
        self._quiet = _Quiet()  # (the warnings of refused requests: one a minute a kind)
        #: route → the key its requests are signed with (:func:`internal_key`); a route
        #: without one refuses every request (the one :attr:`signatures` checks with)
        self.keys = self.signatures.keys
        if telegram is not None:
            self.attach_telegram(telegram)
        self.store.fence(worker_id)  # from the first write on: nothing without the lease
        service.rt.settings_elsewhere = self.settings_saved

    async def _allowed(self, request: web.Request, route: str) -> bytes | None:
        """The request's body when it is signed for ``route`` as :class:`Signatures` wants
        (every route's one check), else ``None`` (refused: 403; why logged at WARNING, once
        per :data:`REFUSAL_LOG_SECONDS` a kind of refusal)."""
        body, _reason = await self._checked(request, route)
        return body

    async def _checked(self, request: web.Request, route: str) -> tuple[bytes | None, str]:
        """``(body, "")`` when the request is signed for ``route`` (:meth:`_allowed`), else
        ``(None, reason)`` (:meth:`Signatures.refusal`'s word: ``"no key"``, ``"key"``,
        ...), the refusal logged as :meth:`_allowed` says."""
        body = await request.read()
        header = request.headers.get(INTERNAL_HEADER, "")
        reason = self.signatures.refusal(route, header, body)
        if reason is None:
            return body, ""
        self._quiet.warn(  # (a token or a clock to fix: one line a minute, not per request)
            f"{route}:{reason}",
            "worker %s: refused a request to /%s from %s (403): %s",
            self.worker_id,
            route,
            request.remote or "?",
            refusal_advice(route, reason),
        )
        return None, reason

    def attach_telegram(self, adapter: TelegramAdapter) -> None:
        """Compose this worker with its Telegram adapter (as :func:`bot.app.run` does): it is
        fed the updates the router forwards, signed with the Telegram route's key, and tells
        the other workers what a private one says of the user's private chat
        (:meth:`private_life`)."""
        self.telegram = adapter
        self.keys.update(platform_keys(TELEGRAM, adapter.app.bot.token))
        adapter.elsewhere = self.private_life

    def attach_discord(self, adapter: DiscordAdapter) -> None:
        """Compose this worker with its Discord adapter (as :func:`bot.app.run` does): every
        interaction claims its chat first (:meth:`claim_interaction`), a DM press of a table
        another worker holds is forwarded to it (:meth:`forward_press`), the presses other
        workers forward are run by the adapter, and the shards this worker takes are
        connected through it."""
        adapter.claim = self.claim_interaction
        adapter.forward = self.forward_press
        adapter.identify_gate = self.identify_slot
        self.presses = adapter
        self.discord = adapter
        self.keys.update(platform_keys(DISCORD, adapter.token))

    # -- lifecycle -----------------------------------------------------------------------------
    async def start(self, listen: tuple[str, int] | None = None) -> None:
        """Fence the store, register, take over orphaned tables once and start the lease loop
        (and, with ``listen``, the internal endpoint: Telegram updates the router forwards,
        ``POST /telegram``, Discord presses other workers forward, ``POST /discord``, and
        what another worker heard of a user's private chat, ``POST /private``)."""
        self._started = time.monotonic()
        if listen is not None and (self.telegram is not None or self.presses is not None):
            app = web.Application()
            app.router.add_post("/telegram", self._on_telegram)
            app.router.add_post("/discord", self._on_discord)
            app.router.add_post("/private", self._on_private)
            app.router.add_post("/settings/{platform}", self._on_settings)
            app.router.add_post("/hello", self._on_hello)
            self._runner = web.AppRunner(app, access_log=None)
            await self._runner.setup()
            try:
                await _listen(self._runner, listen[0], listen[1])
            except ListenError:
                await self._runner.cleanup()
                self._runner = None
                raise
        # registered once it listens: a worker whose port was taken (another worker's
        # WORKER_LISTEN) was live for a lease time at an address that was not its own;
        # whether it takes Telegram updates said first (no moment live without it: a
        # Discord-only worker counted as taking them, :func:`telegram_workers`), and this
        # run's token (a restart is a new run: :meth:`rebalance` sees it newly live)
        self.run_token = secrets.token_hex(8)
        await self.store.acquire_lease(self._telegram_advert(), self.worker_id, self.ttl)
        await self.store.acquire_lease(self._run_lease(), self.worker_id, self.ttl)
        await self.store.heartbeat(self.worker_id, self.address, self.ttl)
        self._loop = asyncio.create_task(self._run(), name=f"worker-{self.worker_id}")
        await self.sweep()
        self._sweeper = asyncio.create_task(self._sweep_loop(), name=f"sweep-{self.worker_id}")

    async def halt(self) -> None:
        """Stop taking updates and end the lease and sweep loops, giving nothing up (what a
        SIGKILL leaves behind: the leases run out by themselves); :meth:`stop` goes on."""
        self.stopping = True
        for task in (self._sweeper, self._loop, *self._delivering.values(), *self._telling):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def stop(self) -> None:
        """Stop taking updates, save every table (still fenced: only what is still ours), stop
        posting the pictures posted later here (the next workers post them) and give up the
        leases and the heartbeat, so other workers take the tables at once. The leases are
        renewed until the tables are saved and their last messages sent (a platform that
        makes them wait for longer than a lease time does not hand a chat over while its
        table is still being saved here). It says first that it takes no Telegram updates
        (``telegram-none:<w>``, :meth:`_telegram_advert`): no table is handed to it
        meanwhile (:meth:`rebalance`), nor a new chat given to it."""
        self.stopping = True
        # (said first: a stopping worker heartbeats while it saves its tables, and another
        # worker's rebalance handed it a table meanwhile that nobody took for a while)
        with contextlib.suppress(Exception):
            await self.store.acquire_lease(self._telegram_advert(), self.worker_id, self.ttl)
            await self.store.release_lease(_telegram_ad(self.worker_id, True), self.worker_id)
        if self._sweeper is not None:  # no takeover while stopping
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._runner is not None:
            await self._runner.cleanup()
        for telling in list(self._telling):
            telling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await telling
        if self._session is not None:
            await self._session.close()
            self._session = None
        keys = self.held_keys()
        if self.discord is not None:  # no interaction reaches a table about to be let go
            for shard in sorted(self.shards | self._taking):
                with contextlib.suppress(Exception):
                    await self.discord.disconnect_shard(shard)
        await self.service.stop()
        await self.halt()  # the renewals end here
        # the pictures posted later here end with the leases: the next workers post them (the
        # adapters stop after this, each in turn: their tries went on meanwhile)
        self.service.rt.drop_late_pictures()
        with contextlib.suppress(Exception):
            for key in keys:
                await self.store.release_lease(key, self.worker_id)
            await self.store.heartbeat(self.worker_id, self.address, 0.0)

    def held_keys(self) -> list[str]:
        """The keys this worker renews: its tables' chats (and those of the closed tables
        whose last messages it is sending), chats claimed lately, the Discord shards it runs
        (or is connecting), its Discord advertisement, whether it takes Telegram updates
        (:meth:`_telegram_advert`) and this run's lease (:func:`_run_key`)."""
        keys = {lease_key(t.platform, t.chat_id) for t in self.service.tables.values()}
        # closed tables whose last messages are being sent here: nobody else sends them
        keys.update(lease_key(t.platform, t.chat_id) for t in self.service.rt.closing.values())
        horizon = time.monotonic() - 2 * self.ttl
        keys.update(k for k, at in self._claimed.items() if at > horizon)
        keys.update(shard_key(s) for s in self.shards | self._taking)
        keys.update(self._advertised())
        keys.add(self._telegram_advert())
        keys.add(self._run_lease())
        return sorted(keys)

    def _run_lease(self) -> str:
        """The lease naming this run of the worker (:func:`_run_key`)."""
        return _run_key(self.worker_id, self.run_token)

    def _advertised(self) -> list[str]:
        """The leases saying this worker runs Discord shards, and which it prefers."""
        if self.discord_shards is None or self._quiet_until > time.monotonic():
            return []
        preferred, _ = self.discord_shards
        keys = [_runner_key(self.worker_id)]
        keys.extend(_prefer_key(s, self.worker_id) for s in sorted(preferred))
        return keys

    def _telegram_advert(self) -> str:
        """The lease saying whether this worker takes Telegram updates (it presents to
        Telegram and is not stopping: ``telegram-worker:<w>``, else ``telegram-none:<w>``),
        renewed with the others: the workers hash a Telegram chat only over those that take
        them (:func:`telegram_workers`), and hand tables back only to one saying it does
        (:meth:`rebalance`; never to one stopping, :meth:`stop` says so first)."""
        takes = TELEGRAM in self.service.rt.presenters and not self.stopping
        return _telegram_ad(self.worker_id, takes)

    async def _telegram_live(self) -> tuple[dict[str, str], dict[str, str]]:
        """``(workers, ads)``: the live workers a Telegram chat may be given to by rendezvous
        hashing (:func:`telegram_workers`; this one among them when it presents to
        Telegram) and the advertisements read (:data:`_TELEGRAM_ADS`, one read)."""
        live = await self.store.live_workers()
        ads = await self.store.leases(_TELEGRAM_ADS)
        takers = telegram_workers(live, ads)
        if TELEGRAM in self.service.rt.presenters:
            takers[self.worker_id] = self.address
        return takers, ads

    async def _run(self) -> None:
        """Heartbeat and renewals every quarter of the lease time, never held up by a
        takeover (the sweep runs in a task of its own)."""
        while True:
            await asyncio.sleep(self.ttl / 4)
            try:
                await self.renew()
            except Exception:
                log.exception("worker %s: lease round failed", self.worker_id)

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 4)
            try:
                await self.sweep()
            except Exception:
                log.exception("worker %s: sweep failed", self.worker_id)

    async def tick(self) -> None:
        """One round of both loops: :meth:`renew`, then :meth:`sweep` (for tests)."""
        await self.renew()
        await self.sweep()

    async def renew(self) -> None:
        """Heartbeat, and renew the leases: the tables of the lost ones are dropped. Both
        writes wait for storage half the lease time at most (:data:`RENEW_SHARE`), then
        raise :class:`~storage.api.StorageTimeout` (the round is logged, the next one tries):
        a renewal later than that is worth nothing (:meth:`holds`), and one waiting on a
        silent database held the renewals, and the news of leases lost, for minutes."""
        keys = self.held_keys()
        asked = time.monotonic()  # the renewed leases run at least ttl from here
        with answer_within(self.ttl * RENEW_SHARE):
            await self.store.heartbeat(self.worker_id, self.address, self.ttl)
            kept = set(await self.store.renew_leases(self.worker_id, keys, self.ttl))
            for advert in (self._telegram_advert(), self._run_lease()):
                if advert not in kept:  # (a pause past the lease time: said again, only ours)
                    await self.store.acquire_lease(advert, self.worker_id, self.ttl)
                    kept.add(advert)
        claiming = {k for k, lock in self._locks.items() if lock.locked()}
        # (a chat handed back meanwhile, :meth:`rebalance`: renewed before it was let go)
        self._renewed = {k: asked for k in kept if k not in claiming and k not in self._handed}
        for key in set(keys) - kept:
            self._claimed.pop(key, None)
            shard = _shard_of_key(key)
            if shard is not None:
                await self._lost_shard(shard)
                continue
            for t in self.service.rt.held_tables():  # (closed: owing pictures only)
                if lease_key(t.platform, t.chat_id) == key:
                    log.warning("worker %s: lost table %s", self.worker_id, t.id)
                    await self.service.release(t.id)
        horizon = time.monotonic() - 2 * self.ttl
        self._claimed = {k: at for k, at in self._claimed.items() if at > horizon or k in kept}
        self._channel_guilds = {k: g for k, g in self._channel_guilds.items() if k in self._claimed}

    async def sweep(self) -> None:
        """Take over the open tables no live worker holds that rendezvous hashing gives to
        this worker (a dead worker's tables, or tables of a fresh start): a Telegram chat's
        over the live workers that take Telegram updates (:func:`telegram_workers`; a
        Discord-only worker never takes it), a Discord table's by its guild's shard."""
        await self.sweep_shards()
        await self.prune_leases()
        orphans = await self.store.unleased_tables()
        if orphans:
            presents = TELEGRAM in self.service.rt.presenters
            takers: dict[str, str] = {}  # (the live workers that take Telegram updates)
            if presents and any(key.startswith(f"{TELEGRAM}:") for _, key in orphans):
                takers, _ = await self._telegram_live()
            lapsed = await self.store.lapsed_leases("")  # (whose they were: the summary)
            self._forget_handed({key for _, key in orphans}, takers, lapsed)
            taken: dict[str | None, int] = {}  # the worker whose lease ran out → tables taken
            try:
                for table_id, key in orphans:
                    if self.stopping:
                        return
                    if key.startswith(f"{TELEGRAM}:"):
                        mine = presents and rendezvous(key, takers) == self.worker_id
                    else:
                        mine = await self._my_discord_table(table_id)
                    fresh = table_id not in self.service.tables
                    claimed = mine and await self.claim(key, table_id, quiet=True)
                    if claimed and fresh and table_id in self.service.tables:
                        owner = lapsed.get(key)
                        taken[owner] = taken.get(owner, 0) + 1
            finally:
                for owner, count in taken.items():
                    log.info("%s", takeover_line(self.worker_id, count, owner))
        await self.sweep_owed()
        await self.rebalance()

    async def prune_leases(self) -> int:
        """Delete the leases that ran out long ago (:meth:`Store.prune_leases`: one statement;
        the chat leases of open tables kept), every :data:`PRUNE_LEASES_SECONDS` at most,
        from the sweep: those that ran out :data:`LEASES_KEPT_SECONDS` ago
        (:data:`LEASES_KEPT_TTLS` lease times if more). Returns how many were deleted (0
        when it was not due); a failure (or no answer within
        :data:`~bot.service.runtime.LATE_WRITE_SECONDS`, ``STORAGE_WAIT_SECONDS`` if more) is
        logged, and the next due sweep tries again."""
        now = time.monotonic()
        if self._leases_pruned is not None and now - self._leases_pruned < PRUNE_LEASES_SECONDS:
            return 0
        self._leases_pruned = now
        kept = max(LEASES_KEPT_SECONDS, LEASES_KEPT_TTLS * self.ttl)
        try:  # (bounded: a silent database holds no sweep, and so no takeover, for good)
            with self._owed_read():  # (the sweep's bound of a background write too)
                gone = await self.store.prune_leases(kept)
        except Exception as exc:
            log.warning("worker %s: old leases not pruned: %r", self.worker_id, exc)
            return 0
        if gone:
            log.info("worker %s: %d lease(s) that ran out long ago deleted", self.worker_id, gone)
        return gone

    async def sweep_owed(self) -> None:
        """Send what closed tables still owe their chats (:func:`.service.recovery.deliver`:
        the closing step's last showdown, final standings, closing notice, kept with the
        table's final snapshot when its worker died before sending them). The worker that
        would serve the chat sends them: the holder of the chat's lease, else the one
        rendezvous hashing picks among the live workers taking Telegram updates
        (:func:`telegram_workers`) or the one running the guild's shard (Discord),
        which takes the lease first. Holding the lease while it sends (the closing worker
        holds it until its own sending is done, :attr:`Runtime.closing`), it reads the final
        snapshot again (the closing worker may have sent it meanwhile) and forgets it once
        sent, so one worker sends it, once (again only after a crash during the sending). A
        sending that failed (a platform error) is tried again after :data:`STEADY_LEASES`
        lease times, each time again twice as long (up to 64 times). Each table's sending is
        a task of its own, waited for :data:`~bot.service.recovery.START_SEND_SECONDS` at
        most, then left to go on (the stop waits for it: :meth:`Runtime.drain`): a message
        the platform held (a flood wait of minutes) held the sweep, the next takeover of a
        dead worker's tables and the worker's start."""
        from bot.service.recovery import START_SEND_SECONDS  # (here: see the imports)

        started: list[asyncio.Task[None]] = []
        try:
            with self.service.rt.reading_owed():  # (rt.owes: the read may be from before)
                await self._sweep_owed(started)
        finally:
            if started:
                await asyncio.wait(started, timeout=START_SEND_SECONDS)

    def _owed_read(self) -> contextlib.AbstractContextManager[None]:
        """The bound of a read of the closed tables' final snapshots by the sweep
        (:meth:`sweep_owed`, :meth:`_owed_now`), and of its pruning of the leases
        (:meth:`prune_leases`): :data:`~bot.service.runtime.LATE_WRITE_SECONDS`
        (``STORAGE_WAIT_SECONDS`` if more; no user waits for it), then
        :class:`~storage.api.StorageTimeout` (the round is logged, the next one tries). One
        waiting on a silent database held the sweep for good, and with it
        :meth:`Runtime.reading_owed <bot.service.runtime.Runtime.reading_owed>`: the closed
        tables forgotten here since were remembered for as long."""
        from bot.service.runtime import LATE_WRITE_SECONDS

        return answer_within(max(self.service.rt.storage_wait, LATE_WRITE_SECONDS))

    async def _sweep_owed(self, started: list[asyncio.Task[None]]) -> None:
        from bot.service.runtime import wait_expired, wait_undated, waits_for_chat

        with self._owed_read():
            owed = await self.store.closed_snapshots()
        if not owed:
            return
        rt = self.service.rt
        live: dict[str, str] | None = None
        now = time.monotonic()
        for record, snap in owed:
            if self.stopping:
                return
            waiting = waits_for_chat(snap)  # (for the bot's return: chat_back sends it)
            if waiting and not (wait_expired(snap) or wait_undated(snap)):
                continue
            if (
                not rt.owes(record.id)
                or record.id in self._delivering
                or self._owed_retry.get(record.id, (0.0, 0))[0] > now
            ):
                continue  # being sent here, or failed lately
            community = await self.store.get_community(record.community_id)
            if community is None or community.platform not in rt.presenters:
                continue
            key = lease_key(community.platform, record.chat_id)
            if not self.holds(key):
                if community.platform == TELEGRAM:
                    if live is None:  # (those that take Telegram updates, this one too)
                        live, _ = await self._telegram_live()
                    mine = rendezvous(key, live) == self.worker_id
                else:
                    mine = self._shard_of_guild(community.external_id) in self.shards
                if not mine or not await self.claim(key):
                    continue  # another worker serves the chat: it sends them
            if waiting:  # (a write to it needs the chat's lease too: held now)
                await self._end_wait(record.id)
                continue
            started.append(self._deliver_soon(key, record.id))

    def _deliver_soon(self, key: str, table_id: int) -> asyncio.Task[None]:
        """:meth:`_deliver` in the background (:meth:`sweep_owed`); its failure is logged
        (the next sweep tries again)."""

        async def deliver() -> None:
            try:
                await self._deliver(key, table_id)
            except Exception:
                log.exception("worker %s: closed table %s not sent", self.worker_id, table_id)

        task = self.service.rt.keep(deliver(), name=f"deliver-{table_id}")
        self._delivering[table_id] = task

        def done(ended: asyncio.Task[None]) -> None:
            if self._delivering.get(table_id) is ended:
                del self._delivering[table_id]

        task.add_done_callback(done)
        return task

    async def _owed_now(self, table_id: int) -> tuple[TableRecord, Mapping[str, Any]] | None:
        """A closed table's final snapshot as stored now (``None``: forgotten since, or being
        sent here): read again once the chat's lease is held, since another step may have
        sent it meanwhile (the bot's return to the chat, say)."""
        with self.service.rt.reading_owed(), self._owed_read():  # (rt.owes: from before)
            owed = await self.store.closed_snapshots()
            state = next((item for item in owed if item[0].id == table_id), None)
            if state is None or not self.service.rt.owes(table_id):
                return None  # (being sent here, or sent here while it was read)
        return state

    async def _end_wait(self, table_id: int) -> None:
        """A closed table's record waiting for the bot's return (R8.2a), holding its chat's
        lease: forgotten once it waited past 30 days, dated when saved undated, as stored
        now (:meth:`_owed_now`: the bot's return may have sent and forgotten it meanwhile,
        and saving the snapshot read before would bring it back)."""
        from bot.service.runtime import wait_expired, waits_for_chat

        state = await self._owed_now(table_id)
        if state is None or not waits_for_chat(state[1]):
            return
        if wait_expired(state[1]):  # its group never took the bot back: forgotten
            await self.service.rt.forget_owed(table_id)
        else:  # saved undated: its 30 days start now (nothing happens to one dated)
            await self.service.rt.start_wait(table_id, state[1])

    async def _deliver(self, key: str, table_id: int) -> None:
        """Send a closed table's owed messages, holding its chat's lease ``key``."""
        state = await self._owed_now(table_id)
        if state is None:
            return  # sent meanwhile
        self._claimed[key] = time.monotonic()
        if await self.service.deliver_owed(*state):
            self._owed_retry.pop(table_id, None)
            log.info("worker %s: sent what closed table %s owed", self.worker_id, table_id)
        else:
            failed = self._owed_retry.get(table_id, (0.0, 0))[1]
            wait = STEADY_LEASES * self.ttl * 2 ** min(failed, 6)
            self._owed_retry[table_id] = (time.monotonic() + wait, failed + 1)

    async def _my_discord_table(self, table_id: int) -> bool:
        """Whether a Discord table's guild is on one of the shards this worker runs now
        (discord.py's ``(guild_id >> 22) % shard_count``)."""
        if self.discord_shards is None:
            return False
        guild = self._guilds.get(table_id)
        if guild is None:
            state = await self.store.table_state(table_id)
            guild = str(state[1].get("community_ext", "")) if state is not None else ""
            self._guilds[table_id] = guild
        return self._shard_of_guild(guild) in self.shards

    def _shard_of_guild(self, guild: str) -> int | None:
        if self.discord_shards is None or not guild.isdigit():
            return None
        return (int(guild) >> 22) % self.discord_shards[1]

    # -- Discord shards ------------------------------------------------------------------------
    async def sweep_shards(self) -> None:
        """Take a free Discord shard given to this worker (one a sweep, so its tables are
        taken over before the next shard's IDENTIFY waits its turn), hand back those a live
        worker prefers (see the module doc); the shards' tables follow in :meth:`sweep`."""
        if self.discord_shards is None or self.stopping:
            return
        preferred, count = self.discord_shards
        async with self._shard_lock:
            leases = await self.store.leases(_SHARD_LEASES)
            for key in self._advertised():  # say so again after a pause lost them
                if leases.get(key) != self.worker_id and await self.store.acquire_lease(
                    key, self.worker_id, self.ttl
                ):
                    leases[key] = self.worker_id
            live = await self.store.live_workers()
            live[self.worker_id] = self.address
            runners = {w: a for w, a in live.items() if leases.get(_runner_key(w)) == w}
            settled = time.monotonic() - self._started >= self.ttl
            for shard in range(count):
                if self.stopping:
                    return
                key = shard_key(shard)
                holder = leases.get(key)
                fans = {w: a for w, a in runners.items() if leases.get(_prefer_key(shard, w)) == w}
                stopped = self.discord is not None and shard not in self.discord.shards
                if shard in self.shards and stopped:  # discord.py gave the connection up
                    log.error("worker %s: Discord shard %s stopped", self.worker_id, shard)
                    await self._drop_shard(shard, give_up=True)
                    await self._step_aside([])
                    return
                if shard in self.shards:
                    others = set(fans) - {self.worker_id}
                    if shard not in preferred and others and holder in (None, self.worker_id):
                        log.info(
                            "worker %s: handing Discord shard %s back to %s",
                            self.worker_id, shard, ", ".join(sorted(others)),
                        )  # fmt: skip
                        await self._drop_shard(shard, give_up=True)
                    continue
                if holder not in (None, self.worker_id) or shard in self._taking:
                    continue  # a live worker runs it
                if shard not in preferred and not settled:
                    continue  # its own worker may be starting too: let it take it first
                if self._quiet_until > time.monotonic():
                    return
                mine = rendezvous(key, fans or runners) == self.worker_id
                if mine and await self._take_shard(shard):
                    return  # its tables first (in sweep); more shards at the next sweep

    async def _take_shard(self, shard: int) -> bool:
        """Take a free shard's lease and connect the shard; ``False`` when another worker
        took it first, or the shard could not be connected: then the lease is given up
        again and this worker steps aside (:meth:`_step_aside`: for two lease times or more it
        neither advertises that it runs shards, so the others take the shard, nor takes one)."""
        key = shard_key(shard)
        if not await self.store.acquire_lease(key, self.worker_id, self.ttl):
            return False
        self._taking.add(shard)  # renewed while it connects
        try:
            if self.discord is not None:
                await self.discord.connect_shard(shard)
        except Exception as exc:
            from bot.discord.adapter import TOKEN_REFUSED, token_refused

            if token_refused(exc):  # (one line, as at the start: no traceback)
                log.error(
                    "worker %s: cannot connect Discord shard %s: %s",
                    self.worker_id,
                    shard,
                    TOKEN_REFUSED,
                )
            else:
                log.exception("worker %s: cannot connect Discord shard %s", self.worker_id, shard)
            self._taking.discard(shard)
            with contextlib.suppress(Exception):
                await self.discord.disconnect_shard(shard)  # type: ignore[union-attr]
            await self._step_aside([key])
            return False
        if shard not in self._taking or not await self.store.renew_leases(
            self.worker_id, [key], self.ttl
        ):  # lost while connecting (a connect slower than the lease time)
            self._taking.discard(shard)
            await self._drop_shard(shard, give_up=False)
            return False
        self._taking.discard(shard)
        self.shards.add(shard)
        self._took_shard_at = time.monotonic()
        log.info("worker %s: running Discord shard %s", self.worker_id, shard)
        return True

    async def _step_aside(self, keys: list[str]) -> None:
        """A shard could not run here: give ``keys`` up and, for two lease times, neither say
        this worker runs shards (so the others take it meanwhile) nor take one. Each time
        again, unless a shard ran here for :data:`STEADY_LEASES` lease times since, twice as
        long (up to 64 lease times): a worker that cannot connect the shard it prefers does
        not keep taking it back from the worker running it (each move pauses its tables)."""
        advertised = self._advertised()
        now = time.monotonic()
        took = self._took_shard_at
        if took is not None and now - took >= STEADY_LEASES * self.ttl:
            self._asides = 0
        self._took_shard_at = None
        self._quiet_until = now + 2 * self.ttl * 2 ** min(self._asides, 5)
        self._asides += 1
        for key in (*keys, *advertised):
            await self.store.release_lease(key, self.worker_id)

    async def _lost_shard(self, shard: int) -> None:
        """A shard's lease was not renewed in time: another worker may run it already."""
        if shard in self._taking:
            self._taking.discard(shard)  # _take_shard lets it go once connected
            return
        if shard in self.shards:
            log.warning("worker %s: lost Discord shard %s", self.worker_id, shard)
            await self._drop_shard(shard, give_up=False)

    async def _let_chat_go(self, key: str) -> None:
        """Forget the chat lease ``key`` (claimed, renewed) and give it up."""
        self._claimed.pop(key, None)
        self._renewed.pop(key, None)
        await self.store.release_lease(key, self.worker_id)

    async def _drop_shard(self, shard: int, *, give_up: bool) -> None:
        """Stop running a shard: disconnect it first (no more of its interactions), let its
        guilds' tables go (each resumes from its last committed transition on the shard's
        next worker, its snapshot saved first while its chat's lease is still held here, so
        that its clocks stop now, R8.5; a closed one owing only its pictures posted later
        here drops them, the next worker posts them) with their chats' leases, then
        (``give_up``) the shard's lease."""
        self.shards.discard(shard)
        if self.discord is not None:
            try:
                await self.discord.disconnect_shard(shard)
            except Exception:
                log.exception("worker %s: disconnecting shard %s", self.worker_id, shard)
        for t in self.service.rt.held_tables():  # (closed: owing pictures only)
            if t.platform != DISCORD or self._shard_of_guild(t.community_ext) != shard:
                continue
            log.info("worker %s: letting table %s go with its shard", self.worker_id, t.id)
            await self.service.release(t.id, save=True)
            await self._let_chat_go(lease_key(t.platform, t.chat_id))
        # the shard's channels claimed by an interaction but without a table (a /ofc new under
        # way): let them go too, lest the shard's next worker be kept out of them
        gone = [k for k, g in self._channel_guilds.items() if self._shard_of_guild(g) == shard]
        for key in gone:
            self._channel_guilds.pop(key, None)
            await self._let_chat_go(key)
        if give_up:
            await self.store.release_lease(shard_key(shard), self.worker_id)

    async def claim_interaction(self, interaction: Any) -> bool:
        """Before the service handles a Discord interaction: hold the lease of its table's
        chat (a press naming a table: that table's channel, say a hand pressed in a DM; else
        the interaction's channel). ``False`` when another worker holds it, and for a press in
        a DM (Discord gives every DM to shard 0) of a table this worker does not serve whose
        guild is on a shard it does not run: that shard's worker serves it (a free lease is
        left to its sweep; the adapter forwards the press, :meth:`forward_press`). ``False``
        too for an interaction in a guild whose shard this worker does not run (any more: one
        its gateway dispatched just before the shard was handed back or lost), so that it
        does not take back a chat the shard's worker serves now."""
        data = getattr(interaction, "data", None) or {}
        table = _table_of(data) if isinstance(data, Mapping) else None
        dm = getattr(interaction, "guild_id", None) is None
        if not dm and self.discord_shards is not None:
            shard = self._shard_of_guild(str(interaction.guild_id))
            if shard not in self.shards and shard not in self._taking:
                return False
        key = None if table is None else await self._discord_key(table)
        if key is None and not dm:
            key = lease_key("discord", str(interaction.channel_id))
            self._channel_guilds[key] = str(interaction.guild_id)
        if key is None or self.holds(key):
            return True
        if dm and table is not None and not await self._may_serve(table):
            return False
        return await self.claim(key)

    async def _may_serve(self, table_id: int) -> bool:
        """Whether this worker may take a Discord table's chat for a press that did not come
        through the table's shard (a DM, or forwarded): it serves the table already, or its
        guild is on a shard it runs."""
        return table_id in self.service.tables or await self._my_discord_table(table_id)

    async def _discord_key(self, table_id: int) -> str | None:
        """The lease key of a Discord table's chat (cached), ``None`` for no such table."""
        key = self._table_keys.get(table_id)
        if key is None:
            record = await self.store.get_table(table_id)
            if record is None:
                return None
            key = self._table_keys[table_id] = lease_key(DISCORD, record.chat_id)
        return key

    async def identify_slot(self, interval: float) -> None:
        """Wait for the bot's IDENTIFY slot, shared by every worker: the lease
        :data:`IDENTIFY_LEASE`, taken for ``interval`` seconds (Discord allows one IDENTIFY
        per 5 s for a bot without large sharding; each worker already spaces its own). A
        store that cannot be reached does not hold the connection back: it goes at once.
        """
        if interval <= 0:
            return
        try:
            while not await self.store.acquire_lease(IDENTIFY_LEASE, self.worker_id, interval):
                await asyncio.sleep(min(0.5, interval / 4))
        except Exception:
            log.exception("the IDENTIFY slot could not be read: identifying now")

    async def forward_press(self, table_id: int, press: Mapping[str, Any]) -> dict[str, Any] | None:
        """Hand a Discord press this worker received but does not serve (a DM hand: Discord
        gives every DM to shard 0's worker) to the live worker holding the lease of
        ``table_id``'s chat (``POST <its address>/discord``; a 409 naming another holder is
        followed). Its answer's JSON (the adapter's, :meth:`PressTaker.take_forwarded`), or
        ``None`` when no worker took it: nobody live holds the table (a takeover under way),
        the holder is unreachable or stopping, or it did not answer within
        :attr:`FORWARD_SECONDS`. Never retried: the player presses again."""
        key = await self._discord_key(table_id)
        if key is None or self.stopping:
            return None
        owner = await self.store.lease_owner(key)
        live = await self.store.live_workers()
        address = live.get(owner) if owner is not None and owner != self.worker_id else None
        body = json.dumps({"table": table_id, "press": press}).encode()
        tried: set[str] = set()
        while address and address != self.address and address not in tried:
            tried.add(address)
            try:
                headers = signed_headers(self.keys.get("discord", ""), address, body)
                async with self._client().post(
                    f"{address}/discord", data=body, headers=headers
                ) as r:
                    status = r.status
                    reply = await r.json() if status in (200, 409) else {}
            except (ClientError, OSError, TimeoutError, ValueError) as exc:
                log.warning("worker %s: press for %s not forwarded: %r", self.worker_id, key, exc)
                return None
            if status == 200 and isinstance(reply, dict):
                return reply
            if status != 409 or not isinstance(reply, dict):
                break
            address = str(reply.get("owner") or "")  # the table moved: its holder now
        log.warning("worker %s: no worker took a press for %s", self.worker_id, key)
        return None

    def _client(self) -> ClientSession:
        """The session requests to other workers go out on (made at the first)."""
        if self._session is None:
            self._session = ClientSession(
                timeout=ClientTimeout(total=self.FORWARD_SECONDS), cookie_jar=DummyCookieJar()
            )
        return self._session

    def private_life(self, user_id: str, blocked: bool, told: bool) -> None:
        """What a Telegram update in ``user_id``'s private chat said of it, heard here (the
        adapter's :attr:`~bot.telegram.adapter.TelegramAdapter.elsewhere`) after this
        worker's own tables took it in: ``blocked`` (Telegram said the user blocked the bot),
        else they showed life there (an unblock Telegram told, ``told``, or a command or a
        press). The router sent the update to one worker, the one serving the user's first
        table (or the one a ``/start t<table>`` or a press names), so a table of theirs on
        another worker stayed quiet, their hand never posted again there until they used
        its ``/start t<table>`` link. Told in the background (:meth:`_tell_life`) to every
        live worker holding a table the user sits at. A command or press is told once per
        :attr:`LIFE_SECONDS` a user at most (every press in private is one; a chat refused
        again meanwhile was blocked again, which Telegram tells); Telegram's news always."""
        if self.stopping:
            return
        now = time.monotonic()
        last = self._life_told.get(user_id)
        if not (told or blocked) and last is not None and now - last < self.LIFE_SECONDS:
            return
        # (forget the old ones, which say nothing any more: a look at them all once per
        # LIFE_SECONDS at most, and at once past 10,000 users)
        if len(self._life_told) > 10_000 or now - self._life_pruned >= self.LIFE_SECONDS:
            self._life_pruned = now
            self._life_told = {
                u: at for u, at in self._life_told.items() if now - at < self.LIFE_SECONDS
            }
        self._life_told[user_id] = now
        # told in the order heard: a block then an unblock at once, the unblock told first
        # (the block's lookups slower), left the player unreachable there
        task = asyncio.create_task(
            self._tell_life(user_id, blocked, self._last_telling.get(user_id))
        )
        self._telling.add(task)
        self._last_telling[user_id] = task
        task.add_done_callback(self._telling.discard)
        task.add_done_callback(lambda done: self._told(user_id, done))

    def _told(self, user_id: str, task: asyncio.Task[None]) -> None:
        """A telling of ``user_id``'s news ended: forgotten if it was their last."""
        if self._last_telling.get(user_id) is task:
            del self._last_telling[user_id]

    async def _tell_life(
        self, user_id: str, blocked: bool, after: asyncio.Task[None] | None = None
    ) -> None:
        """``POST /private`` ``{"user": id, "blocked": bool}`` to each live worker other than
        this one holding the lease of a table ``user_id`` sits at (:meth:`Store.seated_tables`),
        each on its own and all at once: one that is down (its lease not yet expired) or slow
        keeps no other from being told. ``after``: the user's telling before this one, waited
        for first (their news told in the order heard). A table nobody live holds (its worker
        died, a takeover under way; or its restore here under way) is looked at again every
        quarter of the lease time, for :attr:`LIFE_WAIT_LEASES` lease times at most, and
        told once a worker holds it (this one: :meth:`TableService.private_news` here): it
        was told nothing, its seat left as its snapshot had it (a player who had unblocked
        the bot not written to) until the player's next sign of life. A later telling of
        the user's news ends that wait (it tells every table of theirs anew). A holder that
        did not take the news (503 while it stops, its process dead before its lease ran
        out: its tables about to be taken over) is as nobody: its tables are looked at
        again the same way (the news was dropped). Failures are logged."""
        if after is not None:
            await asyncio.wait({after})
        me = asyncio.current_task()
        body = json.dumps({"user": user_id, "blocked": blocked}).encode()
        deadline = time.monotonic() + self.LIFE_WAIT_LEASES * self.ttl
        waiting: set[int] | None = None  # (the first look: every table of theirs)
        while True:
            try:
                targets, here, waiting = await self._life_targets(user_id, waiting)
                if here:  # taken over here since the news was heard
                    await self.service.private_news(TELEGRAM, user_id, blocked=blocked)
            except Exception:
                log.exception("worker %s: user %s's private chat not told", self.worker_id, user_id)
                return
            addresses = sorted(targets.keys() - {self.address})
            told = await asyncio.gather(*(self._tell_one(a, user_id, body) for a in addresses))
            for address, ok in zip(addresses, told, strict=True):
                if not ok:  # (stopping, or dead with its lease not run out: its tables are
                    # about to be taken over, told as a table nobody holds)
                    waiting |= targets[address]
            if not waiting or self.stopping or self._last_telling.get(user_id) is not me:
                return
            if time.monotonic() >= deadline:
                log.warning(
                    "worker %s: user %s's private chat not told at table(s) %s: nobody holds them",
                    self.worker_id,
                    user_id,
                    sorted(waiting),
                )
                return
            await asyncio.sleep(self.ttl / 4)

    async def _life_targets(
        self, user_id: str, only: set[int] | None
    ) -> tuple[dict[str, set[int]], bool, set[int]]:
        """Where :meth:`_tell_life` tells ``user_id``'s news now, of the tables they sit at
        (``only`` those, ``None``: the first look): the addresses of the other live workers
        holding them, each with its tables of theirs, whether one was taken over here since
        the first look (its seat to be told here), and the tables nobody live holds yet (or
        being restored here)."""
        live = await self.store.live_workers()
        addresses: dict[str, set[int]] = {}
        here = False
        waiting: set[int] = set()
        for table_id in await self.store.seated_tables(TELEGRAM, user_id):
            if only is not None and table_id not in only:
                continue
            if table_id in self.service.tables:
                here = here or only is not None  # (at the first look: told already)
                continue
            key = await _table_key(self.store, table_id, self._chats)
            if key is None:
                continue  # (no such table any more)
            owner = await self.store.lease_owner(key)
            if owner is not None and owner != self.worker_id and owner in live:
                addresses.setdefault(live[owner], set()).add(table_id)
            else:
                waiting.add(table_id)
        return addresses, here, waiting

    async def _tell_one(self, address: str, user_id: str, body: bytes) -> bool:
        """One ``POST /private`` of :meth:`_tell_life`: whether the worker took it (200); a
        failure logged, never raised."""
        headers = signed_headers(self.keys.get("private", ""), address, body)
        try:
            async with self._client().post(f"{address}/private", data=body, headers=headers) as r:
                if r.status == 200:
                    return True
                log.warning(
                    "worker %s: %s not told of user %s's private chat (%s)",
                    self.worker_id,
                    address,
                    user_id,
                    r.status,
                )
        except (ClientError, OSError, TimeoutError) as exc:
            log.warning(
                "worker %s: %s not told of user %s's private chat: %r",
                self.worker_id,
                address,
                user_id,
                exc,
            )
        except Exception:
            log.exception(
                "worker %s: %s not told of user %s's private chat", self.worker_id, address, user_id
            )
        return False

    def settings_saved(self, community_id: int, language: str | None) -> None:
        """A change of the community's settings was saved here and reached the tables served
        here (:attr:`Runtime.settings_elsewhere`): told in the background
        (:meth:`_tell_settings`) to the live workers holding its other open tables. A command
        can be saved by a worker that does not serve the table: one it was still handling
        when the chat's lease moved (it stalled past it), or whose guild's Discord shard it
        handed back meanwhile; the table's worker kept the old settings (a hand's turn
        shown ending in the old time zone) until its next restart."""
        if self.stopping:
            return
        task = asyncio.create_task(self._tell_settings(community_id, language))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _tell_settings(self, community_id: int, language: str | None) -> None:
        """``POST /settings/<platform>`` ``{"community": id, "language": str | null}`` to each
        other live worker holding the lease of one of the community's open tables, all at
        once. A table nobody live holds (a takeover under way) is told nothing: its restore
        reads the settings, saved before (:func:`~bot.service.settings.reconcile`); a holder
        that does not take it (stopping: 503; dead before its lease ran out) is left so for
        the same reason. Failures are logged."""
        try:
            community = await self.store.get_community(community_id)
            if community is None or community.platform not in _SETTINGS_ROUTES:
                return
            live = await self.store.live_workers()
            addresses: set[str] = set()
            for record in await self.store.open_tables(community_id):
                if record.id in self.service.tables:
                    continue
                owner = await self.store.lease_owner(lease_key(community.platform, record.chat_id))
                if owner is not None and owner != self.worker_id and owner in live:
                    addresses.add(live[owner])
        except Exception:
            log.exception(
                "worker %s: community %s's settings not told", self.worker_id, community_id
            )
            return
        platform = community.platform
        body = json.dumps({"community": community_id, "language": language}).encode()
        key = self.keys.get(_SETTINGS_ROUTES[platform], "")

        async def tell(address: str) -> None:
            try:
                headers = signed_headers(key, address, body)
                url = f"{address}/settings/{platform}"
                async with self._client().post(url, data=body, headers=headers) as r:
                    if r.status != 200:
                        log.warning(
                            "worker %s: %s not told of community %s's settings (%s)",
                            self.worker_id, address, community_id, r.status,
                        )  # fmt: skip
            except (ClientError, OSError, TimeoutError) as exc:
                log.warning(
                    "worker %s: %s not told of community %s's settings: %r",
                    self.worker_id, address, community_id, exc,
                )  # fmt: skip
            except Exception:  # (a background task's: never "exception never retrieved")
                log.exception(
                    "worker %s: %s not told of community %s's settings",
                    self.worker_id, address, community_id,
                )  # fmt: skip

        await asyncio.gather(*(tell(a) for a in sorted(addresses - {self.address})))

    async def _after_claims(self) -> None:
        """Wait for the claims under way here (:meth:`claim`: a table taken over being
        restored) to end: news of a user or a group's settings told meanwhile is for the
        table as restored, not one whose restore then applies what it read before."""
        for lock in list(self._locks.values()):
            if lock.locked():
                async with lock:
                    pass

    async def _signed_json(
        self, request: web.Request, route: str, *, ready: bool = True
    ) -> dict[str, Any] | web.Response:
        """The JSON object another worker sent in ``request``, signed with ``route``'s key
        (:meth:`_allowed`); else the answer to give: 403 for a request not signed so, 503
        while stopping (or not ``ready`` to serve it), 400 for a body that is not a JSON
        object. Each internal route reads its own fields from the object."""
        body = await self._allowed(request, route)
        if body is None:
            return web.json_response({"error": "forbidden"}, status=403)
        if self.stopping or not ready:
            return web.json_response({"error": "stopping"}, status=503)
        try:
            data = json.loads(body)
        except ValueError:  # (not UTF-8 either: a UnicodeDecodeError)
            data = None
        if not isinstance(data, dict):
            return _malformed()
        return data

    async def _on_settings(self, request: web.Request) -> web.Response:
        """Another worker saved a change of a community's settings (``{"community": id,
        "language": str | null}``, :meth:`settings_saved`; the path names its platform, whose
        worker-to-worker key signs it): the tables served here take the settings as stored
        (:meth:`TableService.settings_saved_elsewhere`), once a takeover under way here is
        restored (:meth:`_after_claims`: its restore read the settings from before the
        change, and applied them after it was passed on). 200 once done, 503 while stopping,
        400 for a malformed body or a community of another platform, 404 for no platform."""
        platform = request.match_info.get("platform", "")
        route = _SETTINGS_ROUTES.get(platform)
        if route is None:
            return web.json_response({"error": "no such platform"}, status=404)
        data = await self._signed_json(request, route)
        if isinstance(data, web.Response):
            return data
        community_id = data.get("community")
        language = data.get("language", False)
        if (
            not isinstance(community_id, int)
            or isinstance(community_id, bool)
            or not (language is None or isinstance(language, str))
        ):
            return _malformed()
        community = await self.store.get_community(community_id)
        if community is None or community.platform != platform:
            return _malformed()
        await self._after_claims()  # (a takeover's restore read the settings before)
        await self.service.settings_saved_elsewhere(community_id, language)
        return web.json_response({"ok": True})

    async def _on_private(self, request: web.Request) -> web.Response:
        """What another worker heard of a user's Telegram private chat (``{"user": id,
        "blocked": bool}``, :meth:`private_life`): at the tables served here, a block marks
        the seat unreachable (:meth:`TableService.player_unreachable`), else the player
        showed life (:meth:`TableService.player_seen`: their hand is posted anew where a
        refusal left them without one). 200 once done, 503 while stopping, 400 for a
        malformed body."""
        data = await self._signed_json(request, "private")
        if isinstance(data, web.Response):
            return data
        user_id = data.get("user")
        blocked = data.get("blocked")
        if not isinstance(user_id, str) or not isinstance(blocked, bool):
            return _malformed()
        await self._after_claims()  # (a table taken over here being restored: told once it is)
        await self.service.private_news(TELEGRAM, user_id, blocked=blocked)
        return web.json_response({"ok": True})

    async def _on_discord(self, request: web.Request) -> web.Response:
        """A Discord press another worker received (``{"table": id, "press": {...}}``): 200
        with the adapter's answer once the player is answered, 409 ``{"owner": url}`` when
        this worker does not hold the table's chat (and may not take it: it does not serve
        the table and its guild is not on a shard it runs), 503 while stopping or without
        Discord, 400 for a malformed body."""
        data = await self._signed_json(request, "discord", ready=self.presses is not None)
        if isinstance(data, web.Response):
            return data
        try:
            table_id = int(data["table"])
            press = data["press"]
        except (ValueError, TypeError, KeyError):
            return _malformed()
        if not isinstance(press, dict):
            return _malformed()
        assert self.presses is not None  # (not ready without: 503 above)
        key = await self._discord_key(table_id)
        if key is None:
            return web.json_response({"owner": None}, status=409)
        if not self.holds(key) and not (await self._may_serve(table_id) and await self.claim(key)):
            owner = await self.store.lease_owner(key)
            live = await self.store.live_workers()
            return web.json_response({"owner": live.get(owner or "")}, status=409)
        self._claimed[key] = time.monotonic()
        try:
            answer = await self.presses.take_forwarded(press)
        except (KeyError, TypeError, ValueError):  # a field missing or of the wrong kind
            return web.json_response({"error": "malformed"}, status=400)
        return web.json_response(answer)

    # -- tables --------------------------------------------------------------------------------
    async def claim(self, key: str, table_id: int | None = None, *, quiet: bool = False) -> bool:
        """Hold ``key`` (a chat) and serve its open table: take the lease when it is free,
        expired or ours, then restore the chat's table unless it is served here already.
        ``False`` when another live worker holds the chat, or this one handed the chat's
        table back to its rendezvous pick lately (:meth:`_handed_lately`).
        A table taken over from a worker that died (or stalled past its lease) resumes with
        its clocks stopped when that worker last renewed the lease (read before taking it
        over, :meth:`Store.lease_lapsed`; workers share one lease time), as a single
        process's restart stops them at its last "alive" mark (R8.5): the time the dead
        worker ran is the players', the outage is not, the time after its lease ran out
        included (nobody could serve the table: a press waited, the turn did not run out).
        Such a takeover is logged at INFO as a sweep's is (:func:`takeover_line`, one table)
        unless ``quiet`` (the sweep, which logs one line for all it took): a chat whose update
        came before the sweep (a player pressing during the outage) was taken over without a
        line, and the operator's log never said the dead worker's table had moved. A store
        error reading whose lease it was (:meth:`Store.lapsed_leases`, read for the line
        alone) leaves the line out and never fails the takeover."""
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            if self.stopping or self._handed_lately(key):  # (handed back: the pick takes it)
                return False
            asked = time.monotonic()
            lapsed = await self.store.lease_lapsed(key)
            # (the clock's "now" of that reading: the store's clock may be another machine's)
            alive = None if lapsed is None else self.service.rt.clock() - lapsed - self.ttl
            # (whose lease ran out, read before ours replaces it: only for a takeover's line,
            # which a failed read leaves out; it never fails the takeover itself)
            dead = None
            if not quiet and lapsed is not None and lapsed >= 0:
                with contextlib.suppress(StorageError):
                    dead = (await self.store.lapsed_leases(key)).get(key)
            if not await self.store.acquire_lease(key, self.worker_id, self.ttl):
                return False
            self._claimed[key] = asked  # renewed from now on
            platform, _, chat_id = key.partition(":")
            if table_id is None:
                table_id = await self.store.chat_table(platform, chat_id)
            # a lease that was not ours and running (it ran out, or another's): a table served
            # here may have been served by another worker meanwhile (this one stalled)
            again = lapsed is None or lapsed >= 0
            fresh = table_id is not None and table_id not in self.service.tables
            if table_id is not None and (fresh or again):
                served = await self.service.adopt(table_id, alive, again=again)
                if served and fresh:  # (a sweep's takeovers are one line: Worker.sweep)
                    log.debug("worker %s: serving table %s", self.worker_id, table_id)
                    if dead is not None and dead != self.worker_id:
                        log.info("%s", takeover_line(self.worker_id, 1, dead))
            # only now may updates skip the claim: the chat's table is served here
            self._renewed[key] = asked
            return True

    def holds(self, key: str) -> bool:
        """Whether this worker surely still holds ``key``: it took or renewed the lease less
        than half the lease time ago (no database round trip per update; the fenced store
        refuses any write after a loss anyway)."""
        at = self._renewed.get(key)
        return at is not None and at > time.monotonic() - self.ttl / 2

    def _handed_lately(self, key: str) -> bool:
        """Whether this worker handed ``key``'s table back to its rendezvous pick (or is
        handing it back) within :data:`REBALANCE_LEASES` lease times (:meth:`rebalance`)
        and the pick may still take it (:meth:`_forget_handed`): an update for it is
        answered 409, the pick takes the chat, rather than taken back."""
        handed = self._handed.get(key)
        return handed is not None and handed[0] > time.monotonic() - REBALANCE_LEASES * self.ttl

    def _forget_handed(
        self, orphaned: set[str], takers: Mapping[str, str], lapsed: Mapping[str, str]
    ) -> None:
        """Stop refusing the chats handed back lately (:meth:`_handed_lately`) whose tables
        no live worker holds (``orphaned``: lease keys, :meth:`Store.unleased_tables`) and
        whose pick will not take them: it is no longer among the live workers that take
        Telegram updates (``takers``, :func:`telegram_workers`: its heartbeat or its
        ``telegram-worker:`` lease ran out, or it said it stops), or it took the chat and
        its lease ran out (``lapsed``: :meth:`Store.lapsed_leases`, key → its last holder).
        Such a table is an orphan like any other, taken by the sweep's rendezvous pick (this
        worker too) within about one lease time of the pick's death, not
        :data:`REBALANCE_LEASES` after the hand-over."""
        for key in [k for k in self._handed if k in orphaned]:
            pick = self._handed[key][1]
            if pick not in takers or lapsed.get(key) == pick:
                del self._handed[key]

    async def rebalance(self) -> int:
        """Hand back Telegram tables that rendezvous hashing gives to another live worker
        (one that joined later: a restart, more workers), :data:`REBALANCE_PER_SWEEP` a
        sweep at most; how many were handed back. Only a table idle between hands
        (:meth:`~bot.service.runtime.Runtime.idle_for_handover`: nothing due for
        :data:`REBALANCE_LEASES` lease times, nothing owed or in flight), whose chat had no
        update here for :data:`REBALANCE_QUIET_SECONDS` and has none being handled, and only
        to a worker seen live here for :data:`REBALANCE_LEASES` lease times (this run of it:
        one restarted under the same name holds a new run lease, :func:`_run_key`, and is
        seen anew from then on) that says it
        takes Telegram updates (its ``telegram-worker:<w>`` lease, :meth:`_telegram_advert`,
        read with the others in one read; rendezvous hashing over those that take them,
        :func:`telegram_workers`, as the sweep's and the router's). Each is
        :meth:`_hand_back`'s. Discord tables follow their shard (:meth:`sweep_shards`):
        never handed back here."""
        if self.stopping or TELEGRAM not in self.service.rt.presenters:
            return 0
        now = time.monotonic()
        self._handed = {
            k: h for k, h in self._handed.items() if h[0] > now - REBALANCE_LEASES * self.ttl
        }
        rt = self.service.rt
        until = rt.clock() + REBALANCE_LEASES * self.ttl
        quiet = now - REBALANCE_QUIET_SECONDS
        tables = sorted(  # (a first look, before asking anyone: the idle ones)
            (t.id, key)
            for t in rt.tables.values()
            if t.platform == TELEGRAM
            and self._claimed.get(key := lease_key(t.platform, t.chat_id), 0.0) <= quiet
            and rt.idle_for_handover(t, until)
        )
        if not tables:
            return 0
        live, ads = await self._telegram_live()
        runs = worker_runs(await self.store.leases(_RUN_LEASES))
        for w in live:  # (a run not seen before: the worker restarted under its name)
            now_runs = runs.get(w, frozenset())
            seen = self._runs_seen.get(w, now_runs)
            if not now_runs <= seen:
                self._seen_live.pop(w, None)  # (newly seen from now on)
                seen = frozenset()
            self._runs_seen[w] = seen | now_runs
        self._runs_seen = {w: r for w, r in self._runs_seen.items() if w in live}
        self._seen_live = {w: self._seen_live.get(w, now) for w in live}
        settled = {
            w for w, at in self._seen_live.items() if at <= now - REBALANCE_LEASES * self.ttl
        }
        handed = 0
        for table_id, key in tables:
            if handed >= REBALANCE_PER_SWEEP or self.stopping:
                break
            pick = rendezvous(key, live)
            if pick is None or pick == self.worker_id or pick not in settled:
                continue
            # (only to a worker saying it takes Telegram updates: one of the release before
            # the advertisements may run Discord only, and would never take the table)
            if ads.get(_telegram_ad(pick, True)) == pick and await self._hand_back(
                key, table_id, pick
            ):
                handed += 1
        return handed

    async def _hand_back(self, key: str, table_id: int, pick: str) -> bool:
        """Let chat ``key``'s table ``table_id`` go to the worker ``pick`` (:meth:`rebalance`),
        holding the chat's claim lock throughout (no claim of it here meanwhile): not while
        an update of the chat is handled here or came within :data:`REBALANCE_QUIET_SECONDS`;
        then updates of the chat are no longer taken here (answered 409: the router sends
        them to the lease's holder, else to the pick), the table is saved and forgotten if it
        is still idle (:meth:`TableService.hand_over`: a press handled before this point is
        in its snapshot) and the chat's lease given up. The pick takes it over at its next
        sweep (or at the chat's next update) from that snapshot, its clocks stopped for
        the moment between. ``False``, still served here, when any of it did not hold."""
        lock = self._locks.setdefault(key, asyncio.Lock())
        if lock.locked():
            return False  # (a claim under way: a takeover, or an update's)
        async with lock:
            now = time.monotonic()
            if (
                self.stopping
                or not self.holds(key)
                or self._updating.get(key)
                or self._claimed.get(key, 0.0) > now - REBALANCE_QUIET_SECONDS
            ):
                return False
            # (from here on an update of the chat is answered 409, not handled here)
            self._handed[key] = (now, pick)
            self._renewed.pop(key, None)
            until = self.service.rt.clock() + REBALANCE_LEASES * self.ttl
            if not await self.service.hand_over(table_id, until):
                self._handed.pop(key, None)  # (its next update claims the lease: ours)
                return False
            self._claimed.pop(key, None)
            try:
                await self.store.release_lease(key, self.worker_id)
            except Exception:  # it runs out by itself: renewed no more
                log.exception("worker %s: lease of %s not given up", self.worker_id, key)
            log.info("worker %s: handed table %s back to %s", self.worker_id, table_id, pick)
            return True

    async def _on_hello(self, request: web.Request) -> web.Response:
        """A starting worker's or router's probe (:func:`probe`, ``{"route": name}``): 200
        ``{"ok": true, "lease_seconds": <this worker's lease time>}`` when its request,
        signed for that route, is taken here (a starting worker refuses to start with
        another: :func:`lease_refusal`), else 403 with
        ``{"refused": reason}`` (:meth:`Signatures.refusal`), 400 for a malformed body."""
        body = await request.read()
        try:  # (read before the signature is checked: anyone's body, nested 100,000 deep)
            route = json.loads(body).get("route")
        except (ValueError, AttributeError, RecursionError):
            route = None
        if not isinstance(route, str) or route not in _ROUTE_TOKENS:  # ([] is unhashable)
            return web.json_response({"error": "malformed"}, status=400)
        header = request.headers.get(INTERNAL_HEADER, "")
        reason = self.signatures.refusal(route, header, body)
        if reason is not None:
            return web.json_response({"refused": reason}, status=403)
        return web.json_response({"ok": True, "lease_seconds": self.ttl})

    async def peers_refusal(self) -> str | None:
        """Whether the live workers take what this worker signs (:func:`probe` of each, for
        each route it has a key for), before it registers: the one line of the first that
        refuses (another bot token, its clock a minute apart: :func:`probe_refusal`) or runs
        with another ``LEASE_SECONDS`` (:func:`lease_refusal`), else ``None``. A worker with
        another token was taken in: every update the router forwarded to it was refused,
        its chats silent; one with another lease time, nothing checked it."""
        live = await self.store.live_workers()
        asks = [
            (name, address, route, key)
            for name, address in live.items()
            if name != self.worker_id
            for route, key in self.keys.items()
            # (a platform's other routes have the same token's keys as /telegram's or
            # /discord's: asked there)
            if _ROUTE_PLATFORMS.get(route) == route
        ]
        return await _first_refusal(asks, "this worker", self.ttl)

    async def _on_telegram(self, request: web.Request) -> web.Response:
        """A forwarded Telegram update: 200 once handled here, 409 ``{"owner": url}`` when
        another worker holds its chat or this one handed the chat's table back lately
        (:meth:`_handed_lately`; ``url`` the lease's holder's, this worker's own until it
        lets the lease go, ``null`` once nobody holds it: the router asks again and goes to
        the pick), 503 while stopping, 403 ``{"error": "forbidden",
        "refused": reason}`` when not signed with this worker's Telegram key (the word of
        :meth:`Signatures.refusal`: ``"no key"`` from a worker run without Telegram, which
        the router's log says apart from another token, :meth:`Router.forward`)."""
        body, reason = await self._checked(request, "telegram")
        if body is None:
            return web.json_response({"error": "forbidden", "refused": reason}, status=403)
        if self.stopping or self.telegram is None:
            return web.json_response({"error": "stopping"}, status=503)
        try:
            data = json.loads(body)
        except ValueError:
            return web.json_response({"error": "malformed"}, status=400)
        key = await route_key(self.store, data, self._chats)
        if (
            key is not None
            and not self.holds(key)
            and (self._handed_lately(key) or not await self.claim(key))
        ):
            owner = await self.store.lease_owner(key)
            live = await self.store.live_workers()
            address = live.get(owner or "")
            return web.json_response({"owner": address}, status=409)
        from telegram import Update

        app = self.telegram.app
        if key is None:
            await app.process_update(Update.de_json(data, app.bot))
            return web.json_response({"ok": True})
        # (no await since the lease was looked at: a hand-back begun later sees this update)
        self._claimed[key] = time.monotonic()
        self._updating[key] = self._updating.get(key, 0) + 1
        try:
            await app.process_update(Update.de_json(data, app.bot))
        finally:
            left = self._updating.pop(key) - 1
            if left:
                self._updating[key] = left
        return web.json_response({"ok": True})


def _upgraded_to(update: Mapping[str, Any]) -> str | None:
    """The lease key of the new chat of a group upgraded to a supergroup, for the message
    saying so in that chat (``migrate_from_chat_id``, routed to the old chat: :func:`route_key`),
    else ``None``."""
    message = update.get("message")
    if not isinstance(message, Mapping) or not message.get("migrate_from_chat_id"):
        return None
    chat = message.get("chat")
    return (
        lease_key(TELEGRAM, str(chat["id"])) if isinstance(chat, Mapping) and "id" in chat else None
    )


def _table_of(data: Mapping[str, Any]) -> int | None:
    """The table a component interaction's data names (its ``custom_id``, or for a select
    the first chosen option, each a payload), ``None`` if none (a slash command)."""
    candidates = [data.get("custom_id")]
    values = data.get("values")
    if isinstance(values, list) and values:
        candidates.append(values[0])
    for candidate in candidates:
        table = table_of(str(candidate)) if candidate is not None else None
        if table is not None:
            return table
    return None


def _shard_of_key(key: str) -> int | None:
    prefix, _, shard = key.partition(":")
    return int(shard) if prefix == _SHARD_KEY and shard.isdigit() else None


class Router:
    """The front process: receives Telegram's webhook and forwards every update to the worker
    serving its chat (see the module doc).

    The webhook is an aiohttp endpoint rather than python-telegram-bot's webhook server: the
    router needs only an update's chat, so it reads the JSON once and forwards the body
    unchanged (python-telegram-bot's server built an :class:`~telegram.Update` of every
    update, which the router turned back into a dict and JSON: a quarter of its CPU per
    press, and its tornado server a fifth; profiled under ``bench/bench_cluster.py``). It
    checks what that server checked: ``POST`` on the webhook's path, the secret token (403
    otherwise), ``Content-Type: application/json`` (415 otherwise, parameters allowed: that
    server answered 403 to both, and takes no parameter), a JSON object (400 otherwise);
    the update is queued and answered once a worker took it (200; 503 when none could, so
    Telegram delivers it again; 200 after :attr:`ACK_SECONDS` while a takeover is under way,
    see :meth:`_on_update`). ``setWebhook`` (with the secret token)
    still goes through python-telegram-bot's :class:`~telegram.Bot`. Like a bot in webhook
    mode it looks at its webhook every :attr:`webhook_look_seconds` and stops when another
    process deleted or replaced it (:func:`bot.telegram.one_bot.look_at_webhook`).

    :param store: the shared store (read only: leases and workers).
    :param token: the bot token.
    :param base_url: a Bot API server (``http://host:port/bot``); ``None`` for Telegram's.
    :param retry_seconds: how long an update is retried while no worker takes it (a worker
        died: its chat is taken over within the lease time).
    :param on_token_taken: called once with the line logged when the webhook was deleted or
        replaced by another process (the router gets no update: ``run_router`` stops, exit
        status 2); ``None`` logs the line only.
    """

    #: seconds Telegram's webhook request waits for its update to reach a worker (then 200)
    ACK_SECONDS = 1.0
    #: seconds a press (a callback query) waits for a worker to take it before the router
    #: answers it itself ("one moment", :meth:`_answer_waiting`): a takeover under way must
    #: not leave the button spinning past a second
    PRESS_ANSWER_SECONDS = 0.8
    #: seconds the worker that took a chat's last update is trusted to hold it (a worker that
    #: lost it answers 409 with the holder; one that is gone makes the forward look again)
    OWNER_SECONDS = 30.0

    def __init__(
        self,
        store: Store,
        token: str,
        base_url: str | None = None,
        *,
        retry_seconds: float = 30.0,
        on_token_taken: Callable[[str], None] | None = None,
    ) -> None:
        from telegram import Bot

        from bot.telegram import one_bot

        self.store = store
        root = base_url.rstrip("/") if base_url else None
        if root is not None and not root.endswith("/bot"):
            root += "/bot"
        self.bot = Bot(token, base_url=root) if root else Bot(token)
        self._forward_key = internal_key(token, "telegram")  # (each forward signed anew)
        #: updates in arrival order, each with the future its webhook request waits on
        self._queue: asyncio.Queue[tuple[dict[str, Any], bytes, asyncio.Future[bool]]] = (
            asyncio.Queue()
        )
        self._secret = b""
        self._runner: web.AppRunner | None = None
        self.retry_seconds = retry_seconds
        self._chats: dict[int, str] = {}
        #: (when read, the live workers, those of them a Telegram chat may be given to)
        self._live: tuple[float, dict[str, str], dict[str, str]] = (0.0, {}, {})
        #: chat key → the lock its updates are forwarded under, one at a time, and how many
        #: of them are routed and not through yet
        self._order: dict[str, tuple[asyncio.Lock, int]] = {}
        #: a group upgraded to a supergroup: the new chat's key → the upgrade's update, which
        #: its updates wait for (it moves the table, and its lease, to the new chat)
        self._after: dict[str, asyncio.Future[bool]] = {}
        self._owners: dict[str, tuple[float, str]] = {}  # key → (when learnt, worker address)
        self._session: ClientSession | None = None
        self._consumer: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        #: (monotonic time, lease key, worker address, HTTP status: 0 when unreachable) of
        #: the last forward attempts (10,000), for tests and benchmarks
        self.forwards: deque[tuple[float, str, str, int]] = deque(maxlen=10_000)
        self.guard = one_bot.TokenGuard(on_token_taken, one_bot.CONFLICT_SECONDS)
        self._quiet = _Quiet()  # (the lines of refused requests: one a minute a kind)
        self.webhook_look_seconds = one_bot.WEBHOOK_LOOK_SECONDS
        self._webhook_look: asyncio.Task[None] | None = None

    async def start(self, url: str, secret: str, listen: str = "0.0.0.0", port: int = 8443) -> None:
        """Listen on ``listen:port`` at the path of ``url``, start the forwarding, then
        register ``url`` with Telegram (``setWebhook`` with the secret token; requests without
        it are refused)."""
        # no cookies between the router and the workers: no jar to filter per forward
        self._session = ClientSession(timeout=ClientTimeout(total=30), cookie_jar=DummyCookieJar())
        self._secret = secret.encode()
        await self.bot.initialize()
        app = web.Application()
        app.router.add_post("/" + urlsplit(url).path.lstrip("/"), self._on_update)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await _listen(self._runner, listen, port)
        self._consumer = asyncio.create_task(self._consume(), name="router")
        await self.bot.set_webhook(url, secret_token=secret, max_connections=40)
        from bot.telegram.one_bot import look_at_webhook

        self._webhook_look = asyncio.create_task(
            look_at_webhook(self.bot, url, self.guard, self.webhook_look_seconds)
        )

    async def peers_refusal(self) -> str | None:
        """Whether the live workers take the updates this router signs (:func:`probe` of
        each): the one line of the first that refuses (another ``TELEGRAM_BOT_TOKEN``, a
        clock a minute apart: :func:`probe_refusal`), else ``None``. Its ``LEASE_SECONDS``
        is not compared: the router takes no lease, and the setting is not read here."""
        live = await self.live_workers(fresh=True)
        asks = [(name, address, "telegram", self._forward_key) for name, address in live.items()]
        return await _first_refusal(asks, "the router")  # (no lease compared)

    async def stop(self) -> None:
        """Stop receiving, finish the forwards under way, close."""
        if self._webhook_look is not None:
            self._webhook_look.cancel()
            await asyncio.gather(self._webhook_look, return_exceptions=True)
            self._webhook_look = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._consumer is not None:
            self._consumer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._consumer
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)
        with contextlib.suppress(Exception):
            await self.bot.shutdown()
        if self._session is not None:
            await self._session.close()

    async def _on_update(self, request: web.Request) -> web.Response:
        """One update from Telegram: 403 without the secret token (or with another one), 415 with it
        but not ``application/json``, 400 when the body is not a JSON object (each refusal of the
        first two a warning, one a minute a kind); else it is answered once it is settled: 200 when
        a worker took it (or it reaches no table), 503 when none took it (``retry_seconds`` ran out
        first). Telegram delivers an update again until it gets a 2xx, so an update this router
        accepted is not lost with it (a router that dies before forwarding never said 200); a
        redelivered one is safe (presses carry their table's version, one-shot commands their update
        id). An update not settled within :attr:`ACK_SECONDS` (its chat's worker died and is being
        replaced) is answered 200 and retried here: Telegram keeps at most ``max_connections``
        requests open, and holding them through a takeover would stall every other chat's updates
        (only a router dying in that window loses it)."""
        token = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "").encode()
        if not hmac.compare_digest(token, self._secret):
            self._quiet.warn(  # (a proxy dropping the header: one line a minute)
                "secret",
                "router: refused a webhook request from %s (403): %s; Telegram sends "
                "TELEGRAM_WEBHOOK_SECRET in the X-Telegram-Bot-Api-Secret-Token header: "
                "a proxy in front must pass it",
                request.remote or "?",
                "without the secret token" if not token else "with another secret token",
            )
            return web.Response(status=403)
        if request.content_type != "application/json":  # (the secret right: not a stranger)
            self._quiet.warn(  # (a proxy rewriting the request: one line a minute)
                "content_type",
                "router: refused a webhook request from %s (415): its Content-Type is "
                "%s, not application/json; Telegram sends a JSON body: a proxy in front "
                "must pass it unchanged",
                request.remote or "?",
                request.content_type or "missing",
            )
            return web.Response(status=415)
        body = await request.read()
        try:
            data = json.loads(body)
        except ValueError:
            return web.Response(status=400)
        if not isinstance(data, dict):
            return web.Response(status=400)
        settled: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((data, body, settled))
        wait = self.ACK_SECONDS
        query = data.get("callback_query")
        if isinstance(query, dict) and isinstance(query.get("id"), str):
            done, _ = await asyncio.wait([settled], timeout=self.PRESS_ANSWER_SECONDS)
            if not done:
                self._answer_waiting(query)
                wait = max(0.0, self.ACK_SECONDS - self.PRESS_ANSWER_SECONDS)
        try:
            delivered = await asyncio.wait_for(asyncio.shield(settled), wait)
        except TimeoutError:
            delivered = True  # still being retried here: Telegram's connection is not held
        return web.Response(status=200 if delivered else 503)

    def _answer_waiting(self, query: Mapping[str, Any]) -> None:
        """Answer a press no worker took within :attr:`PRESS_ANSWER_SECONDS` (its chat's
        worker died and is being replaced) with a short "one moment" notice, in the presser's
        language. The press is still forwarded when a worker takes the chat; that worker's
        own answer then comes too late and is dropped (logged), so the notice says to press
        again if nothing changed."""
        user = query.get("from")
        code = user.get("language_code") if isinstance(user, Mapping) else None
        text = tr(language_of(code if isinstance(code, str) else None), "press.busy")

        async def answer() -> None:
            try:
                await self.bot.answer_callback_query(str(query["id"]), text=text)
            except Exception as exc:  # a network error or a query already answered
                log.info("router: could not answer a waiting press: %s", exc)

        self._spawn(answer())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task the router keeps until it is done (:meth:`stop` waits for
        them)."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _consume(self) -> None:
        while True:
            data, body, settled = await self._queue.get()
            try:
                key = await route_key(self.store, data, self._chats)
            except Exception:
                log.exception("router: cannot route update %s", data.get("update_id"))
                settled.set_result(False)  # Telegram tries it again
                continue
            if key is None:
                settled.set_result(True)  # no chat of ours: nothing to deliver
                continue
            lock, pending = self._order.get(key) or (asyncio.Lock(), 0)
            self._order[key] = (lock, pending + 1)  # dropped once its last update is through
            self._spawn(self._forward_in_order(lock, key, data, body, settled))
            new = _upgraded_to(data)
            if new is not None:  # the new chat's updates wait until its table has moved
                self._after[new] = settled

    async def _forward_in_order(
        self,
        lock: asyncio.Lock,
        key: str,
        data: Mapping[str, Any],
        body: bytes,
        settled: asyncio.Future[bool],
    ) -> None:
        delivered = False
        try:
            async with lock:  # one chat's updates reach its worker in the order they came
                after = self._after.get(key)
                if after is not None and after is not settled:
                    await asyncio.shield(after)
                delivered = await self.forward(key, data, body)
        finally:
            if not settled.done():
                settled.set_result(delivered)
            new = _upgraded_to(data)
            if new is not None and self._after.get(new) is settled:
                del self._after[new]  # through: the new chat's updates go as any chat's
            # a count, not the lock's look: an update routed meanwhile may not be waiting yet
            held, pending = self._order[key]
            if pending > 1:
                self._order[key] = (held, pending - 1)
            else:
                del self._order[key]

    async def live_workers(self, *, fresh: bool = False) -> dict[str, str]:
        """Live workers (cached for half a second)."""
        return (await self._workers(fresh))[0]

    async def _workers(self, fresh: bool) -> tuple[dict[str, str], dict[str, str]]:
        """``(live workers, those of them that take Telegram updates)``
        (:func:`telegram_workers`), cached for half a second."""
        at, live, takers = self._live
        if fresh or time.monotonic() - at > 0.5:
            live = await self.store.live_workers()
            takers = telegram_workers(live, await self.store.leases(_TELEGRAM_ADS))
            self._live = (time.monotonic(), live, takers)
        return live, takers

    async def target(self, key: str, *, fresh: bool = False) -> str | None:
        """The address of the worker that should get ``key``'s updates now: the live worker
        that took the chat's last update (for :attr:`OWNER_SECONDS`), else the lease's
        holder, else the one rendezvous hashing picks among the live workers that take
        Telegram updates (:func:`telegram_workers`: a Discord-only one refuses them, and
        the chat's update was refused again and again until Telegram gave it up).
        ``fresh``: ask the store (a forward failed)."""
        live, takers = await self._workers(fresh)
        cached = self._owners.get(key)
        if (
            not fresh
            and cached is not None
            and time.monotonic() - cached[0] < self.OWNER_SECONDS
            and cached[1] in live.values()
        ):
            return cached[1]
        self._owners.pop(key, None)
        owner = await self.store.lease_owner(key)
        if owner is not None and owner in live:
            return live[owner]
        chosen = rendezvous(key, takers)
        return None if chosen is None else takers[chosen]

    async def forward(self, key: str, data: Mapping[str, Any], body: bytes | None = None) -> bool:
        """Deliver one update (``body``: its JSON as Telegram sent it; by default ``data``
        encoded) to the worker holding its chat, retrying (a 409 names the owner; a dead
        worker's chat is taken over within the lease time) for up to ``retry_seconds``.
        ``False`` if no worker took it."""
        assert self._session is not None
        if body is None:
            body = json.dumps(data).encode()
        deadline = time.monotonic() + self.retry_seconds
        address = await self.target(key)
        last = "no live worker"  # (the last answer, said when none took it)
        while time.monotonic() < deadline:
            status = 0
            reply: Any = {}
            if address is not None:
                try:
                    headers = signed_headers(self._forward_key, address, body)
                    async with self._session.post(
                        f"{address}/telegram", data=body, headers=headers
                    ) as resp:
                        status = resp.status
                        reply = await resp.json() if status in (403, 409) else {}
                except (ClientError, OSError, TimeoutError, ValueError):
                    reply = {}
                self.forwards.append((time.monotonic(), key, address, status))
                last = f"{status or 'no answer'} from {address}"
                refused = reply.get("refused") if isinstance(reply, Mapping) else None
                if status == 403 and refused == "no key":
                    if self._quiet.due(f"no key:{address}") is not None:
                        log.error(
                            "router: the worker at %s refused update %s (403): it runs "
                            "without TELEGRAM_BOT_TOKEN (not with another one), yet no "
                            "advertisement says it takes no Telegram updates (an older "
                            "release, or its lease lapsed); give it the router's "
                            "TELEGRAM_BOT_TOKEN if it should take them",
                            address,
                            data.get("update_id"),
                        )
                elif status == 403 and self._quiet.due(f"forbidden:{address}") is not None:
                    log.error(
                        "router: the worker at %s refused update %s (403): it runs with "
                        "another TELEGRAM_BOT_TOKEN than this router, or the two machines' "
                        "clocks are more than %g s apart (its log says which); the chats "
                        "it is picked for get no update until that is fixed",
                        address,
                        data.get("update_id"),
                        SIGNED_SECONDS,
                    )
                if status == 200:
                    self._owners[key] = (time.monotonic(), address)  # it holds the chat now
                    return True
                owner = str(reply.get("owner") or "") if isinstance(reply, Mapping) else ""
                if status == 409 and owner and owner != address:
                    address = owner  # the worker holding the chat
                    continue
            await asyncio.sleep(0.2)
            address = await self.target(key, fresh=True)
        # (the last answer: a 403 is a signature refused, the worker's log says why)
        log.error(
            "router: no worker took update %s for %s (last: %s)", data.get("update_id"), key, last
        )
        return False
