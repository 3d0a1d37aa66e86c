"""fixsmall37: an admin's ``/kick`` mid-hand of a player who has blocked the bot (Telegram
answers every write to their private chat 403 "bot was blocked by the user"), through the
real python-telegram-bot and the fake Bot API. The kick changes nothing for that: the hand
goes on, the kicked player's streets placed for them as on timeout (R8.5) with nothing
waiting on their private chat, they stand up when it ends with their whole stack back on
their balance (R8.2, no kush lost), and the table deals the next hand to the others."""

from __future__ import annotations

from pathlib import Path

from storage.check import check_store
from tests.bot.test_fixkick import _balance_tg
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, world


async def test_a_kick_mid_hand_of_a_player_who_blocked_the_bot(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        w.fake.started_users.update(u.id for u in (ALICE, BOB, CAROL))
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await seat_everyone(w, [ALICE, BOB, CAROL])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        by_id = {str(u.id): u for u in (ALICE, BOB, CAROL)}
        # the first street of whoever acts first, unless it is Bob's (his turn comes later)
        if t.seats[t.hand.to_act[0]].user_id != str(BOB.id):
            await w.play_street(by_id[t.seats[t.hand.to_act[0]].user_id])
        bob = t.seat_of(str(BOB.id))
        assert bob is not None and bob.stack == 200
        w.fake.blocked_users.add(BOB.id)
        blocked_at = len(w.fake.calls)
        reply = await w.say(ALICE, "/kick @bob")
        assert reply["text"] == (
            "Admin stood Bob up: they leave after this hand (their cards are placed for them "
            "as if their time ran out), their stack back to their balance then."
        ), reply["text"]
        assert bob.leaving and t.seat_of(str(BOB.id)) is bob
        # Alice and Carol play on; Bob never has to act (his streets are made at once)
        for _ in range(40):
            await w.settle()
            if t.hand is None or t.hand_no != 1:
                break
            acting = t.seats[t.hand.to_act[0]].user_id
            assert acting != str(BOB.id), "the kicked player's street waits for him"
            await w.play_street(by_id[acting])
        await w.settle()
        assert t.hand_no == 2 and t.hand is not None  # the table went on, without Bob
        assert t.seat_of(str(BOB.id)) is None
        assert sorted(s.user_id for s in t.seats.values()) == [str(ALICE.id), str(CAROL.id)]
        # no kush lost: Bob's whole stack on his balance, the three together as they began
        bob_balance = await _balance_tg(w.store, BOB.id)
        assert bob_balance == 800 + bob.stack
        others = 0
        for u in (ALICE, CAROL):
            seat = t.seat_of(str(u.id))
            assert seat is not None
            others += await _balance_tg(w.store, u.id) + seat.stack
        assert bob_balance + others == 3000
        assert await check_store(w.store) == []
        # the bot did write to Bob's private chat after he blocked it (his hand's edits, the
        # result): each refused with the 403, none of it held the table
        refused = [c.method for c in w.fake.calls[blocked_at:]
                   if int(c.params.get("chat_id") or 0) == BOB.id]  # fmt: skip
        assert refused, "nothing was written to the kicked player's private chat"


async def test_a_kick_mid_hand_of_a_player_whose_discord_dms_closed(tmp_path: Path) -> None:
    """The same on Discord: Bob's DMs close mid-hand (403/50007 on every message to him);
    ``/ofcadmin kick`` stands him up after the hand, which Alice and Carol play out on
    their DM hands; his stack back on his balance, the next hand dealt to the two."""
    from tests.bot.discord import dc_world

    a, b, c = dc_world.ALICE, dc_world.BOB, dc_world.CAROL
    async with dc_world.world(tmp_path) as w:
        await w.slash(a, "new")
        for u in (a, b, c):
            await w.slash(u, "join")
        for u in (a, b, c):
            await w.slash(u, "ready")
        t = w.table()
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        assert t.hand is not None and t.hand_no == 1
        by_id = {str(u.id): u for u in (a, b, c)}
        if t.seats[t.hand.to_act[0]].user_id != str(b.id):
            await w.play_street(by_id[t.seats[t.hand.to_act[0]].user_id], "dm")
        bob = t.seat_of(str(b.id))
        assert bob is not None and bob.stack == 200
        w.fake.closed_dms.add(b.id)
        closed_at = len(w.fake.calls)
        reply = await w.slash(a, "kick", {"user": b}, admin=True)
        assert reply["content"] == (
            "Admin stood Bob up: they leave after this hand (their cards are placed for them "
            "as if their time ran out), their stack back to their balance then."
        ), reply
        assert bob.leaving
        for _ in range(40):
            await w.service.rt.settled(t)
            await w.adapter.presenter.flush()
            if t.hand is None or t.hand_no != 1:
                break
            acting = t.seats[t.hand.to_act[0]].user_id
            assert acting != str(b.id), "the kicked player's street waits for him"
            await w.play_street(by_id[acting], "dm")
        await w.service.rt.settled(t)
        assert t.hand_no == 2 and t.hand is not None
        assert t.seat_of(str(b.id)) is None
        community = await w.store.community("discord", str(w.fake.guild_id))
        total = 0
        for u in (a, b, c):
            player = await w.store.find_player(community.id, str(u.id))
            assert player is not None
            seat = t.seat_of(str(u.id))
            total += player.balance + (seat.stack if seat is not None else 0)
            if u is b:
                assert player.balance == 800 + bob.stack
        assert total == 3000
        assert await check_store(w.store) == []
        # the bot did write to Bob's DM channel after it closed: refused (403/50007), none of it
        # held the table (and nothing was logged: the world asserts no warning)
        dm = f"/channels/{w.fake.dm_channels[b.id]}/messages"
        writes = [(x.method, x.status) for x in w.fake.calls[closed_at:] if x.path.startswith(dm)]
        assert any(status == 403 for _, status in writes), writes
