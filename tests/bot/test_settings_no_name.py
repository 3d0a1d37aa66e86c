"""A setting's value typed without the setting's name (``/settings 30`` on Telegram,
``/ofcadmin settings value:30`` on Discord) is refused with a short usage saying to name the
setting, in the admin's language, and changes nothing. Discord showed the whole settings list
and dropped the value without a word; Telegram read ``30`` as a setting's name ("“30” is not
a setting"): no setting's name begins with a digit, so a word that does is a value."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.texts import tr
from storage.api import CommunitySettings
from tests.bot.discord import dc_world as dc
from tests.bot.test_settings import BORIS, new_service, say
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import GROUP_ID
from tests.bot.tg_world import world as tg_world
from tests.fakes.discord_api import EPHEMERAL

NO_NAME_EN = (
    "Name the setting to change.\n"
    "Usage: /settings <name> <value> (value default: back to its default); /settings <name> "
    "explains one, /settings all lists "
    "them all."
)


@pytest.mark.parametrize("args", [["", "30"], ["30"], ["", "0.5", "x"], ["-5"], ["50,30,20"]])
async def test_a_value_without_a_name_is_refused_with_the_usage(args: list[str]) -> None:
    """No name (Discord's ``name`` option left out: ``""``) or a first word that is a number
    (Telegram's ``/settings 30``): the usage, in English and in Russian; nothing saved."""
    service, store = new_service()
    before = await say(service, "all")
    reply = await say(service, *args)
    assert reply.alert and reply.screen is None
    assert (
        reply.text
        == NO_NAME_EN
        == (tr("en", "reply.settings_no_name") + "\n" + tr("en", "reply.settings_usage_short"))
    )
    reply = await say(service, *args, actor=BORIS)
    assert reply.alert and reply.text == (
        "Укажите, какую настройку изменить.\n" + tr("ru", "reply.settings_usage_short")
    )
    after = await say(service, "all")
    assert after.screen == before.screen  # the list as it was: nothing changed
    community = await store.community("telegram", "-100", "Friends")
    assert community.settings == CommunitySettings()  # the defaults, still


async def test_a_name_is_still_read_as_one() -> None:
    """Names, mistyped ones included, are read as before: only a first word that no name
    can be (a number) is taken for a value."""
    service, _store = new_service()
    reply = await say(service, "hand_seconds", "30")
    assert not reply.alert and reply.text.startswith("Saved: hand_seconds = 30"), reply.text
    reply = await say(service, "zzz", "30")
    assert reply.text == "“zzz” is not a setting.\n" + tr("en", "reply.settings_usage_short")
    assert (await say(service, "ALICE_30")).text.startswith("“alice_30” is not a setting.")


async def test_telegram_settings_with_a_value_alone(tmp_path: Path) -> None:
    """``/settings 30`` from the group's admin: the usage refusal, the setting unchanged."""
    async with tg_world(tmp_path) as w:
        w.fake.admins.setdefault(GROUP_ID, set()).add(TG_ALICE.id)
        reply = await w.say(TG_ALICE, "/settings 30")
        assert reply["text"] == NO_NAME_EN, reply
        community = await w.store.community("telegram", str(GROUP_ID), "")
        assert community.settings == CommunitySettings()  # the defaults, still


async def test_discord_settings_with_a_value_and_no_name(tmp_path: Path) -> None:
    """``/ofcadmin settings value:30`` (no ``name``): the usage refusal, ephemeral, the
    commands named the Discord way, in the admin's language; not the settings list."""
    async with dc.world(tmp_path) as w:
        reply = await w.slash(dc.ALICE, "settings", {"value": "30"}, admin=True)
        assert reply["flags"] & EPHEMERAL and not reply.get("components"), reply
        assert reply["content"] == NO_NAME_EN.replace("/settings", "/ofcadmin settings")
        reply = await w.slash(dc.BOB, "settings", {"value": "30"}, admin=True)
        assert reply["content"] == (
            "Укажите, какую настройку изменить.\n"
            + tr("ru", "reply.settings_usage_short").replace("/settings", "/ofcadmin settings")
        ), reply
        # the list, as before, when nothing at all is given
        reply = await w.slash(dc.ALICE, "settings", admin=True)
        assert reply.get("components"), reply
