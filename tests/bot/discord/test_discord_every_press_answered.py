"""Issue 15, case 4, through discord.py's real client and the fake Discord: a press whose
``custom_id`` is no longer on the pressed message (a double click racing the edit the first
click caused) is one that discord.py's dynamic items drop without a response; the adapter
answers it with an ephemeral "out of date", and nothing changes."""

from __future__ import annotations

from pathlib import Path

from tests.bot.discord.dc_world import ALICE, BOB, CAROL, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import EPHEMERAL


async def test_a_double_click_racing_an_edit_is_answered_out_of_date(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        hand = await w.my_cards(ALICE)
        card, box = w.plan_street(ALICE)[0]
        assert box is not None
        clicked = w.buttons(hand)[("p", card.text + box.value[0])]
        first = await w.press(ALICE, hand, clicked)
        assert first.callback_type == 7  # the hand message is edited: new custom_ids
        now = w.fake.messages[int(hand["id"])]
        assert clicked not in {c["custom_id"] for c in components(now)}
        state = t.hand.to_json()  # type: ignore[union-attr]
        # the second click of the double click arrives with the message as it is now: a
        # card's button goes to the service (a fast tap of another card would place it,
        # tests/bot/test_fast_taps.py), which says the card is there already, on the hand
        second = await w.settle(await w.fake.press(ALICE, now, clicked, gone=True))
        assert second.callback_type == 7 and w.notice(second) is None
        shown = w.fake.messages[int(hand["id"])]["content"]
        assert shown.startswith("The card is already there.\n\n"), shown
        assert t.hand.to_json() == state  # type: ignore[union-attr]
        # a Confirm of the message before the edit: the adapter's own "out of date"
        confirm = w.buttons(hand)[("c", "")]
        second = await w.settle(await w.fake.press(ALICE, now, confirm, gone=True))
        notice = w.notice(second)
        assert second.callback_type == 4 and notice is not None
        assert notice["flags"] & EPHEMERAL
        assert notice["content"] == "This button is out of date: press one the message shows now."
        assert t.hand.to_json() == state  # type: ignore[union-attr]
        # the same on the table message: a Join from before its last edit
        table = w.table_message()
        join = next(c["custom_id"] for c in components(table) if ":j" in c["custom_id"])
        w.hands[ALICE.id] = int(hand["id"])
        await w.play_street(ALICE, "ephemeral")  # her Confirm re-renders the table message
        table_now = w.fake.messages[int(table["id"])]
        assert join not in {c["custom_id"] for c in components(table_now)}
        record = await w.settle(await w.fake.press(CAROL, table_now, join, gone=True))
        assert (w.notice(record) or {}).get(
            "content"
        ) == "This button is out of date: use the newest table message."
        assert t.seat_of(str(CAROL.id)) is None
        # every interaction the fake delivered got a response
        assert all(r.answered for r in w.fake.interactions.values())
