"""dsc44: Discord's autocomplete of ``/ofcadmin settings name`` offers the settings a single
word of :data:`~bot.service.settings.SETTING_WORDS` means («очко», "stakes", «блайнд»), as
the command's "Did you mean" does for it (:func:`~bot.service.settings.close_settings`), not
only the Russian phrases of :data:`~bot.service.settings.SETTING_PHRASES`: "stakes" was
offered nothing, «очко» ``kush_per_point`` but not ``min_buy_in``. Discord takes at most 25
choices."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.service.settings import SETTING_WORDS, close_settings, setting_suggestions
from tests.bot.discord.dc_world import ALICE, World, world


async def _suggested(w: World, typed: str) -> list[dict[str, Any]]:
    record = await w.fake.autocomplete(ALICE, "settings", "name", typed, group="ofcadmin")
    await w.settle(record)
    assert record.choices is not None, typed
    return list(record.choices)


async def test_a_word_typed_into_the_name_offers_its_settings(tmp_path: Path) -> None:
    """«Очко» offers ``kush_per_point`` (its Russian name holds the word: listed first, as it
    was) and ``min_buy_in``, shown with the word; "stakes" and «блайнд» (no setting's name
    or phrase holds them) offer both; a word begun («байи») offers what it means. The
    value sent is the setting's English name."""
    async with world(tmp_path) as w:
        choices = await _suggested(w, "Очко")
        values = [c["value"] for c in choices]
        assert values[0] == "kush_per_point" and "min_buy_in" in values, values
        assert set(close_settings("очко")) <= set(values)
        mine = next(c for c in choices if c["value"] == "min_buy_in")
        assert mine["name"] == "очко → min_buy_in · взнос"
        choices = await _suggested(w, "stakes")
        assert [(c["name"], c["value"]) for c in choices] == [
            ("stakes → kush_per_point · куш_за_очко", "kush_per_point"),
            ("stakes → min_buy_in · взнос", "min_buy_in"),
        ]
        assert [c["value"] for c in await _suggested(w, "блайнд")] == close_settings("блайнд")
        assert [c["value"] for c in await _suggested(w, "байи")] == [
            "min_buy_in",
            "max_buy_in",
            "tournament_buy_in",
        ]


async def test_every_word_of_the_table_offers_its_settings(tmp_path: Path) -> None:
    """Each word of the table, typed in full, offers every setting it means."""
    async with world(tmp_path) as w:
        for word, names in SETTING_WORDS.items():
            values = [c["value"] for c in await _suggested(w, word)]
            assert set(names) <= set(values), (word, values)


def test_suggestions_stay_within_discords_25_choices() -> None:
    """Whatever is typed, at most 25 suggestions, the settings found by their names first:
    the words never push one out. "n" is in 24 names; its words ("currency", "point" …)
    mean two settings more: the first of them is the 25th suggestion, the other left out."""
    for typed in ("", "т", "e", "о", "s", "и", "a", "n"):
        found = setting_suggestions(typed)
        assert len(found) <= 25, (typed, len(found))
        named = [s.name for s, label in found if label is None]
        assert named == [s.name for s, _ in found[: len(named)]], typed
    assert len(setting_suggestions("n", limit=100)) == 26
    found = setting_suggestions("n")
    assert len(found) == 25
    assert [label for _, label in found[:24]] == [None] * 24
    assert found[24][1] in SETTING_WORDS, found[24]


async def test_the_autocomplete_sends_at_most_25_choices(tmp_path: Path) -> None:
    """Discord refuses more than 25 choices: "n", which finds 26, is sent 25, the last a
    word's ("currency → kush_label · …")."""
    async with world(tmp_path) as w:
        choices = await _suggested(w, "n")
        assert len(choices) == 25
        assert choices[-1]["name"].startswith("currency → kush_label · "), choices[-1]
