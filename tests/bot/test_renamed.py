"""A player who changes their display name on the platform while seated: every update they
send, a button press as much as a command, carries the name they go by now, and the table
shows it from that update on (it showed the name they sat down with for good)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.model import Actor, ChatRef, LiveTable, Reply
from bot.presses import Arrange, Ready, decode
from bot.service import TableService, lobby
from bot.texts import tr
from storage.api import Store
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, leave_now, press_auto_and_confirm
from tests.bot.test_tournament_service import configure, open_and_register


def _ready_button(presenter: FakePresenter) -> str:
    lobby = presenter.last_table(GROUP.chat_id)
    return next(b.data for b in lobby.all_buttons() if isinstance(decode(b.data), Ready))


async def _stored_name(store: Store, actor: Actor) -> str:
    community = await store.community("telegram", GROUP.chat_id)
    player = await store.find_player(community.id, actor.user_id)
    assert player is not None and player.user_id == actor.user_id
    return player.name


async def test_a_press_shows_the_pressers_new_name_at_the_table() -> None:
    service, presenter, store, _clock = service_env()
    assert isinstance(service, TableService)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None
    # Alice renamed herself "Алиса" on Telegram, then presses Ready on the table message:
    # the press is taken (its version is not made stale by the new name) and the table
    # message, the stored player (/top, /stats) and the saved table show "Алиса"
    alisa = dataclasses.replace(ALICE, name="Алиса")
    reply = await service.press(alisa, _ready_button(presenter), GROUP)
    assert not reply.alert, reply.text
    assert [s.name for s in t.seats.values()] == ["Алиса", "Bob", "Carol"]
    lobby = presenter.last_table(GROUP.chat_id).text
    assert "\n1. Алиса — ready ✅ 200\n" in lobby and "Alice" not in lobby, lobby
    assert await _stored_name(store, ALICE) == "Алиса"
    state = await store.table_state(t.id)
    assert state is not None
    assert [s["name"] for s in state[1]["seats"]] == ["Алиса", "Bob", "Carol"]
    # a press that commits nothing (a second Ready, refused) still shows a new name, told
    # apart from a seated player's as a new seat's would be (Carol renamed "алиса")
    assert not (await service.press(CAROL, _ready_button(presenter), GROUP)).alert
    carol = dataclasses.replace(CAROL, name="алиса")
    assert (await service.press(carol, _ready_button(presenter), GROUP)).alert
    assert [s.name for s in t.seats.values()] == ["Алиса", "Bob", "алиса (2)"]
    assert "\n3. алиса (2) — ready ✅ 200\n" in presenter.last_table(GROUP.chat_id).text
    # a command carries it too (Bob's Ready typed as /ready), and then a card press mid-hand
    boris = dataclasses.replace(BOB, name="Борис")
    assert not (await service.ready(GROUP, boris)).alert
    assert t.hand is not None and [s.name for s in t.seats.values()][1] == "Борис"
    acting = t.seats[t.owner(t.hand.to_act[0])]
    by_id = {a.user_id: a for a in (alisa, boris, carol)}
    renamed = dataclasses.replace(by_id[acting.user_id], name="Новое имя")
    await press_auto_and_confirm(service, presenter, renamed)
    assert acting.name == "Новое имя"
    assert "Новое имя" in presenter.last_table(GROUP.chat_id).text
    assert await _stored_name(store, renamed) == "Новое имя"
    assert await check_store(store) == []


async def test_a_press_in_a_private_chat_keeps_the_name_the_group_shows() -> None:
    service, presenter, store, _clock = service_env()
    assert isinstance(service, TableService)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    # Discord names the presser of a DM hand by their account's name ("alice_global"), the
    # server's nickname ("Alice", the seat's) only in the guild: a press on the private hand
    # leaves the seat's name as it is (it flipped with every press there and in the group,
    # each a write of the table message) and the stored one too
    acting = t.seats[t.owner(t.hand.to_act[0])]
    actor = ALICE if acting.user_id == ALICE.user_id else BOB
    dm = ChatRef(actor.platform, "", actor.user_id, "", private=True)
    elsewhere = dataclasses.replace(actor, name="alice_global")
    writes = presenter.writes
    screen = presenter.last_private(actor.user_id)
    arrange = next(b.data for b in screen.all_buttons() if isinstance(decode(b.data), Arrange))
    reply = await service.press(elsewhere, arrange, dm)
    assert not reply.alert, reply.text
    assert acting.name == actor.name
    assert await _stored_name(store, actor) == actor.name
    assert presenter.writes == writes  # (placing cards is the player's own, unconfirmed)
    assert "alice_global" not in presenter.last_table(GROUP.chat_id).text
    # the group's next update carries the nickname again: nothing to change either
    assert (await service.ready(GROUP, actor)).alert
    assert acting.name == actor.name


async def test_a_rename_to_a_knocked_out_players_name_keeps_the_standings_apart(env) -> None:  # type: ignore[no-untyped-def]
    """Carol is knocked out of a running tournament (R8.7) and her seat goes at the end of the
    hand; Bob then renames himself "carol" on the platform. The seats held no "Carol" any
    more, so he took the name as it was, and the final standings listed two Carols (who won?).
    The later name is told apart as a new seat's would be ("carol (2)", as in the table
    message, so in the standings)."""
    service, presenter, store, clock = env
    # 1-minute levels: the points grow by the clock, so the two play it out in a few hands
    await configure(service, tournament_chips="1000", level_minutes="1")
    await open_and_register(service, (ALICE, BOB, CAROL))
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.tournament is not None
    reply = await leave_now(service, GROUP, CAROL)  # knocked out: place 3
    assert reply.text == tr("en", "tour.left", place=3, prize=0, label="kush")
    while t.hand is not None and t.hand_no == 1:  # hand 1 finished for everyone (R8.5)
        clock.now += 181
        await service.run_due()
    assert t.seat_of(CAROL.user_id) is None and t.names[t.tournament.players[2]] == "Carol"
    carol_too = dataclasses.replace(BOB, name="carol")
    assert (await service.ready(GROUP, carol_too)).alert  # a command of his carries the name
    assert [s.name for s in t.seats.values()] == ["Alice", "carol (2)"]
    assert sorted(t.names.values()) == ["Alice", "Carol", "carol (2)"]
    actors = {a.user_id: a for a in (ALICE, carol_too)}
    for _ in range(2400):  # Alice and "carol" play it out
        if service.table_in(GROUP) is None:
            break
        if t.hand is not None:
            acting = t.seats[t.owner(t.hand.to_act[0])]
            await press_auto_and_confirm(service, presenter, actors[acting.user_id])
        else:
            clock.now += 5
            await service.run_due()
    assert service.table_in(GROUP) is None
    final = presenter.last_table(GROUP.chat_id).text.splitlines()
    places = sorted(line.split(" — ")[0].split(". ", 1)[1] for line in final[1:])
    assert places == ["Alice", "Carol", "carol (2)"], final
    assert "3. Carol — 0 kush" in final
    assert await check_store(store) == []


async def _bobs_ready_fails_after_its_deal(
    monkeypatch: pytest.MonkeyPatch, *, pressed: bool
) -> tuple[FakePresenter, Store, LiveTable]:
    """Alice and Bob seated, Alice ready; Bob, renamed "Борис" on the platform, sends /ready
    (or presses Ready): its step commits (his buy-in, and the hand is dealt), and then the
    command fails with an error of no storage (a bug, a store read after the commit). The
    service logs it and answers that it was done (``err.after_commit``); what the committed
    step owes must not be left behind: the new name stored (``/top``, ``/stats``), the dealt
    hand's messages sent before the failure is answered. (The after-steps were skipped: the stored
    player kept "Bob" until his next update, and the hand's messages went out after the
    "something went wrong".)"""
    service, presenter, store, _clock = service_env()
    assert isinstance(service, TableService)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None
    button = _ready_button(presenter)
    ready = lobby.ready

    async def ready_then_fail(*args: Any) -> Reply:
        await ready(*args)
        raise RuntimeError("after the commit")

    monkeypatch.setattr(lobby, "ready", ready_then_fail)
    boris = dataclasses.replace(BOB, name="Борис")
    answered: list[Reply] = []

    async def answer(reply: Reply) -> None:
        answered.append(reply)

    before = dict(presenter.privates)
    if pressed:
        reply = await service.press(boris, button, GROUP, answer=answer)
    else:
        reply = await service.ready(GROUP, boris, answer=answer)
    # answered once, as done: not as a failure the adapter answers "nothing changed"
    assert answered == [reply] and reply.text == tr("ru", "err.after_commit"), answered
    assert t.hand is not None and t.hand_no == 1  # committed: dealt
    assert [s.name for s in t.seats.values()] == ["Alice", "Борис"]
    assert await _stored_name(store, BOB) == "Борис"
    # the dealt hand's messages are out already, with the new name
    for user in (ALICE, BOB):
        assert len(presenter.privates.get(user.user_id, [])) > len(before.get(user.user_id, []))
    assert "Борис" in presenter.last_table(GROUP.chat_id).text
    return presenter, store, t


async def test_a_command_that_fails_after_its_step_committed_still_follows_it_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _presenter, store, _t = await _bobs_ready_fails_after_its_deal(monkeypatch, pressed=False)
    assert await check_store(store) == []


async def test_a_press_that_fails_after_its_step_committed_still_follows_it_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _presenter, store, _t = await _bobs_ready_fails_after_its_deal(monkeypatch, pressed=True)
    assert await check_store(store) == []
