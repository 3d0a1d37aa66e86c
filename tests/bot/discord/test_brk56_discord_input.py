"""brk56 on Discord, through discord.py's real client and the fake Discord: a ``custom_id``
that is no text (unpaired UTF-16 surrogates, what a JSON ``\\udXXX`` escape decodes to) is
an unknown button like any other forged one: answered with a short ephemeral notice, and
nothing changes."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, components, world
from tests.fakes.discord_api import EPHEMERAL


async def test_every_press_is_answered_a_custom_id_that_is_no_text(tmp_path: Path) -> None:
    """Carol and Bob press the table message with custom_ids that are no text: the
    adapter's fallback for what no item handled decoded them and raised
    UnicodeEncodeError, so nothing answered ("This interaction failed"); now each gets
    "Unknown button." in the presser's language, and the table is as it was."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        await w.press_lobby(BOB, "j")
        msg = w.table_message()
        join = next(c["custom_id"] for c in components(msg) if c["custom_id"].endswith(":j"))
        t = w.table()
        before = (t.version, sorted(t.seats))
        for forged in (join + "\ud800", "\udcff\udcfe", join[:-1] + "\udcff"):
            for user, lang in ((CAROL, "en"), (BOB, "ru")):
                record = await w.settle(await w.fake.press(user, msg, forged, gone=True))
                notice = w.notice(record)
                assert notice is not None, (forged, record)
                assert notice["flags"] & EPHEMERAL
                assert notice["content"] == tr(lang, "err.forged"), (forged, notice)
        assert (t.version, sorted(t.seats)) == before
        assert all(r.answered for r in w.fake.interactions.values())


#: what a server command sent in a DM is answered: a table command, a wallet command
IN_A_DM = {
    ("table", "en"): "This command works in a server channel.",
    ("table", "ru"): "Эта команда работает в канале сервера.",
    ("wallet", "en"): "Each server keeps its own balances: use this command in the server "
    "where you play.",
    ("wallet", "ru"): "У каждого сервера свои балансы: отправьте эту команду на сервере, "
    "где играете.",
}


async def test_a_command_from_a_dm_names_a_server_channel_not_a_group_chat(
    tmp_path: Path,
) -> None:
    """Texts on Discord say server and channel where Telegram's say group (the guide's own
    wording per platform, ``texts.on``): a server command delivered from a DM (an old form
    of the command, or forged past Discord's guild-only check) was answered "This command
    works in a group chat." and "Each group keeps its own balances: use this command in the
    group where you play." (a Discord group chat is a group DM, where the bot cannot play).
    Each names the server channel, in both languages, and changes nothing."""
    async with world(tmp_path) as w:
        dm = 77  # (not a channel of the guild: the fake sends it as a DM)
        table_commands = ("new", "join", "stats", "settings", "close", "grant")
        wallet_commands = ("balance", "daily", "history", "top")
        for user, lang in ((ALICE, "en"), (BOB, "ru")):
            for sub in (*table_commands, *wallet_commands):
                options = {"user": BOB, "amount": 5} if sub == "grant" else None
                reply = await w.slash(user, sub, options, channel_id=dm, admin=True)
                text = reply["content"]
                assert reply["flags"] & EPHEMERAL, (sub, reply)
                kind = "table" if sub in table_commands else "wallet"
                assert text == IN_A_DM[kind, lang], (sub, text)
                assert "group" not in text and "групп" not in text, (sub, text)
        assert not w.service.rt.tables
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert await w.store.find_player(community.id, str(BOB.id)) is None
