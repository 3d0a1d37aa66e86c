"""Turn pings on Telegram: an edit does not notify, so a player whose turn began
``turn_ping_seconds`` ago and who has not acted gets a short "your move" message in the
private chat (a new message notifies), deleted when the turn ends; who acts sooner gets none.
Through the real python-telegram-bot and the fake Bot API."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.fake_api import ApiCall
from storage.check import check_store
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, CARD_RE, World, world


def sends_to(w: World, user_id: int, start: int) -> list[ApiCall]:
    """The messages sent to ``user_id``'s private chat since call ``start``."""
    return [
        c
        for c in w.fake.calls[start:]
        if c.method == "sendMessage" and int(c.params["chat_id"]) == user_id
    ]


async def test_a_player_whose_turn_waits_is_pinged_and_the_ping_goes_when_the_turn_ends(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.adapter.presenter.turn_ping_seconds = 0.3
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        users = {str(u.id): u for u in (ALICE, BOB)}
        first = users[t.seats[t.hand.to_act[0]].user_id]
        second = BOB if first is ALICE else ALICE
        start = len(w.fake.calls)
        await w.play_street(first)  # its turn began with the dealt hand (a new message)
        assert sends_to(w, first.id, start) == []
        # the second player's turn begins: after 0.3 s without a press, the ping
        ping = await w.fake.wait_for(lambda: next(iter(sends_to(w, second.id, start)), None))
        hand = w.private(second)
        assert hand is not None
        assert ping.params["text"] == "\n".join(hand["text"].splitlines()[:2])
        assert not CARD_RE.search(ping.params["text"])  # the title and "your move" only
        assert not ping.params.get("reply_markup")
        sent = next(m for (chat, _), m in w.fake.messages.items() if chat == second.id
                    and m["text"] == ping.params["text"])  # fmt: skip
        await w.play_street(second)  # the turn ends: the ping is deleted
        deleted = await w.fake.wait_for(
            lambda: next((c for c in w.fake.calls[start:] if c.method == "deleteMessage"), None)
        )
        assert int(deleted.params["message_id"]) == sent["message_id"]
        assert (second.id, sent["message_id"]) not in w.fake.messages
        # a player who acts before the ping is due gets none
        w.adapter.presenter.turn_ping_seconds = 60
        start = len(w.fake.calls)
        await w.play_street(first)
        await w.play_street(second)
        assert sends_to(w, first.id, start) == [] and sends_to(w, second.id, start) == []
        # the second's waiting ping was cancelled; the first's waits (its turn again)
        assert set(w.adapter.presenter._pingers) == {(str(first.id), t.id)}
        await play_hand(w, [ALICE, BOB])
        assert await check_store(w.store) == []
