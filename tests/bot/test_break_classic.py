"""A break-it round on classic OFC and Chinese Poker off the happy path: settings changed
between hands, players leaving, timeouts, restarts (issue: the less-played games)."""

from __future__ import annotations

import dataclasses

from bot.model import Actor
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_service_classic import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    auto_street,
    chinese_after_one_hand,
    configure,
    play_hand,
    start,
)


async def test_r7_6_a_target_lowered_to_a_players_points_ends_the_game_under_way() -> None:
    """Chinese Poker to 200: after a hand Alice has 22 points, and an admin lowers
    ``target_points`` to 20 between hands. The game under way kept playing to 200 while the
    reveal showed "22/20 pts" and ``/rules`` said 20: a player has reached the target, so the
    game is over now and settled on its points (R7.6), and the next hand starts a new game
    to 20."""
    service, presenter, store, clock, t = await chinese_after_one_hand()
    reply = await service.settings(GROUP, ALICE, True, ["target_points", "20"])
    assert reply.text.startswith(("Saved: ", "Already so: ")), reply.text
    assert t.chinese is None and t.options.target_points == 20
    assert {s: st.stack for s, st in t.seats.items()} == {0: 222, 1: 178}
    hands = await store.export_hands(t.id)
    assert [bool(h["result"].get("game_end")) for h in hands] == [False, True]
    assert hands[1]["result"]["kush"] == {"0": 22, "1": -22}
    said = tr("en", "reveal.game_over_early", table=t.id, moves="Alice +22 kush, Bob −22 kush")
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
    assert reply.text.startswith(("Saved: ", "Already so: ")), reply.text
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


async def test_r7_6_history_names_a_chinese_games_settlement_not_a_hand() -> None:
    """Chinese Poker: Alice wins the first hand 22–0 and Bob leaves between hands, which ends
    the game and settles it (R7.6) as a history entry of its own. ``/history`` listed it as
    "Table 1, hand 2: 0 pts, +22 kush": a hand nobody was dealt (the table's next hand is
    hand 3), with no points. It says what it is: the game's settlement and its kush."""
    service, _presenter, _store, _clock, t = await chinese_after_one_hand()
    assert not (await service.leave(GROUP, BOB)).alert
    lines = (await service.history(GROUP, ALICE)).text.splitlines()
    assert lines[1] == "#2 · " + tr(
        "en", "reply.history_game_end", table=t.id, kush=22, label="kush"
    )
    assert lines[1] == "#2 · Table #1, the Chinese Poker game settled: +22 kush"
    # the hand itself moved no kush: it says where the game stood (R7.6)
    assert lines[2] == "#1 · Table #1, hand 1: +22 pts, game 22/200 · settled when the game ends"


async def test_r8_3_history_names_a_rounds_early_settlement_not_a_hand() -> None:
    """Classic OFC with ``settle_per_round`` (R8.3) for three: after the first hand Carol
    leaves and the round's points are settled early, an entry of its own. ``/history`` called
    it "hand 2" with 0 points; it says the round was settled and the kush it moved."""
    service, presenter, store, _clock = service_env(next_hand_delay=5)
    await configure(service, game="ofc", settle_per_round="on", fantasyland="off")
    await start(service, [ALICE, BOB, CAROL], "ofc")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand(service, presenter, [ALICE, BOB, CAROL])
    assert t.hand is None and t.match is not None and t.match.round_pairs
    assert not (await service.leave(GROUP, CAROL)).alert
    entry = (await store.export_hands(t.id))[1]
    assert entry["result"].get("round_end") is True
    kush = entry["result"]["kush"]["0"]
    lines = (await service.history(GROUP, ALICE)).text.splitlines()
    said = tr("en", "reply.history_round_end", table=t.id, kush=kush, label="kush")
    assert lines[1] == f"#{entry['id']} · {said}"
    assert "hand 2" not in lines[1] and "round settled" in lines[1]
    ru = tr("ru", "reply.history_round_end", table=1, kush=-5, label="kush")
    assert ru == "Стол #1, расчёт круга: −5 кушей"


async def _fantasyland_replay(players: list[Actor]) -> str:
    """Classic OFC for ``players``, the second hand with the first seat in Fantasyland (R6.2:
    13 cards), played out; returns the first frame of that hand's ``/replay`` as its
    Fantasyland player reads it."""
    service, presenter, store, clock = service_env(next_hand_delay=5)
    await configure(service, game="ofc")
    await start(service, players, "ofc")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand(service, presenter, players)
    assert t.match is not None
    t.match = dataclasses.replace(t.match, fantasyland={0: 13}, match_over=False)
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and t.hand.is_fantasyland(0)
    await play_hand(service, presenter, players)
    player = t.seats[0]
    entry = (await store.hand_history(player.player_id, 1))[0]
    fl = next(a for a in players if a.user_id == player.user_id)
    assert not (await service.replay(GROUP, fl, str(entry.id))).alert
    return presenter.last_private(fl.user_id).text


async def test_r6_3_a_heads_up_fantasyland_replay_says_it_was_set_during_the_streets() -> None:
    """R6.3: heads-up, the Fantasyland player arranges while the other plays the streets
    (every player but one in Fantasyland: all play at once). The replay told its player their
    board was "set after the others' streets", which is the three-player order; it says it
    was set while the other played theirs."""
    text = await _fantasyland_replay([ALICE, BOB])
    assert "set while the others played their streets" in text
    assert "after the others' streets" not in text


async def test_r6_3_a_three_player_fantasyland_replay_says_it_was_set_after_the_streets() -> None:
    """R6.3 with two ordinary players: they play the streets first, then the Fantasyland
    player arranges; the replay says so."""
    text = await _fantasyland_replay([ALICE, BOB, CAROL])
    assert "set after the others' streets" in text
    assert "while the others played" not in text


async def test_r7_2_a_chinese_replay_counts_the_bonus_in_the_points() -> None:
    """R7.2: Alice's first Chinese Poker hand scores 22 points, 15 of them the strength bonus
    (AAA on top 10, a full house in the middle 1, a straight flush at the bottom 4). Her
    ``/replay`` read "+22 pts · … · royalties 15": 15 more, as an open-face game's royalties
    are paid on top. It says the bonus is part of the points."""
    service, presenter, store, _clock, t = await chinese_after_one_hand()
    entry = (await store.hand_history(t.seats[0].player_id, 1))[0]
    assert not (await service.replay(GROUP, ALICE, str(entry.id))).alert
    text = presenter.last_private(ALICE.user_id).text
    you = text.splitlines().index(tr("en", "replay.you") + ":")
    notes = text.splitlines()[you + 4]
    assert notes.startswith("  +22 pts · game 22/200 ·"), notes
    assert notes.endswith(" · bonus 15 included") and "royalties" not in text
    assert tr("ru", "replay.bonus", n=15) == "в т. ч. бонус 15"


async def test_r4_2_history_sums_a_players_two_boards_not_a_seat_number() -> None:
    """Classic OFC with ``heads_up_double_boxes`` (R4.2): Alice plays board seats 0 and 1,
    Bob 10 and 11. ``/history`` read the result of the board whose seat number is the
    player's table seat: Alice saw her first board's points alone, and Bob (table seat 1)
    saw Alice's second board's points and foul as his own. Each line is the player's own
    two boards together, as ``/stats`` and the kush have it (R5.1: the two add up to 0)."""
    service, presenter, store, _clock = service_env()
    await configure(service, game="ofc", heads_up_double_boxes="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.owners == {0: 0, 1: 0, 10: 1, 11: 1}
    await play_hand(service, presenter, [ALICE, BOB])
    entry = (await store.export_hands(t.id))[0]
    by_seat = {r["seat"]: r for r in entry["result"]["seats"]}
    alice = by_seat[0]["points"] + by_seat[1]["points"]
    bob = by_seat[10]["points"] + by_seat[11]["points"]
    assert alice == -bob and by_seat[1]["points"] != 0  # (the deck makes the old line wrong)
    kush = entry["result"]["kush"]
    for who, points, own, seat in ((ALICE, alice, (0, 1), "0"), (BOB, bob, (10, 11), "1")):
        foul = " 💀" if any(by_seat[s]["fouled"] for s in own) else ""
        said = tr("en", "reply.history_line", table=t.id, hand=1, points=points,
                  kush=kush[seat], label="kush", foul=foul)  # fmt: skip
        lines = (await service.history(GROUP, who)).text.splitlines()
        assert lines[1] == f"#{entry['id']} · {said}", (who.name, lines)


async def test_r4_2_stats_count_fouls_of_boards_and_say_so() -> None:
    """With ``heads_up_double_boxes`` (R4.2) a hand is two boards a player: ``/stats`` read
    "Hands: 1" and "Fouls: 0% (0 of 2)", two counts of one thing to a player. The fouls are
    counted per board, and the line says boards (EN and RU)."""
    service, presenter, _store, _clock = service_env()
    await configure(service, game="ofc", heads_up_double_boxes="on")
    await start(service, [ALICE, BOB], "ofc")
    await play_hand(service, presenter, [ALICE, BOB])
    lines = (await service.stats(GROUP, ALICE, ["me"])).text.splitlines()
    assert lines[1].startswith("Hands: 1 · "), lines
    assert lines[2].startswith("Fouls: ") and " of 2 boards)" in lines[2], lines
    group = (await service.stats(GROUP, ALICE, [])).text.splitlines()
    assert group[1] == "Hands: 1 · players: 2" and " of 4 boards)" in group[2], group
    assert tr("ru", "stats.fouls", pct="0%", fouls=0, boards=2) == "Мёртвые руки: 0% (0 из 2 досок)"
    assert (
        tr("ru", "stats.fouls", pct="0%", fouls=0, boards=21) == "Мёртвые руки: 0% (0 из 21 доски)"
    )
    assert tr("en", "stats.fouls", pct="0%", fouls=0, boards=1) == "Fouls: 0% (0 of 1 board)"
