"""A break-it round on classic OFC and Chinese Poker off the happy path: settings changed
between hands, players leaving, timeouts, restarts (issue: the less-played games)."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service_classic import ALICE, BOB, GROUP, auto_street, chinese_after_one_hand


async def test_r7_6_a_target_lowered_to_a_players_points_ends_the_game_under_way() -> None:
    """Chinese Poker to 200: after a hand Alice has 22 points, and an admin lowers
    ``target_points`` to 20 between hands. The game under way kept playing to 200 while the
    reveal showed "22/20 pts" and ``/rules`` said 20: a player has reached the target, so the
    game is over now and settled on its points (R7.6), and the next hand starts a new game
    to 20."""
    service, presenter, store, clock, t = await chinese_after_one_hand()
    reply = await service.settings(GROUP, ALICE, True, ["target_points", "20"])
    assert "Saved" in reply.text, reply.text
    assert t.chinese is None and t.options.target_points == 20
    assert {s: st.stack for s, st in t.seats.items()} == {0: 222, 1: 178}
    hands = await store.export_hands(t.id)
    assert [bool(h["result"].get("game_end")) for h in hands] == [False, True]
    assert hands[1]["result"]["kush"] == {"0": 22, "1": -22}
    said = tr("en", "reveal.game_over_early", table=t.id, moves="Alice +22, Bob -22")
    assert presenter.posts[-1] == (GROUP.chat_id, said), presenter.posts[-3:]
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 3  # (the game's end is an entry of its own)
    assert t.chinese is not None and t.chinese.target == 20 and not t.chinese.totals
    assert await check_store(store) == []


async def test_r7_1_a_new_target_above_the_points_applies_to_the_game_under_way() -> None:
    """Chinese Poker to 200, Alice at 22 points: an admin sets ``target_points`` 30 between
    hands. The game under way takes it (the reveal shows "/30 pts" and ``/rules`` says 30):
    it no longer plays on to 200 under a target of 30 shown everywhere."""
    service, presenter, store, clock, t = await chinese_after_one_hand()
    reply = await service.settings(GROUP, ALICE, True, ["target_points", "30"])
    assert "Saved" in reply.text, reply.text
    assert t.chinese is not None and t.chinese.totals == {0: 22, 1: 0}
    assert t.chinese.target == 30 and not t.chinese.over
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and t.chinese.target == 30
    for who in (ALICE, BOB):
        await auto_street(service, presenter, who)
    for _ in range(4):
        await service.run_due()
    game = (await store.export_hands(t.id))[1]["result"]["chinese"]
    assert game["target"] == 30
    assert game["over"] is (max(game["totals"].values()) >= 30)
    assert await check_store(store) == []
