"""Bad input gets a clear answer and changes nothing; a step that did commit is never answered
as if it failed. On Telegram through the real adapter and the fake Bot API: ``/addbot`` whose
buy-in storage still finds short (the house's, never a storage error), a command or press that
fails after its step committed ("done", not "nothing changed"), a step whose rendering fails
before its commit (rolled back: "nothing changed" is true), ``/grant @user`` for a user the
bot knows only from a private chat, and words after commands that take none."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, cast

import pytest

from bot.service import TransitionFailed, bots, lobby
from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from storage.check import check_store
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


# -- /addbot: the house cannot stake the buy-in ----------------------------------------------
async def test_addbot_whose_buy_in_is_short_is_refused_as_the_houses_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The house's grant rides in the buy-in's own transaction, so a short buy-in is never
    expected; should storage find one (here: the grant left out and 🤖 Anna's account
    emptied), the admin was told "Could not save that; nothing changed. Please try again."
    (a storage failure: trying again failed the same). Now the house is named, nobody sits
    down, no kush moves."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(ALICE, "/newtable")
        t = next(iter(w.service.tables.values()))
        community = await w.store.community("telegram", str(GROUP_ID))
        anna = await w.store.player(community.id, "bot:anna", "🤖 Anna")
        await w.store.grant(community.id, anna.id, -anna.balance, actor="test", reason="t",
                            key="drain")  # fmt: skip
        monkeypatch.setattr(bots, "house_funds", lambda *args: None)
        reply = await w.say(ALICE, "/addbot")
        assert reply["text"] == (
            f"The house could not stake 🤖 Anna's buy-in of {t.min_buy_in} kush; nobody sat down."
        ), reply
        assert t.seats == {}
        assert (await w.store.find_player(community.id, "bot:anna")).balance == 0  # type: ignore[union-attr]
        assert await check_store(w.store) == []
        monkeypatch.undo()  # the house grants again: Anna sits down
        reply = await w.say(ALICE, "/addbot")
        assert "🤖 Anna" in reply["text"] and [s.name for s in t.seats.values()] == ["🤖 Anna"]
        assert await check_store(w.store) == []


def test_the_houses_refusal_reads_in_russian() -> None:
    text = tr("ru", "bot.house_short", name="🤖 Anna", amount=200, label="kush")
    assert text == "🤖 Anna: заведение не смогло оплатить взнос (200 кушей), никто не сел."


# -- a failure after a committed step, and one before it --------------------------------------
def _ready_fails_after_its_step(monkeypatch: pytest.MonkeyPatch, error: type[Exception]) -> None:
    """``lobby.ready`` commits its step (the buy-in, the deal) and then raises ``error``, as
    a bug in what runs after a commit would (rendering the answer, a read after it), or a
    second step of it that storage refuses (:class:`TransitionFailed`)."""
    ready = lobby.ready

    async def ready_then_fail(*args: Any) -> Any:
        await ready(*args)
        raise error("after the commit")

    monkeypatch.setattr(lobby, "ready", ready_then_fail)


@pytest.mark.parametrize("error", [RuntimeError, TransitionFailed], ids=["bug", "refused"])
@pytest.mark.parametrize("pressed", [False, True], ids=["command", "press"])
async def test_a_step_that_committed_and_then_failed_is_answered_as_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pressed: bool, error: type[Exception]
) -> None:
    """Alice's /ready (or her press of Ready) buys her in and deals the hand, then fails: she
    was told "Something went wrong; nothing changed. Please try again." (or, a later step
    refused by storage, "Could not save that; nothing changed") while her kush was on the
    table and the hand dealt (and a second /ready said "already ready"). Now she is told it
    was done; the step stays committed and storage is consistent."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable")
        for user in (BOB, ALICE):
            await w.say(user, "/join")
        await w.say(BOB, "/ready")
        await w.settle()  # (the table message shows Bob ready: its buttons at that version)
        t = next(iter(w.service.tables.values()))
        assert t.hand is None
        _ready_fails_after_its_step(monkeypatch, error)
        if pressed:
            answer = await w.press_lobby(ALICE, "r")
            text = answer["text"]
            assert answer["show_alert"] is True
        else:
            text = (await w.say(ALICE, "/ready"))["text"]
        assert (
            text
            == tr("en", "err.after_commit")
            == (
                "That was done, but something went wrong after it: the table message shows where "
                "things stand."
            )
        )
        await w.settle()
        sent = str([c.params for c in w.fake.calls])
        assert tr("en", "err.internal") not in sent and tr("en", "err.storage") not in sent
        assert t.hand is not None and t.hand_no == 1  # committed: dealt
        state = await w.store.table_state(t.id)
        assert state is not None and state[1]["seq"] == t.seq and state[1]["hand"] is not None
        community = await w.store.community("telegram", str(GROUP_ID))
        alice = await w.store.find_player(community.id, str(ALICE.id))
        assert alice is not None and alice.balance == 1000 - t.min_buy_in  # bought in
        assert await check_store(w.store) == []


async def test_a_step_whose_table_message_fails_to_render_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table message of /join's step fails to render (before its commit): Alice was told
    "nothing changed" but sat at the live table all the same (unsaved, until the next step
    saved it; a second /join said "already seated"). Now the step is rolled back: she is
    not seated, and /join again seats her."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        t = next(iter(w.service.tables.values()))
        rt = w.service.rt
        render, calls = rt.group_screen, []

        def broken_once(table: Any) -> Any:
            calls.append(table.id)
            if len(calls) == 1:
                raise RuntimeError("cannot render")
            return render(table)

        monkeypatch.setattr(rt, "group_screen", broken_once)
        seq, version = t.seq, t.version
        reply = await w.say(ALICE, "/join")
        assert reply["text"] == tr("en", "err.internal"), reply
        assert t.seats == {} and (t.seq, t.version) == (seq, version)
        reply = await w.say(ALICE, "/join")
        assert reply["text"] == tr("en", "reply.joined", seat=1), reply
        assert [s.name for s in t.seats.values()] == ["Alice"]
        assert await check_store(w.store) == []


# -- the adapter: an answer that cannot be shown after the service answered ------------------
async def test_a_command_whose_answer_cannot_be_shown_is_not_told_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/join seats Alice (committed); its answer then fails to be built (here: a broken
    screen on it). The error handler told her "Something went wrong; nothing changed.
    Please try again."; now that the answer could not be shown and what it did is saved."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        join = lobby.join

        async def broken_answer(*args: Any) -> Any:
            reply = await join(*args)
            return dataclasses.replace(reply, screen=cast(Any, "not a screen"))

        monkeypatch.setattr(lobby, "join", broken_answer)
        reply = await w.say(ALICE, "/join")
        assert (
            reply["text"]
            == tr("en", "err.not_shown")
            == (
                "The answer could not be shown. Whatever it did is saved: the table message "
                "shows where things stand."
            )
        ), reply
        t = next(iter(w.service.tables.values()))
        assert [s.name for s in t.seats.values()] == ["Alice"]
        assert tr("en", "err.internal") not in str([c.params for c in w.fake.calls])


async def test_a_press_whose_answer_cannot_be_shown_is_not_told_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card placed from the private hand (committed), whose new screen then cannot be
    queued onto the pressed message: the press was answered "nothing changed" while the card
    was placed. Now the popup says the answer could not be shown and what it did is saved."""
    from tests.bot.test_telegram_e2e import seat_everyone

    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        seat = t.hand.to_act[0]
        user = ALICE if t.seats[t.owner(seat)].user_id == str(ALICE.id) else BOB
        msg = w.private(user)
        assert msg is not None
        data = next(d for key, d in w.hand_buttons(user).items() if key[0] == "p")
        queue_edit, calls = w.adapter.presenter.queue_edit, []

        def broken_once(*args: Any) -> None:
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("cannot queue")
            queue_edit(*args)

        monkeypatch.setattr(w.adapter.presenter, "queue_edit", broken_once)
        answer = await w.press(user, user.id, msg, data)
        lang = "en" if user is ALICE else "ru"
        assert answer["text"] == tr(lang, "err.not_shown") and answer["show_alert"], answer
        assert len(t.hand.pending(seat)) == 1  # placed: committed
        assert tr(lang, "err.internal") not in str([c.params for c in w.fake.calls])


# -- /grant @user for a user known only from a private chat -----------------------------------
async def test_grant_to_a_username_known_only_from_a_private_chat(tmp_path: Path) -> None:
    """Bob (@bob) has written to the bot only in his private chat; another member, also
    shown as "Bob" (@robert), plays in the group. ``/grant @bob 100`` is refused naming @bob
    and saying how to grant him (a reply to his message), nothing moved, and the other "Bob"
    is never taken for him; a reply to Bob's message grants him (his wallet is made), and
    once he plays here ``/grant @bob`` works."""
    other = FakeUser(104, "Bob", "robert", "en")
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/start", chat_id=BOB.id)  # the bot learns @bob's user id
        await w.say(other, "/balance")  # the other "Bob" plays here: 1,000
        community = await w.store.community("telegram", str(GROUP_ID))
        rows = len(await w.store.ledger(community.id))
        reply = await w.say(ALICE, "/grant @bob 100")
        assert reply["text"] == (
            "No such player here: @bob. To grant a member who has not played here yet, reply "
            "to one of their messages with /grant N."
        ), reply
        assert len(await w.store.ledger(community.id)) == rows  # nothing moved
        assert await w.store.find_player(community.id, str(BOB.id)) is None
        robert = await w.store.find_player(community.id, str(other.id))
        assert robert is not None and robert.balance == 1000
        # as the refusal says: a reply to one of his messages
        mid = await w.fake.send_text(BOB, GROUP_ID, "привет")
        reply = await w.say(ALICE, "/grant 100", reply_to=mid)
        assert reply["text"] == "Bob: +100 kush, balance 1,100.", reply
        # a player here now: /grant @bob finds him by the user id @bob is
        reply = await w.say(ALICE, "/grant @bob 50")
        assert reply["text"] == "Bob: +50 kush, balance 1,150.", reply
        bob = await w.store.find_player(community.id, str(BOB.id))
        robert = await w.store.find_player(community.id, str(other.id))
        assert bob is not None and bob.balance == 1150
        assert robert is not None and robert.balance == 1000
        assert await check_store(w.store) == []


def test_the_grant_refusal_reads_in_russian() -> None:
    assert tr("ru", "reply.grant_unknown", name="@bob") == (
        "Нет такого игрока: @bob. Чтобы начислить тому, кто здесь ещё не играл, ответьте "
        "командой /grant N на любое сообщение этого человека."
    )


# -- words after a command that takes none ----------------------------------------------------
async def test_words_after_a_command_that_takes_none_get_its_usage_and_do_nothing(
    tmp_path: Path,
) -> None:
    """``/leave now``, ``/sitout 2``, ``/balance @bob``… ran as if the words were not there:
    ``/balance @bob`` showed the admin's own balance, ``/join 3`` seated her at seat 1,
    ``/sitout 2`` sat her out for good. Each is answered with its usage now, nothing done;
    without words each works as before."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        t = next(iter(w.service.tables.values()))
        reply = await w.say(ALICE, "/join 3")
        assert reply["text"] == (
            "/join takes no words; nothing was done. /join seats you at the first free seat, "
            "Ready then buys in, /topup N adds to your stack."
        ), reply
        assert t.seats == {}
        assert (await w.say(ALICE, "/join"))["text"] == tr("en", "reply.joined", seat=1)
        for command in ("ready 500", "leave now", "sitout 2", "balance @bob", "hand 12"):
            name = command.split()[0]
            reply = await w.say(ALICE, f"/{command}")
            assert reply["text"] == tr("en", f"usage.{name}"), (command, reply)
        seat = t.seat_of(str(ALICE.id))
        assert seat is not None and not seat.ready and not seat.leaving and not seat.sitting_out
        reply = await w.say(BOB, "/leave сейчас")  # in his language (not seated: not run)
        assert reply["text"] == (
            "/leave пишется без параметров, ничего не сделано. /leave поднимает вас из-за стола "
            "(во время раздачи — после неё); стол закрывают админы: /closetable."
        ), reply
        reply = await w.say(ALICE, "/balance")
        assert reply["text"].startswith("Alice: 1,000"), reply
        reply = await w.say(ALICE, "/leave")
        assert t.seats == {}, reply
        assert await check_store(w.store) == []
