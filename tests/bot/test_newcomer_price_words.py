"""newcomer: ``/help`` says admins set "the point's price" with ``/settings``, but the
English words for it found the wrong settings or none: "price" was offered ``chips_schedule``
alone (the tournament's "Point price by level"), "prices" ``pictures``, "point_price" and
"point_value" nothing. The cash table's price of a point is ``kush_per_point``."""

from __future__ import annotations

from bot.service.settings import close_settings, setting_suggestions


def test_price_words_suggest_kush_per_point_first() -> None:
    """Each word offers ``kush_per_point`` first; "price" and "prices" the tournament's
    ``chips_schedule`` after it, as «цена очка» does in Russian."""
    assert close_settings("price") == ["kush_per_point", "chips_schedule"]
    assert close_settings("Prices") == ["kush_per_point", "chips_schedule"]
    assert close_settings("point_price") == ["kush_per_point"]
    assert close_settings("point_value") == ["kush_per_point"]


def test_discords_autocomplete_offers_them_too() -> None:
    """Discord's autocomplete of the setting's name offers the same, labelled by the word."""
    found = [(s.name, label) for s, label in setting_suggestions("price")]
    assert ("kush_per_point", "price") in found
    assert [s.name for s, _ in setting_suggestions("point_pr")][:1] == ["kush_per_point"]
