"""brk74: a player who leaves the Telegram group with a top-up queued during the hand (R8.2).

A /leave's answer and a kick's private notice say the queued top-up is cancelled; leaving
the group said nothing of it (they read the group no more): they are told in private, each
in their own language, and nothing moves from their balance."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from storage.check import check_store
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, world


async def test_r8_2_leaving_the_group_with_a_queued_top_up_is_told_in_private(
    tmp_path: Path,
) -> None:
    """Mid-hand Bob (Russian) queues a top-up of 50 and leaves the group; Carol (English)
    queues 70 and an admin removes her. Each stands up after the hand, and each is told in
    the private chat that the top-up is cancelled (nothing was taken): their balances stay
    at 800, the 1,000 they started with less the buy-in of 200."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id, CAROL.id})
        await seat_everyone(w, [ALICE, BOB, CAROL])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        reply = await w.say(BOB, "/topup 50")
        assert reply["text"] == tr("ru", "reply.topup_queued", amount=50, label="куш")
        reply = await w.say(CAROL, "/topup 70")
        assert reply["text"] == tr("en", "reply.topup_queued", amount=70, label="kush")
        bob, carol = t.seat_of(str(BOB.id)), t.seat_of(str(CAROL.id))
        assert bob is not None and carol is not None
        await w.fake.remove_member(GROUP_ID, BOB)
        await w.fake.wait_for(lambda: bob.leaving or None)
        await w.fake.remove_member(GROUP_ID, CAROL, by=ALICE)
        await w.fake.wait_for(lambda: carol.leaving or None)
        await w.settle()
        assert bob.top_up == 0 and carol.top_up == 0
        ru = (
            f"Вы вышли из группы и поэтому покидаете стол #{t.id}: заказанная докупка на 50 "
            "кушей отменена, с баланса ничего не списано."
        )
        en = (
            f"You left the group, so you leave table #{t.id}: your queued top-up of 70 kush "
            "is cancelled, nothing was taken from your balance."
        )
        bob_chat = [str(m.get("text", "")) for m in w.fake.chat_messages(BOB.id)]
        carol_chat = [str(m.get("text", "")) for m in w.fake.chat_messages(CAROL.id)]
        assert bob_chat.count(ru) == 1, bob_chat[-3:]
        assert carol_chat.count(en) == 1, carol_chat[-3:]
        assert not any("top-up" in text.lower() for text in w.group_texts()[-3:])
        community = await w.store.community("telegram", str(GROUP_ID))
        for user in (BOB, CAROL):
            player = await w.store.find_player(community.id, str(user.id))
            assert player is not None and player.balance == 800
        assert await check_store(w.store) == []
