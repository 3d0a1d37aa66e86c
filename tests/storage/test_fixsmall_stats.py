"""/stats of a player who played Chinese Poker only (fixsmall): its points (R7.1) are no net
and are left out of the open-face points per hand, which then had no hand to average and read
"points/hand —" ("за раздачу: — очков")."""

from __future__ import annotations

from bot.service import stats as stats_mod
from storage.api import BuyIn, Settlement
from tests.storage.helpers import AnyStore, seated
from tests.storage.test_stats import chinese_record, play_two, scripted_record


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
    assert "Chinese Poker points/hand 22.0" in en
    assert "—" not in "\n".join(en)
    ru = stats_mod._stats_lines(mine, "ru", "kush", group=False)
    assert ru[0] == "Раздач: 1 · за раздачу: +44,0 куша"
    assert "Очки китайского покера за раздачу: 22,0" in ru
    assert "—" not in "\n".join(ru)
    theirs = stats_mod._stats_lines(await store.player_stats(b), "en", "kush", group=False)
    assert theirs[0] == "Hands: 1 · kush/hand −44.0"
    assert "Chinese Poker points/hand 0.0" in "\n".join(theirs)


async def play_chinese_tournament_hand(store: AnyStore, a: int, b: int) -> None:
    """a and b play :func:`chinese_record` at a Chinese Poker tournament's table (R8.7): a
    wins 22 game points, b none; chips move at the game's end (R7.6), no kush."""
    s = await seated(store, 2, chat="chat-t")
    assert s.ids == [a, b]
    hand, result = chinese_record()
    result = {**result, "kush": {}, "tournament": {"chips": {"0": 1000, "1": 1000}}}
    await store.commit(s.table.id, [Settlement(1, hand, result, {0: a, 1: b}, {})], {}, key="t:1")


async def test_r8_7_r7_1_a_chinese_tournaments_points_are_no_open_face_points(
    store: AnyStore,
) -> None:
    """A Chinese Poker tournament's hand (R8.7) counts its game points (R7.1: boxes won, no
    net) in the tournament's: b, who lost the hand, read "Tournament hands: 1 · points/hand
    +0.0", and an open-face tournament's net points were averaged with them. Two Pineapple
    tournament hands (a: +38 each) and a Chinese Poker one (a: 22, b: 0): the tournament
    points per hand are the Pineapple ones' (+38.0, not (76 + 22) / 3 = +32.7); the Chinese
    Poker points per hand count the tournament's hand too."""
    community, a, b, _c = await play_two(store)  # (the two hands at a cash table)
    s = await seated(store, 2, chat="chat-p")
    hand, result = scripted_record()
    for n in (1, 2):
        record = {**result, "kush": {}, "tournament": {"chips": {"0": 1038, "1": 962}}}
        await store.commit(s.table.id, [Settlement(n, hand, record, {0: a, 1: b}, {})], {},
                           key=f"p:{n}")  # fmt: skip
    await play_chinese_tournament_hand(store, a, b)
    mine = await store.player_stats(a)
    assert (mine.tournament_hands, mine.tournament_points) == (3, 98)
    assert (mine.tournament_chinese_hands, mine.tournament_chinese_points) == (1, 22)
    assert (mine.chinese_hands, mine.chinese_points) == (0, 0)
    group = await store.community_stats(community)
    assert (group.tournament_chinese_hands, group.tournament_chinese_points) == (1, 22)
    en = stats_mod._stats_lines(mine, "en", "kush", group=False)
    assert en[1] == "Tournament hands: 3 · points/hand +38.0 (chips, balance unchanged)"
    assert "Chinese Poker points/hand 22.0" in "\n".join(en)
    theirs = await store.player_stats(b)
    ru = stats_mod._stats_lines(theirs, "ru", "kush", group=False)
    assert ru[1] == "Турнирных раздач: 3 · за раздачу: −38,0 очка (фишки, баланс не меняется)"
    assert "Очки китайского покера за раздачу: 0,0" in ru


async def test_r8_7_a_chinese_tournament_alone_reads_no_open_face_points(
    store: AnyStore,
) -> None:
    """A player whose only hands are a Chinese Poker tournament's: no points per hand on
    the tournament line (it read "+0.0" for a lost hand), Chinese Poker's on their own."""
    s = await seated(store, 2)
    a, b = s.ids
    await play_chinese_tournament_hand(store, a, b)
    for pid, points in ((a, "22.0"), (b, "0.0")):
        lines = stats_mod._stats_lines(await store.player_stats(pid), "en", "kush", group=False)
        assert lines[0] == "Tournament hands: 1 (chips, balance unchanged)"
        assert lines[-1] == "Chinese Poker points/hand " + points, lines
        ru = stats_mod._stats_lines(await store.player_stats(pid), "ru", "kush", group=False)
        assert ru[0] == "Турнирных раздач: 1 (фишки, баланс не меняется)"
