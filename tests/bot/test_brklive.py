"""brklive: liveness and timers broken on purpose (players who walk away, leave or never
press, restarts while a timer runs). In-memory store, a hand-moved clock, timers fired by
``run_due``."""

from __future__ import annotations

from pathlib import Path

from bot.presses import StartTournament, decode
from bot.texts import tr
from game.tournament import TournamentPhase
from storage.check import check_store
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP
from tests.bot.test_tournament_e2e import actions_of, tournament_message
from tests.bot.test_tournament_service import _no, configure, new_service, restarted
from tests.bot.test_transitions import player_balance
from tests.bot.tg_world import ALICE as ALICE_TG
from tests.bot.tg_world import BOB as BOB_TG
from tests.bot.tg_world import CAROL as CAROL_TG
from tests.bot.tg_world import GROUP_ID, world


def _start_button(presenter: FakePresenter) -> str:
    lobby = presenter.last_table(GROUP.chat_id)
    return next(b.data for b in lobby.all_buttons() if isinstance(decode(b.data), StartTournament))


async def test_r8_7_the_opener_unregistering_lets_the_first_registrant_left_start_it() -> None:
    """Alice opens a Pineapple tournament and registers, Bob registers, Alice unregisters,
    Carol registers. Nobody but an admin could start it any more: Bob's Start was refused
    ("only the player who opened it") and the two waited for a third player or the idle
    close (R8.2a, 30 minutes). Now the opener's part goes to the first player still
    registered (Bob), the group is told so briefly, and it survives a restart."""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    await configure(service, tournament_buy_in="100")
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.leave(GROUP, ALICE)).alert  # unregisters: 100 back
    told = tr("en", "tour.opener_passed", name="Bob")
    assert told == "Bob may now start the tournament."
    assert (GROUP.chat_id, told) in presenter.posts
    assert tr("ru", "tour.opener_passed", name="Bob") == "Теперь начать турнир может Bob."
    assert not (await service.join(GROUP, CAROL)).alert
    await service.stop()
    service, presenter = await restarted(store, clock)
    refused = await service.press(CAROL, _start_button(presenter), GROUP, _no)
    assert refused.alert and refused.text == tr("en", "tour.start_who")
    reply = await service.press(BOB, _start_button(presenter), GROUP, _no)
    assert not reply.alert, reply.text
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    assert t.tournament.phase is TournamentPhase.RUNNING
    assert sorted(s.name for s in t.seats.values()) == ["Bob", "Carol"]
    assert await player_balance(store, ALICE) == 1000
    assert await player_balance(store, BOB) == await player_balance(store, CAROL) == 900
    assert await check_store(store) == []
    await service.stop()


async def test_r8_7_the_sole_registered_opener_leaving_passes_to_the_next_registrant() -> None:
    """The opener was the only one registered and unregisters: the next person to register
    may start it (nobody is told anything: there was nobody to tell); the opener who never
    registered at all keeps the part (an organiser who does not play)."""
    service, presenter, _store, _clock = new_service(next_hand_delay=4)
    await configure(service, tournament_buy_in="100")
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.leave(GROUP, ALICE)).alert
    for a in (BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    assert not any("start the tournament" in text for _, text in presenter.posts)
    refused = await service.press(CAROL, _start_button(presenter), GROUP, _no)
    assert refused.alert
    assert not (await service.press(BOB, _start_button(presenter), GROUP, _no)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    await service.stop()


async def test_r8_7_an_opener_who_never_registered_keeps_the_start() -> None:
    service, presenter, _store, _clock = new_service(next_hand_delay=4)
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    for a in (BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    assert (await service.press(BOB, _start_button(presenter), GROUP, _no)).alert
    assert not (await service.press(ALICE, _start_button(presenter), GROUP, _no)).alert
    await service.stop()


async def test_r8_7_the_opener_leaving_the_group_passes_the_start_and_the_group_reads_both() -> (
    None
):
    """The opener leaves the group while registered: the group reads that her registration
    is withdrawn, then who may start the tournament now (in the group's Russian)."""
    service, presenter, _store, _clock = new_service(next_hand_delay=4)
    await configure(service, language="ru")
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    await service.member_left(GROUP, ALICE)
    assert presenter.posts[-2:] == [
        (GROUP.chat_id, tr("ru", "notice.left_group_unregistered", name="Alice")),
        (GROUP.chat_id, "Теперь начать турнир может Bob."),
    ]
    assert not (await service.join(GROUP, CAROL)).alert
    assert not (await service.press(BOB, _start_button(presenter), GROUP, _no)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    await service.stop()


async def test_r8_7_telegram_the_opener_unregistering_hands_the_start_button_on(
    tmp_path: Path,
) -> None:
    """End to end (python-telegram-bot against the fake Bot API): Alice opens a tournament,
    Alice and Bob register, Alice types /leave; the group reads that Bob may start it, and
    Bob's press of Start (Carol registered) starts it."""
    async with world(tmp_path) as w:
        reply = await w.say(ALICE_TG, "/tournament pineapple")
        assert not reply.get("show_alert")
        for user in (ALICE_TG, BOB_TG):
            data = actions_of(w.fake, tournament_message(w))["g"]
            answer = await w.press(user, GROUP_ID, tournament_message(w), data)
            assert not answer.get("show_alert"), answer
        await w.say(ALICE_TG, "/leave")
        await w.settle()
        assert "Bob may now start the tournament." in w.group_texts()
        await w.say(CAROL_TG, "/join")
        await w.settle()  # (the message anew: its Start of before was out of date, at times)
        data = actions_of(w.fake, tournament_message(w))["o"]
        answer = await w.press(BOB_TG, GROUP_ID, tournament_message(w), data)
        assert not answer.get("show_alert"), answer
        t = next(iter(w.service.tables.values()))
        assert t.tournament is not None and t.hand is not None and t.hand_no == 1
        assert await check_store(w.store) == []
