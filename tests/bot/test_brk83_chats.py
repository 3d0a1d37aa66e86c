"""brk83: a chat that changes under the bot, and an admin who types nonsense, through the
real Telegram adapter and the fake Bot API.

A group linked to a channel as its discussion group gets every post of the channel as an
automatic forward (``is_automatic_forward``, from "Telegram", user 777000, an account that is
no bot), and every comment under the post is a reply to it: a command typed as a comment
named that account as the player (``/grant 100`` made a wallet for "Telegram" with the 100
in it, first on /top; ``/stats`` answered "No such player here: 777000")."""

from __future__ import annotations

from pathlib import Path

from bot.model import ChatRef
from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, world

CHANNEL = -1009999
SUPERGROUP = -100777  # the supergroup GROUP_ID becomes


async def test_a_command_typed_as_a_comment_under_a_channel_post_names_nobody(
    tmp_path: Path,
) -> None:
    """Alice, an admin, comments under the channel's post: ``/grant 100`` asks who gets it
    (no player named) and moves nothing, ``/stats`` shows her own, as typed in the
    group; a comment replying to Bob's comment still names Bob."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/balance")  # Bob has a wallet here (1,000)
        post = await w.fake.channel_post(GROUP_ID, CHANNEL, "Poker tonight at 8")
        reply = await w.say(ALICE, "/grant 100", reply_to=post)  # (nobody named: who? ux43)
        assert reply["text"] == tr("en", "reply.grant_whom", amount=100, label="kush",
                                   whole="100"), reply  # fmt: skip
        reply = await w.say(ALICE, "/stats", reply_to=post)
        assert reply["text"] == "No hands played (all time).", reply
        reply = await w.say(ALICE, "/kick", reply_to=post)
        assert reply["text"] == tr("en", "reply.no_table"), reply
        top = await w.say(ALICE, "/top")
        assert top["text"] == (
            "🏆 Top players · balance with stacks\n1. Bob — 1,000 kush\n2. Alice — 1,000 kush"
        ), top
        # a reply to a member's comment under the post names that member
        comment = await w.fake.send_text(BOB, GROUP_ID, "I'm in", reply_to=post)
        reply = await w.say(ALICE, "/grant 100", reply_to=comment)
        assert reply["text"] == tr("en", "reply.granted", name="Bob", amount=100, label="kush",
                                   balance=1100), reply  # fmt: skip


async def test_stats_as_a_reply_to_a_member_who_never_played_names_them(tmp_path: Path) -> None:
    """``/stats`` as a reply to the message of a member who never played here is refused
    under the name the admin sees (their @username, else their first name), as /grant's
    refusal is: it said "No such player here: 103", their user id."""
    dana = FakeUser(104, "Dana", None, "en")
    async with world(tmp_path) as w:
        for member, name in ((CAROL, "@carol"), (dana, "Dana")):
            said = await w.fake.send_text(member, GROUP_ID, "hi all")
            reply = await w.say(ALICE, "/stats", reply_to=said)
            assert reply["text"] == (
                f"No such player here: {name}.\nOnly those who played here have statistics."
                " /stats alone: this group and you."
            ), reply
            assert str(member.id) not in reply["text"]


async def test_a_block_and_an_unblock_told_together_leave_the_player_reachable(
    tmp_path: Path,
) -> None:
    """Bob blocks the bot mid-hand and unblocks it at once; both updates reach the bot while
    the table is busy (a press being handled holds its lock). The news are taken in the
    order they came: his hand is posted anew in his private chat and the group does not tell
    him to open it. (The unblock was taken first, finding him reachable and doing nothing;
    the block then marked him unreachable: no hand, the clock playing for him.)"""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        bob = t.seat_of(str(BOB.id))
        assert bob is not None and bob.reachable and t.hand is not None
        first = bob.private_ref
        told: list[bool] = []
        taken: list[bool] = []
        news = w.service.private_news

        async def private_news(platform: str, user_id: str, *, blocked: bool) -> None:
            told.append(blocked)  # (then as far as it goes without the table's lock)
            await news(platform, user_id, blocked=blocked)
            taken.append(blocked)

        w.service.private_news = private_news  # type: ignore[method-assign]
        async with t.lock:  # the table busy as the two updates come
            await w.fake.block_bot(BOB)
            await w.fake.block_bot(BOB, blocked=False)
            await w.fake.wait_for(lambda: told == [True, False] or None)
        await w.fake.wait_for(lambda: len(taken) == 2 or None)
        await w.settle()
        assert bob.reachable and bob.private_ref != first
        hand = w.fake.messages[(BOB.id, int(bob.private_ref or 0))]
        assert hand["text"].startswith("🃏 Стол #1 · раздача 1 · улица 1/5\n"), hand["text"]
        assert "⚠" not in w.table_message()["text"], w.table_message()["text"]
        assert not w.service._news  # (nothing kept for the user once told)


async def test_a_game_name_copied_with_an_invisible_character_is_read(tmp_path: Path) -> None:
    """A command copied from a chat brings a zero-width space or a direction mark along
    unseen: ``/rules ofc\\u200b`` and ``/newtable ofc\\u200b`` were refused as the unknown
    game “ofc” (the name shown as typed, looking right); the game is read as settings and
    numbers are (without the invisible format characters)."""
    async with world(tmp_path) as w:
        reply = await w.say(ALICE, "/rules ofc\u200b")
        assert reply["text"] == (await w.say(ALICE, "/rules ofc"))["text"], reply
        reply = await w.say(ALICE, "/newtable \u200eOFC\u200b")
        assert reply["text"] == "Table #1 is open.", reply
        t = next(iter(w.service.tables.values()))
        assert t.options.game.value == "ofc"


async def test_r8_2a_a_bot_muted_in_a_basic_group_mid_hand_closes_the_table_after_it(
    tmp_path: Path,
) -> None:
    """(Held; kept as a regression test.) A basic group cannot restrict a member: muting the
    bot upgrades it to a supergroup first, so the bot hears, at once, the upgrade's two
    service messages, its join of the supergroup and its mute there, handled together. The
    table follows the group, the hand is played out in the private chats, then the table
    closes and every stack is back in the supergroup's wallets (R8.2a)."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        await w.fake.migrate_group(GROUP_ID, SUPERGROUP)
        await w.fake.add_bot(SUPERGROUP, by=ALICE)  # (its join of the supergroup)
        await w.fake.restrict_bot(SUPERGROUP, by=ALICE)
        await w.fake.wait_for(lambda: (t.chat_id == str(SUPERGROUP) and t.closing) or None)
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.id not in w.service.tables and t.hand_no == 1
        assert w.service.table_in(ChatRef("telegram", str(SUPERGROUP), str(SUPERGROUP))) is None
        community = await w.store.community("telegram", str(SUPERGROUP))
        totals = {p.name: total for p, total in await w.store.leaderboard(community.id)}
        assert sum(totals.values()) == 2000 and totals != {"Alice": 1000, "Bob": 1000}, totals
        for p, total in await w.store.leaderboard(community.id):
            found = await w.store.find_player(community.id, p.user_id)
            assert found is not None and found.balance == total  # no kush left at the table
        assert await check_store(w.store) == []
