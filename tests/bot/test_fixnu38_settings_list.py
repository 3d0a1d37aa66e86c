"""``/settings`` listed some 34 lines and as many rows of buttons: too long for a phone. Alone
it now lists the settings that differ from their defaults (each with its default), a line
saying how many others there are and how to see them, and an "All settings" button;
``/settings all`` (and the button) list every one with its buttons, as before. A press on
either list shows that list again. Both languages, both platforms (R8.1)."""

from __future__ import annotations

import dataclasses

from bot.discord.adapter import _setting_names
from bot.discord.components import content_of
from bot.model import ChatRef
from bot.presses import AllSettings, SettingStep, decode, encode
from bot.screens import Screen
from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, say, stored


def _press(screen: Screen, code: str, op: str) -> str:
    for row in screen.buttons:
        for b in row:
            p = decode(b.data)
            if isinstance(p, SettingStep) and p.code == code and p.op == op:
                assert b.data is not None
                return b.data
    raise AssertionError(f"no {code}{op} in {screen.buttons}")


def _all_button(screen: Screen) -> str:
    (data,) = [
        b.data for row in screen.buttons for b in row if isinstance(decode(b.data), AllSettings)
    ]
    assert data is not None
    return data


async def _yes() -> bool:
    return True


async def _no() -> bool:
    return False


async def test_a_group_at_its_defaults_gets_two_lines_and_the_all_button() -> None:
    service, _ = new_service()
    en = (await say(service)).screen
    assert en is not None
    assert en.text.splitlines() == [
        "⚙ Settings of this group",
        "Every setting of Pineapple OFC is at its default: /settings all lists them, with "
        "buttons; /settings <name> <value> changes one.",
    ]
    assert [[b.label for b in row] for row in en.buttons] == [["⚙ All settings"]]
    ru = (await say(service, actor=BORIS)).screen
    assert ru is not None
    assert ru.text.splitlines() == [
        "⚙ Настройки группы",
        "Все настройки игры «Ананас (OFC)» — по умолчанию: /settings all покажет их, с "
        "кнопками; /settings <имя> <значение> меняет одну.",
    ]
    assert [[b.label for b in row] for row in ru.buttons] == [["⚙ Все настройки"]]


async def test_the_short_list_shows_what_differs_with_its_default_and_its_buttons() -> None:
    service, _ = new_service()
    assert not (await say(service, "min_buy_in", "500")).alert
    assert not (await say(service, "pictures", "off")).alert
    assert not (await say(service, "kush_label", "coins")).alert
    screen = (await say(service)).screen
    assert screen is not None
    assert screen.text.splitlines() == [
        "⚙ Settings of this group",
        "Kush label: coins (default kush)",
        "Pictures: off (default on)",
        "Buy-in (min_buy_in): 500 (default 200)",
        "The other 27 settings of Pineapple OFC are at their defaults: /settings all lists "
        "every one, with buttons; /settings <name> explains one.",
    ]
    assert [[b.label for b in row] for row in screen.buttons] == [
        ["Pictures ⟳"],
        ["Buy-in −50", "+50"],
        ["⚙ All settings"],
    ]
    # every one of them, with its buttons: /settings all (or «все»), as the list was
    full = (await say(service, "all")).screen
    assert full is not None
    assert len(full.text.splitlines()) == 32  # title, 30 settings of Pineapple, footer
    assert len(full.buttons) == 27  # (the three texts have none)
    assert (
        full == (await say(service, "все", actor=dataclasses.replace(BORIS, language="en"))).screen
    )
    assert all(not decode(b.data).short for row in full.buttons for b in row)  # type: ignore[union-attr]


async def test_a_press_on_the_short_list_shows_the_short_list_again() -> None:
    service, store = new_service()
    assert not (await say(service, "min_buy_in", "500")).alert
    short = (await say(service)).screen
    assert short is not None
    data = _press(short, "mb", "+")
    assert data.endswith(":s:mb+_")  # (the short list's)
    reply = await service.press(ALICE, data, GROUP, _yes)
    assert not reply.alert, reply.text
    assert reply.text.startswith("Saved: min_buy_in = 550 (was 500)."), reply.text
    assert (await stored(store)).min_buy_in == 550
    assert reply.screen is not None
    assert "Buy-in (min_buy_in): 550 (default 200)" in reply.screen.text.splitlines()
    assert len(reply.screen.text.splitlines()) == 3
    # the full list's press shows the full list
    full = (await say(service, "all")).screen
    assert full is not None
    reply = await service.press(ALICE, _press(full, "mb", "-"), GROUP, _yes)
    assert reply.screen is not None and len(reply.screen.text.splitlines()) == 32


async def test_the_all_settings_button_lists_every_one_and_changes_nothing() -> None:
    service, store = new_service()
    before = await stored(store)
    short = (await say(service)).screen
    assert short is not None
    data = _all_button(short)
    refused = await service.press(ALICE, data, GROUP, _no)  # a member who is no admin
    assert refused.alert and refused.screen is None
    reply = await service.press(ALICE, data, GROUP, _yes)
    assert not reply.alert and reply.text == ""
    assert reply.screen == (await say(service, "all")).screen
    # pressed again (delivered twice), or on a list older than a change: the list as it is now
    assert not (await say(service, "hand_seconds", "60")).alert
    again = await service.press(ALICE, data, GROUP, _yes, request="tg:-100:7")
    assert again.screen is not None
    assert "Time per hand (hand_seconds): 60 s" in again.screen.text.splitlines()
    assert (await stored(store)) == dataclasses.replace(before, options={"hand_seconds": 60})
    assert decode(data) == AllSettings(0, decode(data).version)  # type: ignore[union-attr]


def test_a_settings_button_of_an_older_list_reads_as_the_full_list_s() -> None:
    assert decode("0:S1234abcd:s:mb+") == SettingStep(0, "S1234abcd", "mb", "+", False)
    assert decode("0:S1234abcd:s:mb+_") == SettingStep(0, "S1234abcd", "mb", "+", True)
    assert encode(SettingStep(0, "S1234abcd", "tz", "-", True)) == "0:S1234abcd:s:tz-_"
    assert decode("0:S1234abcd:s:_") is None and decode("0:S1234abcd:s:mb_") is None


async def test_discord_names_its_command_and_offers_all() -> None:
    """On Discord the texts' ``/settings`` reads ``/ofcadmin settings`` (the presenter's
    renaming, :func:`~bot.discord.components.discord_commands`), ``all`` typed as the name
    lists every setting, and the name's suggestions offer it first."""
    service, _ = new_service()
    guild = ChatRef("discord", "55", "77", "Guild")
    admin = dataclasses.replace(ALICE, platform="discord")
    screen = (await service.settings(guild, admin, True, [])).screen
    assert screen is not None
    assert content_of(screen.text).splitlines() == [
        "⚙ Settings of this server",
        "Every setting of Pineapple OFC is at its default: /ofcadmin settings all lists them, "
        "with buttons; /ofcadmin settings <name> <value> changes one.",
    ]
    assert not (await service.settings(guild, admin, True, ["min_buy_in", "300"])).alert
    russian = dataclasses.replace(admin, language="ru")
    ru = (await service.settings(guild, russian, True, [])).screen
    assert ru is not None
    assert content_of(ru.text).splitlines()[-1] == (
        "Остальные настройки игры «Ананас (OFC)» (29) — по умолчанию: /ofcadmin settings all "
        "покажет все, с кнопками; /ofcadmin settings <имя> объясняет одну."
    )
    every = (await service.settings(guild, admin, True, ["all"])).screen
    assert every is not None and len(every.text.splitlines()) == 32
    assert [c.value for c in await _setting_names(None, "all")] == ["all"]  # type: ignore[arg-type]
    assert next(c.value for c in await _setting_names(None, "")) == "all"  # type: ignore[arg-type]
