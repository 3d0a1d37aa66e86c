"""Issue 16 on Discord, through discord.py's real client and the fake Discord: names are shown
literally (markdown escaped, no command rewriting inside them), the admin commands are a
command of their own with default member permissions, help names every game, and an
unexpected exception is answered ("nothing changed") and logged once (items 7, 8, 10, 11)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.discord.adapter import discord_commands, discord_name
from bot.discord.presenter import plain_of
from bot.names import clean_name
from bot.texts import tr
from tests.bot.discord.dc_world import ALICE, BOB, _Records, components, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import EPHEMERAL, TOKEN, FakeDiscord, FakeUser

HEADING = FakeUser(311, "# **WINNER**")
SPOILER = FakeUser(312, "||hidden||")
SLASH = FakeUser(313, "/top")


def test_names_are_escaped_and_never_rewritten() -> None:
    assert discord_name("# **WINNER**") == "\\# \\*\\*WINNER\\*\\*"
    assert discord_name("||x||") == "\\|\\|x\\|\\|"
    assert discord_name("1. first") == "1\\. first"
    assert discord_name("@everyone") == "@\u200beveryone"
    text = f"{discord_name('/top')} — use /top, /settings or /closetable"
    assert discord_commands(text) == (
        "\\/top — use /ofc top, /ofcadmin settings or /ofcadmin close"
    )


async def test_markdown_names_show_literally(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for user in (HEADING, SPOILER, SLASH):
            await w.press_lobby(user, "j")
        content = w.table_message()["content"]
        assert "1. \\# \\*\\*WINNER\\*\\* —" in content
        assert "2. \\|\\|hidden\\|\\| —" in content
        assert "3. \\/top —" in content
        reply = await w.slash(SLASH, "balance")
        assert reply["content"].startswith("\\/top: 1,000")  # not "/ofc top: 1000"
        reply = await w.slash(ALICE, "top")
        lines = reply["content"].splitlines()
        assert any(line.endswith("\\/top — 1,000 kush") for line in lines[1:]), lines
        assert "/ofc top" not in reply["content"]
        # a granted member's name is escaped as well
        reply = await w.slash(ALICE, "grant", {"user": SPOILER, "amount": 5}, admin=True)
        assert reply["content"].startswith("\\|\\|hidden\\|\\|: +5")


async def test_admin_commands_are_their_own_command_for_manage_server(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        admin = next(c for c in w.fake.commands if c["name"] == "ofcadmin")
        assert {o["name"] for o in admin["options"]} == {"settings", "grant", "close", "kick"}
        assert int(admin["default_member_permissions"]) == 32  # Manage Server
        assert admin["dm_permission"] is False
        # our own check still decides (a server may open the command to everyone)
        reply = await w.slash(BOB, "close", group="ofcadmin")
        assert reply["flags"] & EPHEMERAL and "«Управлять сервером»" in reply["content"]
        await w.slash(ALICE, "new")
        reply = await w.slash(ALICE, "close", group="ofcadmin", admin=True)
        assert "Table #1 is closed" in reply["content"]
        reply = await w.slash(ALICE, "help")
        text = reply["content"]
        assert "\n/ofcadmin close — close the table (asked mid-hand: when the hand ends" in text
        assert "/ofcadmin settings — the buy-in, the point's price" in text
        assert "game: Pineapple OFC, Classic OFC or Chinese Poker" in text  # (its choices)
        await w.slash(ALICE, "new")
        reply = await w.slash(BOB, "new")
        assert "/ofcadmin close" in reply["content"]  # how to close it


def _drain(records: _Records) -> list[str]:
    out = list(records.messages)
    records.messages.clear()  # the world checks that nothing else was logged
    return out


async def test_an_unexpected_exception_is_answered_and_logged_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with world(tmp_path) as w:
        records = next(
            h for h in logging.getLogger("bot.discord").handlers if isinstance(h, _Records)
        )
        await w.slash(ALICE, "new")

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("boom")

        # the service call fails
        monkeypatch.setattr(w.store, "player", broken)
        reply = await w.slash(BOB, "balance")
        assert reply["flags"] & EPHEMERAL
        assert reply["content"] == "Что-то пошло не так, ничего не изменилось. Попробуйте ещё раз."
        logged = _drain(records)
        assert len(logged) == 1 and "balance" in logged[0] and str(BOB.id) in logged[0]
        monkeypatch.undo()

        # answering a press fails (discord.py would only log it): the error handler answers;
        # the Join is committed (Alice sits), so not with "nothing changed"
        monkeypatch.setattr(w.adapter, "_answer_press", broken)
        record = await w.press_lobby(ALICE, "j")
        notice = w.notice(record)
        assert notice is not None and notice["flags"] & EPHEMERAL
        assert notice["content"] == tr("en", "err.not_shown")
        logged = _drain(records)
        assert len(logged) == 1 and "component" in logged[0]
        monkeypatch.undo()

        # the command tree's error hook (an error outside the adapter's command code)
        monkeypatch.setattr(w.adapter, "command", broken)
        reply = await w.slash(ALICE, "top")
        assert reply["flags"] & EPHEMERAL and "nothing changed" in reply["content"]
        assert len(_drain(records)) == 1
        assert components(reply) == []


async def test_a_failed_press_is_logged_without_its_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A placement press that fails is logged once, by custom_id: the card it placed (a
    discard's too, R3.3) is left out of the line, as whoever runs the bot may play."""
    from tests.bot.discord.test_discord_e2e import seat_everyone

    async with world(tmp_path) as w:
        records = next(
            h for h in logging.getLogger("bot.discord").handlers if isinstance(h, _Records)
        )
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        user = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
        msg = await w.hand_message(user, "ephemeral")
        (_, card), custom_id = next((k, c) for k, c in w.buttons(msg).items() if k[0] == "p")
        _drain(records)

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("boom")

        monkeypatch.setattr(w.adapter, "_answer_press", broken)
        await w.press(user, msg, custom_id)
        (line,) = _drain(records)
        assert "component" in line and f"{t.id}:" in line and ":p:…" in line, line
        assert card not in line and custom_id not in line, line


@given(st.text(alphabet=st.sampled_from("ab_*`~|>#-+1. @<\\/[]()\n"), max_size=30))
@example("[1](\\)")  # a masked link's backslash: escape_markdown left it bare, drawn dropped
@example("@everyone [x](\\) 1. y")
def test_a_picture_draws_a_name_as_it_was_written(raw: str) -> None:
    """What a picture draws of an escaped name (:func:`plain_of`) is the name as cleaned,
    whatever markdown, mention or slash it holds: its escapes are undone, exactly."""
    name = clean_name(raw, fallback="x")
    assert plain_of(discord_name(name)) == name


async def test_a_server_name_with_markdown_shows_literally_in_stats(tmp_path: Path) -> None:
    """The group's ``/ofc stats`` is titled with the server's name, as written: markdown
    escaped like a member's name (``**Poker** Night`` showed in bold, ``# Night`` as a
    heading)."""
    fake = FakeDiscord(TOKEN, guild_name="# **Poker** Night")
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            await seat_everyone(w, [ALICE, BOB])
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            reply = await w.slash(ALICE, "stats")
            first = reply["content"].splitlines()[0]
            assert first == "📊 \\# \\*\\*Poker\\*\\* Night · all time", first
    finally:
        await fake.stop()


async def test_a_grant_to_a_bot_account_is_refused_and_creates_no_player(tmp_path: Path) -> None:
    """An admin picks another bot of the server (or this one) in ``/ofcadmin grant``: bots
    never play, so it is refused in the admin's language and nothing is stored; it made the
    bot a player with the starting balance plus the grant, first on ``/ofc top``."""
    mee6 = FakeUser(777, "MEE6", bot=True)
    async with world(tmp_path) as w:
        reply = await w.slash(ALICE, "grant", {"user": mee6, "amount": 500}, admin=True)
        assert reply["flags"] & EPHEMERAL, reply
        assert (
            reply["content"]
            == "MEE6 is a bot account, which never plays: /ofcadmin grant is for members."
        )
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert await w.store.find_player(community.id, str(mee6.id)) is None
        top = await w.slash(BOB, "top")
        assert "MEE6" not in top["content"], top
        reply = await w.slash(BOB, "grant", {"user": mee6, "amount": 500}, admin=True)
        assert (
            reply["content"] == "MEE6 — бот, а не игрок: /ofcadmin grant — только для участников."
        )
        assert w.logged == []


async def test_a_typed_argument_an_answer_repeats_shows_literally(tmp_path: Path) -> None:
    """What a member typed into an option and the answer repeats (a computer player's name
    no one seated has, a setting name, a game) was echoed raw: ``**x**`` in bold, ``||x||``
    a spoiler, ``# x`` a heading, ``<@id>`` a mention. It is escaped as a name is, and no
    answer may ping anyone (``allowed_mentions`` parses nothing)."""
    typed = "# **x** __u__ `c` ||s|| @everyone <@&930000000000000009>"
    shown = discord_name(typed)
    assert shown.startswith("\\# \\*\\*x\\*\\* \\_\\_u\\_\\_ \\`c\\` \\|\\|s\\|\\| @\u200beveryone")
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        await w.slash(ALICE, "addbot", admin=True)
        reply = await w.slash(ALICE, "removebot", {"name": typed[:20]}, admin=True)
        assert reply["content"] == tr(
            "en", "bot.unknown", name=discord_name(typed[:20]), seated="🤖 Anna"
        ).replace("/removebot", "/ofc removebot"), reply
        # (one word: the words of the name option are split as Telegram's command is)
        reply = await w.slash(ALICE, "settings", {"name": "**x**@here"}, admin=True)
        assert reply["content"].splitlines()[0] == "“\\*\\*x\\*\\*@\u200bhere” is not a setting."
        # a forged choice is none of the option's: refused naming the option, not echoed
        reply = await w.slash(ALICE, "rules", {"game": "||x||"})
        assert reply["content"] == tr("en", "reply.option_outdated", option="game"), reply
        reply = await w.slash(ALICE, "stats", {"period": "*x*"})
        assert reply["content"] == tr("en", "reply.option_outdated", option="period"), reply
        answers = [c for c in w.fake.calls if c.path.startswith("/interactions/")]
        assert answers and all(
            c.body["data"]["allowed_mentions"] == {"parse": []} for c in answers
        ), [c.body for c in answers]
