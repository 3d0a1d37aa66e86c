"""Break-it session brk55: a tournament (R8.7) through the real Telegram adapter and the fake
Bot API, restarted twice on one SQLite file, with a departure between. What held (no fix was
needed), kept as a test:

- the bot restarts during the registration; the Register button of the registration message
  written before the restart registers the third player there, which fills the seats and
  starts the tournament;
- a player removed from the group in the middle of a hand is knocked out at that moment
  (place 3, prize 0: R8.7), their street made for them, and the hand goes on;
- the bot restarts in the middle of that tournament; it is played to its payout, which pays
  the pool once: each player's ledger over the table is their prize less the buy-in, the
  ledger balances, no hidden card reached the group and nothing was logged as an error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.telegram.fake_api import FakeTelegram
from bot.texts import tr
from tests.bot.money import assert_conserved
from tests.bot.test_brk47_tournaments import ledger_by_player
from tests.bot.test_tournament_e2e import (
    PLAYERS,
    actions_of,
    configure,
    play_to_the_end,
    the_table,
    tournament_message,
    watch_leaks,
)
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, TOKEN, world

BUY_IN = 100


async def test_r8_7_restarts_around_a_departure_pay_the_pool_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update(u.id for u in PLAYERS)
    db = tmp_path / "ofc.sqlite3"
    leaks: list[str] = []
    try:
        async with world(tmp_path, fake=fake, db=db, rng_seed=3) as w:
            leaks = watch_leaks(w)
            await configure(w, tournament_buy_in=str(BUY_IN), tournament_chips="60")
            await w.say(ALICE, "/tournament pineapple")
            for user in (ALICE, BOB):
                data = actions_of(w.fake, tournament_message(w))["g"]
                answer = await w.press(user, GROUP_ID, tournament_message(w), data)
                assert not answer.get("show_alert"), answer
            before = tournament_message(w)
            register = actions_of(w.fake, before)["g"]
        assert leaks == [], leaks
        fake.listeners.clear()  # (that watcher knew the stopped service's tables)
        async with world(tmp_path, fake=fake, db=db, rng_seed=4) as w:
            leaks = watch_leaks(w)
            answer = await w.press(CAROL, GROUP_ID, before, register)
            assert answer.get("text") == tr("en", "tour.registered", amount=BUY_IN, label="kush")
            t = the_table(w)
            table_id = t.id
            assert t.tournament is not None and t.tournament.phase.value == "running"
            assert t.hand is not None and t.hand_no == 1
            await play_to_the_end(w, stop_after_streets=4)
            assert t.hand is not None and t.hand_no == 1  # (mid-hand)
            bob = t.seat_of(str(BOB.id))
            assert bob is not None
            await fake.remove_member(GROUP_ID, BOB)
            tour = t.tournament
            await w.fake.wait_for(lambda: bob.seat not in tour.chips)
            assert tour.places == {bob.seat: 3} and tour.prizes == {bob.seat: 0}
            out = tr("en", "tour.knocked_out", name="Bob", place=3, prize=0, label="kush")
            await w.fake.wait_for(
                lambda: out in [str(m.get("text")) for m in w.fake.chat_messages(GROUP_ID)]
            )
            # his street is made for him: the hand goes on without waiting for his clock
            await w.fake.wait_for(
                lambda: (
                    t.hand is None
                    or not t.hand.to_act
                    or t.seats.get(t.owner(t.hand.to_act[0])) is not bob
                )
            )
            await w.settle()
        assert leaks == [], leaks
        fake.listeners.clear()
        async with world(tmp_path, fake=fake, db=db, rng_seed=5) as w:
            leaks = watch_leaks(w)
            if table_id in w.service.tables:
                t = w.service.tables[table_id]
                assert t.tournament is not None and bob.seat not in t.tournament.chips
                await play_to_the_end(w, (ALICE, CAROL))
            await w.settle()
            assert table_id not in w.service.tables
            assert await w.store.stacks(table_id) == {}
            ends = [
                h["result"]
                for h in await w.store.export_hands(table_id)
                if h["result"].get("tournament_end")
            ]
            assert len(ends) == 1, ends  # the pool is paid out once
            record = ends[0]
            assert record["pool"] == 3 * BUY_IN and sum(record["prizes"].values()) == 3 * BUY_IN
            assert record["places"][str(bob.seat)] == 3 and record["prizes"][str(bob.seat)] == 0
            net = await ledger_by_player(w.store, table_id)
            players = {
                int(s): int(p)
                for s, p in (await w.store.export_hands(table_id))[-1]["players"].items()
            }
            for seat, pid in players.items():
                assert net.get(pid, 0) == record["prizes"][str(seat)] - BUY_IN, (record, net)
            assert sorted(net.values()) == [-BUY_IN, -BUY_IN, 2 * BUY_IN]
            await assert_conserved(w.store)
        assert leaks == [], leaks
    finally:
        await fake.stop()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], errors
