"""dsc42: Discord's autocomplete of ``/ofcadmin settings name`` offers the settings a Russian
phrase of :data:`~bot.service.settings.SETTING_PHRASES` means («цена очка» is
``kush_per_point``), as the command's "Did you mean" does for the same words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.service.settings import SETTING_PHRASES, close_settings
from tests.bot.discord.dc_world import ALICE, World, world
from tests.fakes.discord_api import GUILD_ID


async def _suggested(w: World, typed: str) -> list[dict[str, Any]]:
    record = await w.fake.autocomplete(ALICE, "settings", "name", typed, group="ofcadmin")
    await w.settle(record)
    assert record.choices is not None, typed
    return list(record.choices)


async def test_a_russian_phrase_typed_into_the_name_offers_its_settings(tmp_path: Path) -> None:
    """«цена очка» (no setting's name holds it) was offered nothing; it now offers what
    the command suggests for it, ``kush_per_point`` then ``chips_schedule``, each shown with
    the phrase. A phrase begun word by word («мин вз», «ставка за оч») finds its setting
    too; the value sent is the setting's English name, which the command takes."""
    async with world(tmp_path) as w:
        choices = await _suggested(w, "Цена очка")
        assert [c["value"] for c in choices] == ["kush_per_point", "chips_schedule"]
        assert [c["value"] for c in choices] == close_settings("цена", ["очка"])
        assert choices[0]["name"] == "цена очка → kush_per_point · куш_за_очко"
        assert choices[1]["name"] == "цена очка → chips_schedule · цена_по_уровням"
        assert [c["value"] for c in await _suggested(w, "мин вз")] == ["min_buy_in"]
        choices = await _suggested(w, "ставка за оч")
        assert [(c["name"], c["value"]) for c in choices] == [
            ("ставка за очко → kush_per_point · куш_за_очко", "kush_per_point")
        ]
        # a setting found by its own name is listed first, as it was, and not twice
        choices = await _suggested(w, "цена")
        assert [c["value"] for c in choices] == ["chips_schedule", "kush_per_point", "min_buy_in"]
        assert choices[0]["name"] == "chips_schedule · цена_по_уровням"
        assert choices[2]["name"] == "цена входа → min_buy_in · взнос"
        # (max_buy_in's Russian name is «макс стек» already: found by its name)
        choices = await _suggested(w, "макс стек")
        assert [(c["name"], c["value"]) for c in choices] == [
            ("max_buy_in · макс_стек", "max_buy_in")
        ]
        answer = await w.slash(
            ALICE, "settings", {"name": "kush_per_point", "value": "3"}, admin=True
        )
        options = (await w.store.community("discord", str(GUILD_ID))).settings.options
        assert options.get("kush_per_point") == 3, (answer["content"], options)


async def test_every_phrase_of_the_table_offers_its_settings(tmp_path: Path) -> None:
    """Each phrase of the alias table, typed in full, offers every setting it means."""
    async with world(tmp_path) as w:
        for key, names in SETTING_PHRASES.items():
            values = [c["value"] for c in await _suggested(w, key.replace("_", " "))]
            assert set(names) <= set(values), (key, values)
