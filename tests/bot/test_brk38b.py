"""brk38b break-it findings on fixnu38/fixnu38b (the two-of-three point with the middle reveal,
R7.3/R7.5; settings listing; the auto time zone)."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.service import TableService
from storage.check import check_store
from tests.bot.test_break4 import _claim_button
from tests.bot.test_service_classic import ALICE, GROUP, chinese_hand_arranged


async def test_r7_3_a_reveal_saved_after_its_middle_by_the_older_version_keeps_the_point() -> None:
    """Chinese Poker to 200: Alice beats Bob in every box (22 points: 2+2+2 of comparisons,
    her bonuses, and 1 for two of three, R7.3). The bot is upgraded while the hand is being
    revealed, after the middle: the older version counted the middle without the two-of-three
    point (it came with the top), and its snapshot says so. Restarted, the top stage was
    worked out the new way (the point taken off it, counted with the middle that was already
    counted): Alice's game total for the hand was 21, one point short for good (and the
    hand's record said 22 counted)."""
    service, _presenter, store, clock, t = await chinese_hand_arranged("3")
    assert t.reveal is not None and t.reveal["stage"] == 1
    clock.now += 3
    await service.run_due()  # the middle (the new way: with Alice's two-of-three point)
    assert t.reveal is not None and t.reveal["stage"] == 2 and t.chinese is not None
    new_way = dict(t.chinese.totals)
    await service.stop()
    # the snapshot as the older version wrote it after the middle: no mark, the point unpaid
    [(_record, snap)] = [(r, s) for r, s in await store.snapshots() if r.id == t.id]
    old = dict(snap)
    old["reveal"] = {k: v for k, v in dict(snap["reveal"]).items() if k != "two_at_middle"}
    chinese = dict(old["chinese"])
    chinese["totals"] = {**chinese["totals"], "0": new_way[0] - 1}
    old["chinese"] = chinese
    await store.save_snapshot(t.id, old)
    again = TableService(store, clock=clock, rng=random.Random(5), next_hand_delay=5, timers=False)
    await again.start()
    t2 = again.table_in(GROUP)
    assert t2 is not None and t2.reveal is not None and t2.reveal["stage"] == 2
    clock.now += 3
    await again.run_due()  # the top: the hand closes
    hands = await store.export_hands(t.id)
    assert hands[-1]["result"]["chinese"]["totals"] == {"0": 22, "1": 0}
    assert hands[-1]["result"]["counted"] == {"0": 22, "1": 0}
    assert t2.chinese is not None and t2.chinese.totals == {0: 22, 1: 0}
    assert await check_store(store) == []
    await again.stop()


async def test_r7_5_a_target_reached_by_the_two_of_three_point_offers_the_claim() -> None:
    """Chinese Poker, Alice beating Bob in every box: 6 points after the bottom, 10 after the
    middle with its two-of-three point (R7.3). In a game to 10 that point alone reaches the
    target: the claim is offered after the middle (R7.5), and Alice's claim settles the 10
    points, the record counting them, the ledger balanced (R7.6)."""
    service, presenter, store, clock, t = await chinese_hand_arranged("3")
    assert t.reveal is not None and t.reveal["stage"] == 1 and t.chinese is not None
    assert t.chinese.totals == {0: 6, 1: 0} and t.reveal["claim"] is None
    t.chinese = replace(t.chinese, target=10)  # (a game to 10: the bottom stays below it)
    stacks = {s: st.stack for s, st in t.seats.items()}
    clock.now += 3
    await service.run_due()  # the middle
    assert t.chinese.totals == {0: 10, 1: 0}
    assert t.reveal is not None and t.reveal["claim"] is not None
    assert t.reveal["claim"]["seats"] == [0]
    text = presenter.last_table(GROUP.chat_id).text
    assert "🏆 Alice reached 10 points" in text, text
    reply = await service.press(ALICE, _claim_button(presenter, claim=True))
    assert not reply.alert, reply.text
    assert t.last_result is not None and t.last_result["chinese"]["claimed_by"] == 0
    assert t.last_result["counted"] == {"0": 10, "1": 0}
    assert t.last_result["kush"] == {"0": 10, "1": -10}
    assert {s: st.stack for s, st in t.seats.items()} == {0: stacks[0] + 10, 1: stacks[1] - 10}
    assert await check_store(store) == []
