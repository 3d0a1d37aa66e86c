"""Break session brk31: the session's own changes (a new message refused with a 429 posted in
the background, the stop keeping held notices), through the real python-telegram-bot against
the local fake."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from bot.telegram.fake_api import too_many
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_fixpost import private_to
from tests.bot.test_telegram_chats import held_429s
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, world


async def test_a_second_start_during_a_429_posts_the_hand_once(tmp_path: Path) -> None:
    """Mid-hand Bob types /start in his private chat: his hand is posted there anew and
    Telegram refuses that post with a 429 (12 s, held here): posted in the background once
    the pause is over. Bob, who sees no cards, types /start again meanwhile: the service
    sends his hand anew once more. Once the pause is over Bob's chat gets his hand once:
    the first /start's post, held, was made after all (the service held the second's), two
    hand messages with buttons, one the service did not know. The hand plays on to its
    end on the one posted; the ledger checks."""
    limiter, gate, pauses = held_429s()
    async with world(tmp_path, limiter=limiter) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.seats[1].user_id == str(BOB.id)
        to_bob = private_to(BOB.id)
        w.fake.fail_when(lambda c: to_bob(c) and c.method == "sendMessage", *too_many(12))
        try:
            await w.fake.send_text(BOB, BOB.id, "/start")
            await w.fake.wait_for(lambda: pauses)  # (Bob's new hand message: 429)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(w.service.rt.settled(t), 1)
            start = len(w.fake.calls)
            await w.fake.send_text(BOB, BOB.id, "/start")
            await asyncio.sleep(0.5)  # (the second /start reaches the service)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(w.service.rt.settled(t), 1)
        finally:
            gate.set()
        await w.settle()
        linked = tr("ru", "reply.private_linked", table=t.id)
        await w.fake.wait_for(
            lambda: (
                len([c for c in w.fake.calls[start:] if to_bob(c) and c.params["text"] == linked])
                == 2
            ),
            timeout=5,
        )
        await w.settle()
        await w.adapter.presenter.flush()
        hands = [
            c
            for c in w.fake.calls[start:]
            if to_bob(c)
            and c.method == "sendMessage"
            and c.params["text"] != linked
            and c.result is not None
        ]
        assert len(hands) == 1, [c.params["text"][:40] for c in hands]
        posted = w.private(BOB)
        assert posted is not None and t.seats[1].private_ref == str(posted["message_id"])
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.hand_no == 2
        assert await check_store(w.store) == []
