"""fixset37: brk56's admin settings input (``/settings``), through the service as both
platforms' adapters call it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.presses import SettingStep, decode
from bot.service.settings import SETTINGS, refusal_text
from bot.texts import tr
from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, say, stored


async def test_settings_all_with_a_value_lists_every_setting() -> None:
    """``/settings all 5`` (Discord ``name:all value:5``) was answered "“all” is not a
    setting", though the usage says ``/settings all`` lists them: it lists every setting,
    the extra words ignored, and changes nothing."""
    service, store = new_service()
    before = await stored(store)
    listed = await say(service, "all")
    assert listed.screen is not None
    for args in (("all", "5"), ("ALL", "hand_seconds", "60"), ("все", "5")):
        reply = await say(service, *args)
        assert not reply.alert, reply.text
        assert reply.screen is not None, reply.text
        assert reply.screen.text == listed.screen.text
        assert tr("en", "reply.settings_unknown", name="all") not in reply.text
    reply = await say(service, "all", "5", actor=BORIS)
    assert reply.screen is not None and "Время на раздачу: " in reply.screen.text
    assert await stored(store) == before


async def test_a_value_of_control_characters_alone_is_refused_not_explained() -> None:
    """A ``kush_label`` made only of NUL (or other control characters: what Discord's
    ``value`` option passes on; cleaned, nothing is left) was answered with the setting's
    help, as if no value had been typed: it is refused with the label's range (1 to 12
    characters, at least one visible), in either language, and nothing is saved; so is such
    a value of another setting (a list's would have been saved as its default)."""
    service, store = new_service()
    before = await stored(store)
    help_text = (await say(service, "kush_label")).text
    for value in ("\x00", "\x00\x00\x01", "\x07 \x1b", "\x7f"):
        reply = await say(service, "kush_label", value)
        assert reply.alert, reply.text
        assert reply.text != help_text
        assert reply.text == tr(
            "en",
            "reply.setting_refused",
            error=tr("en", "settings.range.text", name="kush_label", low=1, high=12) + ".",
        ), reply.text
        reply = await say(service, "kush_label", value, actor=BORIS)
        assert reply.alert and "валюта" in reply.text and "1 до 12" in reply.text, reply.text
    for name in ("payouts", "hand_seconds"):
        reply = await say(service, name, "\x00")
        assert reply.alert and reply.text.startswith("Cannot set that"), reply.text
    assert await stored(store) == before


@pytest.mark.parametrize(
    ("name", "typed"),
    [
        ("hand_seconds", "99999999999999999999999s"),
        ("hand_seconds", "9999999999999999m"),
        ("level_minutes", "99999999999999999999h"),
        ("utc_offset", "99999999999999999999999999h"),
    ],
)
async def test_a_huge_time_with_its_unit_is_refused_with_the_range_alone(
    name: str, typed: str
) -> None:
    """``/settings hand_seconds 99999999999999999999999s`` said it "is
    99999999999999991611392 seconds" (the float had lost the digits): a time typed with its
    unit too big to be told is refused with the range alone, in either language; nothing
    is saved. A smaller one is still told in the setting's unit."""
    service, store = new_service()
    before = await stored(store)
    spec = SETTINGS[name]
    for actor, lang in ((ALICE, "en"), (BORIS, "ru")):
        reply = await say(service, name, typed, actor=actor)
        assert reply.alert
        assert reply.text == refusal_text(lang, spec.range_text(lang) + "."), reply.text
    assert await stored(store) == before
    reply = await say(service, "hand_seconds", "100000h")
    assert reply.text.endswith("\n“100000h” is 360000000 seconds."), reply.text


@pytest.mark.parametrize(
    ("typed", "saved"),
    [("5:45", 5.75), ("-5:45", -5.75), ("+5:30", 5.5), ("−3:30", -3.5), ("-0:45", -0.75),
     ("14:00", 14.0), ("-12:00", -12.0), ("5.75", 5.75), ("5,25", 5.25)],
)  # fmt: skip
async def test_a_time_zone_is_taken_in_hours_and_minutes(typed: str, saved: float) -> None:
    """``/settings utc_offset 5:45`` (Nepal) was refused with no word of 5.75: a zone
    is taken as ``H:MM`` with a sign or none (minutes 0–59), as hours too."""
    service, store = new_service()
    reply = await say(service, "utc_offset", typed)
    assert not reply.alert, reply.text
    assert (await stored(store)).utc_offset == saved


@pytest.mark.parametrize(
    "typed", ["5:40", "5:75", "5:4", "1:2:3", "0.0000001", "-0.0000001", "5.7", "7.1", "20m"]
)
async def test_a_time_zone_off_the_quarter_hours_is_refused_with_an_example(typed: str) -> None:
    """``utc_offset`` 0.0000001 or 5.7 was saved, no zone's offset (every real one is whole
    quarter hours, -12 to 14), and "5:75" was told only the range: each is refused with the
    range and how to write a zone ("5.75 or 5:45"), in either language, nothing saved."""
    service, store = new_service()
    before = await stored(store)
    spec = SETTINGS["utc_offset"]
    for actor, lang in ((ALICE, "en"), (BORIS, "ru")):
        reply = await say(service, "utc_offset", typed, actor=actor)
        assert reply.alert
        said = spec.range_text(lang) + ".\n" + tr(lang, "settings.zone_quarters")
        assert reply.text == refusal_text(lang, said), reply.text
    assert await stored(store) == before
    reply = await say(service, "utc_offset", "14:15")  # (a quarter hour beyond the range)
    assert reply.text == refusal_text("en", spec.range_text("en") + "."), reply.text


async def test_a_step_from_a_zone_saved_off_the_quarter_hours_goes_to_a_quarter_hour() -> None:
    """A ``utc_offset`` saved before quarter hours were required (1.0000001): the settings
    message's − and + moved it by 1 to 0.0000001 / 2.0000001, which a change now refuses;
    each lands on the nearest quarter hour and is saved."""
    service, store = new_service()
    community = await store.community("telegram", "-100")
    await store.change_settings(community.id, lambda s: replace(s, utc_offset=1.0000001))

    async def yes() -> bool:
        return True

    for op, saved in (("-", 0.0), ("+", 1.0)):
        screen = (await say(service, "all")).screen
        assert screen is not None
        data = next(
            b.data
            for b in screen.all_buttons()
            if isinstance(p := decode(b.data), SettingStep) and p.code == "tz" and p.op == op
        )
        reply = await service.press(ALICE, data, GROUP, yes)
        assert not reply.alert, reply.text
        assert (await stored(store)).utc_offset == saved
