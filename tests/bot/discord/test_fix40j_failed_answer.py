"""fix40j: a press on the "🂠 My cards" hand whose answer fails blocked the hand's refresh.
The presenter took the answer's step as shown on the hand before the answer was sent
(``DiscordPresenter.answer_live``); when it then failed, a refresh of an earlier step (a
press on the DM hand just before) was not written, as if the answer had landed over it, and
the hand stayed showing the screen from before both presses until the next change. Now a
step counts as shown once written, and a lost answer writes its screen afterwards as a
refused one does (``refresh_live``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.discord.dc_world import World, world
from tests.bot.discord.test_fix39e_discord_writes import placed_on_top, writes_of
from tests.bot.discord.test_fix40a_ephemeral_429 import (
    Hands,
    dm_press_answered_late,
    never_back,
    open_hands,
)
from tests.fakes.discord_api import CHANNEL_ID, ApiCall, FakeInteraction

UNKNOWN_INTERACTION = {"message": "Unknown interaction", "code": 10062}


async def second_card_failing(
    w: World, h: Hands, hand: dict[str, Any], *, lost: bool
) -> tuple[FakeInteraction, list[str]]:
    """The DM press placing ``a`` answered late (:func:`dm_press_answered_late`); meanwhile a
    press on ``hand`` (a "My cards" hand) placing ``b``, its answer lost in the network
    before Discord takes it (``lost``) or refused (404 10062, the interaction unknown).
    Then Discord answers again; every write done, both cards are placed. The press on
    ``hand`` and what was logged (cleared)."""
    r1 = await dm_press_answered_late(w, h)
    failed: list[ApiCall] = []

    def once(name: str, call: ApiCall) -> bool:
        if name == "callback" and not failed:
            failed.append(call)
            return True
        return False

    if lost:
        w.fake.drop(once)
    else:
        w.fake.fail_next["callback"] = [(404, UNKNOWN_INTERACTION)]
    r2 = await w.fake.press(h.user, dict(hand), w.buttons(hand)[("p", h.b + "t")])
    if lost:
        await w.fake.wait_for(lambda: failed and failed[0].dropped)
    else:
        calls = f"/interactions/{r2.id}/"
        await w.fake.wait_for(lambda: any(c.status == 404 for c in w.fake.calls_to("POST", calls)))
    w.fake.recover()
    await w.settle(r1)
    await w.adapter.idle()
    await w.adapter.presenter.flush()
    assert r1.callback_type == 7
    t = w.table()
    assert t.hand is not None and len(dict(t.hand.pending(t.hand.to_act[0]))) == 2
    told = [m.split(": ", 1)[1] for m in w.logged]
    w.logged.clear()
    return r2, told


async def test_a_lost_answer_on_my_cards_leaves_the_refresh_before_it_written(
    tmp_path: Path,
) -> None:
    """The player places a card on their DM hand; Discord applies that answer but is slow to
    say so (the "My cards" hand is refreshed only after). Meanwhile they place the next card
    on the "My cards" hand, and the connection carrying that answer closes before Discord
    takes it. The hand is written as after a refused answer (the next test): it ends
    showing both cards. (It showed none until the next change: the refreshes of both
    presses were dropped, as if the lost answer were shown; with only the lost answer
    counted as not shown, one card.)"""
    async with world(tmp_path) as w:
        h = await open_hands(w)
        r2, told = await second_card_failing(w, h, h.mine, lost=True)
        assert told == [  # (told by the error handler, as before)
            f"interaction {r2.id} (component) of user {h.user.id} in channel {CHANNEL_ID}: "
            "{'custom_id': '1:1.0.0:p:…'} failed"
        ]
        tops = never_back(h.seen)
        assert tops and tops[-1] == {h.a, h.b}, h.seen
        now = w.ephemeral(h.user)
        assert now is not None and placed_on_top(now["content"]) == {h.a, h.b}


async def test_a_refused_answer_on_my_cards_leaves_the_hand_showing_both_cards(
    tmp_path: Path,
) -> None:
    """As above, but Discord refuses the answer (404 10062, the interaction unknown: its token
    expired): the hand is written through the interaction that showed it last, with both
    cards, and nothing older lands after. (So before fix40j too: this one guards it.)"""
    async with world(tmp_path) as w:
        h = await open_hands(w)
        r2, told = await second_card_failing(w, h, h.mine, lost=False)
        assert r2.callback_type is None
        assert told == [
            f"could not answer interaction {r2.id}: 404 Not Found (error code: 10062): "
            "Unknown interaction"
        ]
        tops = never_back(h.seen)
        assert tops[-1] == {h.a, h.b}, h.seen
        now = w.ephemeral(h.user)
        assert now is not None and placed_on_top(now["content"]) == {h.a, h.b}


async def test_a_refused_answer_on_an_older_my_cards_leaves_the_newer_one_refreshed(
    tmp_path: Path,
) -> None:
    """The player opened "My cards" twice: the newer hand is the one refreshed. As above, but
    they press on the older one, and that answer is refused (404 10062): nothing writes it,
    and the newer hand's refreshes are written after all, both cards. (They were dropped, as
    if the refused answer were shown: the newer hand kept the screen from before both
    presses until the next change.)"""
    async with world(tmp_path) as w:
        h = await open_hands(w)
        newer = await w.my_cards(h.user)
        seen = writes_of(w, int(newer["id"]))
        r2, told = await second_card_failing(w, h, h.mine, lost=False)
        assert r2.callback_type is None
        assert told == [
            f"could not answer interaction {r2.id}: 404 Not Found (error code: 10062): "
            "Unknown interaction"
        ]
        assert never_back(seen)[-1:] == [{h.a, h.b}], seen
        now = w.fake.messages[int(newer["id"])]
        assert placed_on_top(now["content"]) == {h.a, h.b}
