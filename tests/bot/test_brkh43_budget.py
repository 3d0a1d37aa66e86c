"""Break session brkh43: a group gets about one write per confirmed move, also when the
platform makes the group's sender wait (a 429 at the showdown). A step's table message
queued while an earlier step's writes wait is newer than the earlier one's: the group gets
it alone, not the earlier screen posted and then at once edited to the newer."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.screens import Screen
from bot.telegram.fake_api import ApiCall, FakeUser, too_many
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service_classic import ALICE as S_ALICE
from tests.bot.test_service_classic import BOB as S_BOB
from tests.bot.test_service_classic import GROUP, auto_street, start
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world

SHOWDOWN = "🏁"


class HeldShowdown(FakePresenter):
    """Records as :class:`FakePresenter`; the write of a showdown over the table message
    (the showdown step's ``table`` item) waits for :attr:`gate`, as a platform's 429 holds
    the group's writes."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.held = asyncio.Event()
        self.group: list[tuple[str | None, Screen]] = []

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        if screen.text.startswith(SHOWDOWN):
            self.held.set()
            await self.gate.wait()
        self.group.append((ref, screen))
        return await super().show_table(chat_id, screen, ref)


async def test_a_deal_queued_behind_a_held_showdown_is_the_table_message_posted_once() -> None:
    """Alice and Bob play a hand of Pineapple; the showdown's write over the table message
    is held by the platform (a 429's pause) while the next hand is dealt. Once it goes
    through, the table message is posted anew once, showing hand 2 being played: not the
    table between the hands (the showdown step's own screen, out of date by then) posted
    and then edited to the deal, two writes for one."""
    service, _p, _store, clock = service_env(next_hand_delay=1)
    p = HeldShowdown()
    service.register(p)
    await start(service, [S_ALICE, S_BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    players = {a.user_id: a for a in (S_ALICE, S_BOB)}
    pending: list[asyncio.Task[None]] = []
    while not p.held.is_set():  # (a press returns once its step's messages are written)
        player = t.player_of(t.hand.to_act[0])
        assert player is not None
        street = asyncio.create_task(auto_street(service, p, players[player.user_id]))
        await asyncio.wait(
            [street, asyncio.create_task(p.held.wait())], return_when="FIRST_COMPLETED"
        )
        pending.append(street)
    assert t.hand is None  # the showdown is committed, its write held
    clock.now += 2
    pending.append(asyncio.create_task(service.run_due()))  # the next hand is dealt meanwhile
    for _ in range(1000):
        if t.hand is not None:
            break
        await asyncio.sleep(0)
    assert t.hand is not None and t.hand_no == 2
    before = len(p.group)
    p.gate.set()
    await asyncio.gather(*pending)
    await service.rt.settled(t)
    after = [(ref, s.text.splitlines()[0]) for ref, s in p.group[before:]]
    assert len(after) == 2, after
    assert after[0][1].startswith(SHOWDOWN) and after[0][0] is not None  # over the old one
    assert after[1][0] is None and after[1][1].endswith("· hand 2"), after  # posted once


def group_writes(w: World, since: int) -> list[ApiCall]:
    """The bot's writes to the group since the ``since``-th call (sends, edits, pictures)."""
    methods = ("sendMessage", "editMessageText", "sendPhoto", "editMessageCaption")
    return [
        c
        for c in w.fake.calls[since:]
        if c.method in methods and int(c.params.get("chat_id") or 0) == GROUP_ID
    ]


async def test_telegram_a_429_at_the_showdown_costs_the_group_no_extra_write(
    tmp_path: Path,
) -> None:
    """Through python-telegram-bot: the group's edit for the hand's last confirm is refused
    with a 429 (retry after 2 s). The showdown and the next deal come during the pause; once
    it is over the group gets the showdown written over the table message, its picture and
    one new table message showing hand 2, no edit of it until a move of hand 2."""
    async with world(tmp_path, next_hand_delay=0.2) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        users = {str(u.id): u for u in (ALICE, BOB)}
        for _ in range(9):
            assert t.hand is not None
            await w.play_street(users[t.seats[t.hand.to_act[0]].user_id])
        assert t.hand is not None
        since = len(w.fake.calls)
        w.fake.fail_when(
            lambda c: c.method == "editMessageText" and int(c.params["chat_id"]) == GROUP_ID,
            *too_many(2),
        )
        await w.play_street(users[t.seats[t.hand.to_act[0]].user_id])
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        await w.settle()
        await w.fake.wait_for(
            lambda: any(c.method == "sendMessage" for c in group_writes(w, since))
        )
        await w.settle()
        writes = group_writes(w, since)
        posted = [c for c in writes if c.method == "sendMessage"]
        assert len(posted) == 1, [c.params.get("text") for c in posted]
        assert "· hand 2" in str(posted[0].params["text"]).splitlines()[0]
        new_id = posted[0].result["message_id"]
        assert [c for c in writes if c.params.get("message_id") == new_id] == []
        assert len(writes) == 4, [(c.method, c.params.get("message_id")) for c in writes]


async def unflushed_street(w: World, user: FakeUser) -> None:
    """``user`` presses Arrange, then Confirm (twice if the board is fouled), each press
    waited for until its step's messages are handed to the adapter, not until the adapter
    wrote them (a 429's pause holds those)."""
    t = next(iter(w.service.tables.values()))
    for action in ("a", "c", "c"):
        seat = t.seat_of(str(user.id))
        if action == "c" and (t.hand is None or seat is None or seat.seat not in t.hand.to_act):
            return  # (confirmed: not fouled)
        await w.fake.wait_for(lambda a=action: (a, "") in w.hand_buttons(user))
        msg = w.private(user) or {}
        qid = await w.fake.press(
            user, user.id, msg["message_id"], w.hand_buttons(user)[(action, "")]
        )
        await w.fake.wait_for(lambda q=qid: w.fake.answer_of(q))
        async with t.lock:
            pass
        await w.service.rt.settled(t)


async def test_telegram_moves_made_during_a_429_pause_cost_the_group_one_edit(
    tmp_path: Path,
) -> None:
    """A regression guard (it held): the group's edit for the first confirm is refused with
    a 429 (retry after 2 s); three streets more are confirmed during the pause. Once it is
    over the group gets one edit, the newest screen, not one per move."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        users = {str(u.id): u for u in (ALICE, BOB)}
        since = len(w.fake.calls)
        w.fake.fail_when(
            lambda c: c.method == "editMessageText" and int(c.params["chat_id"]) == GROUP_ID,
            *too_many(2),
        )
        for _ in range(4):
            assert t.hand is not None
            await unflushed_street(w, users[t.seats[t.hand.to_act[0]].user_id])
        assert len(group_writes(w, since)) == 1  # (the one refused; the pause holds the rest)
        await w.settle()
        writes = group_writes(w, since)
        assert [c.method for c in writes] == ["editMessageText", "editMessageText"], writes
        shown = w.fake.messages[(GROUP_ID, int(t.group_ref or 0))]["text"]
        assert t.hand is not None
        to_act = t.seats[t.hand.to_act[0]].name  # (the newest screen: four moves on)
        assert writes[1].params["text"] == shown and f"▶ {to_act} to act" in shown
