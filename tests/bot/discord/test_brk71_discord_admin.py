"""Break-it session brk71 on Discord (see tests/bot/test_brk71_admin.py): ``/ofcadmin``
with its options missing, out of range or nonsense, or run in a DM, during a hand, by admins
reading English and Russian and by a member without Manage Server. Held (no fix needed),
kept as a regression test: each gets a short ephemeral answer in the user's language and
nothing changes (stacks, the table message, the group's settings, the ledger)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.discord.dc_world import ALICE, BOB, CAROL, world
from tests.bot.money import assert_conserved
from tests.fakes.discord_api import EPHEMERAL

DM_CHANNEL = 77  # (not a channel of the guild: the fake sends it as a DM)
COMBINING = "\u0310"

#: (subcommand, options, in a DM): each refused
BAD: list[tuple[str, dict[str, Any], bool]] = [
    ("settings", {"value": "30"}, False),
    ("settings", {"name": "hand_seconds 30 ready_seconds 10"}, False),
    ("settings", {"name": "hand_seconds", "value": "∞"}, False),
    ("settings", {"name": "hand_seconds", "value": "1e9"}, False),
    ("settings", {"name": "kush_label", "value": "x" * 4000}, False),
    ("settings", {"name": "kush_label", "value": "coins" + COMBINING * 300}, False),
    ("settings", {"name": "время_хода", "value": "30"}, False),
    ("settings", {"name": "hand_seconds", "value": "30"}, True),
    ("grant", {"user": BOB, "amount": 2**53}, False),
    ("grant", {"user": BOB, "amount": 0}, False),
    ("grant", {"user": BOB, "amount": 5}, True),
    ("grant", {"user": BOB}, False),  # (a required option missing: an old command form)
    ("grant", {"amount": 5}, False),
    ("kick", {}, False),
    ("kick", {"user": BOB}, True),
    ("close", {}, True),
]


async def test_bad_admin_commands_get_a_short_private_answer_and_change_nothing(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for u in (ALICE, BOB):
            await w.press_lobby(u, "j")
        for u in (ALICE, BOB):
            await w.press_lobby(u, "r")
        (t,) = w.service.rt.tables.values()
        assert t.hand is not None
        community = await w.store.community("discord", str(w.fake.guild_id))

        async def state() -> tuple[object, ...]:
            c = await w.store.community("discord", str(w.fake.guild_id))
            return (
                {n: (s.stack, s.ready) for n, s in t.seats.items()},
                t.closing,
                c.settings.options,
                c.settings.kush_label,
                len(await w.store.ledger(community.id)),
            )

        before = await state()
        for user, admin in ((ALICE, True), (BOB, True), (CAROL, False)):
            for sub, options, dm in BAD:
                kw: dict[str, Any] = {"channel_id": DM_CHANNEL} if dm else {}
                reply = await w.slash(user, sub, options, admin=admin, **kw)
                text = reply["content"]
                assert reply["flags"] & EPHEMERAL, (user.name, sub, options, reply)
                assert 0 < len(text) <= 400, (user.name, sub, options, text)
                if user is BOB:  # (his client reads Russian)
                    assert any("а" <= c <= "я" for c in text.lower()), (sub, options, text)
                    assert not text.startswith("Сохранено"), (sub, options, text)
                else:
                    assert not text.startswith("Saved"), (user.name, sub, options, text)
        assert await state() == before
        await assert_conserved(w.store)
