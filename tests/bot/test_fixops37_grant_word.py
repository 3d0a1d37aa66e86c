"""fixops37: ``/grant @bob abc`` answered the usage line alone, while ``/topup abc`` says
"That is not a number": the Telegram adapter took the words for a name with no amount. With
no number among the words, the last one is the amount, refused as /topup refuses it (the
shared :func:`bot.service.numbers.digits_hint`), the usage under it; nothing is granted."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from tests.bot.tg_world import BOB, GROUP_ID, world

ADMIN = {"en": FakeUser(101, "Alice", "alice", "en"), "ru": FakeUser(105, "Борис", None, "ru")}


@pytest.mark.parametrize(("lang", "word"), [("en", "abc"), ("ru", "абв")])
async def test_a_grant_of_a_word_says_it_is_not_a_number(
    tmp_path: Path, lang: str, word: str
) -> None:
    admin = ADMIN[lang]
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {admin.id}
        said = await w.say(BOB, "/balance")  # Bob has a wallet here (1000)
        assert said["text"].startswith("Bob: 1000"), said
        usage = tr(lang, "reply.grant_usage")
        for text in (f"/grant @bob {word}", f"/grant Bob {word}"):
            reply = await w.say(admin, text)
            assert reply["text"] == tr(lang, "reply.number_none") + "\n" + usage, (text, reply)
        reply = await w.say(admin, "/grant @bob 1k")  # (a digit: how to write the number)
        assert reply["text"] == tr(lang, "reply.number_grouped") + "\n" + usage, reply
        reply = await w.say(admin, "/grant @bob")  # no amount at all: the usage alone
        assert reply["text"] == usage, reply
        said = await w.say(BOB, "/balance")
        assert said["text"].startswith("Bob: 1000"), said  # nothing granted
