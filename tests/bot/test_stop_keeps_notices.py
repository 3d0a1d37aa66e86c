"""The bot stops while the platform holds a group notice of the table's outbox (a Telegram
flood wait: a 429 of a minute; Discord down): the stop does not wait it out, and the notice is
not lost either: it stays owed (not marked sent) in the table's snapshot, and the next start
sends it, once."""

from __future__ import annotations

import random
import time
from pathlib import Path

from bot.screens import Screen
from bot.service import TableService
from bot.telegram.fake_api import ApiCall, FakeTelegram, too_many
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_break5 import street_unsettled
from tests.bot.test_closing_restart import RefPresenter, nothing_sent, restart
from tests.bot.test_service import ALICE as ALICE_
from tests.bot.test_service import BOB as BOB_
from tests.bot.test_service import GROUP, leave_now, press_auto_and_confirm, seated
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.test_tournament_service import two_started
from tests.bot.test_transitions import player_balance
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, TOKEN, world


def group_post(c: ApiCall) -> bool:
    """A new message in the group (a notice, a table message, the showdown picture)."""
    return c.method in ("sendMessage", "sendPhoto") and int(c.params.get("chat_id", 0)) == GROUP_ID


def left(text: str) -> bool:
    return text.startswith("👋 Alice left the table")


async def test_r8_2_a_notice_held_by_a_flood_wait_at_the_stop_is_sent_by_the_next_start(
    tmp_path: Path,
) -> None:
    """R8.2: Alice types /leave mid-hand; Telegram refuses every new message in the group
    with a 429 of 60 s (a flood wait) from then on. The hand ends: its showdown owes the
    group the picture and "👋 Alice left the table; … back to their balance", both held by
    the flood wait, and the bot stops. The stop took the whole wait (the table's sender, which
    the service's stop waits for, sat out the 429), and once the wait was cut short the
    notice was given up and marked sent: lost. The stop ends within seconds now, and the
    restarted bot (the same store, the flood wait over) sends the notice and the picture,
    each once. The ledger checks and no card is shown in the group before its showdown."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            leaks = w.watch_leaks()
            await seat_everyone(w, [ALICE, BOB])
            t = next(iter(w.service.tables.values()))
            reply = await w.say(ALICE, "/leave")  # during the hand: it asks first (R8.5)
            assert reply["text"].endswith("Send /leave again to confirm."), reply["text"]
            reply = await w.say(ALICE, "/leave")
            assert reply["text"].startswith("You leave after this hand."), reply["text"]
            await w.settle()
            users = {str(u.id): u for u in (ALICE, BOB)}
            while True:  # (to the hand's last street: every other board is full)
                hand = t.hand
                assert hand is not None
                mover = hand.to_act[0]
                others = [hand.board_of(s).count for s in hand.order if s != mover]
                if all(n == 13 for n in others) and (
                    hand.board_of(mover).count + len(hand.to_place(mover)) >= 13
                ):
                    break
                await w.play_street(users[t.seats[mover].user_id])
            fake.outage(group_post, *too_many(60))
            await street_unsettled(w, users[t.seats[mover].user_id])  # (the showdown)
            await fake.wait_for(lambda: [c for c in fake.calls if group_post(c)], timeout=5)
            assert t.hand is None and t.seat_of(str(ALICE.id)) is None
            owed = [item for item in t.outbox if left(str(item.get("text", "")))]
            assert len(owed) == 1 and int(owed[0]["id"]) > t.outbox_sent  # (held)
            stopping = time.monotonic()
        took = time.monotonic() - stopping
        assert took < 5, f"the stop took {took:.1f} s"
        assert not [m for m in fake.chat_messages(GROUP_ID) if left(m["text"])]
        assert fake.photos_in(GROUP_ID) == []
        fake.recover()  # (the flood wait is over)
        async with world(tmp_path, fake=fake, db=db) as w2:
            leaks2 = w2.watch_leaks()
            t2 = next(iter(w2.service.tables.values()))
            await fake.wait_for(lambda: fake.photos_in(GROUP_ID), timeout=5)
            await fake.wait_for(lambda: not t2.late_pictures, timeout=5)  # (told: posted)
            await w2.settle()
            await w2.adapter.presenter.flush()
            notices = [m["text"] for m in fake.chat_messages(GROUP_ID) if left(m["text"])]
            assert len(notices) == 1, notices
            # (Bob, alone now, may seat a computer player: the opener's part, in the notice)
            assert notices[0].endswith(
                "back to their balance.\nBob may now seat computer players: /addbot"
            ), notices
            assert len(fake.photos_in(GROUP_ID)) == 1
            assert t2.outbox == [] and t2.late_pictures == []
            assert await check_store(w2.store) == []
        async with world(tmp_path, fake=fake, db=db) as w3:  # (sent once: never again)
            await w3.settle()
            await w3.adapter.presenter.flush()
        assert len([m for m in fake.chat_messages(GROUP_ID) if left(m["text"])]) == 1
        assert len(fake.photos_in(GROUP_ID)) == 1
        assert leaks == [] and leaks2 == []
    finally:
        await fake.stop()


class HeldAtTheStop(RefPresenter):
    """The platform holds every notice until the bot stops: :meth:`post` says it was not
    sent (as a presenter's does then)."""

    def __init__(self) -> None:
        super().__init__()
        self.held: list[str] = []

    async def post(self, chat_id: str, text: str, ref: str | None = None) -> bool:
        self.held.append(text)
        return False


async def test_r8_7_a_closing_step_s_notice_held_at_the_stop_is_sent_by_the_next_start_once() -> (
    None
):
    """R8.7: Bob, the last opponent, leaves a tournament mid-hand: it is paid out and closed
    in that step, which owed the group two notices (Bob is out; the hand is not played on)
    and then the final standings over the table message, and each player a private message.
    Since fix39c the two notices are the first lines of the standings, one group write: the
    platform holding notices until the bot stops holds none of that step, the standings are
    written once with all three, and the next start writes nothing again (a closing notice
    held at the stop: the test of R8.2a below)."""
    store, clock = MemoryStore(), Clock()
    service = TableService(store, clock=clock, rng=random.Random(5), timers=False)
    presenter = HeldAtTheStop()
    service.register(presenter)
    for name, value in (("tournament_buy_in", "100"),):
        assert not (await service.settings(GROUP, ALICE_, True, [name, value])).alert
    t = await two_started(service, presenter, "pineapple")
    table_id, hand_no = t.id, t.hand_no
    await leave_now(service, GROUP, BOB_)
    await service.rt.settled(t)
    await service.stop()
    why = tr("en", "tour.final_mid_hand", table=table_id, hand=hand_no)
    assert [s.text for s in presenter.privates[ALICE_.user_id]][-1] == why
    assert presenter.held == []
    final = tr("en", "tour.final", table=table_id, pool=200, label="kush")
    assert presenter.tables[GROUP.chat_id][-1].text.startswith(
        f"❌ Bob is out: place 2, prize 0 kush.\n{why}\n{final}"
    ), presenter.tables[GROUP.chat_id][-1].text
    assert await player_balance(store, ALICE_) == 1100

    p2 = await restart(store, clock)
    assert nothing_sent(p2)
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []


def group_write(c: ApiCall) -> bool:
    """Any write to the group: a new message or an edit."""
    return group_post(c) or (
        c.method == "editMessageText" and int(c.params.get("chat_id", 0)) == GROUP_ID
    )


async def test_r8_4_a_showdown_held_by_a_flood_wait_at_the_stop_is_shown_by_the_next_start(
    tmp_path: Path,
) -> None:
    """R8.4: as the first test, the flood wait refusing the group's edits too: the showdown
    is written over the table message by the presenter's background writer, which a 429 of
    60 s holds, and the bot stops while the next hand is dealt. The showdown was marked sent
    once queued and the stop dropped the edit: the group never saw the hand's result. The
    stop ends within seconds, and the restarted bot writes the showdown over that table
    message, once (a third start writes nothing); the ledger checks."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.update({ALICE.id, BOB.id})
    db = tmp_path / "ofc.sqlite3"

    def showdowns() -> list[ApiCall]:
        return [
            c
            for c in fake.calls
            if group_write(c) and "Showdown" in str(c.params.get("text", "")) and c.result
        ]

    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = next(iter(w.service.tables.values()))
            users = {str(u.id): u for u in (ALICE, BOB)}
            while True:
                hand = t.hand
                assert hand is not None
                mover = hand.to_act[0]
                others = [hand.board_of(s).count for s in hand.order if s != mover]
                if all(n == 13 for n in others) and (
                    hand.board_of(mover).count + len(hand.to_place(mover)) >= 13
                ):
                    break
                await w.play_street(users[t.seats[mover].user_id])
            await w.settle()
            await w.adapter.presenter.flush()
            table_message = t.group_ref
            assert table_message is not None
            fake.outage(group_write, *too_many(60))
            await street_unsettled(w, users[t.seats[mover].user_id])  # (the showdown)
            await fake.wait_for(lambda: t.hand is not None and t.hand_no == 2, timeout=5)
            await fake.wait_for(
                lambda: [c for c in fake.calls if group_write(c) and c.result is None], timeout=5
            )
            stopping = time.monotonic()
        took = time.monotonic() - stopping
        assert took < 5, f"the stop took {took:.1f} s"
        assert showdowns() == []
        fake.recover()
        async with world(tmp_path, fake=fake, db=db) as w2:
            t2 = next(iter(w2.service.tables.values()))
            await w2.settle()
            await w2.adapter.presenter.flush()
            shown = showdowns()
            assert [(c.method, c.params.get("message_id")) for c in shown] == [
                ("editMessageText", int(table_message))
            ]
            record = fake.messages[(GROUP_ID, int(table_message))]
            assert "Showdown" in record["text"] and fake.buttons(record) == []
            assert t2.outbox == []
            assert await check_store(w2.store) == []
        async with world(tmp_path, fake=fake, db=db) as w3:  # (written once: never again)
            await w3.settle()
            await w3.adapter.presenter.flush()
        assert len(showdowns()) == 1
    finally:
        await fake.stop()


class EditsHeldAtTheStop(RefPresenter):
    """The platform holds every edit of a message until the bot stops: :meth:`edit_written`
    says it was not written (as a presenter's does then); new messages are posted."""

    def __init__(self) -> None:
        super().__init__()
        self.edited: set[str] = set()

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        if ref is not None:
            self.edited.add(ref)
        return await super().show_table(chat_id, screen, ref)

    async def edit_written(self, chat_id: str, ref: str) -> bool:
        return ref not in self.edited


async def test_r8_4_a_closing_step_s_showdown_held_at_the_stop_is_written_by_the_next_start() -> (
    None
):
    """R8.4, R8.2: an admin closes the table during a hand; the hand's last Confirm settles
    it and closes the table: the showdown is written over the table message, then the
    closing notice is posted anew. The platform holds the showdown's edit until the bot
    stops: the closed table's final snapshot keeps it owed, over that message (before, it
    was marked sent once queued and the snapshot forgotten: the group never saw the result).
    The next start writes it there, and nothing else; a third start writes nothing."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=60, timers=False
    )
    presenter = EditsHeldAtTheStop()
    service.register(presenter)
    t = await seated(service, ALICE_, BOB_)
    assert t is not None and t.hand is not None
    table_id, old_ref = t.id, t.group_ref
    assert old_ref is not None
    reply = await service.close_table(GROUP, ALICE_, True)
    assert reply.text == tr("en", "reply.closes_after_hand_fl", table=table_id)
    by_id = {a.user_id: a for a in (ALICE_, BOB_)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    await service.rt.settled(t)
    await service.stop()
    # (the closing notice names where the stacks went, close_now's with_stacks: the stacks
    # the showdown's "→ 204" and "→ 196" say, the deal of Random(5))
    stacks = "Alice 204 kush, Bob 196 kush"
    notice = tr("en", "reply.table_closed_cashed", table=table_id, stacks=stacks)
    written = presenter.tables[GROUP.chat_id]
    assert "Showdown" in written[-2].text and written[-1].text == notice
    assert presenter.refs[-2:] == [old_ref, None]
    assert len(presenter.pictures) == 1
    closed = await store.closed_snapshots()
    assert len(closed) == 1
    owed = [item for item in closed[0][1]["outbox"] if item["id"] > closed[0][1]["outbox_sent"]]
    assert [(item["kind"], item["ref"], item["text"]) for item in owed] == [
        ("table", old_ref, written[-2].text)
    ]

    p2 = await restart(store, clock)
    assert [s.text for s in p2.tables[GROUP.chat_id]] == [written[-2].text]
    assert p2.refs == [old_ref]
    assert p2.posts == [] and p2.pictures == [] and p2.privates == {}
    assert nothing_sent(await restart(store, clock))
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []


def group_edit(c: ApiCall) -> bool:
    return c.method == "editMessageText" and int(c.params.get("chat_id", 0)) == GROUP_ID


async def test_r8_2a_a_closing_notice_held_by_a_flood_wait_at_the_stop_is_written_by_the_next_start(
    tmp_path: Path,
) -> None:
    """R8.2a: an admin closes the table between hands while Telegram refuses the group's
    edits with a 429 of 60 s: the table message saying it is closed is held, and the bot
    stops. The stop ends within seconds, the closed table's final snapshot keeps the notice
    owed (it was forgotten once queued: the message kept its buttons and the group never
    learnt the table closed), and the next start writes it over that message, once; a third
    start writes nothing. The ledger checks."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"

    def closings() -> list[ApiCall]:
        return [
            c for c in fake.calls if group_edit(c) and c.result and "closed" in c.params["text"]
        ]

    try:
        async with world(tmp_path, db=db, fake=fake) as w:
            fake.admins[GROUP_ID] = {ALICE.id}
            await w.say(ALICE, "/newtable")
            await w.say(BOB, "/join")
            await w.settle()
            await w.adapter.presenter.flush()
            t = next(iter(w.service.tables.values()))
            table_message = t.group_ref
            assert table_message is not None
            assert fake.buttons(fake.messages[(GROUP_ID, int(table_message))])
            fake.outage(group_edit, *too_many(60))
            await w.say(ALICE, "/closetable")
            await fake.wait_for(
                lambda: [c for c in fake.calls if group_edit(c) and c.result is None], timeout=5
            )
            stopping = time.monotonic()
        took = time.monotonic() - stopping
        assert took < 5, f"the stop took {took:.1f} s"
        assert closings() == []
        fake.recover()
        async with world(tmp_path, db=db, fake=fake) as w2:
            await w2.settle()
            await w2.adapter.presenter.flush()
            assert [c.params["message_id"] for c in closings()] == [int(table_message)]
            closed = fake.messages[(GROUP_ID, int(table_message))]
            assert closed["text"] == tr("en", "reply.table_closed", table=t.id)
            assert fake.buttons(closed) == []
            assert await w2.store.closed_snapshots() == []
            assert await check_store(w2.store) == []
        async with world(tmp_path, db=db, fake=fake) as w3:
            await w3.settle()
            await w3.adapter.presenter.flush()
        assert len(closings()) == 1
    finally:
        await fake.stop()
