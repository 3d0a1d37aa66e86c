"""A closing transition's messages survive a crash (issue 10: "messages go out after the
commit and are safe to send again after a crash"). A tournament's payout, an admin's close
and the idle close commit with the table closed; the process dies before sending what that
step owes the group (the last showdown, its picture, the final standings, the closing
notice). The restarted bot sends it from the closed table's final snapshot, once: a second
restart sends nothing more."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.model import LiveTable
from bot.screens import Screen
from bot.service import TableService
from bot.service.runtime import waits_for_chat
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    press_auto_and_confirm,
    seated,
    tour_leave_question,
)
from tests.bot.test_tournament_service import carol_out_in_hand_one, two_started
from tests.bot.test_transitions import KillableStore, Killed, new_service, player_balance


class DiesAfterClosing(KillableStore):
    """The process dies right after the first closing transition is committed: nothing of
    that step is sent."""

    def __init__(self) -> None:
        super().__init__()
        self.kill_on_close = True


class RefPresenter(FakePresenter):
    """Also records the message ref each table message write was given (``None``: posted
    anew), and each private message write's, by user."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str | None] = []
        self.private_refs: dict[str, list[str | None]] = {}

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        self.refs.append(ref)
        return await super().show_table(chat_id, screen, ref)

    async def show_private(
        self, user_id: str, screen: Screen, ref: str | None, answered: str | None = None
    ) -> str | None:
        self.private_refs.setdefault(user_id, []).append(ref)
        return await super().show_private(user_id, screen, ref, answered)


async def restart(store: MemoryStore, clock: Clock) -> RefPresenter:
    """A new process on the same store, started; its presenter."""
    service, _ = new_service(store, clock)
    presenter = RefPresenter()
    service.register(presenter)
    await service.start()
    assert service.table_in(GROUP) is None  # the closed table is not served again
    await service.rt.drawer.close()
    return presenter


class BlockedAtTheEnd(FakePresenter):
    """A player (``user_id``) blocks the bot once the table is closed (``gone`` says so):
    every private write to them from then on is refused (403: ``None``)."""

    def __init__(self, user_id: str) -> None:
        super().__init__()
        self.user_id = user_id
        self.gone: Callable[[], bool] = lambda: False
        self.refused: list[Screen] = []

    async def show_private(
        self, user_id: str, screen: Screen, ref: str | None, answered: str | None = None
    ) -> str | None:
        if user_id == self.user_id and self.gone():
            self.refused.append(screen)
            return None
        return await super().show_private(user_id, screen, ref, answered)


def nothing_sent(p: FakePresenter) -> bool:
    return not p.tables and not p.posts and not p.pictures and not p.privates


async def test_a_crash_after_a_tournament_s_payout_sends_the_last_showdown_and_standings_once() -> (
    None
):
    store, clock = DiesAfterClosing(), Clock()
    service, presenter = new_service(store, clock)
    for name, value in (("tournament_buy_in", "100"), ("tournament_chips", "30")):
        assert not (await service.settings(GROUP, ALICE, True, [name, value])).alert
    t = await two_started(service, presenter, "pineapple")
    table_id = t.id
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    with pytest.raises(Killed):  # played to the end: the payout's commit, then the crash
        for _ in range(2000):
            if t.hand is not None:
                await press_auto_and_confirm(
                    service, presenter, by_id[t.seats[t.owner(t.hand.to_act[0])].user_id]
                )
            else:
                clock.now += 5
                await service.run_due()
    await service.rt.drawer.close()
    tour = t.tournament
    assert tour is not None and tour.finished is not None
    old_ref = t.group_ref
    assert old_ref is not None
    final = tr("en", "tour.final", table=table_id, pool=200, label="kush")
    before = [s.text for s in presenter.tables[GROUP.chat_id]]
    assert not any(text.startswith(final) for text in before)  # the crash: never shown
    showdowns_before = sum("Showdown" in text for text in before)
    pictures_before = len(presenter.pictures)
    winner = t.names[tour.players[tour.winner]] if tour.winner is not None else ""
    assert winner in ("Alice", "Bob")
    assert sorted([await player_balance(store, a) for a in (ALICE, BOB)]) == [900, 1100]

    store.dead = False
    p2 = await restart(store, clock)
    texts = [s.text for s in p2.tables[GROUP.chat_id]]
    # the last hand's showdown over the table message the group had, its picture, and the
    # final standings as the new record
    assert len(texts) == 2 and "Showdown" in texts[0] and texts[1].startswith(final)
    assert f"1. {winner} — 200 kush" in texts[1]
    assert p2.refs == [old_ref, None]
    assert not p2.last_table(GROUP.chat_id).all_buttons()
    assert len(p2.pictures) == 1 and p2.pictures[0][0] == GROUP.chat_id
    # every hand was settled (the last one with the payout) and shown once, with its picture
    assert len(await store.export_hands(table_id)) == showdowns_before + 2
    assert pictures_before == showdowns_before

    p3 = await restart(store, clock)  # sent: nothing more
    assert nothing_sent(p3)
    assert await store.closed_snapshots() == []
    assert sorted([await player_balance(store, a) for a in (ALICE, BOB)]) == [900, 1100]
    assert await check_store(store) == []


@pytest.mark.parametrize("when", ["between-hands", "after-the-hand"])
async def test_a_crash_after_an_admin_closes_the_table_sends_the_closing_notice_once(
    when: str,
) -> None:
    store, clock = DiesAfterClosing(), Clock()
    service, presenter = new_service(store, clock, delay=60)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    table_id = t.id
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    if when == "between-hands":
        while t.hand is not None:
            await press_auto_and_confirm(
                service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id]
            )
        with pytest.raises(Killed):
            await service.close_table(GROUP, ALICE, True)
    else:  # asked during the hand: the hand's last Confirm settles it and closes the table
        reply = await service.close_table(GROUP, ALICE, True)
        assert reply.text == tr("en", "reply.closes_after_hand_fl", table=table_id)
        with pytest.raises(Killed):
            while t.hand is not None:
                await press_auto_and_confirm(
                    service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id]
                )
    old_ref = t.group_ref
    assert old_ref is not None
    notice = tr("en", "reply.table_closed", table=table_id)
    assert notice not in [s.text for s in presenter.tables[GROUP.chat_id]]
    assert sum([await player_balance(store, a) for a in (ALICE, BOB)]) == 2000
    assert await store.stacks(table_id) == {}

    store.dead = False
    p2 = await restart(store, clock)
    texts = [s.text for s in p2.tables[GROUP.chat_id]]
    if when == "between-hands":  # the table message says it is closed
        assert texts == [notice] and p2.refs == [old_ref]
        assert p2.pictures == []
    else:  # the showdown over the table message, then the notice
        assert len(texts) == 2 and "Showdown" in texts[0]
        # (naming the stacks, fixnu5: one closing message, not two)
        assert texts[1].startswith(notice.removesuffix(".") + "; stacks returned"), texts
        assert p2.refs == [old_ref, None]
        assert len(p2.pictures) == 1
    assert not p2.last_table(GROUP.chat_id).all_buttons()

    p3 = await restart(store, clock)
    assert nothing_sent(p3)
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []


async def test_without_a_crash_a_closed_table_owes_nothing_to_the_next_start() -> None:
    """The closing step's own sending clears what it owed: a restart sends nothing."""
    store, clock = KillableStore(), Clock()
    service, presenter = new_service(store, clock)
    assert (await service.new_table(GROUP, ALICE)).text
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    await service.close_table(GROUP, ALICE, True)
    await service.rt.settled(t)
    notice = tr("en", "reply.table_closed", table=t.id)
    assert presenter.last_table(GROUP.chat_id).text == notice
    assert await store.closed_snapshots() == []
    assert nothing_sent(await restart(store, clock))


async def test_a_crash_after_the_idle_close_sends_its_notice_once() -> None:
    """R8.2a: a table with no hand for ``idle_close_seconds`` closes itself and every stack
    goes back; the process dies before the group is told."""
    store, clock = DiesAfterClosing(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and await store.stacks(t.id) != {}
    old_ref = t.group_ref
    clock.now += t.options.idle_close_seconds
    with pytest.raises(Killed):
        await service.run_due()
    minutes = round(t.options.idle_close_seconds / 60)
    notice = tr("en", "table.idle_closed", table=t.id, minutes=minutes)
    assert notice not in [s.text for s in presenter.tables[GROUP.chat_id]]
    assert await store.stacks(t.id) == {} and await player_balance(store, ALICE) == 1000

    store.dead = False
    p2 = await restart(store, clock)
    assert [s.text for s in p2.tables[GROUP.chat_id]] == [notice] and p2.refs == [old_ref]
    assert nothing_sent(await restart(store, clock))
    assert await check_store(store) == []


async def test_a_crash_after_an_unrecoverable_table_is_refunded_sends_its_notice_once() -> None:
    """A snapshot the restart cannot use: the table closes with every stack refunded and the
    group is told. The process dies right after that commit: the next start tells the group,
    once (the notice was committed with the refund, as the closed table's final snapshot)."""
    store, clock = DiesAfterClosing(), Clock()
    service, _ = new_service(store, clock)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    await service.stop()
    snap = t.to_json()
    snap["hand"]["actions"].append({"type": "confirm", "seat": 7})  # a log that cannot replay
    await store.save_snapshot(t.id, snap)
    dying, p1 = new_service(store, clock)
    with pytest.raises(Killed):  # the refund is committed, then the process dies
        await dying.start()
    await dying.rt.drawer.close()
    assert p1.posts == [] and await store.stacks(t.id) == {}
    assert sum([await player_balance(store, a) for a in (ALICE, BOB)]) == 2000

    store.dead = False
    p2 = await restart(store, clock)
    notice = tr(t.lang, "reply.hand_cancelled", table=t.id)  # in the table's language
    assert p2.posts == [(GROUP.chat_id, notice)] and p2.tables == {}
    assert nothing_sent(await restart(store, clock))
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []


@pytest.mark.parametrize("when", ["between-hands", "after-the-hand"])
async def test_a_crash_after_the_bots_removal_closes_the_table_still_tells_each_player(
    when: str,
) -> None:
    """R8.2a: the bot is removed from the group; the table closes and, as nobody can read
    the group, each player is told in private on their hand message. The process dies right
    after the closing commit: those private notices were not kept with the closed table's
    final snapshot, and a restart sent only the group's messages (to a chat the bot cannot
    write in). Now the restarted bot writes each notice over the player's hand message (an
    edit in place: sent twice after a crash in the sending, it changes nothing), once."""
    store, clock = DiesAfterClosing(), Clock()
    service, presenter = new_service(store, clock, delay=60)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    table_id = t.id
    by_id = {a.user_id: a for a in (ALICE, BOB)}

    async def play_out() -> None:
        while t.hand is not None:
            await press_auto_and_confirm(
                service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id]
            )

    if when == "between-hands":
        await play_out()
        await service.rt.settled(t)
        refs = {s.user_id: s.private_ref for s in t.seats.values()}
        with pytest.raises(Killed):
            await service.chat_left(GROUP.platform, GROUP.chat_id)
    else:  # during the hand: its last Confirm settles it and closes the table
        assert await service.chat_left(GROUP.platform, GROUP.chat_id)
        assert t.closing and t.chat_gone
        refs = {s.user_id: s.private_ref for s in t.seats.values()}
        with pytest.raises(Killed):
            await play_out()
    assert all(refs.values())
    langs = {"1": "en", "2": "ru"}
    notices = {u: tr(lang, "private.chat_gone", table=table_id) for u, lang in langs.items()}
    for user, notice in notices.items():  # the crash: never sent
        assert not any(s.text.startswith(notice) for s in presenter.privates[user])
    assert sum([await player_balance(store, a) for a in (ALICE, BOB)]) == 2000
    assert await store.stacks(table_id) == {}

    store.dead = False
    p2 = await restart(store, clock)
    for user, notice in notices.items():
        [screen] = p2.privates[user]
        assert screen.text.startswith(notice), screen.text
        shown = tr(langs[user], "showdown.title", table=table_id, hand=1)  # (their language)
        assert (shown in screen.text) is (when == "after-the-hand"), screen.text
        assert not screen.all_buttons()
        assert p2.private_refs[user] == [refs[user]]  # over their hand message

    p3 = await restart(store, clock)  # sent: nothing more
    assert nothing_sent(p3)
    # (what is kept waits for the bot's return to the chat: its table message, as closed)
    assert [waits_for_chat(s) for _, s in await store.closed_snapshots()] == [True]
    assert await check_store(store) == []


async def hand_two_cancels_and_dies(
    service: TableService, presenter: FakePresenter, store: DiesAfterClosing, t: LiveTable
) -> dict[str, int]:
    """Hand 2 of :func:`carol_out_in_hand_one`'s tournament played out, its close queued:
    the process dies right after the closing commit, which cancelled the tournament (R8.7:
    Carol's 3rd place keeps its 60 kush, Alice and Bob share the other 240); nobody was told
    in private yet. What each user id's balance got."""
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    with pytest.raises(Killed):
        while t.hand is not None:
            await press_auto_and_confirm(
                service, presenter, by_id[t.seats[t.owner(t.hand.to_act[0])].user_id]
            )
    await service.rt.drawer.close()
    assert t.tournament is not None and t.tournament.finished is None  # cancelled
    got = {a.user_id: await player_balance(store, a) - 900 for a in (ALICE, BOB, CAROL)}
    assert got["3"] == 60 and got["1"] + got["2"] == 240
    for user in ("1", "2", "3"):
        assert not any("cancelled" in s.text for s in presenter.privates.get(user, []))
    return got


async def test_a_crash_after_the_bots_removal_cancels_a_tournament_tells_each_share() -> None:
    """The same at a tournament paying three places (50/30/20), Carol knocked out (3rd) in
    hand 1: the bot is removed during hand 2, which its end cancels (R8.7: Carol keeps her
    place's prize, 60 kush, Alice and Bob share the rest). The process dies right after that
    closing commit; the restarted bot tells Alice and Bob their shares over their hand
    messages, with the last showdown, and Carol hers in a new message; each amount what
    their balance got. Once."""
    store, clock = DiesAfterClosing(), Clock()
    service, presenter = new_service(store, clock)
    t = await carol_out_in_hand_one(service, presenter, clock)
    table_id = t.id
    langs = {s.user_id: s.lang for s in t.seats.values()}
    assert await service.chat_left(GROUP.platform, GROUP.chat_id)
    refs = {s.user_id: s.private_ref for s in t.seats.values()}
    got = await hand_two_cancels_and_dies(service, presenter, store, t)

    store.dead = False
    p2 = await restart(store, clock)
    for user in ("1", "2"):
        notice = tr(langs[user], "private.chat_gone_tour", table=table_id, amount=got[user],
                    label="kush")  # fmt: skip
        [screen] = p2.privates[user]
        assert screen.text.startswith(notice + "\n\n"), screen.text
        # the showdown and the tournament's lines in the player's own language
        assert tr(langs[user], "showdown.title", table=table_id, hand=2) in screen.text
        chips = "Level" if langs[user] == "en" else "Уровень"
        assert chips in screen.text.split("\n\n")[-1], screen.text
        assert p2.private_refs[user] == [refs[user]]
    notice = tr("en", "private.chat_gone_out", table=table_id, place=3, amount=60, label="kush")
    assert [s.text for s in p2.privates["3"]] == [notice] and p2.private_refs["3"] == [None]

    p3 = await restart(store, clock)
    assert nothing_sent(p3)
    # (what is kept waits for the bot's return to the chat: its table message, as closed)
    assert [waits_for_chat(s) for _, s in await store.closed_snapshots()] == [True]
    assert await check_store(store) == []


async def test_a_crash_after_the_last_opponent_leaves_mid_hand_tells_the_winner_why() -> None:
    """R8.7: Bob, the last opponent, leaves a tournament mid-hand: it is over at once, paid
    out and closed in that step, and Alice's hand message is to say why the hand is not
    played on (Bob's, that he has no hand). Those private messages were written after the
    step outside it, kept nowhere: the process dying right after the commit lost them, and
    Alice's hand message kept its buttons. Now a restart writes them, once."""
    store, clock = DiesAfterClosing(), Clock()
    service, presenter = new_service(store, clock)
    for name, value in (("tournament_buy_in", "100"),):
        assert not (await service.settings(GROUP, ALICE, True, [name, value])).alert
    t = await two_started(service, presenter, "pineapple")
    table_id, hand_no = t.id, t.hand_no
    refs = {s.user_id: s.private_ref for s in t.seats.values()}
    assert tour_leave_question((await service.leave(GROUP, BOB)).text)  # it asks first
    with pytest.raises(Killed):
        await service.leave(GROUP, BOB)
    await service.rt.drawer.close()
    why = tr("en", "tour.final_mid_hand", table=table_id, hand=hand_no)
    assert why not in [s.text for s in presenter.privates[ALICE.user_id]]
    assert await player_balance(store, ALICE) == 1100

    store.dead = False
    p2 = await restart(store, clock)
    assert [s.text for s in p2.privates[ALICE.user_id]] == [why]
    assert [s.text for s in p2.privates[BOB.user_id]] == [tr("ru", "private.none")]
    assert p2.private_refs == {u: [refs[u]] for u in (ALICE.user_id, BOB.user_id)}
    assert not p2.last_private(ALICE.user_id).all_buttons()

    p3 = await restart(store, clock)
    assert nothing_sent(p3)
    assert await check_store(store) == []


async def test_a_crash_after_an_admin_cancels_a_tournament_tells_every_player_once() -> None:
    """R8.7: an admin closes a tournament paying three places (50/30/20) during hand 2,
    Carol knocked out (3rd) in hand 1; the end of the hand cancels it (Carol keeps her
    place's prize, 60 kush; Alice and Bob share the rest). The process dies right after that
    closing commit: nobody was told in private. The restarted bot tells each registered
    player, Carol too, in a new message what the pool paid them (what their balance got),
    and gives Alice and Bob their last hand over their hand messages; a third start sends
    nothing."""
    store, clock = DiesAfterClosing(), Clock()
    service, presenter = new_service(store, clock)
    t = await carol_out_in_hand_one(service, presenter, clock)
    table_id = t.id
    langs = {s.user_id: s.lang for s in t.seats.values()}
    refs = {s.user_id: s.private_ref for s in t.seats.values()}
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == tr("en", "tour.cancels_after_hand_fl", table=table_id)
    got = await hand_two_cancels_and_dies(service, presenter, store, t)

    store.dead = False
    p2 = await restart(store, clock)
    for user in ("1", "2"):
        lead = tr(langs[user], "private.admin_cancel", table=table_id)
        paid = tr(langs[user], "private.pool_paid", amount=got[user], label="kush")
        notice, board = p2.privates[user]
        assert notice.text == f"{lead} {paid}"
        assert "Showdown" not in notice.text and board.text != notice.text
        assert p2.private_refs[user] == [None, refs[user]]  # (a new message; the hand's)
    lead = tr("en", "private.admin_cancel", table=table_id)
    paid = tr("en", "private.pool_paid_place", place=3, amount=60, label="kush")
    assert [s.text for s in p2.privates["3"]] == [f"{lead} {paid}"]
    assert p2.private_refs["3"] == [None]

    p3 = await restart(store, clock)
    assert nothing_sent(p3)
    assert await store.closed_snapshots() == []
    assert await check_store(store) == []


async def test_an_admin_s_cancel_with_a_player_who_blocked_the_bot_tells_the_group_once() -> None:
    """R8.2a, R8.7: an admin cancels a tournament (as above: Carol knocked out in hand 1,
    3rd, 60 kush; the close asked during hand 2) and Bob blocked the bot before the hand's
    end: his private notice is refused (403). The group still reads the cancel once, Alice
    and Carol their notices once, and the refusal counts as sent: the closed table owes
    nothing, so a restart neither posts the group's closing messages again nor writes
    anyone."""
    store, clock = KillableStore(), Clock()
    service, _ = new_service(store, clock)
    presenter = BlockedAtTheEnd(BOB.user_id)
    service.register(presenter)
    t = await carol_out_in_hand_one(service, presenter, clock)
    table_id = t.id
    langs = {s.user_id: s.lang for s in t.seats.values()}
    before = {u: len(presenter.privates.get(u, [])) for u in ("1", "2", "3")}
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == tr("en", "tour.cancels_after_hand_fl", table=table_id)
    presenter.gone = lambda: t.id not in service.rt.tables
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    while t.hand is not None:
        await press_auto_and_confirm(
            service, presenter, by_id[t.seats[t.owner(t.hand.to_act[0])].user_id]
        )
    await service.rt.settled(t)
    await service.rt.drawer.close()
    assert service.table_in(GROUP) is None
    got = {a.user_id: await player_balance(store, a) - 900 for a in (ALICE, BOB, CAROL)}
    assert got["3"] == 60 and got["1"] + got["2"] == 240
    group = [s.text for s in presenter.tables[GROUP.chat_id]] + [
        text for chat, text in presenter.posts if chat == GROUP.chat_id
    ]
    cancelled = tr("en", "tour.cancelled_shared", table=table_id, pool=300, label="kush")
    assert sum(text.startswith(cancelled) for text in group) == 1, group
    assert sum(text.startswith("🏁 Showdown · table #1 · hand 2") for text in group) == 1
    alices = tr("en", "private.admin_cancel", table=table_id) + " "
    notices = {
        "1": alices + tr("en", "private.pool_paid", amount=got["1"], label="kush"),
        "3": alices + tr("en", "private.pool_paid_place", place=3, amount=60, label="kush"),
    }
    for user, notice in notices.items():
        sent = [s.text for s in presenter.privates[user][before[user] :]]
        assert sent.count(notice) == 1, sent
    assert langs[BOB.user_id] == "ru"
    bobs = tr("ru", "private.admin_cancel", table=table_id)
    assert any(s.text.startswith(bobs) for s in presenter.refused)  # (refused: 403)
    assert not any(s.text.startswith(bobs) for s in presenter.privates[BOB.user_id][before["2"] :])
    assert await store.closed_snapshots() == []
    assert nothing_sent(await restart(store, clock))
    assert await check_store(store) == []
