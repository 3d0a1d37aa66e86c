"""What a new group admin met setting up a Russian tournament and trying it in the sandbox
(nu51, following README and docs/): the lobby's level length written with the decimal sign
of the group's language, and the board's next level as a clock time once the group's time
zone is set."""

from __future__ import annotations

from bot.presses import StartTournament, decode
from bot.render import clock_time
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_tournament_service import configure as tour_configure
from tests.bot.test_tournament_service import new_service as tour_service
from tests.bot.test_tournament_service import open_and_register


async def test_r8_7_the_lobby_writes_a_fractional_level_length_as_its_group_reads_it() -> None:
    """``/settings level_minutes 7,5`` (the help says a fraction is written "7,5" in
    Russian, and the answer echoes "7,5") gave a lobby reading "Уровни по 7.5 мин", a decimal
    point a Russian reader does not write. English keeps its point; whole minutes stay as
    they were ("по 5 мин")."""
    service, presenter = new_service(MemoryStore(), Clock())
    reply = await service.settings(GROUP, ALICE, True, ["level_minutes", "7.5"])
    assert not reply.alert, reply.text
    await service.new_tournament(GROUP, ALICE, "pineapple")
    lobby = presenter.last_table(GROUP.chat_id).text
    assert "Levels of 7.5 min" in lobby, lobby
    await service.settings(GROUP, ALICE, True, ["language", "ru"])  # the lobby follows the group
    lobby = presenter.last_table(GROUP.chat_id).text
    assert "Уровни по 7,5 мин" in lobby, lobby
    assert "7.5" not in lobby, lobby


async def test_r8_7_with_the_group_zone_set_the_board_says_when_the_next_level_begins() -> None:
    """README: once an admin sets the group's time zone (``/settings utc_offset 3``) the
    table message says when a turn ends as a clock time there, since it is written about once
    a move and a duration stands still. A tournament's "next level in 1:00" stood still the
    same way (three seconds before the level still read 1:00); with the zone set it says the
    clock time the next level begins, "next level at 18:46" («следующий в 18:46»). Without a
    zone the duration stays."""
    service, presenter, _store, _clock = tour_service(next_hand_delay=5)
    await tour_configure(service, level_minutes="1", hand_seconds="600", utc_offset="3")
    await open_and_register(service, (ALICE, BOB))
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    start = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if b.data and isinstance(decode(b.data), StartTournament)
    )
    reply = await service.press(ALICE, start, GROUP)
    assert not reply.alert, reply.text
    assert t.hand is not None
    at = clock_time(t.tournament.started_at + 60, 3)
    board = presenter.last_table(GROUP.chat_id).text
    assert tr("en", "tour.status_at", level=1, cpp=10, at=at) in board, board
    assert f"next level at {at}" in board and "next level in" not in board, board
    reply = await service.settings(GROUP, ALICE, True, ["language", "ru"])
    assert not reply.alert, reply.text
    board = presenter.last_table(GROUP.chat_id).text
    assert f"🏆 Уровень 1 · 10 фишек за очко · следующий в {at}" in board, board
    # the zone back to auto: the duration, as before
    await service.settings(GROUP, ALICE, True, ["utc_offset", "auto"])
    await service.settings(GROUP, ALICE, True, ["language", "en"])
    board = presenter.last_table(GROUP.chat_id).text
    assert "next level in 1:00" in board, board
