"""fix41b: a Chinese Poker tournament's game ended by a player leaving between hands (R7.6,
R8.7) is checked as the cash table's is (the leaver in the game) and recorded as a history
entry of its own, as a cash table's game ended so is (``dealing.end_game``)."""

from __future__ import annotations

import dataclasses

import pytest

from storage.check import check_store
from tests.bot.test_brk76_tournaments import _first_hand_over
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, leave_now
from tests.bot.test_tournament_service import a_chinese_tournament_started, configure, new_service


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r7_6_r8_7_a_game_a_leaver_ends_has_a_history_entry_of_its_own(lang: str) -> None:
    """Carol leaves a Chinese Poker tournament between hands (brk76's case): the game ends
    and is settled between Alice and Bob in chips (R7.6, R8.7). A cash table's game ended
    so is a history entry of its own (``dealing.end_game``); this one had none: ``/history``
    showed the hand, never the chips the game's end moved. It lists it now, in chips (no
    kush moved), and the store stays consistent."""
    service, presenter, store, clock = new_service(next_hand_delay=30)
    await configure(service, game="chinese", target_points="40", tournament_chips="1000")
    await a_chinese_tournament_started(service, presenter)
    await _first_hand_over(service, presenter, clock)
    t = service.table_in(GROUP)
    assert t is not None and t.chinese is not None and dict(t.chinese.totals) == {0: 13, 1: 9, 2: 2}
    assert not (await leave_now(service, GROUP, CAROL)).alert
    assert t.chinese is None and t.tournament is not None
    assert t.tournament.chips == {0: 1040, 1: 960}
    assert t.shown_no == 1 and t.apart == 1  # (the entry takes no hand number players see)
    expected = {
        "en": {
            ALICE: [
                "Your last hands:",
                "#2 · Tournament #1, the Chinese Poker game settled: +40 chips",
                "#1 · Tournament #1, hand 1: +13 pts, 0 chips",
            ],
            BOB: [
                "Your last hands:",
                "#2 · Tournament #1, the Chinese Poker game settled: −40 chips",
                "#1 · Tournament #1, hand 1: +9 pts, 0 chips",
            ],
        },
        "ru": {
            ALICE: [
                "Ваши последние раздачи:",
                "#2 · Турнир #1, расчёт игры в китайский покер: +40 фишек",
                "#1 · Турнир #1, раздача 1: +13 очков, 0 фишек",
            ],
            BOB: [
                "Ваши последние раздачи:",
                "#2 · Турнир #1, расчёт игры в китайский покер: −40 фишек",
                "#1 · Турнир #1, раздача 1: +9 очков, 0 фишек",
            ],
        },
    }[lang]
    for actor, lines in expected.items():
        reply = await service.history(GROUP, dataclasses.replace(actor, language=lang))
        assert reply.text.splitlines()[:3] == lines, reply.text
    # Carol's points were dropped with her chips (R8.7): the entry is not hers
    carol = (await service.history(GROUP, CAROL)).text
    assert "the Chinese Poker game settled" not in carol, carol
    assert await check_store(store) == []
