"""fix40b: three wording leftovers.

1. Chinese Poker (R7.6): a player an admin's ``/kick`` stood up during a hand (or its
   reveal) stands up when the game to the target ends, and was told so when kicked; as it
   ended they were told in private "The hand at table #N is over: you stood up …". Now
   "The game to 51 at table #N is over: …" (Russian likewise).
"""

from __future__ import annotations

import pytest

from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.test_fix39k import _chinese_kick
from tests.bot.test_service_classic import ALICE, BOB, GROUP, auto_street


@pytest.mark.parametrize("when", ["hand", "reveal"])
async def test_r7_6_a_chinese_player_kicked_is_told_the_game_ended_as_they_stand_up(
    when: str,
) -> None:
    """Bob kicked mid-hand (or during the reveal) of a game to 51: as the game ends with the
    hand he stands up, and his last private notice names the game, not "the hand"."""
    service, presenter, _store, clock = service_env()
    try:
        await _chinese_kick(service, presenter, when)
        t = service.table_in(GROUP)
        assert t is not None
        seat = t.seat_of(BOB.user_id)
        assert seat is not None and seat.kicked
        stack = seat.stack
        before = len(presenter.privates.get(BOB.user_id, []))
        if when == "hand":
            await auto_street(service, presenter, ALICE)
        for _ in range(6):
            clock.now += 60
            await service.run_due()
        assert t.seat_of(BOB.user_id) is None and t.chinese is None
        told = [s.text for s in presenter.privates.get(BOB.user_id, [])[before:]]
        told = [s for s in told if "admin" in s]
        assert len(told) == 1, told
        assert told[0].startswith(
            f"The game to 51 at table #{t.id} is over: you stood up, as an admin asked"
        ), told
        assert "The hand" not in told[0]
        assert stack > 0  # (his stack, settled by the game, came back: the line says how much)
        assert told[0].endswith(" back to your balance."), told
    finally:
        await service.stop()


def test_the_chinese_stood_up_texts_in_both_languages() -> None:
    assert tr(
        "en", "private.kicked_stood_up_chinese", table=7, target=51, amount=40, label="kush"
    ) == (
        "The game to 51 at table #7 is over: you stood up, as an admin asked; 40 kush back "
        "to your balance."
    )
    assert tr("en", "private.kicked_stood_up_nothing_chinese", table=7, target=51) == (
        "The game to 51 at table #7 is over: you stood up, as an admin asked."
    )
    assert tr(
        "ru", "private.kicked_stood_up_chinese", table=7, target=51, amount=40, label="куш"
    ) == (
        "Игра до 51 очка за столом #7 окончена: вы встали из-за стола, как решил админ; "
        "возвращено на баланс: 40 кушей."
    )
    assert tr("ru", "private.kicked_stood_up_nothing_chinese", table=7, target=100) == (
        "Игра до 100 очков за столом #7 окончена: вы встали из-за стола, как решил админ."
    )
