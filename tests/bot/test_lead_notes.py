"""Small things the lead noticed (ux2): each with the behaviour it needs, in-memory store,
a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from typing import Any

from bot.service import stats as stats_mod
from storage.api import HandStats
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import GROUP as CLASSIC
from tests.bot.test_service_classic import first_chinese_hand


async def test_r6_stats_of_a_chinese_poker_only_player_have_no_fantasyland_line(
    env: Any,
) -> None:
    """A player who only ever played Chinese Poker read "Fantasyland: entered —" in /stats
    (the group's figures too): Chinese Poker has no Fantasyland (R6 is the open-face
    games'). The line is left out then, and kept for whoever played an open-face hand."""
    service, presenter, _store, _clock = env
    await first_chinese_hand(service, presenter)
    reply = await service.stats(CLASSIC, C_ALICE, ["me"])
    lines = reply.text.splitlines()
    assert lines[0] == "📊 Alice · all time"
    assert not [line for line in lines if "Fantasyland" in line], reply.text
    assert any(line.startswith("Fouls: ") for line in lines), reply.text
    group = await service.stats(CLASSIC, C_ALICE)
    assert "Fantasyland" not in group.text, group.text
    # one open-face hand besides: the line is there, with its figures
    mixed = HandStats(hands=3, players=1, boards=3, fl_chances=1, fl_entered=1, bonus_boards=2)
    lines = stats_mod._stats_lines(mixed, "en", "kush", group=False)
    assert lines[-1] == "Fantasyland: entered 100%"
    ru = stats_mod._stats_lines(mixed, "ru", "kush", group=False)
    assert ru[-1] == "Фантазия: попадание 100%"
    chinese = HandStats(hands=2, players=1, boards=2, bonus_boards=2)
    assert [line for line in stats_mod._stats_lines(chinese, "ru", "kush", group=False)
            if "Фантазия" in line] == []  # fmt: skip
    # nothing played at all: as before
    assert stats_mod._stats_lines(HandStats(), "en", "kush", group=False)[-1] == (
        "Fantasyland: entered —"
    )
