"""A player the bot could not write to in private (they blocked it, or never started it) is
named in the group's table message with the link to the private chat. When an ordinary
private write reaches them again (they unblocked the bot, or started it, without typing
``/start t<table>``), the table message is written again once, and the line goes: it
stayed until the group's next write for another reason, telling a player who sees their
cards to open the chat. Nothing else costs the group a write (R8.2: about one a move)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.screens import Payload
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world

QUIET = ("answerCallbackQuery", "getUpdates")
LINE = "⚠ Bob: open a private chat"


def _group_writes(w: World, since: int) -> list[str]:
    return [
        c.method
        for c in w.fake.calls[since:]
        if c.method not in QUIET and str(c.params.get("chat_id")) == str(GROUP_ID)
    ]


async def _bob_out_at_the_deal(w: World, how: str) -> None:
    """Alice and Bob seated (Alice acts first, seed 1); the deal's private write to Bob is
    refused (``how``: he blocked the bot, or never started it), the table message names him."""
    w.fake.started_users.add(ALICE.id)
    if how == "blocked":
        w.fake.started_users.add(BOB.id)
        w.fake.blocked_users.add(BOB.id)
    await seat_everyone(w, [ALICE, BOB])
    t = next(iter(w.service.tables.values()))
    assert t.hand is not None and t.seats[t.hand.to_act[0]].user_id == str(ALICE.id)
    await w.fake.wait_for(lambda: LINE in w.table_message()["text"])
    await w.settle()


@pytest.mark.parametrize("how", ["blocked", "never_started"])
async def test_r8_2_a_private_write_that_reaches_a_player_again_writes_the_group_once(
    tmp_path: Path, how: str
) -> None:
    """Bob unblocks the bot (Telegram's ``my_chat_member`` of the private chat tells it) or
    starts it (a bare /start there): his hand is posted to him at once, and the group gets
    one edit for him (the line naming him goes). Alice plays her street, so his turn
    begins: one group write for the move, and one for his. (Before fix38b the bot tried a
    new private message at every street, refused until he unblocked the bot; it no longer
    writes to a chat that refused it until the player shows life there.)"""
    async with world(tmp_path) as w:
        await _bob_out_at_the_deal(w, how)
        t = next(iter(w.service.tables.values()))
        calls = len(w.fake.calls)
        if how == "blocked":
            await w.fake.block_bot(BOB, blocked=False)
            await w.fake.wait_for(lambda: w.private(BOB) is not None)
        else:
            await w.say(BOB, "/start", chat_id=BOB.id)
        await w.settle()
        seat = t.seat_of(str(BOB.id))
        assert seat is not None and seat.reachable
        hand = w.private(BOB) or {}
        assert hand["text"].startswith("🃏")  # (his hand reached him)
        assert LINE not in w.table_message()["text"]
        assert _group_writes(w, calls) == ["editMessageText"]
        calls = len(w.fake.calls)
        await w.play_street(ALICE)
        await w.settle()
        assert "▶ Bob to act" in w.table_message()["text"]
        assert _group_writes(w, calls) == ["editMessageText"]
        # Bob plays his street: nothing flips, one group write for the move
        calls = len(w.fake.calls)
        await w.play_street(BOB)
        await w.settle()
        assert _group_writes(w, calls) == ["editMessageText"]
        assert LINE not in w.table_message()["text"]


async def test_r8_2_a_private_write_refused_again_writes_the_group_nothing_more(
    tmp_path: Path,
) -> None:
    """Bob stays blocked: his hand is not written at his turn (the deal's refusal stands,
    fix38b; no change of his reachability): the group gets the step's one edit, still
    naming him."""
    async with world(tmp_path) as w:
        await _bob_out_at_the_deal(w, "blocked")
        calls = len(w.fake.calls)
        await w.play_street(ALICE)
        await w.settle()
        assert LINE in w.table_message()["text"]
        assert _group_writes(w, calls) == ["editMessageText"]
        assert not [c for c in w.fake.calls[calls:] if int(c.params.get("chat_id") or 0) == BOB.id]


async def test_r8_2_players_reachable_all_along_cost_one_group_write_a_move(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        await w.settle()
        for user in (ALICE, BOB):
            calls = len(w.fake.calls)
            await w.play_street(user)
            await w.settle()
            assert _group_writes(w, calls) == ["editMessageText"]
        assert "private chat" not in w.table_message()["text"]


async def test_r8_2_writes_for_reachability_coalesce(tmp_path: Path) -> None:
    """Reachability writes of the table message (:meth:`Runtime.show_group_later` with
    ``reach``) queued together write it once; one whose change the table message rendered
    last already shows (or a player refused and reached again before it ran) writes
    nothing."""
    async with world(tmp_path) as w:
        await _bob_out_at_the_deal(w, "blocked")
        t = next(iter(w.service.tables.values()))
        rt = w.service.rt
        calls, version = len(w.fake.calls), t.version
        rt.show_group_later(t, reach=True)  # (Bob still named: nothing changed)
        await w.settle()
        assert _group_writes(w, calls) == [] and t.version == version
        seat = t.seat_of(str(BOB.id))
        assert seat is not None
        seat.reachable = True
        for _ in range(3):
            rt.show_group_later(t, reach=True)
        await w.settle()
        assert _group_writes(w, calls) == ["editMessageText"] and t.version == version + 1
        assert LINE not in w.table_message()["text"]


async def test_r8_2_a_press_on_the_old_hand_message_of_an_unreachable_player_writes_the_group_once(
    tmp_path: Path,
) -> None:
    """A refused write (a turn ping, say) marked Alice unreachable and forgot her hand
    message; she unblocks the bot and places a card from that message: it is her hand
    message again and she is reachable; the table message's line naming her goes (one group
    write), where it stayed until the group's next write for another reason."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.seats[t.hand.to_act[0]].user_id == str(ALICE.id)
        await w.settle()
        old = w.private(ALICE)
        assert old is not None
        await w.service.player_unreachable("telegram", str(ALICE.id))
        await w.settle()
        named = "⚠ Alice: open a private chat"
        assert named in w.table_message()["text"]
        calls = len(w.fake.calls)
        data = next(
            b["callback_data"]
            for b in w.fake.buttons(old)
            if (p := Payload.decode(b.get("callback_data"))) is not None and p.action == "p"
        )
        answer = await w.press(ALICE, ALICE.id, old, data)
        assert not answer.get("show_alert"), answer
        await w.settle()
        seat = t.seat_of(str(ALICE.id))
        assert seat is not None and seat.reachable and seat.private_ref == str(old["message_id"])
        assert named not in w.table_message()["text"]
        assert _group_writes(w, calls) == ["editMessageText"]
