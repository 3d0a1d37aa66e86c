"""/stats of a player who played Chinese Poker only (fixsmall): its points (R7.1) are no net
and are left out of the open-face points per hand, which then had no hand to average and read
"points/hand —" ("за раздачу: — очков")."""

from __future__ import annotations

from bot.service import stats as stats_mod
from storage.api import BuyIn, Settlement
from tests.storage.helpers import AnyStore, seated
from tests.storage.test_stats import chinese_record


async def test_r7_1_a_chinese_poker_only_player_reads_no_open_face_points(
    store: AnyStore,
) -> None:
    """a and b play one Chinese Poker hand (a: 22 points, 15 bonus; b: 0), a wins 44 kush:
    a's /stats names no open-face points per hand and gives Chinese Poker's, 22.0."""
    s = await seated(store, 2)
    a, b = s.ids
    await store.commit(s.table.id, [BuyIn(a, 200), BuyIn(b, 200)], {}, key="k:0")
    hand, result = chinese_record()
    result = {**result, "kush": {"0": 44, "1": -44}}
    settle = Settlement(1, hand, result, {0: a, 1: b}, {a: 44, b: -44})
    await store.commit(s.table.id, [settle], {}, key="k:1")
    mine = await store.player_stats(a)
    assert (mine.hands, mine.chinese_hands, mine.chinese_points, mine.kush) == (1, 1, 22, 44)
    en = stats_mod._stats_lines(mine, "en", "kush", group=False)
    assert en[0] == "Hands: 1 · kush/hand +44.0"
    assert "Chinese Poker points/hand 22.0" in "\n".join(en)
    assert "—" not in "\n".join(en)
    ru = stats_mod._stats_lines(mine, "ru", "kush", group=False)
    assert ru[0] == "Раздач: 1 · за раздачу: +44,0 куша"
    assert "очки китайского покера за раздачу: 22,0" in "\n".join(ru)
    assert "—" not in "\n".join(ru)
    theirs = stats_mod._stats_lines(await store.player_stats(b), "en", "kush", group=False)
    assert theirs[0] == "Hands: 1 · kush/hand -44.0"
    assert "Chinese Poker points/hand 0.0" in "\n".join(theirs)
