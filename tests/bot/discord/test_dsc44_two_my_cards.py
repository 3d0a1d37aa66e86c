"""dsc44: two "🂠 My cards" answers of one player on their way at once each post the newest
screen told since their own reply was made. The screen told while a "My cards" answer is
being posted was kept for the player's hand of the table (one per player and table), and
every answer under way then was posted with it: one whose reply was made after a newer step
committed (a press on the DM hand whose answer was still on its way, so not yet told) was
posted with the older screen the earlier answer had kept, a card behind its own reply and
the DM, then edited to the newer one."""

from __future__ import annotations

from pathlib import Path

from tests.bot.discord.dc_world import World, action_of, components, world
from tests.bot.discord.test_fix39e_discord_writes import acting_dm, placed_on_top
from tests.fakes.discord_api import ApiCall, FakeInteraction, MessageWrite


def ephemeral_writes(w: World) -> list[MessageWrite]:
    """Every write of an ephemeral message from now on, in the order the fake applied them."""
    writes: list[MessageWrite] = []
    w.fake.listeners.append(lambda write: writes.append(write) if write.ephemeral else None)
    return writes


def hand_writes(record: FakeInteraction, writes: list[MessageWrite]) -> list[set[str]]:
    """The top box of every write of the ephemeral hand ``record`` posted."""
    assert record.messages, "no ephemeral hand posted"
    mine = record.messages[-1]
    return [
        placed_on_top(str(x.message["content"])) for x in writes if int(x.message["id"]) == mine
    ]


async def test_a_second_my_cards_is_posted_with_its_own_newer_screen(tmp_path: Path) -> None:
    """The player presses "My cards" (A), Discord slow to answer it (posted, its answer
    held). Meanwhile they place ``a`` on the DM hand (answered: A keeps that screen to write
    on its hand), then ``b`` (committed, its answer held: not told yet), then press "My
    cards" again (B, answered at once). B's reply is made with ``a`` and ``b`` placed, and
    B's hand is posted so: its writes are that one. (It was posted with ``a`` only, the
    screen A kept, then edited.) Once Discord answers again, the hand left live shows both."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        (a, first), (b, _) = places[0], places[1]
        writes = ephemeral_writes(w)
        held: list[str] = []
        holding = {"my cards": True, "dm": False}

        def slow(name: str, call: ApiCall) -> bool:
            kind = int((call.body or {}).get("type", 0)) if name == "callback" else 0
            if kind == 4 and holding["my cards"]:
                holding["my cards"] = False
                held.append(call.path)
                return True
            if kind == 7 and holding["dm"]:
                holding["dm"] = False
                held.append(call.path)
                return True
            return False

        w.fake.hold(slow, 60.0)
        try:
            msg = w.table_message()
            cid = next(c["custom_id"] for c in components(msg) if action_of(c) == "h")
            ra = await w.fake.press(user, msg, cid)
            await w.fake.wait_for(lambda: len(held) == 1)
            r1 = await w.fake.press(user, dict(dm), first)
            await w.fake.wait_for(lambda: r1.answered and w.adapter._inflight == 1)
            now = w.dm(user)
            assert now is not None and placed_on_top(now["content"]) == {a}
            holding["dm"] = True
            r2 = await w.fake.press(user, dict(now), w.buttons(now)[("p", b + "t")])
            await w.fake.wait_for(lambda: len(held) == 2)  # (committed, not told)
            rb = await w.fake.press(user, msg, cid)
            await w.fake.wait_for(lambda: rb.answered)
        finally:
            w.fake.recover()
        for record in (ra, r2, rb):
            await w.settle(record)
        assert (ra.callback_type, r2.callback_type, rb.callback_type) == (4, 7, 4)
        tops = hand_writes(rb, writes)
        assert tops and all(top == {a, b} for top in tops), tops
        live = w.adapter.presenter.live_hand(str(user.id))
        assert live is not None and live.message_id == rb.messages[-1], (live, rb.messages)
        assert placed_on_top(w.fake.messages[live.message_id]["content"]) == {a, b}
