"""Duplicated and reordered platform input: Telegram delivers an update again (same
update_id) when the bot crashed or answered its webhook late. Every command that moves kush
or changes a seat applies once: the copy is answered briefly and changes nothing, even when
it comes after a newer command, or after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.model import ChatRef
from bot.telegram.fake_api import FakeTelegram, FakeUser
from bot.texts import tr
from storage.check import check_store
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, TOKEN, World, world

GROUP = ChatRef("telegram", str(GROUP_ID), str(GROUP_ID))


async def _said(w: World, user: FakeUser, text: str) -> tuple[int, dict[str, Any]]:
    """``user`` types ``text``: its update_id and the bot's reply."""
    reply = await w.say(user, text)
    update_id = max(w.fake.pushed)
    assert text in str(w.fake.pushed[update_id])
    return update_id, reply


async def _again(w: World, update_id: int) -> dict[str, Any]:
    """Telegram delivers ``update_id`` again: the bot's reply to it."""
    start = len(w.fake.calls)
    await w.fake.redeliver(update_id)
    mid = int(w.fake.pushed[update_id]["message"]["message_id"])
    reply: dict[str, Any] = await w.fake.wait_for(
        lambda: w.fake.reply_to(GROUP_ID, mid, start), timeout=5
    )
    await w.settle()
    return reply


async def _wallet(w: World, user: FakeUser) -> int:
    """``user``'s balance off the table (their wallet)."""
    community = await w.store.community("telegram", str(GROUP_ID))
    player = await w.store.find_player(community.id, str(user.id))
    assert player is not None
    return player.balance


def _stack(w: World, user: FakeUser) -> int | None:
    t = w.service.table_in(GROUP)
    seat = t.seat_of(str(user.id)) if t is not None else None
    return seat.stack if seat is not None else None


async def _seated(w: World, user: FakeUser) -> tuple[int, int]:
    """``user`` types /join then /ready at the open table: the two update ids."""
    join, reply = await _said(w, user, "/join")
    assert reply["text"] == tr(user.language_code or "en", "reply.joined", seat=1), reply
    ready, reply = await _said(w, user, "/ready")
    assert _stack(w, user) == 200, reply
    return join, ready


async def test_r8_2_a_join_delivered_again_after_leaving_seats_nobody(tmp_path: Path) -> None:
    """Alice /join, /ready, /leave; then Telegram delivers her /join again (its answer was
    lost). It sat her down again, unasked (a later /ready copy then bought her in): it is
    answered "already done" and she stays up, her 1000 kush in her wallet."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        join, ready = await _seated(w, ALICE)
        await _said(w, ALICE, "/leave")
        assert _stack(w, ALICE) is None and await _wallet(w, ALICE) == 1000
        for update in (join, ready):
            reply = await _again(w, update)
            assert reply["text"] == tr("en", "reply.request_done"), reply
            assert _stack(w, ALICE) is None and await _wallet(w, ALICE) == 1000
        assert await check_store(w.store) == []


async def test_r8_2_a_leave_delivered_again_after_sitting_down_again(tmp_path: Path) -> None:
    """Alice leaves, sits down and buys in again; her first /leave is delivered again: it
    stood her up and cashed her out a second time. Answered "already done": she keeps her
    seat and her 200 kush stack."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        await _seated(w, ALICE)
        leave, _ = await _said(w, ALICE, "/leave")
        await _seated(w, ALICE)
        reply = await _again(w, leave)
        assert reply["text"] == tr("en", "reply.request_done"), reply
        assert _stack(w, ALICE) == 200 and await _wallet(w, ALICE) == 800
        assert await check_store(w.store) == []


async def test_r8_2a_a_closetable_delivered_again_closes_no_newer_table(tmp_path: Path) -> None:
    """An admin closes table #1 and opens #2, Bob sits down at it; the /closetable is
    delivered again: it closed #2 and cashed Bob out. Answered "already done", #2 stays
    open with Bob's stack; the /newtable delivered again (its table closed since) opens no
    third table."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        opened, _ = await _said(w, ALICE, "/newtable")
        close, reply = await _said(w, ALICE, "/closetable")
        assert reply["text"] == tr("en", "reply.table_closed", table=1), reply
        again, reply = await _said(w, ALICE, "/newtable")
        assert reply["text"] == tr("en", "reply.table_opened", table=2), reply
        await _seated(w, BOB)
        reply = await _again(w, close)
        assert reply["text"] == tr("en", "reply.request_done"), reply
        t = w.service.table_in(GROUP)
        assert t is not None and t.id == 2 and _stack(w, BOB) == 200
        assert await _wallet(w, BOB) == 800
        reply = await _again(w, opened)  # (#2 open: "a table is open here", as it was)
        assert w.service.table_in(GROUP) is t
        await _said(w, ALICE, "/closetable")
        assert await _wallet(w, BOB) == 1000
        reply = await _again(w, again)
        assert reply["text"] == tr("en", "reply.request_done"), reply
        assert w.service.table_in(GROUP) is None
        assert await check_store(w.store) == []


async def test_r8_2_a_join_delivered_again_after_a_restart(tmp_path: Path) -> None:
    """The same after a restart (the bot crashed before confirming the updates): the
    copies of Alice's /join and /ready, delivered to the new process after her /leave, are
    answered "already done" (their keys are in the table's snapshot)."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.say(ALICE, "/newtable")
            join, ready = await _seated(w, ALICE)
            await _said(w, ALICE, "/leave")
        async with world(tmp_path, fake=fake, db=db) as w2:
            for update in (join, ready):
                reply = await _again(w2, update)
                assert reply["text"] == tr("en", "reply.request_done"), reply
            assert _stack(w2, ALICE) is None and await _wallet(w2, ALICE) == 1000
            assert await check_store(w2.store) == []
    finally:
        await fake.stop()


async def test_r8_1_a_settings_change_delivered_again_keeps_the_newer_value(
    tmp_path: Path,
) -> None:
    """An admin sets min_buy_in to 100, then to 300; the first /settings is delivered again
    (its answer was lost): it set the buy-in back to 100, and the next Ready moved 100, not
    the 300 the admin chose last. Answered "already done", the 300 stays."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        first, reply = await _said(w, ALICE, "/settings min_buy_in 100")
        assert "min_buy_in = 100" in reply["text"], reply
        _, reply = await _said(w, ALICE, "/settings min_buy_in 300")
        assert "min_buy_in = 300" in reply["text"], reply
        reply = await _again(w, first)
        assert reply["text"] == tr("en", "reply.request_done"), reply
        community = await w.store.community("telegram", str(GROUP_ID))
        assert community.settings.min_buy_in == 300
        await w.say(ALICE, "/newtable")
        await _said(w, BOB, "/join")
        await _said(w, BOB, "/ready")
        assert _stack(w, BOB) == 300 and await _wallet(w, BOB) == 700


async def test_r8_1_a_settings_change_delivered_again_after_a_restart_keeps_the_newer_value(
    tmp_path: Path,
) -> None:
    """The same across a restart: an admin sets min_buy_in to 100, then to 300, and the bot
    restarts; Telegram delivers the first /settings again (out of order, after the newer
    one) to the new process. The keys of handled changes were kept in memory only: it set
    the buy-in back to 100. Answered "already done" (the key was saved with the change), the
    300 stays; a new /settings still applies."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            w.fake.admins[GROUP_ID] = {ALICE.id}
            first, reply = await _said(w, ALICE, "/settings min_buy_in 100")
            assert "min_buy_in = 100" in reply["text"], reply
            second, reply = await _said(w, ALICE, "/settings min_buy_in 300")
            assert "min_buy_in = 300" in reply["text"], reply
        async with world(tmp_path, fake=fake, db=db) as w2:
            w2.fake.admins[GROUP_ID] = {ALICE.id}
            for update in (first, second):
                reply = await _again(w2, update)
                assert reply["text"] == tr("en", "reply.request_done"), reply
            community = await w2.store.community("telegram", str(GROUP_ID))
            assert community.settings.min_buy_in == 300
            _, reply = await _said(w2, ALICE, "/settings min_buy_in 250")
            assert "min_buy_in = 250" in reply["text"], reply
            community = await w2.store.community("telegram", str(GROUP_ID))
            assert community.settings.min_buy_in == 250
    finally:
        await fake.stop()


def _setting_button(message: dict[str, Any], w: World, name: str, op: str) -> str:
    """The callback data of the settings message's ``op`` button of setting ``name``."""
    from bot.presses import SettingStep, decode
    from bot.service.settings import SETTINGS

    code = SETTINGS[name].code
    for b in w.fake.buttons(message):
        press = decode(b.get("callback_data"))
        if isinstance(press, SettingStep) and press.code == code and press.op == op:
            return str(b["callback_data"])
    raise AssertionError(f"no {op} button of {name}")


async def test_r8_1_a_settings_press_delivered_again_after_its_undo_changes_nothing(
    tmp_path: Path,
) -> None:
    """On the /settings message an admin presses min_buy_in +, then − (back to 200, so
    the message is as it was); the + press is delivered again. Its version (a digest of the
    settings, the same again) let it through: the buy-in went to 250 behind the admin's
    back. Answered "already done", the buy-in stays 200."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(ALICE, "/settings all")
        message = next(m for m in reversed(w.fake.chat_messages(GROUP_ID)) if w.fake.buttons(m))
        answer = await w.press(
            ALICE, GROUP_ID, message, _setting_button(message, w, "min_buy_in", "+")
        )
        assert not answer.get("show_alert"), answer
        plus = max(w.fake.pushed)
        message = w.fake.messages[(GROUP_ID, message["message_id"])]
        answer = await w.press(
            ALICE, GROUP_ID, message, _setting_button(message, w, "min_buy_in", "-")
        )
        assert not answer.get("show_alert"), answer
        community = await w.store.community("telegram", str(GROUP_ID))
        assert community.settings.min_buy_in == 200
        answers = len([c for c in w.fake.calls if c.method == "answerCallbackQuery"])
        await w.fake.redeliver(plus)
        await w.fake.wait_for(
            lambda: len([c for c in w.fake.calls if c.method == "answerCallbackQuery"]) > answers
        )
        await w.settle()
        again = [c for c in w.fake.calls if c.method == "answerCallbackQuery"][-1].params
        assert again.get("text") == tr("en", "reply.request_done"), again
        community = await w.store.community("telegram", str(GROUP_ID))
        assert community.settings.min_buy_in == 200


async def test_r8_7_a_tournament_join_delivered_again_after_unregistering(
    tmp_path: Path,
) -> None:
    """At a tournament's lobby /join registers (the buy-in to the pool, R8.7) and /leave
    unregisters (it comes back). Carol's /join delivered again after her /leave registered
    her again and took her 100 kush: now "already done", her 1000 kush stay hers."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await _said(w, ALICE, "/settings tournament_buy_in 100")
        await _said(w, ALICE, "/tournament pineapple")
        join, reply = await _said(w, CAROL, "/join")
        assert await _wallet(w, CAROL) == 900, reply
        await _said(w, CAROL, "/leave")
        assert await _wallet(w, CAROL) == 1000
        reply = await _again(w, join)
        assert reply["text"] == tr("en", "reply.request_done"), reply
        t = w.service.table_in(GROUP)
        assert t is not None and t.seat_of(str(CAROL.id)) is None
        assert await _wallet(w, CAROL) == 1000
        assert await check_store(w.store) == []


async def test_r8_6_a_sitout_delivered_again_after_back_keeps_the_player_in(
    tmp_path: Path,
) -> None:
    """Bob types /sitout, then /back; the /sitout is delivered again: it sat him out of
    the next hands he had just come back to. Answered "already done", he stays in."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        await _seated(w, BOB)
        sit_out, _ = await _said(w, BOB, "/sitout")
        t = w.service.table_in(GROUP)
        seat = t.seat_of(str(BOB.id)) if t is not None else None
        assert seat is not None and seat.sitting_out
        await _said(w, BOB, "/back")
        assert not seat.sitting_out
        reply = await _again(w, sit_out)
        assert reply["text"] == tr("ru", "reply.request_done"), reply
        assert not seat.sitting_out and seat.stack == 200


async def test_r8_7_a_refused_command_delivered_again_does_not_bring_an_away_player_back(
    tmp_path: Path,
) -> None:
    """A tournament runs; Alice is away (her clock ran out, R8.7) and types /sitout: refused
    (no sitting out in a tournament), but a command of hers brings her back, committed. She
    goes away again; the /sitout is delivered again: it brought her back once more (her
    next turns waited her whole budget). Answered "already done", she stays away."""
    from tests.bot.test_tournament_e2e import PLAYERS, configure, open_and_register

    async with world(tmp_path) as w:
        w.fake.started_users.update(u.id for u in PLAYERS)
        await configure(w, tournament_buy_in="100")
        t = await open_and_register(w)
        seat = t.seat_of(str(ALICE.id))
        assert seat is not None and t.hand is not None
        seat.away = True  # (as her clock running out leaves her)
        sit_out, reply = await _said(w, ALICE, "/sitout")
        assert reply["text"] == tr("en", "tour.no_sitout"), reply
        assert not seat.away
        seat.away = True  # away again
        reply = await _again(w, sit_out)
        assert reply["text"] == tr("en", "reply.request_done"), reply
        assert seat.away


async def test_r8_1_a_settings_press_delivered_again_after_a_restart_changes_nothing(
    tmp_path: Path,
) -> None:
    """The + then − of the press test above, then a restart; the + press is delivered again
    to the new process (its version, a digest of the settings, matches again): it is
    answered "already done" and the buy-in stays 200."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            w.fake.admins[GROUP_ID] = {ALICE.id}
            await w.say(ALICE, "/settings all")
            message = next(m for m in reversed(w.fake.chat_messages(GROUP_ID)) if w.fake.buttons(m))
            for op in ("+", "-"):
                message = w.fake.messages[(GROUP_ID, message["message_id"])]
                answer = await w.press(
                    ALICE, GROUP_ID, message, _setting_button(message, w, "min_buy_in", op)
                )
                assert not answer.get("show_alert"), answer
                if op == "+":
                    plus = max(w.fake.pushed)
        async with world(tmp_path, fake=fake, db=db) as w2:
            w2.fake.admins[GROUP_ID] = {ALICE.id}
            answers = len([c for c in w2.fake.calls if c.method == "answerCallbackQuery"])
            await w2.fake.redeliver(plus)
            await w2.fake.wait_for(
                lambda: (
                    len([c for c in w2.fake.calls if c.method == "answerCallbackQuery"]) > answers
                )
            )
            await w2.settle()
            again = [c for c in w2.fake.calls if c.method == "answerCallbackQuery"][-1].params
            assert again.get("text") == tr("en", "reply.request_done"), again
            community = await w2.store.community("telegram", str(GROUP_ID))
            assert community.settings.min_buy_in == 200
    finally:
        await fake.stop()


async def test_r8_2a_newtable_and_closetable_delivered_again_after_a_restart(
    tmp_path: Path,
) -> None:
    """An admin opens table #1 and closes it; the bot restarts (it crashed before
    confirming the updates). Telegram delivers the /newtable again: it opened table #2 (the
    keys of handled chat commands were kept in memory only). Answered "already done", no
    table opens; a new /newtable opens #2, Bob sits down, and the /closetable delivered
    again leaves it open with Bob's stack."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            w.fake.admins[GROUP_ID] = {ALICE.id}
            opened, reply = await _said(w, ALICE, "/newtable")
            assert reply["text"] == tr("en", "reply.table_opened", table=1), reply
            close, reply = await _said(w, ALICE, "/closetable")
            assert reply["text"] == tr("en", "reply.table_closed", table=1), reply
        async with world(tmp_path, fake=fake, db=db) as w2:
            w2.fake.admins[GROUP_ID] = {ALICE.id}
            reply = await _again(w2, opened)
            assert reply["text"] == tr("en", "reply.request_done"), reply
            assert w2.service.table_in(GROUP) is None
            _, reply = await _said(w2, ALICE, "/newtable")
            assert reply["text"] == tr("en", "reply.table_opened", table=2), reply
            await _seated(w2, BOB)
            reply = await _again(w2, close)
            assert reply["text"] == tr("en", "reply.request_done"), reply
            t = w2.service.table_in(GROUP)
            assert t is not None and t.id == 2 and _stack(w2, BOB) == 200
            assert await check_store(w2.store) == []
    finally:
        await fake.stop()
