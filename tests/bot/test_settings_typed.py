"""What admins type to ``/settings`` off the happy path, in-memory store:

* a ``kush_label`` with nothing visible in it (a zero-width space, a Braille blank, a Hangul
  filler) passed the check (1 to 40 characters, none a control character), and every amount
  then read "200 ​" with no unit; in Russian an amount's refusal read "целое число ​ от 1";
* a timer written in other digits ("hand_seconds ١٢٠") was told only its range;
* a word of a setting's name alone ("ready", "idle") got no suggestion.
"""

from __future__ import annotations

import pytest

from bot.service.settings import SETTINGS
from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, GROUP


@pytest.mark.parametrize(
    "label", ["\u200b", "\u2800", "\u3164", "\u200b\u2060\ufe0f", "\u115f\u1160", "\u3000\u200b"]
)
async def test_r8_1_a_kush_label_with_nothing_visible_is_refused(label: str) -> None:
    service, _presenter, store, _clock = service_env()
    for actor, lang in ((ALICE, "en"), (BOB, "ru")):
        reply = await service.settings(GROUP, actor, True, ["kush_label", label])
        assert reply.alert, reply.text
        # (said so, ux45: no longer the range, "1 to 12 characters", which one had)
        assert tr(lang, "settings.label_blank") in reply.text, reply.text
    community = await store.community("telegram", "-100")
    assert community.settings.kush_label == "kush"  # the default, unchanged


@pytest.mark.parametrize(
    ("label", "saved"),
    [("₽", "₽"), ("₽ (rub)", "₽ (rub)"), ("\u200b₽", "₽"), ("🪙", "🪙"), ("куш\u200d", "куш")],
)
async def test_r8_1_a_kush_label_with_something_visible_is_kept_as_typed(
    label: str, saved: str
) -> None:
    """Kept as typed, without its invisible format characters (ux45)."""
    service, _presenter, store, _clock = service_env()
    reply = await service.settings(GROUP, ALICE, True, ["kush_label", label])
    assert not reply.alert, reply.text
    community = await store.community("telegram", "-100")
    assert community.settings.kush_label == saved


def test_the_text_range_says_a_character_must_show() -> None:
    assert "at least one visible" in tr("en", "settings.range.text", name="x", low=1, high=40)
    assert "хотя бы один видимый" in tr("ru", "settings.range.text", name="x", low=1, high=40)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("hand_seconds", "１２０"),  # fullwidth digits: 120, in range
        ("hand_seconds", "١٢٠"),  # Arabic-Indic digits
        ("ready_seconds", "٣٠"),
        # a no-break space between the digits of a setting that takes fractions ("6 000"
        # for a whole-number one is 6000, fix39g: tests/bot/test_fix39g_numbers.py)
        ("reveal_pause_seconds", "1\u00a0000"),
        ("idle_close_seconds", "1_800"),
    ],
)
async def test_a_fraction_setting_written_in_other_digits_says_how_to_write_it(
    name: str, value: str
) -> None:
    """A whole-number setting ("min_buy_in ١٠٠") was told to use the digits 0–9; a setting
    that takes a fraction, the timers, was told only its range ("hand_seconds takes a number
    of seconds from 1 to 3,600") for a value inside it written in other digits. It is told
    how to write the number too, in either language, and nothing is saved."""
    service, _presenter, store, _clock = service_env()
    before = (await store.community("telegram", "-100")).settings
    for actor, lang in ((ALICE, "en"), (BOB, "ru")):
        reply = await service.settings(GROUP, actor, True, [name, value])
        assert reply.alert, reply.text
        # (the digits, their thousands grouped or not, for a whole number: fix39g)
        key = "reply.number_digits" if name == "reveal_pause_seconds" else "reply.number_grouped"
        assert tr(lang, key) in reply.text, reply.text
    assert (await store.community("telegram", "-100")).settings == before


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("ready", ["ready_seconds"]),
        ("idle", ["idle_close_seconds"]),
        ("Close", ["idle_close_seconds"]),
        ("bank", ["time_bank_seconds", "time_bank_refill_per_match"]),
        ("pause", ["reveal_pause_seconds"]),  # (was "payouts", spelled alike)
        ("kush", ["kush_label", "kush_per_point"]),
        ("chips", ["tournament_chips", "chips_schedule"]),
        ("level", ["level_minutes"]),
        ("deuce", ["deuce_of_spades"]),
        ("utc", ["utc_offset"]),
        ("timezone", ["utc_offset"]),
        ("пояс", ["utc_offset"]),
    ],
)
async def test_a_word_of_a_setting_s_name_is_answered_with_that_setting(
    typed: str, meant: list[str]
) -> None:
    """``/settings ready 30``: a word of a setting's name, typed alone, was "not a setting"
    with no suggestion (difflib finds "ready" too unlike "ready_seconds"), and "pause"
    suggested "payouts". The settings with that word in their name are suggested, in
    either language; nothing is saved."""
    service, _presenter, store, _clock = service_env()
    before = (await store.community("telegram", "-100")).settings
    for actor, lang in ((ALICE, "en"), (BOB, "ru")):
        reply = await service.settings(GROUP, actor, True, [typed, "30"])
        assert reply.alert, reply.text
        # (a Russian reader is offered the Russian names, as the Russian list shows them)
        *first, last = [SETTINGS[m].ru_name if lang == "ru" else m for m in meant]
        names = tr(lang, "reply.settings_or", first=", ".join(first), last=last) if first else last
        assert tr(lang, "reply.settings_did_you_mean", names=names) in reply.text, reply.text
    assert (await store.community("telegram", "-100")).settings == before
