"""brk67: attacks on the changes merged on fix39b/c/d.

1. ``WORKER_ADDRESS=http://w1:8600/`` (a trailing slash, as URLs are often copied) was taken
   as is: the router and the other workers posted to ``http://w1:8600//telegram``, which the
   worker's endpoint answers 404, so every forwarded update and press was lost; one without
   its scheme (``w1:8600``) failed every forward with aiohttp's NonHttpUrlClientError. The
   address is now an http(s) URL with a host, its trailing slashes dropped (the one spelling
   the requests are signed for, :func:`bot.cluster.signed_headers`).
2. A sign of life told to the worker holding a table of the player's, which did not take it
   (503 while it stops and gives its tables up; its process dead, its lease not yet run
   out: connection refused), was dropped: "told once a worker holds it" covered only a
   table nobody held at the first look, and the most common takeover (a holder dying) lost
   the news. A table whose holder was not told is looked at again as one nobody holds.
3. English groups amounts from 1,000 now (fix39c), by the template's field names: the
   amounts named otherwise stayed bare beside grouped ones in one text: "/balance" said
   "1,200 kush on balance, …, 1500 at other tables here"; a grant over the limit "Of this
   grant of 1,500, 1200 is taken back"; "max_buy_in (5000) cannot be below min_buy_in
   (10,000)"; a tournament's "1200 chips a point · chips: 12,000" and its schedule.
4. ``/settings utc_offset`` mid-hand rewrote every seat's private message on screen: a
   player sitting the hand out had their last hand's "hand 2 is over … You sit out from the
   next hand on. /back to play again." written over with "You have no hand at this table
   now." Only the hand's players' messages show its clock.
5. ``DISCORD_SHARD_COUNT=0`` alone (which now runs every shard in one process) was refused
   as "… (the shards in all, with DISCORD_SHARD_IDS)", as if the count needed the ids.
6. The router's clock more than 60 s from a worker's (no NTP on one machine): every update
   forwarded was refused 403 and dropped after the retries with "router: no worker took
   update …" alone; the worker said nothing. The worker now says why it refused (signed
   90 s from its clock: the machines' clocks apart?), once a minute at most, and the
   router's line names the last answer (403 from the worker).
7. ``/topup`` answered "1,000" typed back from its own range ("Top up from 1 to 1,500 kush";
   English grouped from 1,000 now) with "digits 0–9 only … (1000, not 1 000 or 1_000)",
   the comma unnamed, the range under it grouped; so did ``/grant``. An amount grouped by
   thousands is told as ``/settings`` tells it: "“1,000”: write 1000, without the “,”."
8. Sandbox ``b name Player`` (your own name) was taken: the table told the seats apart
   ("Player (2)"), but every line of Bob's read as yours: "» Player: Ready …", his private
   chat headed "private · Player (for Player's eyes only)". Your name is refused for him.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from bot.texts import tr
from tests.bot.test_fixcl38_private_life import BOB_ID, two_workers
from tests.waiting import until


def _load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *lines: str):  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    for name in (
        "WORKER_ADDRESS",
        "WORKER_ID",
        "WORKER_LISTEN",
        "DISCORD_BOT_TOKEN",
        "DISCORD_SHARD_IDS",
        "DISCORD_SHARD_COUNT",
    ):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_settings(".env")


@pytest.mark.parametrize(
    ("given", "url"),
    [
        ("http://w1:8600/", "http://w1:8600"),
        ("http://w1:8600//", "http://w1:8600"),
        ("https://w1.example.com/ofc/", "https://w1.example.com/ofc"),
        ("http://[::1]:8600/", "http://[::1]:8600"),
        ("http://w1:8600", "http://w1:8600"),
    ],
)
def test_a_worker_address_is_one_spelling_without_a_trailing_slash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str, url: str
) -> None:
    settings = _load(tmp_path, monkeypatch, "WORKER_ID=w1", f"WORKER_ADDRESS={given}")
    assert settings.worker_url == url


@pytest.mark.parametrize("given", ["w1:8600", "ftp://w1:8600", "http://", "http://[::1"])
def test_a_worker_address_that_is_no_http_url_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, monkeypatch, "WORKER_ID=w1", f"WORKER_ADDRESS={given}")
    assert str(caught.value) == (
        "WORKER_ADDRESS must be the http:// URL the router and the other workers reach this "
        "worker's internal endpoint at (e.g. http://10.0.0.5:8600), or empty for "
        "http://WORKER_LISTEN"
    )


async def test_r14_a_sign_of_life_the_holder_did_not_take_is_told_again(tmp_path: Path) -> None:
    """Bob unblocks the bot; worker 2, which holds his other table, answers the first
    ``POST /private`` 503 (stopping: its table about to be taken over). The telling looks
    again and tells the table's holder once it takes it: Bob's hand is posted there. Without
    the fix the 503 was logged and the news lost (his seat quiet until his next sign of
    life)."""
    async with two_workers(tmp_path) as c:
        c.presenter2.blocked.discard(BOB_ID)
        seen: list[str] = []
        refusal = c.w2.signatures.refusal

        def refuse_first(route: str, header: str, body: bytes) -> str | None:
            seen.append(route)
            c.w2.stopping = len(seen) == 1  # (the first one: 503, as while it stops)
            return refusal(route, header, body)

        c.w2.signatures.refusal = refuse_first  # type: ignore[method-assign]
        c.w1.private_life(BOB_ID, False, True)
        await until(lambda: not c.w1._telling, 15.0, "the telling done")
        assert seen == ["private", "private"]
        await c.service2.rt.drain()
        assert len(c.presenter2.privates.get(BOB_ID, [])) == 1
        bob = c.t2.seat_of(BOB_ID)
        assert bob is not None and bob.reachable


@pytest.mark.parametrize(
    ("key", "values", "en", "ru"),
    [
        ("reply.balance_elsewhere", {"other": 1500}, ", 1,500 at other", ", 1500 "),
        (
            "reply.grant_over_partial",
            {"name": "Bob", "limit": 10**6, "label": "kush", "amount": 1500, "taken": 1200,
             "kept": 300, "balance": 10**6},
            "grant of 1,500, 1,200 is taken back; 300 was",
            "1500",
        ),
        (
            "settings.buy_in_order",
            {"min_buy_in": 10_000, "max_buy_in": 5000},
            "max_buy_in (5,000) cannot be below min_buy_in (10,000)",
            "5000",
        ),
        (
            "tour.chips_line",
            {"level": 12, "cpp": 1200, "chips": 12_000},
            "1,200 chips a point",
            "1200",
        ),
        ("tour.status", {"level": 12, "cpp": 1200, "next": "5:00"}, "1,200 chips a point", "1200"),
    ],
)  # fmt: skip
def test_every_amount_of_a_text_is_grouped_alike(
    key: str, values: dict[str, object], en: str, ru: str
) -> None:
    assert en in tr("en", key, **values)
    assert ru in tr("ru", key, **values)  # (Russian groups from five digits: unchanged)


async def test_r8_7_the_tournament_lobby_groups_its_schedule_as_its_chips() -> None:
    """A schedule of 1,000 chips a point and up read "1000, 1500, 2000, 3000" under
    "chips: 10,000" (the schedule was joined with ``str``)."""
    from bot import render
    from tests.bot.test_tournament_service import ALICE, GROUP, configure, new_service

    service, _presenter, _store, clock = new_service(0.0)
    try:
        await configure(service, tournament_chips="100000", chips_schedule="1000 1500 2000 3000")
        assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
        t = service.table_in(GROUP)
        assert t is not None
        en = render.tournament_lobby(t, "en", clock.now).text
        assert "1,000, 1,500, 2,000, 3,000" in en, en
        ru = render.tournament_lobby(t, "ru", clock.now).text
        assert "1000, 1500, 2000, 3000" in ru, ru
    finally:
        await service.stop()


async def _play_hand(service, presenter, t) -> None:  # type: ignore[no-untyped-def]
    """Every player of the hand under way arranges and confirms until it ends."""
    from tests.bot.test_service import ALICE as A
    from tests.bot.test_service import BOB as B
    from tests.bot.test_service import CAROL as C
    from tests.bot.test_service import press_auto_and_confirm

    hand_no = t.hand_no
    for _ in range(60):
        await service.rt.settled(t)
        if t.hand is None or t.hand_no != hand_no:
            break
        acting = t.seats[t.owner(t.hand.to_act[0])]
        actor = {a.user_id: a for a in (A, B, C)}[acting.user_id]
        await press_auto_and_confirm(service, presenter, actor)
    await service.rt.settled(t)


async def test_r8_5_a_new_utc_offset_leaves_a_sitting_out_players_last_hand_alone(env) -> None:  # type: ignore[no-untyped-def]
    """Carol played hand 2 and sits out from hand 3: her private message says hand 2 is over
    and how to come back. The group's zone changes during hand 3: Alice's and Bob's hand
    messages are written anew (their clocks), Carol's is not touched."""
    from tests.bot.test_service import ALICE as A
    from tests.bot.test_service import BOB as B
    from tests.bot.test_service import CAROL as C
    from tests.bot.test_service import GROUP as G
    from tests.bot.test_service import seated

    service, presenter, _store, _clock = env
    assert not (await service.settings(G, A, True, ["utc_offset", "3"])).alert
    t = await seated(service, A, B, C)
    await _play_hand(service, presenter, t)  # (hand 1: Alice and Bob; Carol joined late)
    assert not (await service.sit_out(G, C)).alert
    await _play_hand(service, presenter, t)  # (hand 2: the three of them)
    assert t.hand is not None and t.seat_of(C.user_id) not in [
        t.seats[t.owner(s)] for s in t.hand.order
    ]
    last = presenter.last_private(C.user_id).text
    assert last.startswith(f"🃏 Table #{t.id} · hand 2 is over"), last
    said = {u: len(presenter.privates[u]) for u in (A.user_id, B.user_id, C.user_id)}
    assert not (await service.settings(G, A, True, ["utc_offset", "-5"])).alert
    await service.rt.settled(t)
    assert len(presenter.privates[C.user_id]) == said[C.user_id]
    assert presenter.last_private(C.user_id).text == last
    for user in (A.user_id, B.user_id):  # (their clocks in the new zone: written anew)
        assert len(presenter.privates[user]) == said[user] + 1


@pytest.mark.parametrize("count", ["0", "-1", "100001"])
def test_a_shard_count_out_of_range_alone_is_not_told_it_needs_shard_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: str
) -> None:
    monkeypatch.delenv("DISCORD_SHARD_IDS", raising=False)
    monkeypatch.delenv("DISCORD_SHARD_COUNT", raising=False)
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, monkeypatch, f"DISCORD_SHARD_COUNT={count}")
    assert str(caught.value) == (
        f"DISCORD_SHARD_COUNT must be a number of shards from 1 to 100,000 (not {count}; the "
        "shards in all: this process runs every one, or with DISCORD_SHARD_IDS those)"
    )


async def test_r14_a_router_clock_too_far_from_the_workers_is_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Worker 2's clock runs 90 s ahead of the router's: the forwarded update is refused
    (403) each time; the worker logs that the request was signed 90 s from its clock, once,
    and the router's line names the 403."""
    import logging
    import time

    from aiohttp import ClientSession

    from bot.cluster import Router
    from storage.memory import MemoryStore
    from tests.bot.test_fixcl38_private_life import TOKEN

    async with two_workers(tmp_path) as c:
        c.w2.signatures.clock = lambda: time.time() + 90.0
        router = Router(MemoryStore(), TOKEN, "http://127.0.0.1:1/bot", retry_seconds=0.7)
        router._session = ClientSession()

        async def target(key: str, fresh: bool = False) -> str:
            return c.w2.address

        router.target = target  # type: ignore[method-assign]
        try:
            with caplog.at_level(logging.WARNING, logger="bot.cluster"):
                data = {"update_id": 7, "message": {"chat": {"id": -5}}}
                assert not await router.forward("telegram:-5", data)
        finally:
            await router._session.close()
        assert [f[3] for f in router.forwards] and {f[3] for f in router.forwards} == {403}
        refused = [r.getMessage() for r in caplog.records if "worker w2: refused" in r.getMessage()]
        assert len(refused) == 1, refused
        assert "/telegram" in refused[0] and "signed more than 60 s" in refused[0], refused
        assert "clocks" in refused[0]
        (gave_up,) = [r.getMessage() for r in caplog.records if "no worker took" in r.getMessage()]
        assert "403" in gave_up and c.w2.address in gave_up, gave_up


async def test_r8_2_an_amount_typed_back_grouped_is_read_or_told_to_drop_the_points(env) -> None:  # type: ignore[no-untyped-def]
    """Alice's stack holds 2,000 at most (the range says "2,000"). "/topup 1.200" (grouped by
    points) is told to write it without them; "/topup 1,200" (grouped as the bot writes
    English amounts, read since fix39g) is 1200, beyond the range, refused with the range
    grouped; "/grant Bob 1.000" moves nothing, "/grant Bob 1,000" grants a thousand."""
    from tests.bot.test_service import ALICE as A
    from tests.bot.test_service import BOB as B
    from tests.bot.test_service import GROUP as G
    from tests.bot.test_transitions import player_balance_in

    service, _presenter, store, _clock = env
    assert not (await service.settings(G, A, True, ["max_buy_in", "2000"])).alert
    await service.new_table(G, A)
    await service.join(G, A)
    await service.ready(G, A)
    await service.join(G, B)
    reply = await service.top_up(G, A, "1.200")
    assert reply.alert and reply.text.startswith("“1.200”: write 1200, without the “.”.\n"), (
        reply.text
    )
    assert "2,000" in reply.text  # (the range under it, grouped)
    reply = await service.top_up(G, A, "1,200")
    assert reply.alert and reply.text.startswith("Top up from 1 to 800 kush"), reply.text
    assert "2,000" in reply.text
    t = service.table_in(G)
    alice = t.seat_of(A.user_id) if t is not None else None
    assert alice is not None and alice.stack == 200
    before = await player_balance_in(store, G, B)
    reply = await service.grant(G, A, True, "Bob", "1.000", "g1")
    assert reply.alert and reply.text.startswith("“1.000”: write 1000, without the “.”."), (
        reply.text
    )
    assert await player_balance_in(store, G, B) == before
    reply = await service.grant(G, A, True, "Bob", "1,000", "g2")
    assert not reply.alert, reply.text
    assert await player_balance_in(store, G, B) == before + 1000


async def test_sandbox_bob_is_not_given_your_name(tmp_path: Path) -> None:
    """``b name Player`` (yours, in either language's default too) is refused in one line,
    Bob keeps his name and nothing is saved; another name is taken."""
    import io

    from bot.sandbox import Sandbox, SandboxOptions

    out = io.StringIO()
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bots=0, bot_delay=0.0, next_hand_delay=0.2)
    box = Sandbox(opts, out)
    try:
        await box.start()
        assert await box.handle("g join")
        assert await box.handle("b g join")
        assert box.human.first_name == "Player"
        for typed in ("Player", "player", "Игрок"):
            start = len(out.getvalue())
            assert await box.handle(f"b name {typed}")
            said = out.getvalue()[start:]
            assert said.startswith(tr("en", "sandbox.bob_name_yours", name=typed, bob="Bob")), said
            assert box.bob.first_name == "Bob"
        assert not (tmp_path / "s.sqlite3-bob.json").exists()
        assert await box.handle("b name Alice")
        assert box.bob.first_name == "Alice"
    finally:
        await box.stop()
