"""Telegram down for a while (its API answering 502 to every edit), then back: every message
the bot edits in place (the group's table message, each player's private hand message) is
brought up to date once it answers again, with its newest screen only; an outage that never
ends is given up in a bounded time, and does not hold the bot's stop."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from bot.screens import Payload, Screen
from bot.telegram.adapter import TelegramPresenter
from bot.telegram.fake_api import ApiCall, too_many
from bot.telegram.ratelimit import AnswerFirstRateLimiter
from tests.bot.test_telegram_chats import lobby_data
from tests.bot.test_telegram_e2e import seat_everyone, to_the_last_street
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world


def edits(c: ApiCall) -> bool:
    return c.method == "editMessageText"


def spy_on_edits(
    monkeypatch: pytest.MonkeyPatch, presenter: TelegramPresenter
) -> dict[tuple[int, int], Screen]:
    """The newest screen the service had each message edited to: (chat, message id) →
    screen."""
    queued: dict[tuple[int, int], Screen] = {}
    real = presenter.queue_edit

    def queue_edit(chat_id: str, ref: str, screen: Screen) -> None:
        queued[(int(chat_id), int(presenter.current_ref(chat_id, ref)))] = screen
        real(chat_id, ref, screen)

    monkeypatch.setattr(presenter, "queue_edit", queue_edit)
    return queued


async def arranged(w: World) -> tuple[int, int]:
    """Alice and Bob dealt in; the first to act has their street placed ("Arrange for me"),
    not confirmed. Returns (who acts first, the other)."""
    w.fake.started_users.update({ALICE.id, BOB.id})
    await seat_everyone(w, [ALICE, BOB])
    t = next(iter(w.service.tables.values()))
    assert t.hand is not None
    first = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
    other = BOB if first is ALICE else ALICE
    answer = await w.press(
        first, first.id, w.private(first) or {}, w.hand_buttons(first)[("a", "")]
    )
    assert not answer.get("show_alert"), answer
    return first.id, other.id


async def test_messages_left_stale_by_an_outage_are_written_once_telegram_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first player confirms their street while Telegram refuses every edit: the group's
    table message (whose turn it is), the presser's hand and the other player's (their turn
    begins: its buttons) all fail, and go on failing longer than the three tries after 1, 2
    and 4 s (here 0.05, 0.1 and 0.2 s) that were all a message got. When Telegram answers
    again each shows the newest screen the table gave it (they kept the older ones, wrong
    turn and no buttons for the player to act, until the next change)."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 0.1, 0.2)
        first_id, other_id = await arranged(w)
        first = ALICE if first_id == ALICE.id else BOB
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        queued = spy_on_edits(monkeypatch, presenter)
        w.fake.outage(edits)
        down = len(w.fake.calls)
        private = w.private(first) or {}
        qid = await w.fake.press(
            first, first.id, private["message_id"], w.hand_buttons(first)[("c", "")]
        )
        answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid))
        assert not answer.params.get("show_alert"), answer.params
        await w.fake.wait_for(
            lambda: t.hand is not None and t.seats[t.hand.to_act[0]].user_id == str(other_id)
        )
        await asyncio.sleep(1.0)  # Telegram still down: longer than 0.05 + 0.1 + 0.2 s

        def refused() -> set[tuple[int, int]]:
            return {
                (int(c.params["chat_id"]), int(c.params["message_id"]))
                for c in w.fake.calls[down:]
                if edits(c)
            }

        other_ref = t.seat_of(str(other_id)).private_ref  # type: ignore[union-attr]
        assert other_ref is not None and t.group_ref is not None
        stale = {
            (GROUP_ID, int(t.group_ref)),
            (first_id, private["message_id"]),
            (other_id, int(other_ref)),
        }
        # (a loaded machine may not have tried every edit within that second: waited for)
        await w.fake.wait_for(lambda: stale <= refused() and stale <= set(queued))
        for chat, ref in stale:
            assert w.fake.messages[(chat, ref)]["text"] != queued[(chat, ref)].text  # stale
        w.fake.recover()
        try:
            await asyncio.wait_for(presenter.flush(), 10)
            for chat, ref in stale:
                shown = w.fake.messages[(chat, ref)]
                assert shown["text"] == queued[(chat, ref)].text, (chat, ref)
                want = [b.data for b in queued[(chat, ref)].all_buttons() if b.data]
                assert [d for b in w.fake.buttons(shown) if (d := b.get("callback_data"))] == want
            actions = {
                Payload.decode(d).action
                for d in w.hand_buttons(BOB if other_id == BOB.id else ALICE).values()
            }  # type: ignore[union-attr]
            assert "c" in actions  # the player to act has their buttons
        finally:
            w.fake.recover()


async def test_an_outage_that_does_not_end_is_given_up_and_does_not_hold_the_stop(
    tmp_path: Path,
) -> None:
    """Telegram refuses every edit for good: a message's edit is tried again only for
    ``edit_give_up`` seconds, then given up (the writer ends, a flush returns); and the
    bot's stop, with the default ten minutes, does not wait for the tries."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05,)
        presenter.edit_give_up = 0.5
        await arranged(w)
        w.fake.outage(edits)
        t = next(iter(w.service.tables.values()))
        assert t.group_ref is not None
        screen = Screen("🃏 something new")
        began = time.monotonic()
        presenter.queue_edit(str(GROUP_ID), t.group_ref, screen)
        await asyncio.wait_for(presenter.flush(), 5)
        assert 0.4 < time.monotonic() - began < 3
        tries = [c for c in w.fake.calls if edits(c) and c.params.get("text") == screen.text]
        assert 5 <= len(tries) <= 12, len(tries)
        presenter.edit_give_up = 600.0
        presenter.queue_edit(str(GROUP_ID), t.group_ref, Screen("🃏 newer still"))
        await asyncio.sleep(0.3)
        stopping = time.monotonic()
    assert time.monotonic() - stopping < 5  # (the service's and the adapter's stop)


async def test_an_edit_still_refused_with_429_after_the_limiter_s_retries_is_written_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Telegram answers the group's edits with 429 longer than the rate limiter's retries
    last (here none): the ``RetryAfter`` it then raises lost the edit for good (logged as an
    error), the table message showing an older screen. It is written again after the
    ``retry_after``, the newest screen."""
    limiter = AnswerFirstRateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=0)
    async with world(tmp_path, limiter=limiter) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05,)
        await w.say(ALICE, "/newtable")
        t = next(iter(w.service.tables.values()))
        assert t.group_ref is not None
        queued = spy_on_edits(monkeypatch, presenter)

        def group_edit(c: ApiCall) -> bool:
            return edits(c) and int(c.params["chat_id"]) == GROUP_ID

        w.fake.outage(group_edit, *too_many(1))
        qid = await w.fake.press(BOB, GROUP_ID, int(t.group_ref), lobby_data(w, "j"))
        await w.fake.wait_for(lambda: w.fake.answer_of(qid))
        await w.fake.wait_for(lambda: any(group_edit(c) for c in w.fake.calls))
        await asyncio.sleep(0.3)
        w.fake.recover()
        key = (GROUP_ID, int(t.group_ref))
        assert w.fake.messages[key]["text"] != queued[key].text  # (Bob not seated there yet)
        await asyncio.wait_for(presenter.flush(), 10)
        assert w.fake.messages[key]["text"] == queued[key].text
        assert "Bob" in w.fake.messages[key]["text"]


def sends(w: World, chat_id: int, since: int = 0) -> list[ApiCall]:
    """The messages sent (or tried) in a chat since the ``since``-th call."""
    return [
        c
        for c in w.fake.calls[since:]
        if c.method == "sendMessage" and int(c.params["chat_id"]) == chat_id
    ]


async def test_a_hand_message_telegram_refuses_is_posted_later_and_the_player_stays_reachable(
    tmp_path: Path,
) -> None:
    """Telegram answers 502 to every message to Bob's private chat when the hand is dealt:
    his hand message was not sent, and the service took him for someone who never started
    the bot (the group read "Bob: open a private chat with the bot", and his hand waited for
    the next change). He stays reachable, and his hand is posted once Telegram answers
    again, once, the newest screen, and its buttons work."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 0.1, 0.2)
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable")
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "j")).get("show_alert")
        assert not (await w.press_lobby(ALICE, "r")).get("show_alert")
        t = next(iter(w.service.tables.values()))

        def to_bob(c: ApiCall) -> bool:
            return c.method == "sendMessage" and int(c.params["chat_id"]) == BOB.id

        w.fake.outage(to_bob)
        down = len(w.fake.calls)
        pressed = time.monotonic()
        qid = await w.fake.press(BOB, GROUP_ID, w.table_message()["message_id"], lobby_data(w, "r"))
        answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid))
        assert not answer.params.get("show_alert"), answer.params
        assert time.monotonic() - pressed < 1.0  # (answered at once)
        await w.fake.wait_for(lambda: t.hand is not None and len(sends(w, BOB.id, down)))
        await asyncio.sleep(1.0)  # Telegram still down
        # tried again (on a loaded machine the tries may take longer than that second)
        await w.fake.wait_for(lambda: len(sends(w, BOB.id, down)) >= 3)
        seat = t.seat_of(str(BOB.id))
        assert seat is not None and seat.reachable
        await asyncio.wait_for(w.service.rt.settled(t), 5)
        assert t.group_ref is not None
        group = w.fake.messages[(GROUP_ID, int(t.group_ref))]["text"]
        assert "open a private chat" not in group, group
        assert w.fake.chat_messages(BOB.id) == []
        w.fake.recover()
        try:
            await asyncio.wait_for(presenter.flush(), 10)
            posted = w.fake.chat_messages(BOB.id)
            assert len(posted) == 1, posted  # once
            assert seat.private_ref == str(posted[0]["message_id"]) and seat.reachable
            assert t.hand is not None
            board = w.service.rt.render_private(t, seat).text.splitlines()[-3:]
            assert posted[0]["text"].splitlines()[-3:] == board
            if t.seats[t.hand.to_act[0]] is seat:  # his turn: his buttons work
                answer = await w.press(BOB, BOB.id, posted[0], w.hand_buttons(BOB)[("a", "")])
                assert not answer.get("show_alert"), answer
            else:
                assert w.hand_buttons(BOB) == {}
        finally:
            w.fake.recover()


async def test_a_table_message_telegram_refuses_is_posted_later_once(tmp_path: Path) -> None:
    """Telegram answers 502 to the group's new table message (``/newtable`` while it is
    down): the table was left without a message until its next change. It is posted once
    Telegram answers again, once, showing the table as it is (Bob's join meanwhile is in
    it), and it is the table's message from then on (its buttons work)."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 0.1, 0.2)

        def table_post(c: ApiCall) -> bool:
            return (
                c.method == "sendMessage"
                and int(c.params["chat_id"]) == GROUP_ID
                and "reply_markup" in c.params
            )

        w.fake.outage(table_post)
        await w.say(ALICE, "/newtable")
        t = next(iter(w.service.tables.values()))
        await w.fake.wait_for(lambda: len([c for c in w.fake.calls if table_post(c)]) >= 3)
        assert not [m for m in w.fake.chat_messages(GROUP_ID) if w.fake.buttons(m)]
        assert t.group_ref is not None  # (a pending ref)
        w.fake.recover()
        await asyncio.wait_for(presenter.flush(), 10)
        posted = [m for m in w.fake.chat_messages(GROUP_ID) if w.fake.buttons(m)]
        assert len(posted) == 1, posted
        assert t.group_ref == str(posted[0]["message_id"])
        answer = await w.press_lobby(BOB, "j")
        assert not answer.get("show_alert"), answer
        shown = w.fake.messages[(GROUP_ID, int(t.group_ref))]
        assert "Bob" in shown["text"]
        assert [m for m in w.fake.chat_messages(GROUP_ID) if w.fake.buttons(m)] == [shown]


async def test_a_table_message_whose_answer_was_lost_is_not_posted_twice(
    tmp_path: Path,
) -> None:
    """Telegram posts the group's new table message but answers too late (the bot's read
    timeout passes first): the bot cannot know that it was posted, so it does not post it
    again (two table messages), and the press on it (Bob joins) makes it the table's
    message: it is edited from then on (no second table message is posted), and the service
    does not take Bob for someone who never started the bot. (The table had no message at
    all: the next change posted a second one.)"""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 0.1, 0.2)
        w.adapter._request._read_timeout = 0.3
        down = len(w.fake.calls)

        def table_post(c: ApiCall) -> bool:
            return (
                c.method == "sendMessage"
                and int(c.params["chat_id"]) == GROUP_ID
                and "reply_markup" in c.params
            )

        w.fake.stall(table_post, 1.0)
        await w.say(ALICE, "/newtable")
        t = next(iter(w.service.tables.values()))
        await w.fake.wait_for(
            lambda: [m for m in w.fake.chat_messages(GROUP_ID) if w.fake.buttons(m)]
        )
        await asyncio.sleep(1.5)  # the answer came after the timeout: nothing sent again
        await asyncio.wait_for(presenter.flush(), 5)
        tables = [m for m in w.fake.chat_messages(GROUP_ID) if w.fake.buttons(m)]
        assert len(tables) == 1 and len([c for c in w.fake.calls[down:] if table_post(c)]) == 1
        w.adapter._request._read_timeout = 10.0
        answer = await w.press_lobby(BOB, "j")
        assert not answer.get("show_alert"), answer
        assert t.group_ref == str(tables[0]["message_id"])
        shown = w.fake.messages[(GROUP_ID, int(t.group_ref))]
        assert "Bob" in shown["text"]
        assert [m for m in w.fake.chat_messages(GROUP_ID) if w.fake.buttons(m)] == [shown]


async def test_a_hand_message_whose_answer_was_lost_is_not_sent_twice_and_works(
    tmp_path: Path,
) -> None:
    """Telegram posts Alice's hand at the deal but answers too late (the read timeout passes
    first): she was taken for a player who never started the bot (the group read "Alice:
    open a private chat with the bot"). She stays reachable, her hand is not sent a second
    time, and her press on it is a press on her hand (it is her message from then on)."""
    async with world(tmp_path) as w:
        presenter = w.adapter.presenter
        presenter.edit_retries = (0.05, 0.1, 0.2)
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable")
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "j")).get("show_alert")
        assert not (await w.press_lobby(BOB, "r")).get("show_alert")
        t = next(iter(w.service.tables.values()))
        w.adapter._request._read_timeout = 0.3
        w.fake.stall(
            lambda c: c.method == "sendMessage" and int(c.params["chat_id"]) == ALICE.id, 1.0
        )
        down = len(w.fake.calls)
        qid = await w.fake.press(
            ALICE, GROUP_ID, w.table_message()["message_id"], lobby_data(w, "r")
        )
        assert not (await w.fake.wait_for(lambda: w.fake.answer_of(qid))).params.get("show_alert")
        await w.fake.wait_for(lambda: t.hand is not None and w.fake.chat_messages(ALICE.id))
        await asyncio.sleep(1.5)  # the answer came after the timeout
        w.adapter._request._read_timeout = 10.0
        await asyncio.wait_for(w.service.rt.settled(t), 5)
        await asyncio.wait_for(presenter.flush(), 5)
        seat = t.seat_of(str(ALICE.id))
        assert seat is not None and seat.reachable
        assert t.group_ref is not None
        group = w.fake.messages[(GROUP_ID, int(t.group_ref))]["text"]
        assert "open a private chat" not in group, group
        posted = w.fake.chat_messages(ALICE.id)
        assert len(posted) == 1 and len(sends(w, ALICE.id, down)) == 1, posted
        assert t.hand is not None and t.seats[t.hand.to_act[0]] is seat  # (she acts first)
        buttons = {
            (p.action, p.arg): b["callback_data"]
            for b in w.fake.buttons(posted[0])
            if (p := Payload.decode(b.get("callback_data")))
        }
        answer = await w.press(ALICE, ALICE.id, posted[0], buttons[("a", "")])
        assert not answer.get("show_alert"), answer
        assert seat.private_ref == str(posted[0]["message_id"])
        assert [m["message_id"] for m in w.fake.chat_messages(ALICE.id)] == [
            posted[0]["message_id"]
        ]


async def test_a_newer_screen_queued_during_a_failed_edit_is_written_at_once() -> None:
    """An edit fails (a 502) while a newer screen of the same message is queued during the
    request (a press, the clock): the newer screen is written at once, as one queued during
    the wait for the retry is, not after the whole retry wait (here 30 s: the player read
    the older screen, or none, that long although Telegram answered again)."""
    from types import SimpleNamespace

    from telegram.error import NetworkError

    in_flight, calls = asyncio.Event(), []
    release = asyncio.Event()

    async def edit_message_text(text: str, **_: object) -> None:
        calls.append((text, time.monotonic()))
        if len(calls) == 1:  # (the first request: still under way when the newer comes)
            in_flight.set()
            await release.wait()
            raise NetworkError("Bad Gateway")

    presenter = TelegramPresenter(SimpleNamespace(bot=SimpleNamespace(
        edit_message_text=edit_message_text)))  # type: ignore[arg-type]  # fmt: skip
    presenter.edit_retries = (30.0,)
    presenter.queue_edit("-100", "7", Screen("older"))
    await asyncio.wait_for(in_flight.wait(), 5)
    presenter.queue_edit("-100", "7", Screen("newer"))
    failed = time.monotonic()
    release.set()
    writer = presenter._writers[("-100", "7")]
    await asyncio.wait_for(asyncio.shield(writer), 5)
    assert [text for text, _ in calls] == ["older", "newer"]
    assert calls[1][1] - failed < 1.0


async def test_a_deleted_table_message_posted_again_during_an_outage_still_shows_the_showdown(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An admin deletes the table message before the last street; the showdown's edit of it
    is refused ("message to edit not found") and posting it again meets a 500: the showdown
    was dropped for good (and logged as an error with a traceback). Now the post is tried
    again as a new message would be, and the group reads the showdown once."""
    caplog.set_level(logging.INFO, logger="bot.telegram.adapter")
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        t = await to_the_last_street(w, [ALICE, BOB])
        by_id = {str(u.id): u for u in (ALICE, BOB)}
        assert t.group_ref is not None
        w.fake.delete(GROUP_ID, int(t.group_ref))
        w.fake.fail_when(
            lambda c: c.method == "sendMessage" and int(c.params.get("chat_id", 0)) == GROUP_ID,
            500,
            {"ok": False, "error_code": 500, "description": "Internal Server Error"},
        )
        assert t.hand is not None
        await w.play_street(by_id[t.seats[t.hand.to_act[0]].user_id])
        await w.settle()

        def showdowns() -> list[str]:
            texts = [m["text"] for m in w.fake.chat_messages(GROUP_ID)]
            return [x for x in texts if x.startswith("🏁 Showdown · table #1 · hand 1")]

        await w.fake.wait_for(showdowns, timeout=10)
        await w.settle()
        assert len(showdowns()) == 1
        assert t.hand_no == 2
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_a_screen_queued_while_a_deleted_table_message_fails_to_post_is_posted_once(
    tmp_path: Path,
) -> None:
    """The edit that shows Bob seated is refused ("message to edit not found": deleted),
    and posting it again meets a 500 while a newer screen is queued for the deleted message:
    that screen goes to the post tried again later (one message, the newer screen), not to
    a second post of its own."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        await w.press_lobby(ALICE, "j")
        t = next(iter(w.service.tables.values()))
        old = str(t.group_ref)
        newer = Screen("Table #1 · newer")

        def group_post(c: ApiCall) -> bool:
            return c.method == "sendMessage" and int(c.params.get("chat_id", 0)) == GROUP_ID

        def queue_newer(c: ApiCall) -> None:
            if group_post(c) and not w.fake.listeners.remove(queue_newer):  # (once)
                w.adapter.presenter.queue_edit(str(GROUP_ID), old, newer)

        w.fake.listeners.append(queue_newer)
        w.fake.fail_when(
            lambda c: c.method == "editMessageText" and int(c.params.get("chat_id", 0)) == GROUP_ID,
            400,
            {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: message to edit not found",
            },
        )
        w.fake.fail_when(
            group_post,
            500,
            {"ok": False, "error_code": 500, "description": "Internal Server Error"},
        )
        start = len(w.fake.calls)
        await w.press_lobby(BOB, "j")
        await w.fake.wait_for(lambda: any(c.result for c in w.fake.calls[start:] if group_post(c)))
        await asyncio.sleep(1.5)  # (a second post would follow the first at once)
        await w.adapter.presenter.flush()
        posted = [c.params["text"] for c in w.fake.calls[start:] if group_post(c) and c.result]
        assert posted == ["Table #1 · newer"]
