"""brk70: attacks on Discord's answer turns (fix39e, brk68): a select's batch of presses
overtaken between its presses by another press of the same hand message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.screens import Payload
from game.cards import parse_cards
from tests.bot.discord.dc_world import ALICE, components, world
from tests.bot.discord.test_discord_e2e import (
    ALICE_STREETS,
    BOB_STREETS,
    alice_in_fantasyland,
    decks,
    stacked,
)


async def test_a_batch_refused_after_another_press_leaves_the_hand_as_it_is(
    tmp_path: Path,
) -> None:
    """Alice's Fantasyland hand (R6): she picks two cards for the top box in its menu (one
    interaction, two presses) and, before the second is pressed, she puts that second card
    in the middle with another menu of the same message (a quick second pick). The batch's
    second press is refused (the card moved since). Its answer, the message's last turn,
    wrote the hand as it was after the batch's first press, the card unplaced, over the
    newer answer that showed it in the middle: the hand on screen was not the hand."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        t, hand = await alice_in_fantasyland(w)
        top = next(c for c in components(hand) if c["custom_id"].endswith(":t"))
        middle = next(c for c in components(hand) if c["custom_id"].endswith(":m"))
        first, second = (o["value"] for o in top["options"][:2])
        card = Payload.decode(second).arg[:2]  # type: ignore[union-attr]
        moved = next(o["value"] for o in middle["options"] if o["value"].find(card) >= 0)
        service = w.adapter.service
        press = service.press
        overtaken: list[Any] = []
        calls: list[str] = []

        async def overtaking(actor: Any, data: str, *args: Any, **kwargs: Any) -> Any:
            calls.append(data)
            if len(calls) == 2:  # (the batch's second press, looked up in the first's hand)
                record = await w.fake.press(ALICE, hand, middle["custom_id"], [moved])
                overtaken.append(record)
                await w.fake.wait_for(lambda: record.answered)
            return await press(actor, data, *args, **kwargs)

        w.adapter.service.press = overtaking  # type: ignore[method-assign]
        await w.press(ALICE, hand, top["custom_id"], [first, second])
        assert overtaken, "the second press of the batch was never made"
        assert t.hand is not None
        board = t.hand.board_of(0, with_pending=True)
        assert [c.text for c in board.middle] == [card]
        shown = w.fake.messages[int(hand["id"])]
        middle_now = next(c for c in components(shown) if c["custom_id"].endswith(":m"))
        assert any(o.get("default") and card in o["value"] for o in middle_now["options"]), (
            shown["content"],
            middle_now,
        )
        assert parse_cards(card)[0] in board.middle
        face = parse_cards(card)[0].face
        assert f"\n  {face} · · · ·\n" in shown["content"], shown["content"]  # (its middle)
