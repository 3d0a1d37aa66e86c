"""fix39b: the leftovers around Telegram players who blocked the bot and the cluster's
``POST /private`` route (issue 14).

- Every request to a worker's internal endpoint (``/telegram`` from the router, ``/discord``
  and ``/private`` from a worker) carried the same key for good, an HMAC of the route alone:
  a request captured once could be replayed at will (a player's hand posted, or their seat
  silenced). Each is now signed with its time, a nonce, the worker's address and its body
  (:func:`bot.cluster.signed_headers`), taken within 60 s and once (:class:`Signatures`).
- A sign of life heard while no live worker held a table of the player's (a takeover under
  way) was told nothing: the table's seat stayed quiet until the player's next sign of life.
- A seat a 400 refused (no block) was silenced by a restart: the presenter's memory that it
  was no block is its process's (the seat now keeps it, saved with the table).
- The record of recent tellings was pruned only above 10,000 users.
- The block / sign-of-life dispatch was written twice (the adapter, ``/private``)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from aiohttp import ClientSession

from bot.cluster import SIGNED_SECONDS, Signatures, Worker, internal_key, signed_headers
from bot.service import TableService
from bot.telegram.fake_api import ApiCall, FakeTelegram
from storage.api import lease_key
from tests.bot.test_fix38b_blocked_quiet import refused_sends
from tests.bot.test_fixcl38_private_life import BOB_ID, OTHER, TOKEN, two_workers
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, world
from tests.waiting import until

ADDRESS = "http://127.0.0.1:9"


def _signatures(clock: list[float]) -> Signatures:
    checks = Signatures(ADDRESS, clock=lambda: clock[0])
    checks.keys["private"] = internal_key(TOKEN, "private")
    return checks


async def test_r14_a_captured_private_request_replayed_is_refused(tmp_path: Path) -> None:
    """Worker 1 tells worker 2 of Bob's sign of life (his hand is posted there); the very
    request it sent, captured and sent again, is refused (403), and nothing is posted twice.
    Without the fix the request's key was the route's for good: the replay was a 200."""
    async with two_workers(tmp_path) as c:
        c.presenter2.blocked.discard(BOB_ID)
        captured: list[tuple[str, str, bytes]] = []
        refusal = c.w2.signatures.refusal

        def capture(route: str, header: str, body: bytes) -> str | None:
            captured.append((route, header, body))
            return refusal(route, header, body)

        c.w2.signatures.refusal = capture  # type: ignore[method-assign]
        c.w1.private_life(BOB_ID, False, True)
        await until(lambda: not c.w1._telling, 15.0, "the telling done")
        await c.service2.rt.drain()
        assert len(c.presenter2.privates[BOB_ID]) == 1
        ((route, header, body),) = captured
        assert route == "private" and json.loads(body) == {"user": BOB_ID, "blocked": False}
        bob = c.t2.seat_of(BOB_ID)
        assert bob is not None and bob.reachable
        bob.reachable, bob.private_ref = False, None  # (as a refusal would leave it)
        headers = {"Content-Type": "application/json", "X-OFC-Internal-Key": header}
        url = f"{c.w2.address}/private"
        async with ClientSession() as http, http.post(url, data=body, headers=headers) as r:
            assert r.status == 403
        await c.service2.rt.drain()
        assert len(c.presenter2.privates[BOB_ID]) == 1 and not bob.reachable


def test_r14_a_signed_request_is_taken_once_within_its_time() -> None:
    """One check for every route: the signature covers the time, the nonce, the worker's
    address and the body; a request older (or further ahead) than ``SIGNED_SECONDS`` is
    refused, a nonce seen in that time is refused, and the nonces are forgotten once their
    time is stale anyway."""
    now = [1_000_000.0]
    checks = _signatures(now)
    key = internal_key(TOKEN, "private")
    body = b'{"user": "7", "blocked": true}'
    sign = signed_headers(key, ADDRESS, body, now=now[0])["X-OFC-Internal-Key"]
    assert checks.allowed("private", sign, body)
    assert not checks.allowed("private", sign, body)  # the replay
    fresh = signed_headers(key, ADDRESS, body, now=now[0])["X-OFC-Internal-Key"]
    assert not checks.allowed("private", fresh, body + b" ")  # another body
    assert not checks.allowed("telegram", fresh, body)  # another route (no key here)
    other = signed_headers(key, "http://127.0.0.1:10", body, now=now[0])["X-OFC-Internal-Key"]
    assert not checks.allowed("private", other, body)  # signed for another worker
    stale = signed_headers(key, ADDRESS, body, now=now[0] - SIGNED_SECONDS - 1)
    ahead = signed_headers(key, ADDRESS, body, now=now[0] + SIGNED_SECONDS + 1)
    for headers in (stale, ahead):
        assert not checks.allowed("private", headers["X-OFC-Internal-Key"], body)
    late = signed_headers(key, ADDRESS, body, now=now[0] - SIGNED_SECONDS + 1)
    assert checks.allowed("private", late["X-OFC-Internal-Key"], body)
    assert checks.allowed("private", fresh, body)
    assert len(checks._seen) == 3
    now[0] += 2.0  # the late one is stale now: forgotten at the next request
    assert not checks.allowed("private", sign, body)  # (still a replay)
    assert len(checks._seen) == 2
    now[0] += SIGNED_SECONDS
    assert not checks.allowed("private", fresh, body)  # (stale: refused, not remembered)
    assert checks._seen == set() and checks._expiry == []


async def test_r14_a_sign_of_life_reaches_a_table_held_again(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Bob unblocks the bot while nobody holds worker 2's table (its lease lapsed, a takeover
    under way: the first lookups find no holder). The telling looks again until a worker
    holds it, and worker 2 posts Bob's hand there. It was told nothing: his seat stayed
    quiet until his next sign of life."""
    async with two_workers(tmp_path) as c:
        c.presenter2.blocked.discard(BOB_ID)
        store = c.w1.store
        owner = store.lease_owner
        other = lease_key("telegram", OTHER.chat_id)
        lookups: list[str] = []

        async def lease_owner(key: str) -> str | None:
            if key == other:
                lookups.append(key)
                if len(lookups) <= 2:
                    return None  # (nobody yet)
            return await owner(key)

        monkeypatch.setattr(store, "lease_owner", lease_owner)
        c.w1.private_life(BOB_ID, False, True)
        await until(lambda: c.presenter2.privates.get(BOB_ID), 10.0, "Bob's hand on worker 2")
        await until(lambda: not c.w1._telling, 10.0, "the telling done")
        assert len(lookups) == 3
        await c.service2.rt.drain()
        bob = c.t2.seat_of(BOB_ID)
        assert bob is not None and bob.reachable


async def test_r14_a_sign_of_life_reaches_a_table_taken_over_here() -> None:
    """Bob's table 5 has no live holder when his unblock is heard; this very worker then
    takes it over (its sweep): the news is taken in here (``private_news``), once, and the
    telling ends. A table nobody takes is given up after ``LIFE_WAIT_LEASES`` lease times."""
    news: list[tuple[str, str, bool]] = []

    async def private_news(platform: str, user: str, *, blocked: bool) -> None:
        news.append((platform, user, blocked))

    async def seated_tables(platform: str, user: str) -> list[int]:
        return [5]

    async def nobody(key: str) -> None:
        return None

    async def live_workers() -> dict[str, str]:
        return {}

    async def get_table(table_id: int) -> Any:
        return SimpleNamespace(chat_id="-500")

    store: Any = SimpleNamespace(
        fence=lambda _: None,
        live_workers=live_workers,
        seated_tables=seated_tables,
        lease_owner=nobody,
        get_table=get_table,
    )
    tables: dict[int, Any] = {}
    service: Any = SimpleNamespace(
        store=store, tables=tables, private_news=private_news, rt=SimpleNamespace()
    )
    telegram: Any = SimpleNamespace(app=SimpleNamespace(bot=SimpleNamespace(token=TOKEN)))
    w = Worker(service, "w1", ADDRESS, ttl=0.4, telegram=telegram)
    w.private_life(BOB_ID, False, True)
    await asyncio.sleep(0.25)  # (looked twice: nobody holds it)
    assert news == [] and w._telling
    tables[5] = object()  # taken over here
    await until(lambda: not w._telling, 5.0, "the telling done")
    assert news == [("telegram", BOB_ID, False)]
    tables.clear()  # nobody takes it this time: given up
    w.private_life(BOB_ID, True, True)
    await until(lambda: not w._telling, 5.0, "the telling given up")
    assert news == [("telegram", BOB_ID, False)]


def _to_bob(call: ApiCall) -> bool:
    return call.method == "sendMessage" and int(call.params.get("chat_id") or 0) == BOB.id


async def test_a_bad_request_refusal_is_not_silenced_by_a_restart(
    tmp_path: Path, tg_api: FakeTelegram
) -> None:
    """brk63's 400 (no block) refuses Bob's hand at the deal, then the bot restarts. The
    presenter's memory that it was no block was its process's: the restarted bot took the
    refusal for a block and never wrote to Bob again until he showed life. The seat keeps
    it now: the next street tries his hand again."""
    db = tmp_path / "ofc.sqlite3"
    tg_api.started_users.update({ALICE.id, BOB.id})
    tg_api.fail_when(
        _to_bob, 400, {"ok": False, "error_code": 400, "description": "Bad Request: oops"}
    )
    async with world(tmp_path, fake=tg_api, db=db) as w:
        await seat_everyone(w, [ALICE, BOB])
        await w.settle()
        t = next(iter(w.service.tables.values()))
        tid = t.id
        bob = t.seat_of(BOB_ID)
        assert bob is not None and not bob.reachable and not bob.refused_for_good
        assert refused_sends(w, BOB) == 1 and w.private(BOB) is None
    async with world(tmp_path, fake=tg_api, db=db) as w:
        rt = w.service.rt
        ahead = [0.0]
        rt.clock = lambda: time.time() + ahead[0]
        t = w.service.tables[tid]
        await w.settle()
        alice, bob = t.seat_of(str(ALICE.id)), t.seat_of(BOB_ID)
        assert alice is not None and bob is not None and t.hand is not None
        if w.private(BOB) is None:  # (not posted at the restore: the next street does)
            if alice.seat in t.hand.to_act:
                await w.play_street(ALICE)
            else:
                ahead[0] += 3600.0
                async with t.lock:
                    await rt.arm(t)
                await w.fake.wait_for(lambda: t.hand is None or bob.seat not in t.hand.to_act)
            await w.settle()
        assert w.private(BOB) is not None, "Bob's hand was never tried again after the restart"
        assert bob.reachable


async def test_a_block_told_after_a_bad_request_silences_the_seat(tmp_path: Path) -> None:
    """A seat a 400 refused (tried again at the next write) is silenced when Telegram then
    says the player blocked the bot: the block is for good, and saved so."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.fail_when(
            _to_bob, 400, {"ok": False, "error_code": 400, "description": "Bad Request: oops"}
        )
        await seat_everyone(w, [ALICE, BOB])
        await w.settle()
        t = next(iter(w.service.tables.values()))
        bob = t.seat_of(BOB_ID)
        assert bob is not None and not bob.reachable and not bob.refused_for_good
        await w.service.private_news("telegram", BOB_ID, blocked=True)
        assert not bob.reachable and bob.refused_for_good


def _bare_worker() -> Worker:
    """A worker whose tellings find nobody to tell (no endpoint, no loops)."""

    async def nothing(*_: Any) -> Any:
        return []

    store: Any = SimpleNamespace(
        fence=lambda _: None, live_workers=lambda: nothing(), seated_tables=nothing
    )
    service: Any = SimpleNamespace(store=store, tables={}, rt=SimpleNamespace())
    telegram: Any = SimpleNamespace(app=SimpleNamespace(bot=SimpleNamespace(token=TOKEN)))
    return Worker(service, "w1", ADDRESS, telegram=telegram)


async def test_r14_the_record_of_tellings_forgets_old_ones_by_age() -> None:
    """The record of whom was told lately (each user's commands told once per
    ``LIFE_SECONDS``) was pruned only above 10,000 users: below that a user told once stayed
    for good. It is pruned of the stale ones once per ``LIFE_SECONDS`` at most (not at every
    telling)."""
    w = _bare_worker()
    now = time.monotonic()
    stale = now - 3 * w.LIFE_SECONDS
    w._life_told = {"1": stale, "2": now - 1.0}
    w._life_pruned = now  # (pruned just now: not again at this telling)
    w.private_life("3", False, False)
    assert w._life_told.keys() == {"1", "2", "3"}
    w._life_pruned = now - w.LIFE_SECONDS  # (one LIFE_SECONDS since)
    w.private_life("4", False, False)
    assert w._life_told.keys() == {"2", "3", "4"}
    assert w._life_pruned >= now
    await until(lambda: not w._telling, 5.0, "the tellings done")


async def test_the_private_news_is_one_dispatch(tmp_path: Path) -> None:
    """``TableService.private_news``: a block marks the seats unreachable, any other news is
    a sign of life (the adapter and ``POST /private`` both call it)."""
    called: list[tuple[str, str, str]] = []
    service: Any = SimpleNamespace(_news={})  # (each user's news in order, brk83)

    async def seen(platform: str, user: str) -> None:
        called.append(("seen", platform, user))

    async def unreachable(platform: str, user: str) -> None:
        called.append(("unreachable", platform, user))

    service.player_seen, service.player_unreachable = seen, unreachable
    await TableService.private_news(service, "telegram", "5", blocked=True)
    await TableService.private_news(service, "telegram", "6", blocked=False)
    assert called == [("unreachable", "telegram", "5"), ("seen", "telegram", "6")]
    assert service._news == {}  # (no lock kept once a user's news are taken)
