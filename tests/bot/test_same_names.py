"""Two members of one display name at one table, through the real Telegram adapter and the
fake Bot API: the table message, the showdown and every later screen tell them apart (the
second to sit down is "Alex (2)"), and a person who calls themselves like a computer player
is never confused with one."""

from __future__ import annotations

from pathlib import Path

from bot.model import LiveTable, SeatState
from bot.names import MAX_NAME, units
from bot.service.bots import bare_name
from bot.telegram.fake_api import FakeUser
from game.options import RuleOptions
from storage.check import check_store
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, World, world

ALEX = FakeUser(201, "Alex", "alex_one", "en")
ALEX_TOO = FakeUser(202, "alex", "alex_two", "ru")  # the same name but for its case
ANNA = FakeUser(203, "🤖 Anna", "not_a_bot", "en")  # named like the first computer player


def showdown(w: World) -> str:
    return next(t for t in reversed(w.group_texts()) if t.startswith("🏁"))


async def test_two_players_of_one_name_are_told_apart(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALEX.id, ALEX_TOO.id})
        await seat_everyone(w, [ALEX, ALEX_TOO])
        await w.settle()
        t = next(iter(w.service.tables.values()))
        assert [s.name for s in t.seats.values()] == ["Alex", "alex (2)"]
        table = w.table_message()["text"]
        assert "▶ Alex · 200 · street 1/5" in table and "\nalex (2) · 200" in table, table
        await play_hand(w, [ALEX, ALEX_TOO])
        await w.settle()
        lines = [line.split(":")[0] for line in showdown(w).splitlines()[1:] if ":" in line]
        assert sorted(lines) == ["Alex", "alex (2)"], showdown(w)
        assert await check_store(w.store) == []


async def test_a_person_named_like_a_computer_player_is_not_taken_for_one(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        w.fake.admins[-1001] = {ALICE.id}
        await w.say(ALICE, "/newtable")
        assert not (await w.press_lobby(ANNA, "j")).get("show_alert")
        reply = await w.say(ALICE, "/addbot easy")
        t = next(iter(w.service.tables.values()))
        names = [s.name for s in t.seats.values()]
        # a person's name never begins with the computer players' mark, and the computer
        # player is not named like the person either
        assert names == ["Anna", "🤖 Boris"], names
        assert "\n1. Anna — not ready\n" in w.table_message()["text"]
        assert not any("🤖 Anna" in text for text in w.group_texts())
        assert reply["text"].startswith("🤖 Boris (easy)"), reply
        assert t.seats[0].bot is None and t.seats[1].bot == "easy"


def test_a_long_name_keeps_its_number_within_the_limit() -> None:
    t = LiveTable(1, "telegram", 1, "-1", "-1", "en", RuleOptions(), 200, "kush")
    long = "W" * MAX_NAME
    for n, name in enumerate((long, long, "W" * 28 + " (2)")):
        t.seats[n] = SeatState(n, n, str(n), t.distinct_name(name), "en")
    assert [s.name for s in t.seats.values()] == [long, "W" * 28 + " (2)", "W" * 28 + " (3)"]
    assert all(units(s.name) <= MAX_NAME for s in t.seats.values())


def test_yo_and_ye_make_one_name_at_the_table() -> None:
    """ "Алена" sat down next to "Алёна" under her own name: one name to a Russian reader (and
    to ``/stats``, which reads ё as е), so the later one is told apart as "(2)" is, and a
    computer player is asked for with either letter."""
    t = LiveTable(1, "telegram", 1, "-1", "-1", "ru", RuleOptions(), 200, "kush")
    for n, name in enumerate(("Алёна", "АЛЕНА", "алена")):
        t.seats[n] = SeatState(n, n, str(n), t.distinct_name(name), "ru")
    assert [s.name for s in t.seats.values()] == ["Алёна", "АЛЕНА (2)", "алена (3)"]
    assert bare_name("🤖 Алёна") == bare_name("@алена") == "алена"
