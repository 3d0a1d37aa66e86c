"""brk68: attacks on the Discord press answers' turns (fix39e, DiscordPresenter.answer_turn)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from bot.discord.presenter import AnswerTurn
from tests.bot.discord.dc_world import ALICE, BOB, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.bot.discord.test_stats_discord import PLAN
from tests.game.helpers import stacked_deck
from tests.game.test_history import DECK

SERVER_ERROR = {"message": "500: Internal Server Error", "code": 0}


async def test_a_press_waiting_for_its_turn_is_deferred_on_time(tmp_path: Path) -> None:
    """▶ pressed twice fast on an ephemeral /replay: the first answer is refused with a 500,
    sent again by discord.py a second later. The second press's frames are ready at once;
    its answer waits for the first's turn. A press the service answers without a table
    step (a replay's frames, a refusal) had its deferral stopped before that wait: however
    long the first answer took (two 5xx: 1 s + 3 s), the second was not deferred and
    missed Discord's 3 s (the player read "This interaction failed"). It is deferred at
    ``answer_within`` as every press is, and shows the frame once its turn comes. (Which
    press's frames come first, and so whose answer the 500s hold, is the loop's.)"""
    async with world(tmp_path, deck_source=lambda: stacked_deck(DECK)) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        winner = ALICE if t.seats[t.hand.order[0]].user_id == str(ALICE.id) else BOB
        await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"},
                          {ALICE.id: PLAN, BOB.id: PLAN})  # fmt: skip
        history = (await w.slash(winner, "history"))["content"]
        hand_id = int(history.splitlines()[1].split()[0].lstrip("#"))
        frame = await w.slash(winner, "replay", {"number": hand_id})
        step = next(c["custom_id"] for c in components(frame) if c.get("label") == "▶")
        w.adapter.answer_within = 1.0
        w.fake.fail_next["callback"] = [(500, SERVER_ERROR), (500, SERVER_ERROR)]
        r1 = await w.fake.press(winner, dict(frame), step)
        r2 = await w.fake.press(winner, dict(frame), step)
        await w.settle(r1)
        await w.settle(r2)
        # the first answer (whichever press's frames came first) written after 1 s + 3 s,
        # the other deferred after 1 s while it waited its turn
        kinds = sorted(r.callback_type or 0 for r in (r1, r2))
        assert kinds == [6, 7], (r1.callback_body, r2.callback_body)
        now = w.fake.messages[int(frame["id"])]
        assert "Street 2 of 5" in now["content"], now["content"]


async def _waits(turn: AnswerTurn) -> bool:
    """Whether ``turn`` still waits for the turn before it (after the loop had a go)."""
    task = asyncio.create_task(turn.wait())
    await asyncio.sleep(0.01)
    waiting = not task.done()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return waiting


async def test_a_turn_given_up_before_its_own_came_lets_no_later_one_overtake() -> None:
    """Three answers of one message; the first is writing, the second is given up while it
    waits (its press's task cancelled: its ``finally`` finishes the turn). The third went at
    once, beside the first: two answers of the message in flight, Discord applying them in
    either order. It waits for the first. So does a turn taken after a newest one given up
    (its entry was deleted: the next turn was the first of the message again)."""
    order: dict[tuple[int, int], tuple[int, asyncio.Future[None]]] = {}
    key = (1, 2)
    first, second, third = (AnswerTurn(order, key) for _ in range(3))
    second.finish()  # (given up while it waited)
    assert await _waits(third)
    first.finish()
    assert not await _waits(third)
    third.finish()
    assert order == {}
    first, second = AnswerTurn(order, key), AnswerTurn(order, key)
    second.finish()  # the newest, given up while the first writes
    later = AnswerTurn(order, key)
    assert await _waits(later)
    first.finish()
    assert not await _waits(later)
    later.finish()
    later.finish()  # (idempotent)
    assert order == {}
