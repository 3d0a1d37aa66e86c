"""Small things the lead noticed (ux2): each with the behaviour it needs, in-memory store,
a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from typing import Any

from bot.service import stats as stats_mod
from bot.texts import tr
from storage.api import HandStats
from tests.bot.test_ready_window import DAVE
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, seated
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


async def test_r8_2_a_late_joiner_gets_the_ready_seconds_an_admin_just_set(env: Any) -> None:
    """R8.2: an admin set ``ready_seconds`` 20 during a hand ("from the next hand"); Carol,
    who sat down during that hand, still got the old 60 s to press Ready. The time to press
    Ready is the admins' latest, as a newcomer's time bank is (R8.5)."""
    service, presenter, _store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await service.settings(GROUP, ALICE, True, ["ready_seconds", "20"])
    assert not reply.alert, reply.text
    assert t.options.ready_seconds == 60  # the hand being played keeps its options
    start = clock.now
    assert not (await service.join(GROUP, CAROL)).alert
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.ready_by == start + 20
    window = tr("en", "lobby.ready_window", name="Carol", seconds=20)
    assert window in presenter.last_table(GROUP.chat_id).text
    clock.now += 20
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None  # stood up after the new 20 s
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert not (await service.join(GROUP, DAVE)).alert  # the seat is free again
