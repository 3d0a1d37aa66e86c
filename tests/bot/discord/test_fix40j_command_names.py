"""fix40j: Discord's command names were written twice. Some Discord wordings
(``<key>.discord``) spelled out ``/ofcadmin close``, ``/ofc new``, ``/ofc addbot`` … while
:func:`bot.discord.components.discord_commands` renames Telegram's (``/closetable``,
``/newtable``, ``/addbot``) in every Discord message anyway; ``bot.opener_passed.discord``
differed from its Telegram twin in nothing else. Now a twin exists only for more than the
names (a channel, not a chat) and writes Telegram's names, which the rewrite turns into
Discord's: one list of Discord's names."""

from __future__ import annotations

import re
from pathlib import Path

from bot.discord.components import _COMMAND_NAMES, discord_commands
from bot.texts import TEXTS, on, tr
from tests.bot.discord.dc_world import ALICE, world

#: a Telegram command name as a command (not "{label}/hand", kush per hand, nor a name's
#: escaped "\/top"); each is Telegram's only, Discord's are "/ofc …" and "/ofcadmin …"
_TELEGRAM = re.compile(r"(?<![\w\\/}])/(" + "|".join(_COMMAND_NAMES) + r")\b")
#: a Discord command name written out
_DISCORD = re.compile(r"/ofc(admin)?\s")
#: the Discord command list: its own syntax line by line (options, "[game]"), kept whole
_OWN_LIST = {"help.discord"}


def _plain_keys() -> list[str]:
    return [key for key in TEXTS if not key.endswith(".discord")]


def test_every_discord_rendering_names_discord_commands_only() -> None:
    for key in _plain_keys():
        for lang, template in TEXTS[on("discord", key)].items():
            text = discord_commands(template)
            assert not _TELEGRAM.search(text), (key, lang, text)


def test_no_discord_twin_is_its_telegram_text_renamed() -> None:
    twins = [key for key in TEXTS if key.endswith(".discord")]
    for twin in twins:
        plain = TEXTS[twin.removesuffix(".discord")]
        renamed = {lang: discord_commands(text) for lang, text in plain.items()}
        assert TEXTS[twin] != renamed, twin
        assert TEXTS[twin] != plain, twin
        if twin not in _OWN_LIST:  # the rewrite is the one source of Discord's names
            for lang, text in TEXTS[twin].items():
                assert not _DISCORD.search(text), (twin, lang, text)


def test_renamed_wordings_read_as_before() -> None:
    """The Discord renderings are the texts the twins wrote out before."""
    said = {
        ("reply.table_exists", "en"): "an admin closes it with /ofcadmin close (stacks",
        ("reply.table_closing", "ru"): "затем /ofc new откроет новый.",
        ("tour.exists", "ru"): "закончится. /ofcadmin close админа отменяет его",
        ("tour.table_closing", "en"): "is out); then /ofc new opens a table.",
        ("stats.unknown_hint", "en"): "/ofc stats alone: this server and you.",
        ("help.kush", "ru"): "игровая валюта этого сервера (не настоящие деньги): ваш баланс "
        "— /ofc balance.",
        ("bot.opener_passed", "en"): "Ann may now seat computer players: /ofc addbot",
        ("bot.opener_passed", "ru"): "Теперь сажать компьютерных игроков может Ann: /ofc addbot",
    }
    for (key, lang), part in said.items():
        text = discord_commands(tr(lang, on("discord", key), table=3, name="Ann", unit="Kush"))
        assert part in text, (key, lang, text)
        assert part not in tr(lang, on("telegram", key), table=3, name="Ann", unit="Kush")


async def test_help_on_discord_names_the_balance_command(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        said = (await w.slash(ALICE, "help"))["content"]
        assert said.splitlines()[-1] == (
            "Kush — this server's play money (not real money): /ofc balance shows yours."
        ), said
