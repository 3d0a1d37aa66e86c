"""Classic Chinese Poker (R7) when an admin changes ``target_points`` during a hand: the
game under way plays to the new target from the end of that hand (R7.1), and a player who
has reached it then ends the game with that hand, settled in its record (R7.6)."""

from __future__ import annotations

import dataclasses

from bot.model import LiveTable
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service_classic import (
    ALICE,
    BOB,
    GROUP,
    auto_street,
    chinese_after_one_hand,
    chinese_hand_arranged,
)


async def test_r7_6_a_target_lowered_during_a_hand_ends_the_game_with_that_hand() -> None:
    """Chinese Poker to 200: during the first hand's reveal an admin lowers
    ``target_points`` to 20, and the hand gives Alice 22 points. The game went on after
    the reveal ("22/200") and was settled and announced only as the next hand was dealt; it
    is over at the end of the reveal that reached the target: the reveal says so with each
    player's kush, the hand's own record settles it (no entry of its own), and the next
    hand starts a new game to 20."""
    service, presenter, store, clock, t = await chinese_hand_arranged()
    reply = await service.settings(GROUP, ALICE, True, ["target_points", "20"])
    assert tr("en", "settings.target_next_hand", target=20) in reply.text, reply.text
    for _ in range(4):
        await service.run_due()
    assert t.hand is None and t.chinese is None  # over, before any next deal
    assert {s: st.stack for s, st in t.seats.items()} == {0: 222, 1: 178}
    hands = await store.export_hands(t.id)
    assert len(hands) == 1 and hands[0]["result"]["kush"] == {"0": 22, "1": -22}
    game = hands[0]["result"]["chinese"]
    assert (game["target"], game["over"], game["totals"]) == (20, True, {"0": 22, "1": 0})
    reveal = next(s.text for s in reversed(presenter.tables[GROUP.chat_id]) if "hand 1" in s.text)
    # said once: "🏆 … so the game ends here." then only that it is settled; the frames all
    # show the target the hand was played to, the last one the new target it reached (fix39g:
    # "(target 20)" in the last frame under frames of "(target 200)")
    reached = "🏆 Alice reached the game's new target, 20 points, so the game ends here."
    assert reached + "\nThe game is settled." in reveal, reveal
    assert tr("en", "reveal.game_over") not in reveal, reveal
    assert "Alice · 22 pts (target 200)" in reveal, reveal
    assert not any("over" in text for _, text in presenter.posts), presenter.posts
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2
    assert t.chinese is not None and t.chinese.target == 20 and not t.chinese.totals
    assert not any("over" in text for _, text in presenter.posts), presenter.posts
    assert await check_store(store) == []


async def test_r7_1_between_hands_the_table_shows_the_target_lowered_during_the_hand() -> None:
    """Chinese Poker to 200: during the first hand an admin lowers ``target_points`` to 30,
    and Alice ends the hand with 22. Between hands the table message showed "🎯 Game to
    200: Alice 22 · Bob 0" while the game plays to 30 from the next hand (the admin was told
    so, and ``/rules`` says 30): it shows 30."""
    service, presenter, store, _clock, t = await chinese_hand_arranged()
    assert not (await service.settings(GROUP, ALICE, True, ["target_points", "30"])).alert
    for _ in range(4):
        await service.run_due()
    assert t.hand is None and t.chinese is not None and t.chinese.totals == {0: 22, 1: 0}
    assert t.chinese.target == 30 and not t.chinese.over
    lobby = presenter.last_table(GROUP.chat_id).text
    score = tr("en", "chinese.score", target=30, scores="Alice 22 · Bob 0")
    assert score in lobby.splitlines(), lobby
    assert "Game to 30: Alice 22 · Bob 0" in score
    ru = tr("ru", "chinese.score", target=30, scores="Alice 22 · Bob 0")
    assert ru == "🎯 Игра до 30 очков: Alice 22 · Bob 0"
    assert await check_store(store) == []


async def test_r7_6_hand_numbers_players_see_skip_no_number_for_a_games_settlement() -> None:
    """Chinese Poker to 200: after hand 1 an admin lowers ``target_points`` to 20 between
    hands, which ends the game and settles it (R7.6) as a history entry of its own, stored
    under the table's number 2. The next hand read "hand 3" in its titles, ``/history`` and
    ``/replay`` (hand 1, then hand 3): it is hand 2 everywhere players see it, while
    storage keeps its own numbers (the entry's 2, the hand's 3: no row renumbered)."""
    service, presenter, store, clock, t = await chinese_after_one_hand()
    assert not (await service.settings(GROUP, ALICE, True, ["target_points", "20"])).alert
    assert t.chinese is None and (t.hand_no, t.shown_no) == (2, 1)
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and (t.hand_no, t.shown_no) == (3, 2)
    board = tr("en", "board.title", game=tr("en", "game.chinese"), table=t.id, hand=2)
    assert presenter.last_table(GROUP.chat_id).text.splitlines()[0] == board
    assert board == "🃏 Chinese Poker · table #1 · hand 2"
    for who in (ALICE, BOB):
        screen = presenter.last_private(who.user_id).text
        # (a Chinese Poker private hand is titled with the table's header, fixnu39)
        assert screen.splitlines()[0] == board
        await auto_street(service, presenter, who)
    for _ in range(4):
        await service.run_due()
    titles = [s.text.splitlines()[0] for s in presenter.tables[GROUP.chat_id]]
    assert tr("en", "reveal.title", table=t.id, hand=2) in titles, titles
    assert tr("en", "reveal.title", table=t.id, hand=3) not in titles, titles
    hands = await store.export_hands(t.id)
    assert [h["number"] for h in hands] == [1, 2, 3]  # storage's keys, as before
    assert [h["result"].get("shown_no") for h in hands] == [None, None, 2]
    lines = (await service.history(GROUP, ALICE)).text.splitlines()
    assert lines[1].startswith(f"#{hands[2]['id']} · Table #1, hand 2: "), lines
    assert lines[3].startswith(f"#{hands[0]['id']} · Table #1, hand 1: "), lines
    ru = dataclasses.replace(ALICE, language="ru")
    lines = (await service.history(GROUP, ru)).text.splitlines()
    assert lines[1].startswith(f"#{hands[2]['id']} · Стол #1, раздача 2: "), lines
    assert not (await service.replay(GROUP, ALICE, str(hands[2]["id"]))).alert
    title = presenter.last_private(ALICE.user_id).text.splitlines()[0]
    assert title == tr("en", "replay.title", n=hands[2]["id"], table=t.id, hand=2)
    assert title == f"🎬 #{hands[2]['id']} · table #1 · hand 2"
    # a restart keeps the count: the table restored from its snapshot shows hand 2 too
    restored = LiveTable.from_json(t.to_json(), clock.now)
    assert (restored.hand_no, restored.apart, restored.shown_no) == (3, 1, 2)
    assert await check_store(store) == []


async def test_r7_stats_of_chinese_poker_alone_name_no_scoops() -> None:
    """``/stats`` of a player and of a group that played only Chinese Poker read "Scoops: 1
    · biggest win: …": scoops (winning all three boxes, R5.2's +3) are no Chinese Poker term
    (R7 has no sweep bonus: R7.3 is a point for two boxes of three), so the line names the
    biggest win alone, in English and Russian."""
    service, _presenter, store, _clock, _t = await chinese_after_one_hand()
    assert not (await service.leave(GROUP, BOB)).alert  # the game ends: +22 kush to Alice
    for actor, best, gone in (
        (ALICE, "Biggest win: +22 kush", "Scoops"),
        (dataclasses.replace(ALICE, language="ru"), "Крупнейший выигрыш: +22 куша", "Скуп"),
    ):
        text = (await service.stats(GROUP, actor, ["me"])).text
        assert best in text.splitlines(), text
        assert gone not in text, text
        group = (await service.stats(GROUP, actor, [])).text
        assert gone not in group, group
    group = (await service.stats(GROUP, ALICE, [])).text
    assert "Biggest win: +22 kush (Alice)" in group.splitlines(), group
    assert tr("ru", "stats.biggest", best="—") == "Крупнейший выигрыш: —"
    assert await check_store(store) == []
