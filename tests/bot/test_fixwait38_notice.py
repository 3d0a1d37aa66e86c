"""fixwait38: a private notice of a table's outbox (:meth:`~bot.model.LiveTable.owe_notice`: an
admin's ``/kick`` tells the player kicked, fix38a, fix38f) still owed when the bot loses the
group chat (R8.2a: the table closes, its players told in private) is sent: the closing step
wrote no group item, and the snapshot that waits for the bot's return kept only the closing
notice (:func:`~bot.service.runtime.waiting_for_chat`), so the notice was dropped and the
player kicked was never told."""

from __future__ import annotations

import asyncio

import pytest

from bot.model import Actor, ChatRef, LiveTable, Screen
from bot.service.runtime import waiting_for_chat, waits_for_chat
from bot.texts import tr
from game.options import RuleOptions
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_fix38a import DC, TG, _service
from tests.bot.test_fix38f_kick_notice import _seated
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_transitions import KillableStore, Killed, new_service, restart


@pytest.mark.parametrize("chat", [TG, DC], ids=["telegram", "discord"])
async def test_r8_2a_a_kick_notice_owed_when_the_chat_goes_away_is_sent(
    chat: ChatRef, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob is kicked between hands; the kick's messages are not sent yet (held back here, as a
    stop or a failed send leaves them owed) when the bot is removed from the group: the
    table closes, and Bob is told in private both that he was stood up (once) and that the
    table closed; nothing is written in the group."""
    store = MemoryStore()
    service = _service(store, chat.platform)
    rt = service.rt
    presenter = rt.presenters[chat.platform]
    assert isinstance(presenter, FakePresenter)
    alice = Actor(chat.platform, "11", "Alice", "en")
    bob = Actor(chat.platform, "12", "Bob", "en")
    t = await _seated(service, chat, alice, bob, "between_hands")
    await rt.settled(t)
    real = rt.send_later
    monkeypatch.setattr(rt, "send_later", lambda t, job: None)  # (the kick's: not sent yet)
    assert not (await service.kick(chat, alice, True, "Bob")).alert
    monkeypatch.setattr(rt, "send_later", real)
    assert [i["kind"] for i in t.outbox if int(i["id"]) > t.outbox_sent] == ["private"]
    before = len(presenter.privates.get(bob.user_id, []))
    writes, posts = presenter.writes, len(presenter.posts)
    assert await service.chat_left(chat.platform, chat.chat_id)
    await rt.settled(t)
    told = [s.text for s in presenter.privates.get(bob.user_id, [])[before:]]
    said = tr("en", "private.kicked", table=t.id, amount=200, label="kush")
    assert told == [said], told
    assert presenter.writes == writes and len(presenter.posts) == posts  # (no group write)
    [(_, snap)] = await store.closed_snapshots()
    assert snap["chat_gone"] and [i["kind"] for i in snap["outbox"]] == ["table"]
    await assert_conserved(store)
    await service.stop()


def test_waiting_for_chat_keeps_a_private_notice_not_sent() -> None:
    """A private notice still owed when the final snapshot waits for the bot's return is kept
    (the next start or sweep sends it: it does not wait for the bot's return), not dropped
    with the group's items before it."""
    t = LiveTable(7, "telegram", 1, "-100", "-100", "en", RuleOptions(), 200, "kush")
    t.owe("post", Screen("Bob left"))
    t.owe_notice("12", Screen("You were stood up", table=7))
    t.owe("table", Screen("closed"))
    data = waiting_for_chat(t, now=0.0)
    assert [(i["kind"], i["text"]) for i in data["outbox"]] == [
        ("private", "You were stood up"),
        ("table", "closed"),
    ]
    assert data["outbox_sent"] == 1
    assert not waits_for_chat(data)
    data["outbox"] = data["outbox"][1:]
    assert waits_for_chat(data)


async def test_r8_2a_the_notice_is_sent_by_a_restart_after_the_close_s_commit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As above, the process dies right after the close's commit: the restarted bot sends
    the closed table's final snapshot (:func:`bot.service.recovery.deliver`), Bob's kick
    notice with it (it sent the players' closing messages only); a second restart sends
    nothing more, and the store checks clean."""
    store, clock = KillableStore(), Clock()
    service, _ = new_service(store, clock)
    rt = service.rt
    t = await _seated(service, GROUP, ALICE, BOB, "between_hands")
    await rt.settled(t)
    real = rt.send_later
    monkeypatch.setattr(rt, "send_later", lambda t, job: None)  # (the kick's: not sent yet)
    assert not (await service.kick(GROUP, ALICE, True, "Bob")).alert
    monkeypatch.setattr(rt, "send_later", real)
    said = tr("ru", "private.kicked", table=t.id, amount=200, label="kush")
    store.kill_at = store.commits + 1
    with pytest.raises(Killed):
        await service.chat_left("telegram", GROUP.chat_id)
    store.dead = False
    for told in ([said], []):
        service, presenter = await restart(store, clock)
        await asyncio.wait_for(service.rt.drain(), 5)
        texts = [s.text for s in presenter.privates.get(BOB.user_id, [])]
        assert [x for x in texts if x == said] == told, texts
        await service.stop()
    assert await check_store(store) == []
