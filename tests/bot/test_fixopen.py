"""fixopen: who may seat computer players once a cash table's opener has gone (R8.2, R8.2a),
and what a late joiner is told of the lobby's ready timer (R8.2). In-memory store, a
hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from bot.model import Actor, LiveTable
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_break19 import ready_timer_ran_out
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, leave_now, play_out
from tests.bot.test_tournament_service import configure, new_service, restarted
from tests.bot.test_transitions import player_balance

DAN = Actor("telegram", "4", "Dan", "en")
ERIN = Actor("telegram", "5", "Erin", "ru")


async def test_r8_2_a_join_while_the_ready_timer_runs_says_how_long_is_left() -> None:
    """Classic OFC, four seats: Alice and Bob are ready, Carol is not, and the lobby's ready
    timer (R8.2, 60 s) has 5 s left (then 0.2 s) when Dan (then Erin) sits down. They were
    told only "Press Ready to buy in" and were stood up a moment later. Now the reply says
    how long they have, as the clocks show it; with no timer running, it says what it did."""
    service, _presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="ofc")
    t = await ready_timer_ran_out(service, clock)
    deadline = t.ready_deadline
    assert deadline is not None
    clock.now = deadline - 5
    reply = await service.join(GROUP, DAN)
    assert not reply.alert, reply.text
    assert reply.text == (
        "You sit at seat 4. Press Ready to buy in; otherwise the seat is freed in 5 seconds."
    )
    clock.now = deadline - 4.8  # (a started second counts whole, as the clocks show it)
    assert not (await service.leave(GROUP, DAN)).alert
    reply = await service.join(GROUP, ERIN)
    assert reply.text == (
        "Вы сели на место 4. Нажмите «Готов», чтобы внести взнос; иначе место освободится "
        "через 5 секунд."
    )
    assert t.ready_deadline == deadline  # (nothing else changed: the same timer)
    assert not (await service.ready(GROUP, ERIN)).alert
    assert not (await service.ready(GROUP, CAROL)).alert
    assert t.hand is not None and len(t.hand.order) == 4
    assert await check_store(store) == []
    await service.stop()


async def test_r8_2_a_join_with_no_ready_timer_running_reads_as_before() -> None:
    service, _presenter, _store, _clock = new_service(next_hand_delay=4)
    await service.new_table(GROUP, ALICE)
    reply = await service.join(GROUP, ALICE)
    assert reply.text == "You sit at seat 1. Press Ready to buy in."
    assert not (await service.ready(GROUP, ALICE)).alert
    reply = await service.join(GROUP, BOB)  # one ready: no timer yet
    assert reply.text == tr("ru", "reply.joined", seat=2)
    await service.stop()


def _table(service: TableService) -> LiveTable:
    t = service.table_in(GROUP)
    assert t is not None
    return t


async def test_r8_2_the_opener_leaving_passes_addbot_to_the_player_seated_longest() -> None:
    """Classic OFC, four seats. Alice opens and sits down, then Bob, then Carol; Bob stands
    up and Dan takes his seat (seat 2, before Carol's 3). Alice stands up: only an admin
    could seat a computer player any more. Now the part goes to Carol, seated longest
    (not Dan, the lower seat); two people are left, who can play each other: the group is
    not told (the table message is the leave's one write); Dan is refused, naming her. It
    survives a restart: Carol stands up, Dan, alone, may seat a computer opponent and is
    told so in a line of its own (the leave had no notice to carry it)."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="ofc")
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.leave(GROUP, BOB)).alert
    assert not (await service.join(GROUP, DAN)).alert
    t = _table(service)
    assert [(s.seat, s.name) for s in t.seats.values()] == [(0, "Alice"), (2, "Carol"), (1, "Dan")]
    posts, writes = len(presenter.posts), presenter.writes
    assert not (await service.leave(GROUP, ALICE)).alert
    assert t.opener == CAROL.user_id
    assert presenter.posts[posts:] == [] and presenter.writes == writes + 1
    refused = await service.add_bot(GROUP, DAN, False)
    assert refused.alert
    assert refused.text == "Only group admins and Carol can seat or stand up computer players."
    refused = await service.remove_bot(GROUP, ALICE, False)  # the opener gone: no more
    assert refused.alert and refused.text == tr("en", "bot.admins_or_name", name="Carol")
    assert tr("ru", "bot.admins_or_name", name="Carol") == (
        "Сажать и убирать компьютерных игроков могут только админы группы и Carol."
    )
    await service.stop()
    service, presenter = await restarted(store, clock)
    t = _table(service)
    assert t.opener == CAROL.user_id
    assert not (await service.leave(GROUP, CAROL)).alert
    told = "Dan may now seat computer players: /addbot"
    assert presenter.posts == [(GROUP.chat_id, told)]
    assert tr("ru", "bot.opener_passed", name="Dan") == (
        "Теперь сажать компьютерных игроков может Dan: /addbot"
    )
    reply = await service.add_bot(GROUP, DAN, False, "easy")
    assert not reply.alert, reply.text
    assert [s.bot for s in t.seats.values()] == [None, "easy"]
    assert not (await service.ready(GROUP, DAN)).alert
    assert t.hand is not None  # Dan against the computer player
    assert await check_store(store) == []
    await service.stop()


async def test_r8_2_the_opener_stood_up_by_the_ready_timer_passes_it_in_that_notice() -> None:
    """Alice opens, sits down and seats a computer player, then Bob sits down; Bob and the
    computer player are Ready, Alice is not: the ready timer stands her up (R8.2). The part
    goes to Bob (seated after the computer player, which takes no part), the only person
    left, said in the same notice (one group message, not two)."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="ofc")
    await service.new_table(GROUP, ALICE)
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.add_bot(GROUP, ALICE, False)).alert
    assert not (await service.join(GROUP, BOB)).alert
    assert not (await service.ready(GROUP, BOB)).alert
    t = _table(service)
    assert [s.bot for s in t.seats.values()] == [None, "normal", None]
    assert t.ready_deadline is not None
    posts = len(presenter.posts)
    clock.now = t.ready_deadline
    await service.run_due()
    told = "Not ready in time, stood up: Alice.\nBob may now seat computer players: /addbot"
    assert presenter.posts[posts:] == [(GROUP.chat_id, told)]
    assert t.opener == BOB.user_id and t.hand is not None
    assert await check_store(store) == []
    await service.stop()


async def test_r8_2_the_opener_stood_up_with_two_people_left_passes_it_silently() -> None:
    """As above with Carol instead of the computer player: two people are left, who can play
    each other: the notice says what it did, and Bob, seated longest, holds the part."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, game="ofc")
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    for a in (BOB, CAROL):
        assert not (await service.ready(GROUP, a)).alert
    t = _table(service)
    assert t.ready_deadline is not None
    posts = len(presenter.posts)
    clock.now = t.ready_deadline
    await service.run_due()
    told = tr("en", "lobby.stood_up", names="Alice")
    assert presenter.posts[posts:] == [(GROUP.chat_id, told)]
    assert t.opener == BOB.user_id and t.hand is not None
    assert await check_store(store) == []
    await service.stop()


async def test_r8_2_the_opener_leaving_during_the_hand_passes_it_with_the_leave_notice() -> None:
    """Alice and Bob play; Alice types /leave during the hand: she stands up when it ends,
    and the notice that says so names Bob, alone now, as the one who may seat a computer
    player (no message of its own)."""
    service, presenter, store, _clock = new_service(next_hand_delay=4)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    for a in (ALICE, BOB):
        assert not (await service.ready(GROUP, a)).alert
    t = _table(service)
    assert t.hand is not None
    assert not (await leave_now(service, GROUP, ALICE)).alert
    assert t.opener == ALICE.user_id  # (still seated, until the hand ends)
    posts = len(presenter.posts)
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is None and t.opener == BOB.user_id
    passed = [text for _, text in presenter.posts[posts:] if "computer" in text]
    assert len(passed) == 1
    back = await player_balance(store, ALICE) - 800  # her stack, cashed out
    assert passed == [
        f"👋 Alice left the table; {back} kush back to their balance.\n"
        "Bob may now seat computer players: /addbot"
    ]
    assert not (await service.add_bot(GROUP, BOB, False)).alert
    assert await check_store(store) == []
    await service.stop()


async def test_r8_2_with_nobody_left_the_next_to_sit_down_may_seat_computer_players() -> None:
    """Alice opens, sits down alone and stands up: nobody is told anything (nobody is left);
    Bob, not seated, is refused ("the next player to sit down"), sits down and may. An
    opener who never sat down keeps the part (an organiser who does not play)."""
    service, presenter, _store, _clock = new_service(next_hand_delay=4)
    await service.new_table(GROUP, ALICE)
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.leave(GROUP, ALICE)).alert
    t = _table(service)
    assert t.opener is None and presenter.posts == []
    refused = await service.add_bot(GROUP, BOB, False)
    assert refused.alert and refused.text == tr("ru", "bot.admins_or_next")
    assert refused.text == (
        "Сажать и убирать компьютерных игроков могут только админы группы и тот, "
        "кто следующим сядет за стол."
    )
    assert not (await service.join(GROUP, BOB)).alert
    assert not (await service.join(GROUP, CAROL)).alert
    assert t.opener == BOB.user_id
    assert (await service.add_bot(GROUP, CAROL, False)).alert
    assert not (await service.add_bot(GROUP, BOB, False)).alert
    await service.stop()
    service, presenter, _store, _clock = new_service(next_hand_delay=4)
    await service.new_table(GROUP, ALICE)  # never sits down
    for a in (BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.leave(GROUP, BOB)).alert
    assert _table(service).opener == ALICE.user_id and presenter.posts == []
    refused = await service.add_bot(GROUP, CAROL, False)
    assert refused.alert and refused.text == tr("en", "bot.admins_or_opener")
    assert not (await service.add_bot(GROUP, ALICE, False)).alert
    await service.stop()
