"""Commands that name a player by the name the group sees, through the real Telegram adapter
and the fake Bot API: a name of several words (Telegram splits a command's text into words,
each its own argument) and a Russian name typed with "е" for its "ё" find the player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.telegram.fake_api import FakeUser
from bot.texts import grouped, language_of, tr
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, World, world

ANNA_MARIA = FakeUser(301, "Anna Maria", None, "en")  # no @username: only her name finds her
ALYONA = FakeUser(302, "Алёна", None, "ru")


async def _message_id(w: World, text: str) -> int:
    return next(
        m for (c, m), msg in w.fake.messages.items() if c == GROUP_ID and msg.get("text") == text
    )


async def test_stats_and_grant_take_a_name_of_several_words(tmp_path: Path) -> None:
    """``/stats Anna Maria`` was refused with the usage (two names given) and ``/grant Anna
    Maria 100`` too (three arguments): the words are one name, a period word after it
    still read as the period, the amount as the last word(s)."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        said = await w.say(ANNA_MARIA, "/balance")  # Anna Maria has a wallet here (1000)
        assert said["text"].startswith("Anna Maria: 1,000"), said
        reply = await w.say(ALICE, "/stats Anna Maria")
        assert reply["text"] == tr("en", "stats.player_none", name="Anna Maria",
                                   when=tr("en", "period.all")), reply  # fmt: skip
        reply = await w.say(ALICE, "/stats anna maria week")
        assert reply["text"] == tr("en", "stats.player_none", name="Anna Maria",
                                   when=tr("en", "period.week")), reply  # fmt: skip
        reply = await w.say(ALICE, "/stats Anna Maria Smith")
        # (the name as typed; "Anna Maria" is a player: "Smith" may be a period mistyped)
        assert reply["text"] == "No such player here: Anna Maria Smith.\n" + tr(
            "en", "stats.usage"
        ), reply
        reply = await w.say(ALICE, "/grant Anna Maria 100")
        assert reply["text"] == tr("en", "reply.granted", name="Anna Maria", amount=100,
                                   label="kush", balance=1100), reply  # fmt: skip
        # an amount of grouped digits after the name is judged whole: a thousand (fix39g:
        # as the bot writes it); "1 00" is refused, nothing moved
        reply = await w.say(ALICE, "/grant Anna Maria 1 00")
        assert reply["text"] == tr("en", "reply.number_grouped") + "\n" + tr(
            "en", "reply.grant_usage"
        ), reply
        said = await w.say(ANNA_MARIA, "/balance")
        assert said["text"].startswith("Anna Maria: 1,100"), said
        reply = await w.say(ALICE, "/grant Anna Maria 1 000")
        assert reply["text"] == tr("en", "reply.granted", name="Anna Maria", amount=1000,
                                   label="kush", balance=2100), reply  # fmt: skip
        # a reply names the player: a name typed besides is one too many (the usage)
        mid = await _message_id(w, "/balance")
        reply = await w.say(ALICE, "/stats Anna Maria", reply_to=mid)
        assert reply["text"] == tr("en", "stats.usage"), reply
        reply = await w.say(ALICE, "/stats week", reply_to=mid)
        assert reply["text"] == tr("en", "stats.player_none", name="Anna Maria",
                                   when=tr("en", "period.week")), reply  # fmt: skip


async def test_a_russian_name_is_found_typed_with_ye_for_yo(tmp_path: Path) -> None:
    """``/stats Алена`` answered "no such player" for Алёна (most Russians type "е")."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        said = await w.say(ALYONA, "/balance")
        assert said["text"].startswith("Алёна: 1000"), said
        reply = await w.say(ALICE, "/stats Алена")
        assert reply["text"] == tr("en", "stats.player_none", name="Алёна",
                                   when=tr("en", "period.all")), reply  # fmt: skip
        reply = await w.say(ALICE, "/grant алена 5")
        assert reply["text"] == tr("en", "reply.granted", name="Алёна", amount=5,
                                   label="kush", balance=1005), reply  # fmt: skip


async def test_a_command_in_a_forum_topic_is_no_reply_to_the_topics_creator(
    tmp_path: Path,
) -> None:
    """In a forum topic Telegram sends every message that replies to nothing as a reply to
    the topic's first message, its creation by whoever created the topic: ``/grant 100``
    there granted the topic's creator 100 kush, ``/stats`` showed the creator's figures
    instead of the group's, and ``/stats @carol`` was refused with the usage (a reply names
    the player already). A real reply in a topic still names its author."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        said = await w.say(BOB, "/balance")  # Bob has a wallet here (1000)
        assert said["text"].startswith("Bob: 1000"), said
        said = await w.say(CAROL, "/balance")
        assert said["text"].startswith("Carol: 1,000"), said
        topic = await w.fake.create_topic(BOB, GROUP_ID, "Poker")
        reply = await w.say(ALICE, "/grant 100", topic=topic)  # (nobody named: who? ux43)
        assert reply["text"] == tr("en", "reply.grant_whom", amount=100, label="kush",
                                   whole="100"), reply  # fmt: skip
        said = await w.say(BOB, "/balance", topic=topic)
        assert said["text"].startswith("Bob: 1000"), said
        reply = await w.say(ALICE, "/stats", topic=topic)
        assert reply["text"] == tr("en", "stats.none", when=tr("en", "period.all")), reply
        reply = await w.say(ALICE, "/stats @carol week", topic=topic)
        assert reply["text"] == tr("en", "stats.player_none", name="Carol",
                                   when=tr("en", "period.week")), reply  # fmt: skip
        # a reply to Carol's message in the topic names her
        mid = await w.fake.send_text(CAROL, GROUP_ID, "hi", None, topic)
        reply = await w.say(ALICE, "/grant 50", reply_to=mid, topic=topic)
        assert reply["text"] == tr("en", "reply.granted", name="Carol", amount=50,
                                   label="kush", balance=1050), reply  # fmt: skip


def _mention(text: str, shown: str, user: FakeUser) -> list[dict[str, Any]]:
    """The ``text_mention`` entity a client puts on ``shown`` in ``text`` when a member
    without a @username is picked from the list (ASCII text: offsets in characters)."""
    offset = text.index(shown)
    entity = {"type": "text_mention", "offset": offset, "length": len(shown)}
    return [{**entity, "user": user.to_json()}]


async def test_a_member_picked_from_the_list_is_the_one_named(tmp_path: Path) -> None:
    """An admin picks a member without a @username from the mention list: the client writes
    their first name ("Anna") and names the member in a ``text_mention``. The adapter looked
    the words up as a name: ``/grant Anna 100`` granted another player, "Anna", and ``/stats
    Anna`` showed hers (or "no such player" for Anna Smith, who goes by her full name)."""
    anna_smith = FakeUser(305, "Anna", None, "en", last_name="Smith")
    anna = FakeUser(306, "Anna", None, "en")
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        for user, name in ((anna_smith, "Anna Smith"), (anna, "Anna")):
            said = await w.say(user, "/balance")
            assert said["text"].startswith(f"{name}: 1,000"), said
        text = "/grant Anna 100"
        reply = await w.say(ALICE, text, entities=_mention(text, "Anna", anna_smith))
        assert reply["text"] == tr("en", "reply.granted", name="Anna Smith", amount=100,
                                   label="kush", balance=1100), reply  # fmt: skip
        said = await w.say(anna, "/balance")
        assert said["text"].startswith("Anna: 1,000"), said
        text = "/stats Anna week"
        reply = await w.say(ALICE, text, entities=_mention(text, "Anna", anna_smith))
        assert reply["text"] == tr("en", "stats.player_none", name="Anna Smith",
                                   when=tr("en", "period.week")), reply  # fmt: skip
        text = "/stats month Anna"
        reply = await w.say(ALICE, text, entities=_mention(text, "Anna", anna_smith))
        assert reply["text"] == tr("en", "stats.player_none", name="Anna Smith",
                                   when=tr("en", "period.month")), reply  # fmt: skip


ANNA_2 = FakeUser(303, "Anna 2", None, "en")
ANNA = FakeUser(304, "Anna", None, "ru")


async def test_a_grant_whose_words_read_two_ways_is_refused_showing_both(tmp_path: Path) -> None:
    """``/grant Anna 2 100`` took "Anna" as the name and "2 100" as the amount, refused for
    its digits, though the group's "Anna 2" was meant. Only "Anna 2" a player here, that is
    the reading: she gets 100. With an "Anna" too, "2 100" may be a thousands' grouping for
    her: refused, in the admin's language, showing both readings, nothing moved."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id, ANNA.id}
        said = await w.say(ANNA_2, "/balance")
        assert said["text"].startswith("Anna 2: 1,000"), said
        reply = await w.say(ALICE, "/grant Anna 2 100")
        assert reply["text"] == tr("en", "reply.granted", name="Anna 2", amount=100,
                                   label="kush", balance=1100), reply  # fmt: skip
        said = await w.say(ANNA, "/balance")
        assert said["text"].startswith("Anna: 1000"), said
        reply = await w.say(ALICE, "/grant Anna 2 100")
        assert reply["text"] == (
            "“Anna 2” gets 100, or “Anna” gets 2 100? Nothing was granted. Say which: /grant"
            " Anna 2100 (amount without spaces), or /grant 100 replying to their message."
        ), reply
        reply = await w.say(ANNA, "/grant anna 2 100")  # (Anna's own language: Russian)
        assert reply["text"] == (
            "«Anna 2» получает 100 или «Anna» получает 2 100? Ничего не начислено. Уточните:"
            " /grant Anna 2100 (сумма без пробелов) или /grant 100 ответом на сообщение"
            " игрока."
        ), reply
        for who, balance in ((ANNA_2, 1100), (ANNA, 1000)):
            said = await w.say(who, "/balance")
            assert said["text"].startswith(
                f"{who.first_name}: {grouped(balance, language_of(who.language_code))}"
            ), said
        # "2 50" or "2 -150" is no thousands' grouping: one reading only, "Anna 2" is meant
        reply = await w.say(ALICE, "/grant Anna 2 50")
        assert reply["text"] == tr("en", "reply.granted", name="Anna 2", amount=50,
                                   label="kush", balance=1150), reply  # fmt: skip
        reply = await w.say(ALICE, "/grant Anna 2 -150")
        assert reply["text"] == tr("en", "reply.granted", name="Anna 2", amount=-150,
                                   label="kush", balance=1000), reply  # fmt: skip
        # ("050" is no amount: "2 050" is a thousands' group, the one reading, fix39g)
        reply = await w.say(ALICE, "/grant Anna 2 050")
        assert reply["text"] == tr("en", "reply.granted", name="Anna", amount=2050,
                                   label="kush", balance=3050), reply  # fmt: skip
        reply = await w.say(ALICE, "/grant Anna 2100")  # said one way: granted
        assert reply["text"] == tr("en", "reply.granted", name="Anna", amount=2100,
                                   label="kush", balance=5150), reply  # fmt: skip


async def test_a_name_with_html_shows_as_written_and_no_parse_mode_is_used(tmp_path: Path) -> None:
    """Telegram's messages are plain text (no ``parse_mode``): a name or an argument with
    ``<b>`` and ``&`` shows as written, never bold, never refused as bad HTML."""
    html = FakeUser(303, "<b>Bo</b> & Co", None, "en")
    async with world(tmp_path) as w:
        said = await w.say(html, "/balance")
        assert said["text"].startswith("<b>Bo</b> & Co: 1,000"), said
        await w.say(ALICE, "/newtable")
        await w.press_lobby(html, "j")
        assert "1. <b>Bo</b> & Co —" in w.table_message()["text"]
        reply = await w.say(ALICE, "/stats <i>x</i> &amp;")
        assert reply["text"].split("\n")[0] == "No such player here: <i>x</i> &amp;.", reply
        sent = w.fake.calls_of("sendMessage") + w.fake.calls_of("editMessageText")
        assert sent and not any("parse_mode" in c.params for c in sent)


async def test_a_grant_with_a_typographic_minus_takes_and_odd_digits_get_the_hint(
    tmp_path: Path,
) -> None:
    """``/grant Bob −100`` with the minus sign U+2212 (the one the bot's own texts print:
    "from −1000000 to …") or a dash a phone put for "-" (en dash, em dash, hyphen) was
    answered with the bare usage, no word about the amount: the typed name ended at the
    first word starting with a digit, and "−100" did not. It takes, as "-100" does. Digits
    written otherwise (full-width, "1,00", "1 00") get the digits hint; a thousand grouped as
    the bot writes it ("1,000", "1 000") is one (fix39g)."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        said = await w.say(ANNA_MARIA, "/balance")
        assert said["text"].startswith("Anna Maria: 1,000"), said
        balance = 1000
        for minus in ("\u2212", "\u2013", "\u2014", "\u2010", "\uff0d", "-"):
            reply = await w.say(ALICE, f"/grant Anna Maria {minus}100")
            balance -= 100
            assert reply["text"] == tr("en", "reply.granted", name="Anna Maria", amount=-100,
                                       label="kush", balance=balance), (minus, reply)  # fmt: skip
        hint = tr("en", "reply.number_grouped") + "\n" + tr("en", "reply.grant_usage")
        for amount in ("\uff11\uff10\uff10", "1,00", "1 00", "\u2212\uff11\uff10"):
            reply = await w.say(ALICE, f"/grant Anna Maria {amount}")
            assert reply["text"] == hint, (amount, reply)
        # grouped by points: told to drop them (brk67)
        reply = await w.say(ALICE, "/grant Anna Maria 1.000")
        assert reply["text"] == (
            "“1.000”: write 1000, without the “.”.\n" + tr("en", "reply.grant_usage")
        ), reply
        said = await w.say(ANNA_MARIA, "/balance")
        assert said["text"].startswith(f"Anna Maria: {balance}"), said
        # grouped as the bot writes amounts, a thousand (fix39g), with a typographic minus too
        for amount, delta in (("1,000", 1000), ("1 000", 1000), ("\u22121,000", -1000)):
            reply = await w.say(ALICE, f"/grant Anna Maria {amount}")
            balance += delta
            assert reply["text"] == tr("en", "reply.granted", name="Anna Maria", amount=delta,
                                       label="kush", balance=balance), (amount, reply)  # fmt: skip


async def test_stats_finds_a_name_holding_a_period_word(tmp_path: Path) -> None:
    """``/stats All Star`` for a player called "All Star" read "All" as the period (all time)
    and answered "No such player here: Star"; ``/stats All Star week`` was refused as two
    periods. The words that name a player here are the name, a period word among them
    included; a period word that names nobody is still the period."""
    all_star = FakeUser(304, "All Star", None, "en")
    async with world(tmp_path) as w:
        said = await w.say(all_star, "/balance")
        assert said["text"].startswith("All Star: 1,000"), said
        for typed, period in (
            ("All Star", "all"),
            ("all star", "all"),
            ("All Star week", "week"),
            ("All Star all", "all"),
            ("month All Star", "month"),
        ):
            reply = await w.say(ALICE, f"/stats {typed}")
            when = tr("en", f"period.{period}")
            assert reply["text"] == tr("en", "stats.player_none", name="All Star", when=when), (
                typed,
                reply,
            )
        reply = await w.say(ALICE, "/stats Star")
        assert reply["text"].split("\n")[0] == "No such player here: Star.", reply
        reply = await w.say(ALICE, "/stats All Stars")  # a period and a name nobody has
        assert reply["text"].split("\n")[0] == "No such player here: Stars.", reply
        reply = await w.say(ALICE, "/stats week month")
        assert reply["text"] == tr("en", "stats.usage"), reply
        reply = await w.say(ALICE, "/stats all")  # the group's, all time
        assert reply["text"] == tr("en", "stats.none", when=tr("en", "period.all")), reply
