"""Break-it session brk82: admins change a table's settings while a match is under way
(Pineapple with Fantasyland, classic OFC, classic Chinese Poker; R6.6, R7.6, R8.2, R8.5).

Found and fixed: the ``/settings`` list during a hand showed the value saved for the next
match alone ("Kush per point: 5") while the table still played the old one (1): nothing said
which was in force. The list now names the value the table plays until the change applies,
in English and Russian, and lists a setting set back to its default mid-hand too."""

from __future__ import annotations

from bot.model import LiveTable
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, say


async def dealt(service: TableService) -> LiveTable:
    """Alice and Boris sit down and press Ready at a new table: the first hand is dealt."""
    await service.new_table(GROUP, ALICE)
    for actor in (ALICE, BORIS):
        assert not (await service.join(GROUP, actor)).alert
        assert not (await service.ready(GROUP, actor)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    return t


async def test_r6_6_the_list_names_the_value_in_force_beside_the_one_waiting() -> None:
    """kush_per_point 5 and hand_seconds 60 saved during a hand wait for its match to end
    (R6.6); the list showed "5" and "60 s" alone while the hand was played at 1 and 120 s.
    Each line now names what the table plays, in both languages; the buy-in, which waits for
    the hand's end, too."""
    service, store = new_service()
    t = await dealt(service)
    for name, value in (("kush_per_point", "5"), ("hand_seconds", "60"), ("min_buy_in", "300")):
        assert not (await say(service, name, value)).alert
    assert (t.options.kush_per_point, t.options.hand_seconds, t.min_buy_in) == (1, 120, 200)
    en = (await say(service)).screen
    ru = (await say(service, actor=BORIS)).screen
    assert en is not None and ru is not None
    lines = en.text.split("\n")
    keeps = tr("en", "settings.in_force_match", value="1")
    assert f"Kush per point (kush_per_point): 5 (default 1){keeps}" in lines, lines
    keeps = tr("en", "settings.in_force_match", value="120 s")
    assert f"Time per hand (hand_seconds): 60 s (default 120 s){keeps}" in lines, lines
    keeps = tr("en", "settings.in_force_hand", value="200")
    assert f"Buy-in (min_buy_in): 300 (default 200){keeps}" in lines, lines
    lines = ru.text.split("\n")
    keeps = tr("ru", "settings.in_force_match", value="1")
    assert f"Куш за очко: 5 (по умолчанию 1){keeps}" in lines, lines
    assert keeps.startswith(" (") and "1" in keeps
    # set back before it applies: nothing waits, nothing more is said
    assert not (await say(service, "kush_per_point", "default")).alert
    en = (await say(service)).screen
    assert en is not None
    assert not any(line.startswith("Kush per point") for line in en.text.split("\n"))
    assert await check_store(store) == []


async def test_r6_6_a_setting_set_back_to_default_mid_hand_is_listed_while_it_waits() -> None:
    """A value in force (5) that an admin sets back to its default (1) during a hand waits
    for the match's end: the short list left it out as "at its default" while the table
    played 5."""
    service, store = new_service()
    await service.new_table(GROUP, ALICE)
    assert not (await say(service, "kush_per_point", "5")).alert
    t = service.table_in(GROUP)
    assert t is not None and t.options.kush_per_point == 5  # (no hand: at once)
    for actor in (ALICE, BORIS):
        assert not (await service.join(GROUP, actor)).alert
        assert not (await service.ready(GROUP, actor)).alert
    assert t.hand is not None
    assert not (await say(service, "kush_per_point", "default")).alert
    assert t.options.kush_per_point == 5 and t.pending_options is not None
    en = (await say(service)).screen
    assert en is not None
    keeps = tr("en", "settings.in_force_match", value="5")
    assert f"Kush per point (kush_per_point): 1 (default){keeps}" in en.text.split("\n"), en.text
    assert await check_store(store) == []
