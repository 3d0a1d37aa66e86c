"""Classic Chinese Poker (R7) when an admin changes ``target_points`` during a hand: the
game under way plays to the new target from the end of that hand (R7.1), and a player who
has reached it then ends the game with that hand, settled in its record (R7.6)."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service_classic import ALICE, GROUP, chinese_hand_arranged


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
    assert tr("en", "reveal.game_over") in reveal, reveal
    assert "22/20" in reveal.replace(" ", ""), reveal
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
