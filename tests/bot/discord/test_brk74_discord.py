"""brk74: a member removed from the Discord server with a top-up queued during the hand
(R8.2): told in a DM that it is cancelled, as a /leave's answer and a kick's notice say it,
in their own language; nothing moves from their balance. A member who shares no other
server with the bot has their DMs closed to it (50007): the notice is refused and nothing
else changes."""

from __future__ import annotations

from pathlib import Path

from bot.discord.adapter import default_intents
from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, world
from tests.bot.discord.test_discord_chats import balance_of
from tests.bot.discord.test_discord_e2e import seat_everyone


async def test_r8_2_a_member_removed_with_a_queued_top_up_is_told_it_is_cancelled(
    tmp_path: Path,
) -> None:
    """Mid-hand Bob (Russian) queues a top-up of 50 and leaves the server (GUILD_MEMBER_REMOVE,
    the members intent on); he shares another server with the bot, so his DMs stay open:
    he reads in Russian that the top-up is cancelled. Carol (English) queues 70 and is
    removed too, sharing no other server: her DM is refused (50007), and she leaves all the
    same. Neither top-up was taken: both balances stay at 800 (1,000 less the buy-in)."""
    async with world(tmp_path, intents=default_intents(members=True)) as w:
        await seat_everyone(w, [ALICE, BOB, CAROL])
        t = w.table()
        assert t.hand is not None
        reply = await w.slash(BOB, "topup", {"amount": "50"})
        assert reply["content"] == tr("ru", "reply.topup_queued", amount=50, label="куш")
        reply = await w.slash(CAROL, "topup", {"amount": "70"})
        assert reply["content"] == tr("en", "reply.topup_queued", amount=70, label="kush")
        bob, carol = t.seat_of(str(BOB.id)), t.seat_of(str(CAROL.id))
        assert bob is not None and carol is not None
        guild = str(w.fake.guild_id)
        w.fake.gone.add(BOB.id)  # (his DMs stay open: another server is shared)
        await w.fake.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": guild, "user": BOB.to_json()})
        await w.fake.wait_for(lambda: bob.leaving)
        await w.fake.remove_member(CAROL)
        await w.fake.wait_for(lambda: carol.leaving)
        async with t.lock:  # (her step sets leaving before its commit, which queues its
            pass  # messages: waited for, or settled() found nothing queued yet, a race)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        ru = (
            f"Вы вышли с сервера и поэтому покидаете стол #{t.id}: заказанная докупка на 50 "
            "кушей отменена, с баланса ничего не списано."
        )
        told = [str(m.get("content", "")) for m in w.fake.dm_messages(BOB.id)]
        assert told.count(ru) == 1, told[-3:]
        en = tr(
            "en", "private.left_group_topup_cancelled.discord", table=t.id, amount=70,
            label="kush",
        )  # fmt: skip
        assert en.startswith("You left the server, so you leave table")
        assert en not in [str(m.get("content", "")) for m in w.fake.dm_messages(CAROL.id)]
        assert bob.top_up == 0 and carol.top_up == 0
        assert t.outbox == [] or all(i.get("user") != str(CAROL.id) for i in t.outbox)
        assert await balance_of(w, BOB.id) == 800
        assert await balance_of(w, CAROL.id) == 800
        assert await check_store(w.store) == []
