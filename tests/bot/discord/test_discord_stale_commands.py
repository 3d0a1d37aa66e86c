"""Slash commands this bot does not have, as a command list other than the one the process
runs sends them (a Discord client's from before a deploy, a worker of another version during
a rolling one: ``/ofc settings`` from before it moved to ``/ofcadmin settings``; a subcommand
removed or renamed; the top-level command run as it was before it had subcommands). Each is
answered, only to the user who ran it, with what to do (reload Discord or try again in a few
minutes; ``/ofc help`` lists the commands), never "something went wrong, please try again"
(at once, the same command fails the same way), and logged as what it is, no error with a
traceback; nothing changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.texts import tr
from tests.bot.discord.dc_world import ALICE, BOB, World, world
from tests.fakes.discord_api import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_ID,
    EPHEMERAL,
    FakeInteraction,
    FakeUser,
)


async def answered(w: World, record: FakeInteraction) -> dict[str, Any]:
    """The one message that answered ``record`` (once the bot is done with it)."""
    await w.settle(record)
    assert record.callback_type == 4 and len(record.messages) == 1, record
    return w.fake.messages[record.messages[0]]


def outdated(lang: str) -> str:
    """The answer to a command the bot does not have, as a Discord user reads it."""
    return tr(lang, "reply.command_outdated").replace("/help", "/ofc help")


async def test_a_command_the_bot_no_longer_has_says_to_reload_discord(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        for user, group, sub in (
            (ALICE, "ofc", "settings"),  # moved to /ofcadmin settings
            (BOB, "ofc", "shuffle"),  # a subcommand removed
            (ALICE, "ofcold", "new"),  # a whole command removed
        ):
            record = await w.fake.slash(user, sub, group=group)
            reply = await answered(w, record)
            lang = "ru" if user is BOB else "en"
            assert reply["content"] == outdated(lang), reply["content"]
            assert reply["flags"] & EPHEMERAL
        assert w.service.tables == {}  # nothing opened, nothing changed
        assert w.logged == []  # no error, no warning: a client's old list is no failure


async def test_a_command_group_invoked_without_its_subcommand_says_to_reload_discord(
    tmp_path: Path,
) -> None:
    """``/ofc`` as a command of its own (the list from before it had subcommands):
    discord.py raises a signature mismatch; answered as any command the bot does not have."""
    async with world(tmp_path) as w:
        user: FakeUser = ALICE
        data = {"id": w.fake.command_id("ofc"), "name": "ofc", "type": 1, "options": []}
        record = w.fake._interaction(2, user, CHANNEL_ID, data, None, None)
        await w.fake._send_interaction(record)
        reply = await answered(w, record)
        assert reply["content"] == outdated("en"), reply["content"]
        assert reply["flags"] & EPHEMERAL
        assert w.logged == []


async def test_typing_into_a_command_the_bot_no_longer_has_suggests_nothing(
    tmp_path: Path,
) -> None:
    """An old client's ``/ofc settings`` had its setting names suggested as the admin
    typed (autocomplete): each keystroke asks the bot, which no longer has that command. It
    is answered with no suggestions (an autocomplete takes choices, never a message: a
    message answer was refused by Discord), quietly; the command's own run then says to
    reload Discord. The current ``/ofcadmin settings`` goes on suggesting."""
    async with world(tmp_path) as w:
        record = await w.settle(await w.fake.autocomplete(ALICE, "settings", "name", "hand"))
        assert record.callback_type == AUTOCOMPLETE_RESULT and record.choices == []
        assert w.logged == []
        record = await w.fake.autocomplete(ALICE, "settings", "name", "hand", group="ofcadmin")
        await w.settle(record)
        assert record.callback_type == AUTOCOMPLETE_RESULT and record.choices is not None
        assert [c["value"] for c in record.choices] == ["hand_seconds"]


def bad_value(lang: str, option: str) -> str:
    """The answer to an option sent with a type the command does not declare."""
    return tr(lang, "reply.option_outdated", option=option)


async def test_an_option_of_another_type_says_the_value_is_not_taken(tmp_path: Path) -> None:
    """An option whose type is not the one the command declares (a number or a text where a
    user is asked, a text where a whole number is, a user that Discord did not resolve, a
    user id that is no id): a command list of another version, or a forged payload. It was
    answered "something went wrong, please try again" (the command's code failed on it, an
    AttributeError logged as an error) or not at all (discord.py's namespace failed on the
    id: "This interaction failed"); it is answered, only to the user who ran it, that the
    bot does not take that value there, nothing changed, logged as no error."""
    async with world(tmp_path) as w:
        for user, sub, options in (
            (ALICE, "grant", {"user": 5, "amount": 5}),  # an integer for a user
            (BOB, "grant", {"user": "Bob", "amount": 5}),  # a text for a user
            (ALICE, "stats", {"user": "x"}),
            (ALICE, "replay", {"number": "abc"}),  # a text for an integer
        ):
            group = "ofcadmin" if sub == "grant" else "ofc"
            record = await w.fake.slash(user, sub, options, group=group, admin=True)
            reply = await answered(w, record)
            lang = "ru" if user is BOB else "en"
            name = next(iter(options))
            assert reply["content"] == bad_value(lang, name), reply["content"]
            assert reply["flags"] & EPHEMERAL
        for value, resolved in (("301", False), ("x1", True)):  # unresolved; no snowflake
            opts = [{"name": "user", "type": 6, "value": value}, {"name": "amount", "type": 4,
                                                                  "value": 5}]  # fmt: skip
            data: dict[str, Any] = {
                "id": w.fake.command_id("ofcadmin"),
                "name": "ofcadmin",
                "type": 1,
                "options": [{"name": "grant", "type": 1, "options": opts}],
                "guild_id": str(w.fake.guild_id),
            }
            if resolved:
                data["resolved"] = {"users": {value: ALICE.to_json()}}
            record = w.fake._interaction(2, ALICE, CHANNEL_ID, data, None, True)
            await w.fake._send_interaction(record)
            reply = await answered(w, record)
            assert reply["content"] == bad_value("en", "user"), reply["content"]
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert await w.store.find_player(community.id, "5") is None
        assert w.logged == []  # no error, no warning
