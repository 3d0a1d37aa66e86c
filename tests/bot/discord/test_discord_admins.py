"""Admins and bad input on Discord, a break-it round: a member without Manage Server is told
who may do what they tried, and nothing changes."""

from __future__ import annotations

from pathlib import Path

from bot.service.settings import KUSH_LABEL_MAX
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, world
from tests.fakes.discord_api import EPHEMERAL


async def test_a_member_without_manage_server_is_told_who_the_admins_are(
    tmp_path: Path,
) -> None:
    """Discord has no group admins: its admins are members with Manage Server. A member
    without it who tries an admin's command (closing the table, a setting, a grant) or seats
    a computer player at a table someone else opened was told "Only group admins can do
    that.", which says nothing to a server whose roles are named otherwise; the refusal names
    Manage Server, in English and in Russian, and nothing changes."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        await w.slash(BOB, "balance")  # Bob has a wallet here: 1000
        only = "Only members with Manage Server can do that."
        only_ru = "Это могут только участники с правом «Управлять сервером»."
        for user, sub, options, text in (
            (CAROL, "close", None, only),
            (BOB, "close", None, only_ru),
            (CAROL, "settings", {"name": "min_buy_in", "value": "500"}, only),
            (BOB, "grant", {"user": BOB, "amount": 100}, only_ru),
        ):
            reply = await w.slash(user, sub, options)
            assert reply["flags"] & EPHEMERAL and reply["content"] == text, (sub, reply)
        reply = await w.slash(CAROL, "addbot")
        assert reply["content"] == (
            "Only members with Manage Server and the table's opener can seat or stand up "
            "computer players."
        ), reply
        reply = await w.slash(BOB, "removebot")
        assert reply["content"] == (
            "Сажать и убирать компьютерных игроков могут только участники с правом "
            "«Управлять сервером» и тот, кто открыл стол."
        ), reply
        t = w.table()
        assert t.id in w.service.tables and not t.seats
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert community.settings.min_buy_in == 200
        reply = await w.slash(BOB, "balance")
        assert "1000" in reply["content"], reply


async def test_a_refused_grant_to_a_member_who_never_played_creates_no_wallet(
    tmp_path: Path,
) -> None:
    """``/ofcadmin grant`` names a member Discord resolves; one who never played here got
    their wallet (a starting balance in the ledger, a line on /top) before the grant was
    judged, so a grant refused for taking more than that balance still made it. Refused
    now with nothing created; a grant that goes through makes the wallet and moves once."""
    async with world(tmp_path) as w:
        reply = await w.slash(ALICE, "grant", {"user": CAROL, "amount": -5000}, admin=True)
        assert reply["flags"] & EPHEMERAL and reply["content"] == "Carol has only 1,000 kush.", (
            reply
        )
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert await w.store.find_player(community.id, str(CAROL.id)) is None
        assert await w.store.ledger(community.id) == []
        reply = await w.slash(ALICE, "top")
        assert "Carol" not in reply["content"], reply
        reply = await w.slash(ALICE, "grant", {"user": CAROL, "amount": -400}, admin=True)
        assert reply["content"] == "Carol: −400 kush, balance 600.", reply
        entries = await w.store.ledger(community.id)
        assert [(e.kind.value, e.balance_delta) for e in entries] == [
            ("starting", 1000),
            ("admin_grant", -400),
        ]


async def test_a_kush_label_with_markdown_reads_literally_and_draws_plain(tmp_path: Path) -> None:
    """``/ofcadmin settings kush_label **x**`` (or ``||x||``): every message with an amount
    showed it formatted (bold, a spoiler). The label is kept as typed and every message shows
    it literally (escaped, as names are); a picture or chart draws it plain. A mention
    (``<@1>``) has digits, which a label may not (it reads after every amount, R8.1)."""
    from bot import pictures

    async with world(tmp_path) as w:
        for typed, shown in (
            ("**x**", "\\*\\*x\\*\\*"),
            ("||x||", "\\|\\|x\\|\\|"),
        ):
            reply = await w.slash(
                ALICE, "settings", {"name": "kush_label", "value": typed}, admin=True
            )
            assert shown in reply["content"], reply
            community = await w.store.community("discord", str(w.fake.guild_id))
            assert community.settings.kush_label == typed
            reply = await w.slash(BOB, "balance")
            assert f"1000 {shown} " in reply["content"], reply
            assert w.service.rt.plain_text("discord", shown) == typed
        reply = await w.slash(
            ALICE, "settings", {"name": "kush_label", "value": "<@1>"}, admin=True
        )
        assert "no digits" in reply["content"], reply
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert community.settings.kush_label == "||x||"
        data = {"boards": [], "notes": [], "label": "\\*\\*x\\*\\*"}
        plain = pictures.with_plain_text(data, lambda s: w.service.rt.plain_text("discord", s))
        assert plain["label"] == "**x**"


async def test_a_kush_label_saved_unescaped_reads_literally_and_its_limit_is_what_was_typed(
    tmp_path: Path,
) -> None:
    """A label saved before messages escaped it (``**old**``, stored as typed, no migration)
    was bold in every amount until an admin set it again; and escaping at the save made a
    label of 40 typed ``*`` 80 stored characters, past the 40 the admin was told. The label
    is stored as typed (the limit, :data:`KUSH_LABEL_MAX` (12), is what was typed: one more
    is refused) and escaped where a message shows it: a table opened after, ``/balance``,
    the settings list."""
    from dataclasses import replace

    async with world(tmp_path) as w:
        community = await w.store.community("discord", str(w.fake.guild_id))
        old = replace(community.settings, kush_label="**old**")
        await w.store.update_settings(community.id, old)
        reply = await w.slash(BOB, "balance")
        assert "1000 \\*\\*old\\*\\* " in reply["content"], reply
        await w.slash(ALICE, "new")
        assert "Buy-in 200 \\*\\*old\\*\\* " in w.table_message()["content"]
        reply = await w.slash(ALICE, "settings", {"name": "kush_label",
                              "value": "*" * (KUSH_LABEL_MAX + 1)}, admin=True)  # fmt: skip
        assert f"1 to {KUSH_LABEL_MAX} characters" in reply["content"], reply
        reply = await w.slash(ALICE, "settings", {"name": "kush_label",
                              "value": "*" * KUSH_LABEL_MAX}, admin=True)  # fmt: skip
        stars = "\\*" * KUSH_LABEL_MAX  # (as Discord shows the "*" literally)
        assert stars in reply["content"], reply
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert community.settings.kush_label == "*" * KUSH_LABEL_MAX
        reply = await w.slash(BOB, "balance")
        assert f"1000 {stars} " in reply["content"], reply
        reply = await w.slash(ALICE, "settings", admin=True)
        assert f"Kush label: {stars}" in reply["content"], reply
