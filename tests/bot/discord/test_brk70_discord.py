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


def in_middle(t: Any, card: str) -> bool:
    """Whether ``card`` ("Js") is in the middle box of Alice's board at table ``t``."""
    hand = t.hand
    return hand is not None and card in {c.text for c in hand.board_of(0, with_pending=True).middle}


async def test_a_batch_refused_after_another_press_leaves_the_hand_as_it_is(
    tmp_path: Path,
) -> None:
    """Alice's Fantasyland hand (R6): she picks two cards for the top box in its menu (one
    interaction, two presses) and, before the second is pressed, she puts that second card
    in the middle with another menu of the same message (a quick second pick). The batch's
    second press is refused (the card moved since). Its answer, the message's last turn,
    wrote the hand as it was after the batch's first press, the card unplaced, over the
    newer answer that showed it in the middle: the hand on screen was not the hand. The
    refusal's own hand, drawn after the other press, is written."""
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
                await w.fake.wait_for(lambda: in_middle(t, card))  # (its step made)
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


async def test_a_batch_answered_after_another_press_of_its_message_does_not_hide_it(
    tmp_path: Path,
) -> None:
    """Five cards picked for the top box of Alice's Fantasyland hand (three fit, R3.5): the
    fourth press is refused and the batch stops, answered after that press's step has sent
    its messages. Another press of the same message (a card put in the middle) stepped in
    then, and was answered first: the batch's answer, the hand before that press, was
    written over it, the middle card unshown. The batch's answer holds the turn of its last
    step (taken anew at each), before the other press's: only acknowledged, its notice
    shown on its own; the other press's answer waits for it and writes the hand."""
    async with world(tmp_path, deck_source=decks(stacked(ALICE_STREETS, BOB_STREETS))) as w:
        t, hand = await alice_in_fantasyland(w)
        top = next(c for c in components(hand) if c["custom_id"].endswith(":t"))
        middle = next(c for c in components(hand) if c["custom_id"].endswith(":m"))
        picked = [o["value"] for o in top["options"][:5]]
        chosen = {Payload.decode(v).arg[:2] for v in picked}  # type: ignore[union-attr]
        other = next(
            o["value"]
            for o in middle["options"]
            if Payload.decode(o["value"]).arg[:2] not in chosen  # type: ignore[union-attr]
        )
        card = parse_cards(Payload.decode(other).arg[:2])[0]  # type: ignore[union-attr]
        press = w.adapter.service.press
        calls: list[str] = []
        overtaken: list[Any] = []

        async def overtaking(actor: Any, data: str, *args: Any, **kwargs: Any) -> Any:
            batch = data.endswith("t")  # (the other press puts a card in the middle)
            calls.extend([data] if batch else [])
            got = await press(actor, data, *args, **kwargs)
            if batch and len(calls) == 4:  # (the batch's refused press, its messages sent)
                record = await w.fake.press(ALICE, hand, middle["custom_id"], [other])
                overtaken.append(record)
                await w.fake.wait_for(lambda: in_middle(t, card.text))  # (its step made)
            return got

        w.adapter.service.press = overtaking  # type: ignore[method-assign]
        record = await w.press(ALICE, hand, top["custom_id"], picked)
        assert overtaken and len(calls) == 4, calls
        notice = w.notice(record)  # (the batch's refusal, said on its own)
        assert notice is not None and notice["content"].startswith("That box is full.\nPlaced:")
        assert t.hand is not None
        board = t.hand.board_of(0, with_pending=True)
        assert len(board.top) == 3 and board.middle == (card,)
        content = w.fake.messages[int(hand["id"])]["content"]
        assert f"\n  {card.face} · · · ·\n" in content, content  # (its middle)
