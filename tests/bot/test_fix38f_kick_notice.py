"""fix38f: a player an admin's ``/kick`` stands up at a cash table (R8.2; during a hand after
it, R8.5) is told in a private notice of their own, as one a kick unregisters from a
tournament is (fix38a): the group read "Admin stood Bob up…", Bob, who may not read the
group, was told nothing, nor what became of his stack. The notice is owed with the kick's
step (:meth:`~bot.model.LiveTable.owe_notice`) and sent after its commit, a restart's too."""

from __future__ import annotations

import pytest

from bot.model import Actor, ChatRef, LiveTable
from bot.service import TableService
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_fix38a import DC, TG, _service
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_transitions import (
    KillableStore,
    new_service,
    told_once_after_a_crash,
)

#: what the kick left Bob → the notice's key and arguments
CASES = {
    "between_hands": ("private.kicked", {"amount": 200, "label": "kush"}),
    "never_bought_in": ("private.kicked_nothing", {}),
    "mid_hand": ("private.kicked_later", {}),
}


async def _seated(
    service: TableService, chat: ChatRef, alice: Actor, bob: Actor, case: str
) -> LiveTable:
    """Alice's cash table in ``chat`` with Bob seated: bought in (Alice not ready: no hand),
    not bought in, or both ready and the hand dealt."""
    assert not (await service.new_table(chat, alice, "pineapple")).alert
    for a in (alice, bob):
        assert not (await service.join(chat, a)).alert
    if case != "never_bought_in":
        assert not (await service.ready(chat, bob)).alert
    if case == "mid_hand":
        assert not (await service.ready(chat, alice)).alert
    t = service.table_in(chat)
    assert t is not None and (t.hand is not None) == (case == "mid_hand")
    return t


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("chat", [TG, DC], ids=["telegram", "discord"])
async def test_r8_2_a_player_kicked_from_a_cash_table_is_told_in_private(
    chat: ChatRef, lang: str, case: str
) -> None:
    """An admin's /kick stands Bob up: once, in private, in his language, he is told so and
    what became of his stack (back now; nothing there; back when the hand ends). Never in the
    group; the group's answer is unchanged."""
    store = MemoryStore()
    service = _service(store, chat.platform)
    presenter = service.rt.presenters[chat.platform]
    assert isinstance(presenter, FakePresenter)
    alice = Actor(chat.platform, "11", "Alice", "en")
    bob = Actor(chat.platform, "12", "Bob", lang)
    key, args = CASES[case]
    try:
        reply = await service.settings(chat, alice, True, ["language", lang])
        assert not reply.alert, reply.text
        t = await _seated(service, chat, alice, bob, case)
        before = len(presenter.privates.get(bob.user_id, []))
        reply = await service.kick(chat, alice, True, "Bob")
        assert not reply.alert, reply.text
        assert reply.text.startswith("Admin stood Bob up" if lang == "en" else "Bob вст")
        assert lang == "en" or "по решению админа" in reply.text, reply.text
        await service.rt.settled(t)
        said = tr(lang, key, table=t.id, **args)
        told = [s.text for s in presenter.privates.get(bob.user_id, [])[before:]]
        assert told.count(said) == 1, told
        assert t.min_buy_in == 200
        if case != "mid_hand":  # (mid-hand his hand's screen is rewritten too: he leaves)
            assert told == [said]
            assert t.seat_of(bob.user_id) is None
        else:
            seat = t.seat_of(bob.user_id)
            assert seat is not None and seat.leaving
        assert not any(said in text for _, text in presenter.posts)  # (not in the group)
        assert (
            said
            == {
                ("en", "between_hands"): f"An admin stood you up at table #{t.id}; 200 kush back "
                "to your balance.",
                ("ru", "between_hands"): f"По решению админа вы встали из-за стола #{t.id}; "
                "возвращено на баланс: 200 кушей.",
                ("en", "never_bought_in"): f"An admin stood you up at table #{t.id}.",
                ("ru", "never_bought_in"): f"По решению админа вы встали из-за стола #{t.id}.",
                ("en", "mid_hand"): f"An admin stood you up at table #{t.id}: you leave when this "
                "hand ends, your stack back to your balance then.",
                ("ru", "mid_hand"): f"По решению админа вы встанете из-за стола #{t.id}, когда "
                "закончится эта раздача; тогда же стек вернётся на баланс.",
            }[(lang, case)]
        )
        await assert_conserved(store)
    finally:
        await service.stop()


async def test_r8_2_the_kicked_player_s_notice_is_sent_after_a_crash_once() -> None:
    """The process dies right after the kick's commit, before anything is sent: the
    restarted bot tells Bob (his notice is kept with the table's snapshot until sent), and
    a second restart tells him nothing more."""
    store, clock = KillableStore(), Clock()
    service, _ = new_service(store, clock)
    t = await _seated(service, GROUP, ALICE, BOB, "between_hands")
    said = tr("ru", "private.kicked", table=t.id, amount=t.min_buy_in, label="kush")
    await told_once_after_a_crash(
        store, clock, lambda: service.kick(GROUP, ALICE, True, "Bob"), GROUP, BOB.user_id, said
    )
