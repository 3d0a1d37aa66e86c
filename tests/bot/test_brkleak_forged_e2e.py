"""Break session "brkleak", through the real platform libraries: a hand's payload crafted
by its own player and pressed on a group's message (a Telegram ``callback_data`` on the
table message, a Discord ``custom_id`` on the channel's table message) is refused with a
notice only the presser sees, and nothing changes: the card is not placed, no group write
(R3.3)."""

from __future__ import annotations

from pathlib import Path

from bot.screens import Payload
from bot.texts import tr
from tests.bot.discord import dc_world
from tests.bot.discord.dc_world import components
from tests.bot.discord.test_discord_e2e import seat_everyone as dc_seat_everyone
from tests.bot.test_telegram_e2e import seat_everyone as tg_seat_everyone
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, world
from tests.fakes.discord_api import EPHEMERAL

FORGED = {tr(lang, "err.forged") for lang in ("en", "ru")}


async def test_r3_3_telegram_a_hand_payload_pressed_on_the_table_message_changes_nothing(
    tmp_path: Path,
) -> None:
    """The player to act sends their own placement's, Arrange's and Confirm's
    ``callback_data`` from the group's table message: "Unknown button." in a popup, the
    hand as it was, nothing written to the group, the private hand message as it was."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await tg_seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        await w.settle()
        seat = t.seats[t.hand.to_act[0]]
        user = ALICE if seat.user_id == str(ALICE.id) else BOB
        buttons = w.hand_buttons(user)
        place = next(d for (action, _), d in buttons.items() if action == "p")
        table_msg = w.table_message()
        before, seq, calls = t.hand.dumps(), t.seq, len(w.fake.calls)
        private = dict(w.private(user) or {})
        for data in (place, buttons[("a", "")], buttons[("c", "")]):
            assert Payload.decode(data) is not None
            qid = await w.fake.press(user, GROUP_ID, table_msg["message_id"], data)
            answer = await w.fake.wait_for(lambda q=qid: w.fake.answer_of(q))  # type: ignore[misc]
            assert answer.params.get("show_alert") is True
            assert answer.params.get("text") in FORGED, answer.params
        await w.settle()
        assert t.hand.dumps() == before and t.seq == seq
        quiet = ("answerCallbackQuery", "getUpdates")
        after = [c for c in w.fake.calls[calls:] if c.method not in quiet]
        assert after == [], [(c.method, c.params.get("chat_id")) for c in after]
        assert (w.private(user) or {}).get("text") == private.get("text")


async def test_r3_3_discord_a_hand_custom_id_pressed_on_the_table_message_changes_nothing(
    tmp_path: Path,
) -> None:
    """A card's ``custom_id`` of the presser's own hand put on the channel's table message
    (a forged component: a card press not on its message is routed to the service, as a
    fast second tap on a hand is): an ephemeral "Unknown button.", the card not placed, no
    public write. On the player's own ephemeral hand the same press counts."""
    async with dc_world.world(tmp_path) as w:
        await dc_seat_everyone(w, [dc_world.ALICE, dc_world.BOB])
        t = w.table()
        assert t.hand is not None
        seat = t.seats[t.hand.to_act[0]]
        user = dc_world.ALICE if seat.user_id == str(dc_world.ALICE.id) else dc_world.BOB
        hand = await w.my_cards(user)
        cid = next(c["custom_id"] for c in components(hand) if ":p:" in c["custom_id"])
        before, seq = t.hand.dumps(), t.seq
        public = w.public_texts()
        msg = dict(w.table_message())
        msg["components"] = [
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": cid}]}
        ]
        record = await w.press(user, msg, cid)
        notice = w.notice(record)
        assert notice is not None and notice["flags"] & EPHEMERAL
        assert notice["content"] in FORGED
        assert t.hand.dumps() == before and t.seq == seq
        assert public == []
        record = await w.press(user, hand, cid)
        assert w.notice(record) is None
        assert t.hand.dumps() != before


async def test_r8_2a_a_press_on_the_private_hand_of_a_closed_table_changes_nothing(
    tmp_path: Path,
) -> None:
    """The table closes after its hand (``/closetable`` during it, R8.2a). A button of a
    player's private hand message kept from that hand, pressed afterwards: "Table #1 is
    closed." in a popup, nothing written anywhere, no kush moved."""
    from tests.bot.test_telegram_e2e import play_hand

    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await tg_seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        await w.settle()
        kept = {u.id: (dict(w.private(u) or {}), w.hand_buttons(u)) for u in (ALICE, BOB)}
        reply = await w.say(ALICE, "/closetable")
        assert "#" in reply["text"]
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        assert t.id not in w.service.tables
        community = await w.store.community("telegram", str(GROUP_ID))
        ledger = len(await w.store.ledger(community.id))
        calls = len(w.fake.calls)
        closed = {tr(lang, "reply.table_closed", table=t.id) for lang in ("en", "ru")}
        for user in (ALICE, BOB):
            message, buttons = kept[user.id]
            for data in buttons.values():
                qid = await w.fake.press(user, user.id, message["message_id"], data)
                answer = await w.fake.wait_for(lambda q=qid: w.fake.answer_of(q))  # type: ignore[misc]
                assert answer.params.get("show_alert") is True
                assert answer.params.get("text") in closed, answer.params
        await w.settle()
        quiet = ("answerCallbackQuery", "getUpdates")
        assert [c.method for c in w.fake.calls[calls:] if c.method not in quiet] == []
        assert len(await w.store.ledger(community.id)) == ledger


async def test_r8_2_a_forged_older_table_button_writes_nothing_to_the_group(
    tmp_path: Path,
) -> None:
    """An older version of a real table-message button (``L<n-1>``) that the table
    message does not carry, pressed on it (forged, or a fast second tap racing its edit):
    "out of date" in a popup and no group write, however often it is pressed (each press
    was one group edit, taken for a lost edit of the message); the version stays."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await tg_seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        await w.settle()
        msg = w.table_message()
        data = f"{t.id}:L{t.version - 1}:j"
        assert all(b.get("callback_data") != data for b in w.fake.buttons(msg))
        calls, version = len(w.fake.calls), t.version
        stale = {tr(lang, "err.stale") for lang in ("en", "ru")}
        for user in (CAROL, CAROL, ALICE):
            qid = await w.fake.press(user, GROUP_ID, msg["message_id"], data)
            answer = await w.fake.wait_for(lambda q=qid: w.fake.answer_of(q))  # type: ignore[misc]
            assert answer.params.get("show_alert") is True
            assert answer.params.get("text") in stale, answer.params
        await w.settle()
        quiet = ("answerCallbackQuery", "getUpdates")
        assert [c.method for c in w.fake.calls[calls:] if c.method not in quiet] == []
        assert t.version == version and t.seat_of(str(CAROL.id)) is None


async def test_r8_2_discord_an_older_table_button_not_on_the_table_message_writes_nothing(
    tmp_path: Path,
) -> None:
    """Discord as Telegram: an older version of a table-message button the channel's table
    message does not carry, pressed on it (forged, or a double click racing its edit), is
    answered "out of date" by the adapter (discord.py's dynamic items drop it) and never
    reaches the service: no public write, the version stays (a guard: Discord needed no
    change)."""
    async with dc_world.world(tmp_path) as w:
        await dc_seat_everyone(w, [dc_world.ALICE, dc_world.BOB])
        t = w.table()
        msg = w.table_message()
        current = next(c["custom_id"] for c in components(msg) if c["custom_id"].endswith(":j"))
        assert current == f"{t.id}:L{t.version}:j"
        older = f"{t.id}:L{t.version - 1}:j"
        version, public = t.version, w.public_texts()
        stale = {tr(lang, "err.stale") for lang in ("en", "ru")}
        for user in (dc_world.CAROL, dc_world.CAROL, dc_world.ALICE):
            notice = w.notice(await w.settle(await w.fake.press(user, msg, older, gone=True)))
            assert notice is not None and notice["flags"] & EPHEMERAL
            assert notice["content"] in stale
        assert public == [] and t.version == version
        assert t.seat_of(str(dc_world.CAROL.id)) is None
