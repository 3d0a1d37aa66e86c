"""Computer players end to end (issue 13): ``/addbot`` through the real python-telegram-bot
and discord.py clients against the local fakes, a whole hand against it, and a restart of the
bot with a computer player seated; ``storage check`` after each."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.telegram.fake_api import FakeTelegram
from storage.check import check_database
from tests.bot.discord.dc_world import ALICE as DC_ALICE
from tests.bot.discord.dc_world import world as dc_world
from tests.bot.tg_world import ALICE, GROUP_ID, TOKEN, world

PACE = (0.05, 0.15)  # seconds: quick computer players for tests


async def _quiet(w: Any, t: Any) -> None:
    """Until the step in progress is committed and its messages are written."""
    async with t.lock:
        pass
    await w.service.rt.settled(t)
    await w.adapter.presenter.flush()


async def _wait(predicate: object, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():  # type: ignore[operator]
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


async def test_telegram_addbot_plays_a_hand_and_survives_a_restart(tmp_path: Path) -> None:
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.started_users.add(ALICE.id)
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db, bot_pace=PACE, next_hand_delay=30) as w:
            await w.say(ALICE, "/newtable")
            reply = await w.say(ALICE, "/addbot normal")
            assert "🤖 Anna (normal)" in reply["text"], reply["text"]
            # answered before the table message shows Anna: its buttons are pressed once
            # it does (a press on the one before is out of date)
            await w.settle()
            await w.press_lobby(ALICE, "j")
            await w.press_lobby(ALICE, "r")
            t = next(iter(w.service.tables.values()))
            assert t.hand is not None
            bot = next(s for s in t.seats.values() if s.bot)
            for _ in range(2):  # Alice plays two streets; the computer player answers each
                await _wait(lambda: t.hand is not None and t.owner(t.hand.to_act[0]) != bot.seat)
                await _quiet(w, t)
                await w.play_street(ALICE)
            await _wait(lambda: t.hand is not None and t.owner(t.hand.to_act[0]) != bot.seat)
            table_id = t.id
        assert await check_database(db) == []
        async with world(tmp_path, fake=fake, db=db, bot_pace=PACE, next_hand_delay=30) as w2:
            t2 = w2.service.tables[table_id]
            assert t2.hand is not None and any(s.bot == "normal" for s in t2.seats.values())
            number = t2.hand_no
            while t2.hand is not None and t2.hand_no == number:
                if t2.owner(t2.hand.to_act[0]) == bot.seat:
                    await asyncio.sleep(0.02)
                    continue
                await _quiet(w2, t2)
                await w2.play_street(ALICE)
            hands = await w2.store.export_hands(table_id)
            assert len(hands) == 1
            texts = [m["text"] for m in w2.fake.chat_messages(GROUP_ID)]
            assert any(text.startswith("🏁") and "🤖 Anna" in text for text in texts)
            assert str(bot.user_id) not in {str(k[0]) for k in w2.fake.messages}
        assert await check_database(db) == []
    finally:
        await fake.stop()


async def test_discord_addbot_plays_a_hand(tmp_path: Path) -> None:
    alice = DC_ALICE
    async with dc_world(tmp_path, bot_pace=PACE) as w:
        await w.slash(alice, "new")
        reply = await w.slash(alice, "addbot", {"level": "easy"})
        assert "🤖 Anna (easy)" in reply["content"], reply
        await w.slash(alice, "join")
        await w.slash(alice, "ready")
        t = w.table()
        assert t.hand is not None
        number = t.hand_no
        bot = next(s for s in t.seats.values() if s.bot)
        while t.hand is not None and t.hand_no == number:
            if t.owner(t.hand.to_act[0]) == bot.seat:
                await asyncio.sleep(0.02)
                continue
            await _quiet(w, t)  # the computer player's move is shown
            await w.play_street(alice, "dm")
        assert len(await w.store.export_hands(t.id)) == 1
    assert await check_database(tmp_path / "ofc.sqlite3") == []


async def test_telegram_removebot_stands_up_the_one_named(tmp_path: Path) -> None:
    """``/removebot Anna`` with Anna and Boris seated stands Anna up (the command's
    argument was ignored and the last one seated, Boris, stood up); a name no computer
    player here has is refused with those seated, in the admin's language, and nothing
    changes; a name typed as a mention ("@anna") is that name."""
    async with world(tmp_path, bot_pace=PACE) as w:
        await w.say(ALICE, "/newtable")
        for level in ("easy", "strong"):
            await w.say(ALICE, f"/addbot {level}")
        t = next(iter(w.service.tables.values()))
        assert [s.name for s in t.seats.values()] == ["🤖 Anna", "🤖 Boris"]
        reply = await w.say(ALICE, "/removebot Zed")
        assert reply["text"] == (
            "No computer player “Zed” is seated. Seated: 🤖 Anna, 🤖 Boris. "
            "Usage: /removebot [name]"
        ), reply
        assert [s.name for s in t.seats.values()] == ["🤖 Anna", "🤖 Boris"]
        reply = await w.say(ALICE, "/removebot @anna")  # (a mention: it was refused)
        assert reply["text"].startswith("🤖 Anna"), reply
        await _quiet(w, t)
        assert [s.name for s in t.seats.values()] == ["🤖 Boris"]
        reply = await w.say(ALICE, "/removebot 🤖 BORIS")
        assert reply["text"].startswith("🤖 Boris"), reply
        await _quiet(w, t)
        assert t.seats == {}
        assert await check_database(tmp_path / "ofc.sqlite3") == []
