"""A "🂠 My cards" hand never goes back to an older screen after a 429 (fix40a). Its refresh
goes through an interaction's webhook; Discord answers it with a 429 and discord.py sends it
again after the pause. Meanwhile the player presses the next card on that hand, answered
with the newer screen. The refresh sent again carried the screen it was made with: the hand
showed the older screen over the answer's until the newer one was written again after it
(fix39e's test only checked the last one). And the other way round, the answer to a press
on the hand sent again after a 429 landed over a newer refresh written in the pause. Every
screen the fake applies to the hand is recorded; the cards on its top box never go back."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Any

from tests.bot.discord.dc_world import World, world
from tests.bot.discord.test_fix39e_discord_writes import (
    LIMITED,
    acting_dm,
    placed_on_top,
    writes_of,
)
from tests.fakes.discord_api import FakeInteraction, FakeUser


@dataclasses.dataclass(frozen=True)
class Hands:
    """The player to act, their DM hand dealt and their "🂠 My cards" hand open too.

    :ivar a: the first card the top box may take (by :func:`acting_dm`'s order)
    :ivar first: the DM hand's button placing ``a`` on the top box
    :ivar b: the second card the top box may take
    :ivar mine: the "My cards" hand as it was answered
    :ivar seen: every write of the "My cards" hand from its opening on (:func:`writes_of`)
    """

    user: FakeUser
    dm: dict[str, Any]
    a: str
    first: str
    b: str
    mine: dict[str, Any]
    seen: list[str]


async def open_hands(w: World) -> Hands:
    """Deal a hand (:func:`acting_dm`) and open the player to act's "My cards" hand."""
    user, dm, places = await acting_dm(w)
    (a, first), (b, _) = places[0], places[1]
    mine = await w.my_cards(user)
    return Hands(user, dm, a, first, b, mine, writes_of(w, int(mine["id"])))


async def dm_press_answered_late(w: World, h: Hands) -> FakeInteraction:
    """Place ``a`` on the DM hand, Discord applying the answer but slow to say so (held until
    :meth:`~tests.fakes.discord_api.FakeDiscord.recover`; the "My cards" hand is refreshed
    only after); the next answer is not held. The press."""
    w.fake.hold(lambda name, call: name == "callback", 5.0)
    r1 = await w.fake.press(h.user, dict(h.dm), h.first)
    await w.fake.wait_for(lambda: w.fake.calls_to("POST", f"/interactions/{r1.id}/"))
    w.fake.holds.clear()  # (r1's answer still held: the next is not)
    return r1


async def settle_both(
    w: World, h: Hands, r1: FakeInteraction, r2: FakeInteraction
) -> list[set[str]]:
    """Wait for presses ``r1`` and ``r2`` to be answered and their writes done, asserting
    each answer edited its pressed message (7) and the "My cards" hand ends showing ``a`` and
    ``b`` placed; the top box of every screen written on that hand (:func:`never_back`)."""
    await w.settle(r1)
    await w.settle(r2)
    assert (r1.callback_type, r2.callback_type) == (7, 7)
    tops = never_back(h.seen)
    now = w.ephemeral(h.user)
    assert now is not None and placed_on_top(now["content"]) == {h.a, h.b}
    return tops


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
        h = await open_hands(w)
        w.fake.fail_next["edit_webhook_message"] = [(429, LIMITED)]
        r1 = await w.fake.press(h.user, dict(h.dm), h.first)
        await refresh_limited(w)
        second = w.buttons(h.mine)[("p", h.b + "t")]
        r2 = await w.fake.press(h.user, dict(h.mine), second)
        await w.fake.wait_for(lambda: r2.answered)
        assert not [c for c in w.fake.calls_to("PATCH", "/webhooks/") if c.status == 200]  # paused
        tops = await settle_both(w, h, r1, r2)
        assert tops == [{h.a, h.b}, {h.a, h.b}], h.seen  # the answer, the refresh


async def test_a_refresh_sent_again_while_the_answer_is_on_its_way_carries_the_answer(
    tmp_path: Path,
) -> None:
    """As above, but Discord is slow to answer the press's response (applied at once, its
    answer held until after the refresh's pause): the refresh sent again meanwhile carries
    the answer's screen already, not its own (the hand showed one card over two, and kept
    it: by the time the answer came back the refresh was done, so nothing wrote two again)."""
    async with world(tmp_path) as w:
        h = await open_hands(w)
        w.fake.fail_next["edit_webhook_message"] = [(429, LIMITED)]
        r1 = await w.fake.press(h.user, dict(h.dm), h.first)
        await refresh_limited(w)
        await w.fake.wait_for(lambda: r1.answered)  # (its own answer is not held)
        w.fake.hold(lambda name, call: name == "callback", 5.0)
        second = w.buttons(h.mine)[("p", h.b + "t")]
        r2 = await w.fake.press(h.user, dict(h.mine), second)
        await w.fake.wait_for(
            lambda: any(c.status == 200 for c in w.fake.calls_to("PATCH", "/webhooks/"))
        )  # (the refresh sent again is done)
        w.fake.recover()
        tops = await settle_both(w, h, r1, r2)
        assert tops == [{h.a, h.b}, {h.a, h.b}], h.seen  # the answer, the refresh


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
        h = await open_hands(w)
        w.fake.fail_next["callback"] = [(429, LIMITED)]
        r1 = await w.fake.press(h.user, dict(h.mine), w.buttons(h.mine)[("p", h.a + "t")])
        await w.fake.wait_for(
            lambda: any(c.status == 429 for c in w.fake.calls_to("POST", "/interactions/"))
        )

        def dm_shows_a() -> bool:
            dm = w.dm(h.user)
            return dm is not None and placed_on_top(dm["content"]) == {h.a}

        await w.fake.wait_for(dm_shows_a)
        dm = w.dm(h.user)
        assert dm is not None
        r2 = await w.fake.press(h.user, dict(dm), w.buttons(dm)[("p", h.b + "t")])
        tops = await settle_both(w, h, r1, r2)
        assert tops == [{h.a}, {h.a, h.b}], h.seen  # the answer, then the refresh


async def test_a_refresh_of_an_earlier_press_does_not_land_after_a_later_answer(
    tmp_path: Path,
) -> None:
    """The player places a card on their DM hand; Discord applies the answer but is slow to
    say so (the "My cards" hand is refreshed only after). Meanwhile they place the next card
    on the "My cards" hand, answered with both cards. The DM press's refresh, of the earlier
    step, comes after that answer: it is not written (it was, and the hand went back to one
    card, a card behind its DM, until the next change)."""
    async with world(tmp_path) as w:
        h = await open_hands(w)
        r1 = await dm_press_answered_late(w, h)
        r2 = await w.fake.press(h.user, dict(h.mine), w.buttons(h.mine)[("p", h.b + "t")])
        await w.fake.wait_for(lambda: r2.answered)
        w.fake.recover()
        tops = await settle_both(w, h, r1, r2)
        assert tops == [{h.a, h.b}], h.seen
