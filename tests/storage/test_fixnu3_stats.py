"""Chinese Poker's points apart from the open-face games' in the statistics (fixnu3)."""

from __future__ import annotations

from bot.service import stats as stats_mod
from tests.storage.helpers import AnyStore
from tests.storage.test_stats import play_chinese_hand, play_two


async def test_r7_1_chinese_points_are_kept_apart_from_the_open_face_points(
    store: AnyStore,
) -> None:
    """Chinese Poker's points (R7.1) count every box won, never a net against the opponents:
    averaged with the open-face games' net points (R5.1) they read "+2.1 points/hand" to a
    player losing 6.4 kush a hand. Two Pineapple hands (a: +38 each) and one Chinese Poker
    hand (a: 22 game points, b: 0): the points per hand are the Pineapple hands' (+38.0, not
    (76 + 22) / 3 = +32.7), the Chinese Poker ones a figure of their own."""
    community, a, b, _c = await play_two(store)
    await play_chinese_hand(store, a, b)
    mine = await store.player_stats(a)
    assert (mine.hands, mine.points, mine.chinese_hands, mine.chinese_points) == (3, 98, 1, 22)
    theirs = await store.player_stats(b)
    assert (theirs.hands, theirs.points, theirs.chinese_hands, theirs.chinese_points) == (
        3, -76, 1, 0
    )  # fmt: skip
    group = await store.community_stats(community)
    assert (group.hands, group.chinese_hands, group.chinese_points) == (3, 1, 22)
    lines = stats_mod._stats_lines(mine, "en", "kush", group=False)
    assert lines[0] == "Hands: 3 · points/hand +38.0 · kush/hand +25.3"
    assert lines[1:5] == [
        "Fouls: 0% (0 of 3 boards)",
        "Royalties/hand 32.0",
        "Strength bonus/hand 15.0",
        "Chinese Poker points/hand 22.0",
    ]
    ru = stats_mod._stats_lines(mine, "ru", "abc", group=False)
    assert ru[0] == "Раздач: 3 · за раздачу: +38,0 очка, +25,3 abc"
    assert ru[4] == "Очки китайского покера за раздачу: 22,0"
