"""brk48: slash commands with options out of range (forged past Discord's own checks, or
typed), and guild commands run in a DM, through discord.py's real client and the fake
Discord: each gets a short ephemeral answer in the user's language, and nothing changes
(balances, stacks, seats, the table message)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.texts import tr
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, world
from tests.fakes.discord_api import EPHEMERAL

#: (subcommand, options): each refused
BAD: list[tuple[str, dict[str, Any]]] = [
    ("history", {"count": 0}),
    ("history", {"count": 999}),
    ("history", {"count": -(2**53)}),
    ("replay", {"number": -1}),
    ("replay", {"number": 0}),
    ("replay", {"number": 2**53 - 1}),
    ("topup", {"amount": "-5"}),
    ("topup", {"amount": "0"}),
    ("topup", {"amount": "1e3"}),
    ("topup", {"amount": "9" * 40}),
    ("topup", {"amount": "NaN"}),
    ("addbot", {"level": "godlike"}),
    ("addbot", {"level": "x" * 3000}),
    ("removebot", {"name": "nobody"}),
    ("top", {"period": "century"}),
]

DM_CHANNEL = 77  # (not a channel of the guild: the fake sends it as a DM)


async def test_out_of_range_options_and_dm_commands_get_a_short_answer_and_change_nothing(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for u in (ALICE, BOB):
            await w.press_lobby(u, "j")
        await w.slash(ALICE, "ready")  # Alice bought in, Bob not: the lobby waits
        (t,) = w.service.rt.tables.values()
        before = (
            [(s.name, s.stack, s.ready, s.sitting_out) for s in t.seats.values()],
            t.phase,
            w.table_message()["content"],
            t.seq,
        )
        for user in (ALICE, BOB, CAROL):
            for sub, options in BAD:
                reply = await w.slash(user, sub, options)
                assert reply["flags"] & EPHEMERAL, (user.name, sub, options, reply)
                text = reply["content"]
                assert 0 < len(text) <= 600, (user.name, sub, options, text)
                if user is BOB:  # (his client reads Russian)
                    assert any("а" <= c <= "я" for c in text.lower()), (sub, options, text)
            for sub in ("join", "ready", "leave", "sitout", "back", "topup", "addbot", "daily"):
                reply = await w.slash(user, sub, channel_id=DM_CHANNEL)
                text = reply["content"]
                assert 0 < len(text) <= 600, (user.name, sub, text)
                if user is BOB:
                    assert any("а" <= c <= "я" for c in text.lower()), (sub, text)
        after = (
            [(s.name, s.stack, s.ready, s.sitting_out) for s in t.seats.values()],
            t.phase,
            w.table_message()["content"],
            t.seq,
        )
        assert after == before
        for user, balance in ((ALICE, "800"), (BOB, "1000")):
            reply = await w.slash(user, "balance")
            assert balance in reply["content"], reply["content"]


#: custom_ids forged on a player's hand message (table 1, hand version 1.0.0 is current)
FORGED_HAND = [
    "2:1.0.0:p:Aht",  # another table
    "1:0.0.0:p:Aht",  # an old hand
    "1:9.9.9:p:Aht",  # a hand to come
    "1:1.0.0:p:2ct",  # a card not dealt to the presser
    "1:1.0.0:p:",
    "1:1.0.0:p:Ahx",
    "1:1.0.0:zz",
    "::",
    "1" * 100,
    "\u0661:1.0.0:p:Aht",  # (an Arabic-Indic digit one)
    "-1:1.0.0:p:Aht",
]
#: custom_ids forged on the table message
FORGED_LOBBY = ["1:L3:r", "1:L4:zz", "2:L4:r", "1:L:r", "1:L4:", "1:L99999999999999999999:t"]


async def test_forged_and_stale_custom_ids_are_answered_and_change_nothing(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for u in (ALICE, BOB):
            await w.press_lobby(u, "j")
        for u in (ALICE, BOB):
            await w.slash(u, "ready")
        (t,) = w.service.rt.tables.values()
        assert t.hand is not None
        mine = await w.my_cards(ALICE)
        table = w.table_message()
        seq, hand = t.seq, t.hand.to_json()
        # (Alice's hand is hers alone to press: an ephemeral message; the table message is
        # everyone's)
        cases = [(ALICE, mine, cid) for cid in FORGED_HAND]
        cases += [(u, table, cid) for u in (ALICE, BOB, CAROL) for cid in FORGED_LOBBY]
        for user, message, cid in cases:
            # (not on the message: Discord delivers it with the message as it is now)
            record = await w.settle(await w.fake.press(user, message, cid, gone=True))
            notice = w.notice(record)
            if notice is None:  # a card's press on the hand: "out of date" above the hand
                assert record.callback_type == 7, (cid, record)
                notice = w.fake.messages[record.messages[-1]]
                assert notice["content"].startswith(tr("en", "err.stale_shown")), (cid, notice)
            else:
                assert 0 < len(notice["content"]) <= 300, (cid, notice["content"])
            assert notice["flags"] & EPHEMERAL, (cid, notice)
            if user is BOB:
                assert any("а" <= c <= "я" for c in notice["content"].lower()), cid
        assert t.seq == seq and t.hand is not None and t.hand.to_json() == hand
