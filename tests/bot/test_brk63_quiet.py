"""brk63: Telegram's "quiet until seen" (fix38b) attacked. A private write refused with a 400
(a Bad Request: not the player's doing, nothing they can undo) is no block: the next street
tries their hand again, as before fix38b; only a 403 leaves the chat alone until they show
life there."""

from __future__ import annotations

import time
from pathlib import Path

from bot.telegram.fake_api import ApiCall
from tests.bot.test_fix38b_blocked_quiet import refused_sends
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, world


async def test_a_bad_request_on_a_private_write_does_not_silence_the_player(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        rt = w.service.rt
        ahead = [0.0]
        rt.clock = lambda: time.time() + ahead[0]
        w.fake.started_users.update({ALICE.id, BOB.id})

        def bobs_send(c: ApiCall) -> bool:
            return c.method == "sendMessage" and int(c.params.get("chat_id") or 0) == BOB.id

        w.fake.fail_when(
            bobs_send,
            400,
            {"ok": False, "error_code": 400, "description": "Bad Request: can't parse entities"},
        )
        await seat_everyone(w, [ALICE, BOB])
        await w.settle()
        t = next(iter(w.service.tables.values()))
        alice, bob = t.seat_of(str(ALICE.id)), t.seat_of(str(BOB.id))
        assert alice is not None and bob is not None and t.hand is not None
        assert refused_sends(w, BOB) == 1 and w.private(BOB) is None  # the deal's, refused
        # the next street: Alice plays hers, or Bob's clock plays his (R8.5)
        if alice.seat in t.hand.to_act:
            await w.play_street(ALICE)
        else:
            ahead[0] += 3600.0
            async with t.lock:
                await rt.arm(t)
            await w.fake.wait_for(lambda: t.hand is None or bob.seat not in t.hand.to_act)
        await w.settle()
        assert w.private(BOB) is not None, "Bob's hand was never tried again after a 400"
        assert bob.reachable
