"""brk72: break-it on fix40a's and brk70's ordering of a Discord hand's writes: a "🂠 My
cards" hand and the DM hand pressed in turn while Discord refuses their writes."""

from __future__ import annotations

from pathlib import Path

from game.board import Box
from tests.bot.discord.dc_world import cards_in, world
from tests.bot.discord.test_fix39e_discord_writes import (
    LIMITED,
    SERVER_ERROR,
    acting_dm,
    placed_on_top,
)
from tests.bot.discord.test_fix40a_ephemeral_429 import never_back, writes_of

UNKNOWN = {"message": "Unknown interaction", "code": 10062}


async def test_a_refresh_after_an_answer_refused_for_good_is_written(tmp_path: Path) -> None:
    """The answer to a press on the "My cards" hand is refused for good (404 Unknown
    interaction: Discord forgot it). The player places the next card on the DM hand: the
    "My cards" hand's refresh, which waits for that answer, is written all the same, both
    cards shown."""
    async with world(tmp_path) as w:
        user, _, places = await acting_dm(w)
        (a, _), (b, _) = places[0], places[1]
        mine = await w.my_cards(user)
        seen = writes_of(w, int(mine["id"]))
        w.fake.fail_next["callback"] = [(404, UNKNOWN)]
        await w.fake.press(user, dict(mine), w.buttons(mine)[("p", a + "t")])
        await w.fake.wait_for(
            lambda: any(c.status == 404 for c in w.fake.calls_to("POST", "/interactions/"))
        )

        def dm_shows_a() -> bool:
            dm = w.dm(user)
            return dm is not None and placed_on_top(dm["content"]) == {a}

        await w.fake.wait_for(dm_shows_a)
        dm = w.dm(user)
        assert dm is not None
        r2 = await w.fake.press(user, dict(dm), w.buttons(dm)[("p", b + "t")])
        await w.settle(r2)
        await w.fake.wait_for(lambda: bool(seen) and placed_on_top(seen[-1]) == {a, b})
        never_back(seen)
        now = w.ephemeral(user)
        assert now is not None and placed_on_top(now["content"]) == {a, b}
        assert r2.callback_type == 7
        assert len(w.logged) == 1 and "10062" in w.logged[0], w.logged
        w.logged.clear()  # (the refused answer, on purpose)


async def test_presses_on_both_hands_at_once_through_429s_and_500s_end_on_the_table_s_hand(
    tmp_path: Path,
) -> None:
    """The player places the street's five cards, each round one on top pressed on the "My
    cards" hand and one in the middle on the DM hand at once (not waiting for the answers),
    while Discord refuses the answers and the "My cards" refreshes once each round with a
    429 or a 500. Every press is answered; both hands end showing the boxes the table has,
    and the "My cards" hand never went back to an older screen on the way. (Held: a
    regression test.)"""
    async with world(tmp_path) as w:
        user, _, places = await acting_dm(w)
        cards = [c for c, _ in places]
        mine = await w.my_cards(user)
        seen = writes_of(w, int(mine["id"]))
        seat = w.table().seat_of(str(user.id))
        assert seat is not None
        records = []
        failures = [(429, LIMITED), (500, SERVER_ERROR)]
        for k in range(3):
            w.fake.fail_next["callback"] = [failures[k % 2]]
            w.fake.fail_next["edit_webhook_message"] = [failures[(k + 1) % 2]]
            mine_now, dm = w.ephemeral(user), w.dm(user)
            assert mine_now is not None and dm is not None
            free = [c for c in cards if c not in placed(mine_now["content"])]
            pressed = [(mine_now, free[0], "t"), (dm, free[-1], "m")][: len(free)]
            for message, card, box in pressed:
                records.append(
                    await w.fake.press(user, dict(message), w.buttons(message)[("p", card + box)])
                )
            for r in records:
                await w.settle(r)
        assert len(records) == 5 and all(r.answered for r in records)
        assert {(c.path.split("/")[1], c.status) for c in w.fake.calls if c.status != 200} == {
            ("webhooks", 429),
            ("webhooks", 500),
            ("interactions", 429),
            ("interactions", 500),
        }
        t = w.table()
        board = next(s for s in t.hand.order if t.owner(s) == seat.seat)
        pending = t.hand.pending(board)
        assert len(pending) == 5
        top = {c.text for c, box in pending if box is Box.TOP}
        middle = {c.text for c, box in pending if box is Box.MIDDLE}
        never_back(seen)
        now, dm = w.ephemeral(user), w.dm(user)
        assert now is not None and dm is not None
        assert boxes(now["content"]) == boxes(dm["content"])
        assert placed_on_top(now["content"]) == top and len(top) == 3
        assert placed(now["content"]) == top | middle
        w.logged.clear()  # (the refusals, on purpose)


def boxes(content: str) -> list[str]:
    """The box lines of a hand's text (top, middle, bottom)."""
    return [line for line in content.splitlines() if line.startswith("  ")][:3]


def placed(content: str) -> set[str]:
    """The cards a hand's text shows in its boxes."""
    return {c.text for line in boxes(content) for c in cards_in(line)}
