"""``/start t<table>`` (the group's link to the private chat) typed by a seated player in
their private chat posts their hand anew there; the group's table message is written again
only when what it shows changes: the player was unreachable (it named them with the link)
and is reachable now. Typed again and again, it wrote the table message each time with a new
version, one group write per message (the group may take about 20 a minute, R8.2)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world

QUIET = ("answerCallbackQuery", "getUpdates")


def _group_writes(w: World, since: int) -> list[str]:
    return [
        c.method
        for c in w.fake.calls[since:]
        if c.method not in QUIET and str(c.params.get("chat_id")) == str(GROUP_ID)
    ]


async def test_r8_2_a_repeated_start_link_of_a_reachable_player_writes_nothing_to_the_group(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        await w.settle()
        board, version, calls = w.table_message()["text"], t.version, len(w.fake.calls)
        for _ in range(3):
            old = (w.private(ALICE) or {}).get("message_id")
            reply = await w.say(ALICE, f"/start t{t.id}", chat_id=ALICE.id)
            assert f"#{t.id}" in reply["text"]
            await w.settle()
            hand = w.private(ALICE) or {}
            assert hand.get("message_id") != old and hand["text"].startswith("🃏")  # anew
        assert _group_writes(w, calls) == []
        assert t.version == version and w.table_message()["text"] == board


async def test_r8_2_the_start_link_of_an_unreachable_player_writes_the_group_once(
    tmp_path: Path,
) -> None:
    """Bob never started the bot: the table message names him with the link. His first
    ``/start t<table>`` writes it once (the link's line goes); the next ones write nothing."""
    async with world(tmp_path) as w:
        w.fake.started_users.add(ALICE.id)
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        await w.fake.wait_for(lambda: "private chat" in w.table_message()["text"])
        await w.settle()
        calls = len(w.fake.calls)
        await w.say(BOB, f"/start t{t.id}", chat_id=BOB.id)
        await w.settle()
        assert "private chat" not in w.table_message()["text"]
        assert _group_writes(w, calls) == ["editMessageText"]
        version, calls = t.version, len(w.fake.calls)
        for _ in range(3):
            await w.say(BOB, f"/start t{t.id}", chat_id=BOB.id)
            await w.settle()
        assert _group_writes(w, calls) == []
        assert t.version == version
