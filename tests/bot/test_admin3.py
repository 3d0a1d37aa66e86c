"""Admin commands on Telegram, a third break-it round, through the real adapter and the fake
Bot API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.service.rules import rules_text
from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, world

DAVE = FakeUser(401, "Dave", None, "en", last_name="Jones")  # no @username
ERIN = FakeUser(402, "Erin", None, "en")


def _mention(text: str, shown: str, user: FakeUser) -> list[dict[str, Any]]:
    """The ``text_mention`` entity a client puts on ``shown`` when ``user`` (no @username) is
    picked from the mention list (ASCII text: offsets in characters)."""
    entity = {"type": "text_mention", "offset": text.index(shown), "length": len(shown)}
    return [{**entity, "user": user.to_json()}]


async def test_a_grant_to_a_member_who_never_played_makes_their_wallet(tmp_path: Path) -> None:
    """``/grant`` to a member who never played in the group, picked from the mention list
    (Telegram names the member) or as a reply to their message, was refused "No such player
    here", where Discord's grant makes the member's wallet. Now it does on Telegram too; a
    refused grant (more than the starting balance taken) still creates nothing, and a bare
    typed name nobody here has stays refused."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        community = await w.store.community("telegram", str(GROUP_ID))
        text = "/grant Dave -5000"
        reply = await w.say(ALICE, text, entities=_mention(text, "Dave", DAVE))
        assert reply["text"] == "Dave Jones has only 1,000 kush.", reply
        assert await w.store.find_player(community.id, str(DAVE.id)) is None
        assert await w.store.ledger(community.id) == []
        text = "/grant Dave 100"
        reply = await w.say(ALICE, text, entities=_mention(text, "Dave", DAVE))
        assert reply["text"] == "Dave Jones: +100 kush, balance 1,100.", reply
        dave = await w.store.find_player(community.id, str(DAVE.id))
        assert dave is not None and (dave.name, dave.balance) == ("Dave Jones", 1100)
        # a reply to the message of Erin, who never played here
        mid = await w.fake.send_text(ERIN, GROUP_ID, "hello")
        reply = await w.say(ALICE, "/grant 50", reply_to=mid)
        assert reply["text"] == "Erin: +50 kush, balance 1,050.", reply
        entries = await w.store.ledger(community.id)
        assert [(e.kind.value, e.balance_delta) for e in entries] == [
            ("starting", 1000),
            ("admin_grant", 100),
            ("starting", 1000),
            ("admin_grant", 50),
        ]
        said = await w.say(ERIN, "/balance")
        assert said["text"].startswith("Erin: 1,050"), said
        # a name typed, no member named: nobody here is "Zed", nothing is created
        reply = await w.say(ALICE, "/grant Zed 100")
        assert reply["text"] == tr("en", "reply.grant_unknown", name="Zed"), reply
        assert len(await w.store.ledger(community.id)) == 4


async def test_a_grant_beyond_the_range_says_the_range_and_not_0_only_for_0(
    tmp_path: Path,
) -> None:
    """``/grant @bob 99999999999999`` answered "… from −X to X kush, not 0.": the "not 0"
    read oddly for a huge amount. The range alone for that; "not 0" only for a 0, in English
    and in Russian, and nothing moves."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id, BOB.id}
        said = await w.say(CAROL, "/balance")
        assert said["text"].startswith("Carol: 1,000"), said
        reply = await w.say(ALICE, "/grant @carol 99999999999999")
        assert reply["text"] == (
            "Cannot grant that: the amount is a whole number from −1,000,000,000,000 to"
            " 1,000,000,000,000 kush."
        ), reply
        reply = await w.say(ALICE, "/grant @carol -99999999999999")
        assert reply["text"].endswith("to 1,000,000,000,000 kush."), reply
        reply = await w.say(ALICE, "/grant @carol 0")
        assert reply["text"] == (
            "Cannot grant 0: the amount is a whole number from −1,000,000,000,000 to"
            " 1,000,000,000,000 kush, not 0."
        ), reply
        n = "1\u00a0000\u00a0000\u00a0000\u00a0000"
        reply = await w.say(BOB, "/grant @carol 99999999999999")
        assert reply["text"] == f"Нельзя: сумма — целое число от −{n} до {n} кушей.", reply
        reply = await w.say(BOB, "/grant @carol 0")
        assert reply["text"] == (
            f"Нельзя начислить 0: сумма — целое число от −{n} до {n} кушей, кроме 0."
        ), reply
        said = await w.say(CAROL, "/balance")
        assert said["text"].startswith("Carol: 1,000"), said


async def test_removebot_takes_the_name_as_the_seating_notice_shows_it(tmp_path: Path) -> None:
    """``/addbot`` says "🤖 Anna (normal) sits down…" (in a Russian group "🤖 Boris
    (сильный)"): ``/removebot Anna (normal)``, the name as shown, was refused "No computer
    player…". The level after the name (either language's word) and the 🤖 are left out; a
    name nobody seated has is still refused, with the level it was given."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id, BOB.id}
        await w.say(ALICE, "/newtable")
        for level in ("normal", "strong"):
            await w.say(ALICE, f"/addbot {level}")
        reply = await w.say(ALICE, "/removebot Anna (normal)")
        assert reply["text"] == "🤖 Anna stands up.", reply
        reply = await w.say(ALICE, "/removebot Gleb (easy)")
        assert reply["text"] == (
            "No computer player “Gleb (easy)” is seated. Seated: 🤖 Boris. Usage: /removebot [name]"
        ), reply
        reply = await w.say(BOB, "/removebot 🤖 Boris (сильный)")
        assert reply["text"] == "🤖 Boris встаёт из-за стола.", reply
        t = next(iter(w.service.tables.values()))
        assert not t.seats


async def test_words_beyond_a_commands_argument_are_refused_with_its_usage(
    tmp_path: Path,
) -> None:
    """``/addbot strong extra`` seated a strong computer player and ``/replay 5 6`` replayed
    hand 5, the extra words silently dropped (so ``/newtable ofc chinese`` opened classic
    OFC). A command that takes one argument now answers a short usage when given more, and
    nothing happens; the one argument alone still works."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        games = "pineapple, ofc, chinese"
        for text, answer in (
            ("/newtable ofc chinese", f"Usage: /newtable [game]. Games: {games}."),
            ("/tournament ofc extra", f"Usage: /tournament [game]. Games: {games}."),
            ("/rules ofc extra", f"Usage: /rules [game]. Games: {games}."),
            ("/top week extra", tr("en", "top.usage")),
            ("/replay 5 6", tr("en", "replay.usage")),
        ):
            reply = await w.say(ALICE, text)
            assert reply["text"] == answer, (text, reply)
        assert not w.service.tables
        reply = await w.say(BOB, "/newtable ofc chinese")
        ru_games = "pineapple (ананас), ofc (классический), chinese (китайский)"
        assert reply["text"] == f"Формат: /newtable [игра]. Игры: {ru_games}.", reply
        reply = await w.say(ALICE, "/newtable ofc")
        assert reply["text"] == "Table #1 is open.", reply
        reply = await w.say(ALICE, "/addbot strong extra")
        assert reply["text"] == tr("en", "bot.levels"), reply
        t = next(iter(w.service.tables.values()))
        assert t.options.game.value == "ofc" and not t.seats
        reply = await w.say(ALICE, "/addbot strong")
        assert reply["text"].startswith("🤖 Anna (strong) sits down"), reply
        reply = await w.say(ALICE, "/rules ofc")
        assert reply["text"] == rules_text(t.options, "en", "kush"), reply


async def test_an_anonymous_admin_reads_the_groups_language_under_auto(tmp_path: Path) -> None:
    """An anonymous admin writes as the group (GroupAnonymousBot, no language): under
    ``language auto`` every reply to them was English, and a table they opened with nobody
    seated spoke English, in a group whose players read Russian. They get the group's
    language as the bot decides it under ``auto``: the open table's, else the one most of
    the group's players speak."""
    anya = FakeUser(403, "Аня", None, "ru")
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        for user in (BOB, anya, CAROL):  # two players read Russian, one English
            await w.say(user, "/balance")

        async def anonymous(text: str) -> str:
            mid = await w.fake.send_anonymous(GROUP_ID, text)
            reply = await w.fake.wait_for(lambda: w.fake.reply_to(GROUP_ID, mid))
            return str(reply["text"])

        assert (await anonymous("/settings")).startswith("⚙ Настройки группы\n")
        assert await anonymous("/newtable") == "Стол #1 открыт."
        t = next(iter(w.service.tables.values()))
        assert t.lang == "ru" and not t.seats
        assert await anonymous("/join") == tr("ru", "reply.anonymous")
        assert (await anonymous("/settings language auto")).startswith("Уже так: язык = авто.")
        assert t.lang == "ru"
