"""A "🂠 My cards" hand never goes back to an older screen after a 429 (fix40a). Its refresh
goes through an interaction's webhook; Discord answers it with a 429 and discord.py sends it
again after the pause. Meanwhile the player presses the next card on that hand, answered
with the newer screen. The refresh sent again carried the screen it was made with: the hand
showed the older screen over the answer's until the newer one was written again after it
(fix39e's test only checked the last one). And the other way round, the answer to a press
on the hand sent again after a 429 landed over a newer refresh written in the pause. Every
screen the fake applies to the hand is recorded; the cards on its top box never go back."""

from __future__ import annotations

import itertools
from pathlib import Path

from tests.bot.discord.dc_world import World, world
from tests.bot.discord.test_fix39e_discord_writes import (
    LIMITED,
    acting_dm,
    placed_on_top,
    writes_of,
)


def never_back(seen: list[str]) -> list[set[str]]:
    """The top box of every screen in ``seen``, asserting none shows fewer cards placed than
    one before it (an older screen written over a newer one)."""
    tops = [placed_on_top(text) for text in seen]
    for before, after in itertools.pairwise(tops):
        assert before <= after, (tops, seen)
    return tops


async def refresh_limited(w: World) -> None:
    """Wait until the ephemeral hand's refresh was answered with a 429 (discord.py waits it
    out and sends it again)."""
    await w.fake.wait_for(
        lambda: any(c.status == 429 for c in w.fake.calls_to("PATCH", "/webhooks/"))
    )


async def test_a_my_cards_refresh_sent_again_after_a_429_shows_no_older_screen(
    tmp_path: Path,
) -> None:
    """A press on the DM hand refreshes the player's "My cards" hand; Discord answers the
    refresh with a 429 (1 s). The player places the next card on the "My cards" hand itself
    in the pause, answered with the newer screen. The refresh sent after the pause carries
    that screen: the hand shows both cards from the answer on, never one again. (It carried
    its own, one card, written over the answer's two; then two again.) The second press is
    answered in the pause, not after it."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        (a, first), (b, _) = places[0], places[1]
        mine = await w.my_cards(user)
        seen = writes_of(w, int(mine["id"]))
        w.fake.fail_next["edit_webhook_message"] = [(429, LIMITED)]
        r1 = await w.fake.press(user, dict(dm), first)
        await refresh_limited(w)
        second = w.buttons(mine)[("p", b + "t")]
        r2 = await w.fake.press(user, dict(mine), second)
        await w.fake.wait_for(lambda: r2.answered)
        assert not [c for c in w.fake.calls_to("PATCH", "/webhooks/") if c.status == 200]  # paused
        await w.settle(r1)
        await w.settle(r2)
        assert (r1.callback_type, r2.callback_type) == (7, 7)
        assert never_back(seen) == [{a, b}, {a, b}], seen  # the answer, the refresh
        now = w.ephemeral(user)
        assert now is not None and placed_on_top(now["content"]) == {a, b}


async def test_a_refresh_sent_again_while_the_answer_is_on_its_way_carries_the_answer(
    tmp_path: Path,
) -> None:
    """As above, but Discord is slow to answer the press's response (applied at once, its
    answer held until after the refresh's pause): the refresh sent again meanwhile carries
    the answer's screen already, not its own (the hand showed one card over two, and kept
    it: by the time the answer came back the refresh was done, so nothing wrote two again)."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        (a, first), (b, _) = places[0], places[1]
        mine = await w.my_cards(user)
        seen = writes_of(w, int(mine["id"]))
        w.fake.fail_next["edit_webhook_message"] = [(429, LIMITED)]
        r1 = await w.fake.press(user, dict(dm), first)
        await refresh_limited(w)
        await w.fake.wait_for(lambda: r1.answered)  # (its own answer is not held)
        w.fake.hold(lambda name, call: name == "callback", 5.0)
        second = w.buttons(mine)[("p", b + "t")]
        r2 = await w.fake.press(user, dict(mine), second)
        await w.fake.wait_for(
            lambda: any(c.status == 200 for c in w.fake.calls_to("PATCH", "/webhooks/"))
        )  # (the refresh sent again is done)
        w.fake.recover()
        await w.settle(r1)
        await w.settle(r2)
        assert (r1.callback_type, r2.callback_type) == (7, 7)
        assert never_back(seen) == [{a, b}, {a, b}], seen  # the answer, the refresh
        now = w.ephemeral(user)
        assert now is not None and placed_on_top(now["content"]) == {a, b}


async def test_an_answer_sent_again_after_a_429_does_not_land_over_a_newer_refresh(
    tmp_path: Path,
) -> None:
    """The other way round: the answer to a press on the "My cards" hand is refused with a
    429 (1 s; discord.py sends it again after the pause, its body built once). In the pause
    the player places the next card on their DM hand, which refreshes the "My cards" hand
    with the newer screen. That refresh waits for the answer, and is written after it: the
    hand shows one card, then both. (The refresh was written in the pause, then the answer
    sent again over it with one card: the hand stayed a card behind its DM until the next
    change.)"""
    async with world(tmp_path) as w:
        user, _, places = await acting_dm(w)
        (a, _), (b, _) = places[0], places[1]
        mine = await w.my_cards(user)
        seen = writes_of(w, int(mine["id"]))
        w.fake.fail_next["callback"] = [(429, LIMITED)]
        r1 = await w.fake.press(user, dict(mine), w.buttons(mine)[("p", a + "t")])
        await w.fake.wait_for(
            lambda: any(c.status == 429 for c in w.fake.calls_to("POST", "/interactions/"))
        )

        def dm_shows_a() -> bool:
            dm = w.dm(user)
            return dm is not None and placed_on_top(dm["content"]) == {a}

        await w.fake.wait_for(dm_shows_a)
        dm = w.dm(user)
        assert dm is not None
        r2 = await w.fake.press(user, dict(dm), w.buttons(dm)[("p", b + "t")])
        await w.settle(r1)
        await w.settle(r2)
        assert (r1.callback_type, r2.callback_type) == (7, 7)
        assert never_back(seen) == [{a}, {a, b}], seen  # the answer, then the refresh
        now = w.ephemeral(user)
        assert now is not None and placed_on_top(now["content"]) == {a, b}


async def test_a_refresh_of_an_earlier_press_does_not_land_after_a_later_answer(
    tmp_path: Path,
) -> None:
    """The player places a card on their DM hand; Discord applies the answer but is slow to
    say so (the "My cards" hand is refreshed only after). Meanwhile they place the next card
    on the "My cards" hand, answered with both cards. The DM press's refresh, of the earlier
    step, comes after that answer: it is not written (it was, and the hand went back to one
    card, a card behind its DM, until the next change)."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        (a, first), (b, _) = places[0], places[1]
        mine = await w.my_cards(user)
        seen = writes_of(w, int(mine["id"]))
        w.fake.hold(lambda name, call: name == "callback", 5.0)
        r1 = await w.fake.press(user, dict(dm), first)
        await w.fake.wait_for(lambda: w.fake.calls_to("POST", f"/interactions/{r1.id}/"))
        w.fake.holds.clear()  # (r1's answer still held: the next is not)
        r2 = await w.fake.press(user, dict(mine), w.buttons(mine)[("p", b + "t")])
        await w.fake.wait_for(lambda: r2.answered)
        w.fake.recover()
        await w.settle(r1)
        await w.settle(r2)
        assert (r1.callback_type, r2.callback_type) == (7, 7)
        assert never_back(seen) == [{a, b}], seen
        now = w.ephemeral(user)
        assert now is not None and placed_on_top(now["content"]) == {a, b}
