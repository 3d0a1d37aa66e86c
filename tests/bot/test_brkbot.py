"""Break-it round on computer players at a group's table (issue 13): what was found."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service
from tests.bot.test_service import BOB, GROUP


async def test_removebot_takes_a_computer_players_name_written_in_cyrillic() -> None:
    """A Russian group reads "🤖 Anna" and types ``/removebot Анна``: it was told no such
    computer player was seated ("Компьютерного игрока «Анна» за столом нет. За столом:
    🤖 Anna"). The name in Cyrillic is the computer player's own, letter case aside."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    await service.new_table(GROUP, BOB)  # (Bob speaks Russian: the table's language)
    t = service.table_in(GROUP)
    assert t is not None
    for name in ("Anna", "Boris"):  # created before a Russian table named them in Russian
        await store.player(t.community_id, f"bot:{name.lower()}", f"🤖 {name}", starting=False)
    for _ in range(2):
        assert not (await service.add_bot(GROUP, BOB, False, "лёгкий")).alert
    t = service.table_in(GROUP)
    assert t is not None and [s.name for s in t.seats.values()] == ["🤖 Anna", "🤖 Boris"]
    reply = await service.remove_bot(GROUP, BOB, False, None, "Анна")
    assert not reply.alert and reply.text == tr("ru", "bot.removed", name="🤖 Anna")
    reply = await service.remove_bot(GROUP, BOB, False, None, "@борис")
    assert not reply.alert and reply.text == tr("ru", "bot.removed", name="🤖 Boris")
    assert not t.seats
    assert await check_store(store) == []
