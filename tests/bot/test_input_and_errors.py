"""Issue 16, items 7, 9, 10 and 8 on Telegram, through the real adapter and the fake Bot API:
what users type is cut and cleaned, replies stay within Telegram's limits, help and hints name
every game and how to close a table, Chinese Poker history shows the points counted, and an
unexpected exception is answered ("nothing changed") and logged once."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import pytest

from bot.names import units
from bot.service.numbers import MINUSES, ambiguous_comma, read_fraction, read_whole
from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from tests.bot.test_classic_games_e2e import (
    at_the_claim,
)
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, world

FAMILY = "👨\u200d👩\u200d👧\u200d👦"


async def test_a_grant_to_a_4086_character_name_is_answered_within_the_limit(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        name = "@" + "x" * 4085
        reply = await w.say(ALICE, f"/grant {name} 100")
        text = reply["text"]
        assert units(text) <= 4096
        # the structure is kept, what the admin typed is cut
        assert text.startswith("No such player here: @xxx") and "x…. To grant" in text
        assert text.endswith("reply to one of their messages with /grant N.")
        assert len(text) < 200


async def test_grant_and_stats_to_a_username_nobody_here_has_echo_the_username(
    tmp_path: Path,
) -> None:
    """The bot knows @bob from his private chat, but Bob never played in this group: the
    refusal names "@bob" as the admin typed it, not the user id the adapter looked up."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/start", chat_id=BOB.id)  # the bot learns @bob's user id
        reply = await w.say(ALICE, "/grant @bob 100")
        assert reply["text"] == tr("en", "reply.grant_unknown", name="@bob"), reply
        reply = await w.say(ALICE, "/stats @bob")
        assert reply["text"] == (
            "No such player here: @bob.\nOnly those who played here have statistics."
            " /stats alone: this group and you."
        ), reply
        assert str(BOB.id) not in reply["text"]
        # a grant as a reply to the bot's own message names the bot, not its id, and says
        # that a bot never plays (it said "no such player here")
        table = await w.say(ALICE, "/help")
        mid = next(m for (c, m) in w.fake.messages if c == GROUP_ID and w.fake.messages[(c, m)]
                   .get("text") == table["text"])  # fmt: skip
        reply = await w.say(ALICE, "/grant 100", reply_to=mid)
        assert reply["text"] == (
            "@ofc_test_bot is a bot account, which never plays: /grant is for members."
        ), reply
        assert "900000001" not in reply["text"]


async def test_a_grant_as_a_reply_reads_all_it_is_given_as_the_amount(tmp_path: Path) -> None:
    """A reply names the player, so "/grant 1 000" (a thousand as Russian writes it) is one
    amount; it was read as a grant to a player "1" of "000" and refused for its amount, then
    refused with the usage: it is a thousand (fix39g: thousands grouped as the bot writes
    them), and "/grant 1 00" is refused with how to write one. "/grant -50" and "/grant
    @name N" as a reply still work."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        said = await w.say(BOB, "/balance")  # Bob has a wallet here (1000)
        assert said["text"].startswith("Bob: 1000"), said
        texts = {m: msg.get("text") for (c, m), msg in w.fake.messages.items() if c == GROUP_ID}
        mid = next(m for m, text in texts.items() if text == "/balance")
        reply = await w.say(ALICE, "/grant 1 00", reply_to=mid)
        assert reply["text"] == tr("en", "reply.number_grouped") + "\n" + tr(
            "en", "reply.grant_usage"
        ), reply
        reply = await w.say(BOB, "/balance")
        assert reply["text"].startswith("Bob: 1000"), reply  # nothing moved
        reply = await w.say(ALICE, "/grant 1 000", reply_to=mid)
        assert "+1,000" in reply["text"] and "2,000" in reply["text"], reply
        reply = await w.say(ALICE, "/grant -50", reply_to=mid)
        assert "1,950" in reply["text"], reply


async def test_names_lose_bidi_controls_and_are_cut_at_whole_emoji(tmp_path: Path) -> None:
    odd = FakeUser(105, "\u202eZed\u2066 " + "A" * 20 + FAMILY + "B" * 20, "zed", "en")
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        await w.press_lobby(odd, "j")
        text = w.table_message()["text"]
        shown = "Zed " + "A" * 20  # 24 units; the family (11) would pass 32: left out whole
        assert f"1. {shown} —" in text
        assert "\u202e" not in text and "\u2066" not in text
        assert "\u200d" not in text  # no piece of the family either
        reply = await w.say(odd, "/balance")
        assert reply["text"].startswith(f"{shown}: 1,000")


async def test_help_lists_every_game_and_what_closetable_does(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        reply = await w.say(ALICE, "/help")
        text = reply["text"]
        assert "/newtable pineapple | ofc | chinese" in text
        assert "/closetable — close the table (asked mid-hand: when the hand ends" in text
        reply = await w.say(BOB, "/help")  # Russian
        games = "/newtable ананас | классический | китайский (или pineapple | ofc | chinese)"
        assert games in reply["text"]
        assert "/closetable — закрыть стол" in reply["text"]


async def test_unknown_game_and_open_table_hints(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        reply = await w.say(ALICE, "/newtable poker")
        assert reply["text"] == "Unknown game “poker”. Games: pineapple, ofc, chinese."
        reply = await w.say(BOB, "/newtable " + "z" * 3000)
        # (the 3,000 characters are not echoed: the quote is cut; «ofc (классический)», ru44)
        assert reply["text"].startswith("Неизвестная игра «zzz") and len(reply["text"]) < 160
        assert not w.service.tables
        reply = await w.say(ALICE, "/newtable chinese")
        assert "is open" in reply["text"]
        reply = await w.say(ALICE, "/newtable ofc")
        assert "already has an open table (#1)" in reply["text"]
        assert "an admin closes it with /closetable" in reply["text"]
        reply = await w.say(BOB, "/newtable")
        assert "/closetable" in reply["text"] and "админ" in reply["text"]


async def test_r7_5_history_after_a_claim_shows_the_points_counted(tmp_path: Path) -> None:
    """Alice claims after the bottom (6 points: 2 for the box and a bonus of 4); the middle
    and top were never revealed, so her hand counted 6, not the hand's full points."""
    async with at_the_claim(tmp_path) as (w, msg, claim):
        answer = await w.press(ALICE, GROUP_ID, msg, claim)
        assert not answer.get("show_alert"), answer
        t = next(iter(w.service.tables.values()))
        record = (await w.store.hand_history(t.seats[0].player_id, 1))[0].result
        full = {r["seat"]: r["points"] for r in record["seats"]}
        assert full[0] > 6  # every box of the hand, the unrevealed ones included
        assert record["counted"] == {"0": 6, "1": 3}
        reply = await w.say(ALICE, "/history")
        assert "Table #1, hand 1: +6 pts, +3 kush" in reply["text"]
        reply = await w.say(BOB, "/history")
        assert "Стол #1, раздача 1: +3 очка, −3 куша" in reply["text"]


async def test_r7_5_a_replay_after_a_claim_keeps_the_unrevealed_boxes_hidden(
    tmp_path: Path,
) -> None:
    """Alice claims after the bottoms (R7.5): the middles and tops were never revealed (the
    showdown picture draws them face down), yet Bob's /replay of the hand showed Alice's
    A♠ A♥ A♦ top and her middle. The replay shows the bottoms, the other boxes face down,
    and the watcher's own board whole."""
    async with at_the_claim(tmp_path) as (w, msg, claim):
        assert not (await w.press(ALICE, GROUP_ID, msg, claim)).get("show_alert")
        t = next(iter(w.service.tables.values()))
        [h] = await w.store.hand_history(t.seats[1].player_id, 1)
        text = (await w.say(BOB, f"/replay {h.id}", chat_id=BOB.id))["text"]
        for face in ("A♠", "A♥", "A♦", "K♦", "K♣", "K♠", "8♥", "8♣"):
            assert face not in text, text  # Alice's unrevealed middle and top
        assert "6♣ 5♣ 4♣ 3♣ 2♣" in text  # her bottom was revealed (as the hand reads)
        assert "🂠 🂠 🂠\n  🂠 🂠 🂠 🂠 🂠\n  6♣ 5♣ 4♣ 3♣ 2♣" in text
        assert "J♣ 10♦ 4♠" in text and "9♦ 9♣ 6♠ 6♥ 2♥" in text  # Bob's own board, whole
        assert "+6" in text and "роялти 15" not in text  # the points the game counted
        text = (await w.say(ALICE, f"/replay {h.id}", chat_id=ALICE.id))["text"]
        assert "A♠ A♥ A♦" in text and "J♣" not in text and "Q♠ Q♥ Q♦ Q♣ 8♦" in text
        assert h.result["revealed"] == 1  # kept with the record


async def test_r7_5_stats_after_a_claim_count_the_bonuses_of_revealed_boxes_only(
    tmp_path: Path,
) -> None:
    """Alice claims after the bottoms (R7.5): her straight flush bottom (bonus 4) was
    revealed, her full house middle (1) and AAA top (10) never were. ``/stats @alice`` said
    "royalties/hand 15.0", telling everyone what her hidden boxes held; it counts 4. The
    bonuses are no royalties (they are part of the points, R7.2): "strength bonus/hand", and no
    royalties figure for a player who played Chinese Poker only."""
    async with at_the_claim(tmp_path) as (w, msg, claim):
        assert not (await w.press(ALICE, GROUP_ID, msg, claim)).get("show_alert")
        text = (await w.say(CAROL, "/stats @alice"))["text"]
        lines = text.splitlines()
        at = lines.index("Fouls: 0% (0 of 1 board)")
        assert lines[at + 1 : at + 3] == [
            "Strength bonus/hand 4.0",
            "Chinese Poker points/hand 6.0",
        ]
        assert "royalties" not in text
        text = (await w.say(CAROL, "/stats @bob"))["text"]
        assert "Strength bonus/hand 3.0" in text.splitlines(), text  # Bob's quads bottom: 3 (R7.2)


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_an_unexpected_exception_is_answered_and_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("boom")

        monkeypatch.setattr(w.store, "player", broken)
        caplog.clear()
        reply = await w.say(ALICE, "/balance")
        assert reply["text"] == "Something went wrong; nothing changed. Please try again."
        reply = await w.say(BOB, "/balance")
        assert reply["text"] == "Что-то пошло не так, ничего не изменилось. Попробуйте ещё раз."
        errors = _errors(caplog)
        assert len(errors) == 2  # once per update
        assert errors[0].exc_info is not None and "boom" in str(errors[0].exc_info[1])
        assert "/balance" in errors[0].getMessage()  # with the update
        monkeypatch.undo()

        monkeypatch.setattr(w.service, "press", broken)
        caplog.clear()
        answer = await w.press_lobby(ALICE, "j")
        assert answer["show_alert"] is True
        assert answer["text"] == "Something went wrong; nothing changed. Please try again."
        assert len(_errors(caplog)) == 1


async def test_a_failed_press_is_logged_without_the_players_cards(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press that fails is logged once, with its update: the whole update, whose message
    is the player's private hand (every card of it) and whose data names the card pressed (a
    discard's too, R3.3). Whoever runs the bot may sit at its tables: the log now says the
    update, user, chat and the press without its card."""
    from tests.bot.test_telegram_e2e import seat_everyone

    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        user = ALICE if t.hand.to_act == (0,) else BOB
        msg = w.private(user)
        assert msg is not None
        (action, card), data = next(
            (key, d) for key, d in w.hand_buttons(user).items() if key[0] == "p"
        )
        faces = [str(c) for c in t.hand.to_place(t.hand.to_act[0])]

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("boom")

        monkeypatch.setattr(w.service, "press", broken)
        caplog.clear()
        answer = await w.press(user, user.id, msg, data)
        assert answer["show_alert"] is True
        (error,) = _errors(caplog)
        logged = error.getMessage()
        assert f"press {t.id}:" in logged and f":{action}:…" in logged, logged
        assert card not in logged and data not in logged, logged
        for face in faces:
            assert face not in logged, (face, logged)


async def test_table_commands_refused_before_any_step_are_answered(tmp_path: Path) -> None:
    """Every command gets an answer: a table command the service refuses before it reaches a
    table step (no table in the chat, a private chat, /closetable by a non-admin) is answered
    with the refusal, as a refused press is."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        for command in ("/join", "/ready", "/sitout", "/back", "/leave"):
            reply = await w.say(BOB, command)
            assert reply["text"] == "Здесь нет открытого стола. Откройте: /newtable.", command
        reply = await w.say(ALICE, "/closetable")
        assert reply["text"] == "No open table here. Start one with /newtable.", reply
        reply = await w.say(ALICE, "/join", chat_id=ALICE.id)  # not /newtable's refusal there
        assert reply["text"] == "This command works in a group chat.", reply
        await w.say(ALICE, "/newtable")
        reply = await w.say(BOB, "/closetable")
        assert reply["text"] == "Это могут только админы группы.", reply
        assert w.service.tables, "the table stays open"
        reply = await w.say(BOB, "/join")  # a step taken: answered once, not twice
        await w.settle()
        quoting = [
            c
            for c in w.fake.calls_of("sendMessage")
            if (c.params.get("reply_parameters") or {}).get("message_id")
            == reply["reply_parameters"]["message_id"]
        ]
        assert len(quoting) == 1, [c.params["text"] for c in quoting]


async def test_an_edited_command_is_not_run_again(tmp_path: Path) -> None:
    """Telegram sends an ``edited_message`` when a user edits a message: a command is run
    once, when it is sent. An admin who fixes "/grant @bob 1000" to "/grant @bob 100" must
    not give Bob 1,100, and an edited /addbot must not seat a second computer player."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/balance")  # Bob is known in the group: 1,000
        reply = await w.say(ALICE, "/grant @bob 1000")
        assert reply["text"] == "Bob: +1,000 kush, balance 2,000.", reply
        await w.say(ALICE, "/newtable")
        await w.say(ALICE, "/addbot")
        sent = len(w.fake.calls_of("sendMessage"))
        commands = [
            mid
            for (chat, mid), m in w.fake.messages.items()
            if chat == GROUP_ID and str(m.get("text", "")).startswith(("/grant", "/addbot"))
        ]
        assert len(commands) == 2
        for mid in commands:
            edited = dict(w.fake.messages[(GROUP_ID, mid)], edit_date=int(time.time()))
            edited["text"] = edited["text"].replace("1000", "100")
            w.fake.messages[(GROUP_ID, mid)] = edited
            await w.fake.push({"edited_message": edited})
        await asyncio.sleep(0.5)  # the edits are fetched and handled (or ignored)
        await w.settle()
        reply = await w.say(BOB, "/balance")
        assert reply["text"] == "Bob: 2000 кушей на балансе, 0 на столе.", reply
        t = next(iter(w.service.tables.values()))
        assert [s.name for s in t.seats.values()] == ["🤖 Anna"]
        assert len(w.fake.calls_of("sendMessage")) == sent + 1  # only the /balance reply


async def test_an_anonymous_admin_is_an_admin_but_not_a_player(tmp_path: Path) -> None:
    """A group admin who writes anonymously is sent as the group (GroupAnonymousBot, with the
    group as ``sender_chat``): their admin commands work; a player's command is refused with
    how to play, since every anonymous admin would share one seat and one wallet."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}

        async def anonymous(text: str) -> str:
            mid = await w.fake.send_anonymous(GROUP_ID, text)
            reply = await w.fake.wait_for(lambda: w.fake.reply_to(GROUP_ID, mid))
            return str(reply["text"])

        assert (await anonymous("/settings hand_seconds 30")).startswith("Saved: hand_seconds")
        assert (await anonymous("/newtable")) == "Table #1 is open."
        assert (await anonymous("/addbot")).startswith("🤖 Anna (normal) sits down")
        for command in ("/join", "/balance", "/daily", "/stats"):
            text = await anonymous(command)
            assert text == "Sent as the group (an anonymous admin): send it as yourself to play."
        t = next(iter(w.service.tables.values()))
        assert [s.name for s in t.seats.values()] == ["🤖 Anna"]
        community = await w.store.community("telegram", str(GROUP_ID))
        assert await w.store.find_player(community.id, "1087968824") is None


async def test_a_command_addressed_to_another_bot_is_left_to_it(tmp_path: Path) -> None:
    """In a group with several bots, ``/cmd@otherbot`` is the other bot's: nothing is
    answered and nothing changes (an admin's /grant or /closetable meant for it must not
    move kush or close our table); ``/cmd@ofc_test_bot`` is ours."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/balance")  # Bob is known in the group: 1,000
        await w.say(ALICE, "/newtable")
        sent = len(w.fake.calls_of("sendMessage"))
        for text in ("/grant@other_bot @bob 500", "/closetable@other_bot", "/join@OtherBot"):
            await w.fake.send_text(ALICE, GROUP_ID, text)
        await asyncio.sleep(0.5)  # the updates are fetched and ignored
        await w.settle()
        assert len(w.fake.calls_of("sendMessage")) == sent
        assert w.service.tables and not next(iter(w.service.tables.values())).seats
        reply = await w.say(ALICE, "/grant@ofc_test_bot @bob 500")
        assert reply["text"] == "Bob: +500 kush, balance 1,500.", reply
        reply = await w.say(BOB, "/balance@OFC_Test_Bot")
        assert reply["text"] == "Bob: 1500 кушей на балансе, 0 на столе.", reply


async def test_a_superscript_number_is_refused_with_the_usage(tmp_path: Path) -> None:
    """ "²" (or "٣") is a digit to ``str.isdigit`` that ``int`` refuses: ``/replay ²`` and a
    private ``/start t²`` raised ValueError ("something went wrong", an error in the log)
    and a router in front of workers could not route that /start at all (Telegram was told
    to deliver it again, for ever). They get the usage and the welcome now; a number of
    Arabic-Indic digits is no hand number either."""
    async with world(tmp_path) as w:
        for arg in ("²", "٣", "#12²"):
            reply = await w.say(ALICE, f"/replay {arg}")
            assert reply["text"] == tr("en", "replay.usage"), reply
        reply = await w.say(ALICE, "/start t²", chat_id=ALICE.id)
        assert reply["text"] == tr("en", "reply.welcome"), reply
        assert tr("en", "err.internal") not in str([c.params for c in w.fake.calls])


async def test_an_admin_check_that_failed_is_asked_again_on_the_next_command(
    tmp_path: Path,
) -> None:
    """Telegram fails the getChatMember of Alice's (an admin's) /settings with a 500: that
    command is refused, and her next one asks again and is saved. (The failure was cached as
    "not an admin" for 60 s: every admin command of hers was refused for a minute.)"""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        w.fake.fail_when(
            lambda c: c.method == "getChatMember",
            500,
            {"ok": False, "error_code": 500, "description": "Internal Server Error"},
        )
        reply = await w.say(ALICE, "/settings hand_seconds 30")
        assert reply["text"] == tr("en", "reply.admins_only"), reply
        reply = await w.say(ALICE, "/settings hand_seconds 30")
        assert reply["text"].startswith("Saved: hand_seconds = 30"), reply
        assert len(w.fake.calls_of("getChatMember")) == 2


async def test_an_admin_demoted_a_moment_ago_can_no_longer_grant_kush(tmp_path: Path) -> None:
    """``/grant`` moves kush: whether its sender is an admin is asked every time. Alice grants
    as an admin, is demoted, and her next /grant a second later is refused with nothing moved
    (the answer was cached for 60 s: a demoted admin went on minting kush for a minute)."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/balance")  # Bob has a wallet in the group
        reply = await w.say(ALICE, f"/grant {BOB.id} 100")
        assert reply["text"] == tr("en", "reply.granted", name="Bob", amount=100, label="kush",
                                   balance=1100), reply  # fmt: skip
        w.fake.admins[GROUP_ID] = set()  # the group's owner demotes her
        reply = await w.say(ALICE, f"/grant {BOB.id} 100")
        assert reply["text"] == tr("en", "reply.admins_only"), reply
        assert "1100" in (await w.say(BOB, "/balance"))["text"]


async def test_an_admin_demoted_a_moment_ago_can_no_longer_close_or_seat_computer_players(
    tmp_path: Path,
) -> None:
    """``/closetable`` settles and cashes out every stack (a tournament's buy-ins are
    refunded), ``/addbot`` seats a computer player on house kush and ``/removebot`` cashes one
    out: whether their sender is an admin is asked every time. Alice, an admin at Bob's table,
    seats a computer player, is demoted, and her /addbot, /removebot and /closetable a second
    later are refused with the table as it was (the 60 s cache let a demoted admin close the
    table or seat computer players for a minute)."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/newtable")  # Bob opened it: Alice may act here only as an admin
        reply = await w.say(ALICE, "/addbot")
        assert "🤖" in reply["text"], reply
        t = next(iter(w.service.tables.values()))
        seated = {s.name for s in t.seats.values()}
        asked = len(w.fake.calls_of("getChatMember"))
        w.fake.admins[GROUP_ID] = set()  # the group's owner demotes her
        for command, refusal in (
            ("/addbot", "bot.admins_or_opener"),
            ("/removebot", "bot.admins_or_opener"),
            ("/closetable", "reply.admins_only"),
        ):
            reply = await w.say(ALICE, command)
            assert reply["text"] == tr("en", refusal), (command, reply)
        assert len(w.fake.calls_of("getChatMember")) == asked + 3  # each one asked afresh
        assert w.service.tables == {t.id: t} and {s.name for s in t.seats.values()} == seated


async def test_an_admin_demoted_a_moment_ago_can_no_longer_change_the_stakes(
    tmp_path: Path,
) -> None:
    """A settings change sets the stakes (``kush_per_point``): whether its sender is an admin
    is asked every time, by command and by the settings keyboard. Alice changes it as an
    admin, is demoted, and her next change a second later is refused (the 60 s cache let a
    demoted admin go on setting the stakes)."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        reply = await w.say(ALICE, "/settings kush_per_point 2")
        assert "kush_per_point" in reply["text"] and "2" in reply["text"], reply
        shown = await w.say(ALICE, "/settings")  # the keyboard, shown to the admin
        listing = next(m for m in reversed(w.fake.chat_messages(GROUP_ID))
                       if m.get("text") == shown["text"])  # fmt: skip
        w.fake.admins[GROUP_ID] = set()  # the group's owner demotes her
        buttons = w.fake.buttons(listing)
        answer = await w.press(ALICE, GROUP_ID, listing, buttons[0]["callback_data"])
        assert answer["text"] == tr("en", "reply.admins_only"), answer
        reply = await w.say(ALICE, "/settings kush_per_point 5")
        assert reply["text"] == tr("en", "reply.admins_only"), reply
        community = await w.store.community("telegram", str(GROUP_ID))
        assert community.settings.options["kush_per_point"] == 2


def test_a_typographic_minus_reads_as_minus_in_every_amount() -> None:
    """The minus sign U+2212 (the bot's texts print it) and the dashes a phone puts for "-"
    read as "-" in every amount (/grant, /topup, /settings), never a refusal without a
    hint; other scripts' digits stay refused."""
    for minus in MINUSES:
        assert read_whole(f"{minus}100") == -100
        assert read_whole(f" {minus}5 ") == -5
        assert read_fraction(f"{minus}3") == "-3"
        assert read_fraction(f"{minus}2,5") == "-2.5"
        assert ambiguous_comma(f"{minus}1,500")
    assert read_whole("\u2212\uff11") is None  # full-width digits, whatever the sign
    assert read_whole("1\u2212") is None and read_whole("\u2212") is None
    assert read_whole("\u2212\u2212100") is None
