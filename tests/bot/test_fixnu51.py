"""What a new group admin met setting up a Russian tournament and trying it in the sandbox
(nu51, following README and docs/): the lobby's level length written with the decimal sign
of the group's language."""

from __future__ import annotations

from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service
from tests.bot.test_service import ALICE, GROUP


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
