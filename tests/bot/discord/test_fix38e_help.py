"""Discord's /help (``help.discord``) read by a new Russian player (fix38e): it wrote the
options of the slash commands in Russian ("/ofc new [игра]", "/ofc stats [игрок] [период]")
where Discord shows their English names (``game``, ``user``, ``period``: only descriptions and
choices are translated, :class:`bot.discord.adapter.RussianDescriptions`), beside others left
in English ("[amount]", "user amount") with no word of what they are; and it named the games by
the values Discord never shows a Russian player ("pineapple (Ананас)") instead of the choices
it does ("Ананас (OFC)"). Every option is now named as Discord shows it, and said in Russian."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.texts import LANGS, tr
from tests.bot.discord.dc_world import world

#: a command of the help with the options written after it, up to the comma or dash after them
_USAGE = re.compile(r"(/ofc(?:admin)? [a-z]+)((?: (?:\[[^\]]+\]|[A-Za-z]+))*)(?=,| —)")


@pytest.mark.parametrize("lang", LANGS)
async def test_discord_help_names_each_option_as_discord_shows_it(
    tmp_path: Path, lang: str
) -> None:
    async with world(tmp_path) as w:
        synced = list(w.fake.commands)
    options = {
        f"/{group['name']} {sub['name']}": {o["name"] for o in sub.get("options") or []}
        for group in synced
        for sub in group.get("options") or []
    }
    assert options["/ofc new"] == {"game"} and options["/ofcadmin grant"] == {"user", "amount"}
    text = tr(lang, "help.discord")
    said = {m[1]: re.findall(r"\[?([^\s\[\]]+)\]?", m[2]) for m in _USAGE.finditer(text)}
    assert len(said) >= 20, said
    assert said["/ofc stats"] == ["user", "period"]
    assert said["/ofcadmin grant"] == ["user", "amount"]
    for command, args in said.items():  # (N: the number a /ofc replay or history takes)
        assert set(args) - {"N"} <= options[command], (command, args, options[command])
    if lang == "ru":  # each option said in Russian, once, under the title (fix41a: the
        # title is short, «Команды бота OFC:», as Telegram's)
        title, head = text.split("\n", 2)[:2]
        assert title == "Команды бота OFC:", title
        for arg in {a for args in said.values() for a in args} - {"N"}:
            assert re.search(rf"\b{arg} — [а-яё]", head), (arg, head)


async def test_russian_discord_help_names_the_games_as_discord_offers_them(tmp_path: Path) -> None:
    """The ``game`` option's choices a Russian player is offered are the lobby's names of the
    games ("Ананас (OFC)"), its values ("pineapple") shown to nobody; English, "Pineapple
    OFC"."""
    async with world(tmp_path) as w:
        synced = list(w.fake.commands)
    new = next(
        sub for group in synced for sub in group.get("options") or [] if sub["name"] == "new"
    )
    (game,) = new["options"]
    offered = {
        "en": [c["name"] for c in game["choices"]],
        "ru": [c["name_localizations"]["ru"] for c in game["choices"]],
    }
    assert offered["ru"] == ["Ананас (OFC)", "Классический OFC", "Китайский покер"]
    for lang in LANGS:
        line = next(x for x in tr(lang, "help.discord").split("\n") if x.startswith("/ofc new"))
        for choice in offered[lang]:
            assert choice.lower() in line.lower(), (choice, line)
        assert "pineapple" not in line and "chinese" not in line, line
