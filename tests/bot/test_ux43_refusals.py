"""ux43: refusals that answered the wrong thing (bad input gets a clear message and changes
nothing): ``/kick me`` sent as the group, ``/grant 1 000`` with nobody named, an empty level
of ``chips_schedule`` told as a place of the payouts, and refusals that quoted back an
invisible character the user copied, or any length of text."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.names import quoted
from bot.service.wallet import GrantWords, read_grant
from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE as S_ALICE
from tests.bot.test_service import BOB as S_BOB
from tests.bot.test_service import GROUP as S_GROUP
from tests.bot.test_service import seated
from tests.bot.test_settings import ALICE as ALICE_S
from tests.bot.test_settings import BORIS as BORIS_S
from tests.bot.test_settings import GROUP as GROUP_S
from tests.bot.test_settings import new_service
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


async def test_kick_me_sent_as_the_group_is_refused_as_grant_me_is(tmp_path: Path) -> None:
    """An anonymous admin (GroupAnonymousBot, the group as ``sender_chat``) types ``/kick
    me`` at an open table: "me" names no member, so it gets the refusal of a command sent as
    the group, as ``/grant me 100`` does, in the group's language (English, then Russian),
    and nobody stands up. It answered "you are not seated here"."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(ALICE, "/newtable")
        await w.say(BOB, "/join")
        t = next(iter(w.service.tables.values()))
        seated = set(t.seats)

        async def anonymous(text: str) -> str:
            mid = await w.fake.send_anonymous(GROUP_ID, text)
            reply = await w.fake.wait_for(lambda: w.fake.reply_to(GROUP_ID, mid))
            return str(reply["text"])

        for text in ("/kick me", "/kick ME", "/grant me 100"):
            assert await anonymous(text) == tr("en", "reply.anonymous"), text
        assert set(t.seats) == seated
        await w.say(ALICE, "/settings language ru")
        assert await anonymous("/kick я") == tr("ru", "reply.anonymous")
        assert set(t.seats) == seated
        # an anonymous admin still stands up a player named
        assert await anonymous("/kick Bob") == "Bob встаёт из-за стола по решению админа."
        assert t.seat_of(str(BOB.id)) is None


# -- 2. /grant 1 000: an amount with nobody named ---------------------------------------------
@pytest.mark.parametrize(
    ("typed", "amount"),
    [("1000", "1000"), ("1,000", "1,000"), ("1 000", "1 000"), ("1\u00a0000", "1 000"),
     ("1 000 000", "1 000 000"), ("- 500", "-500")],
)  # fmt: skip
def test_read_grant_of_an_amount_alone_names_nobody(typed: str, amount: str) -> None:
    """All the words one whole number (its thousands grouped as the bot writes them, or as
    Russian does with a space): the amount, and no name. ``1 000`` was user "1" and
    ``000``; ``1000`` alone was no name and no amount (the usage, the amount unsaid)."""
    assert read_grant(typed.split()) == GrantWords("", amount)


@pytest.mark.parametrize("typed", ["1001 100", "100 200", "12 abc"])
def test_read_grant_still_reads_a_user_id_before_an_amount(typed: str) -> None:
    first, rest = typed.split(" ", 1)
    assert read_grant(typed.split()).name == first
    assert read_grant(typed.split()).amount == rest


async def test_grant_of_an_amount_with_nobody_named_asks_who_in_both_languages() -> None:
    """``/grant 1 000`` with no name and no reply: "Who gets +1,000 kush?", nothing granted
    (it said "Cannot grant 0"); an amount out of range or 0 gets the usage."""
    service, store = new_service()
    for actor, lang, want in (
        (ALICE_S, "en", "Who gets +1,000 kush? Nothing was granted. Name the player: "
         "/grant @user 1000, or reply to their message with /grant 1000."),
        (BORIS_S, "ru", "Кому +1000 кушей? Ничего не начислено. Укажите игрока: "
         "/grant @игрок 1000 — или ответьте командой /grant 1000 на сообщение игрока."),
    ):  # fmt: skip
        for amount in ("1 000", "1,000", "1000"):
            reply = await service.grant(GROUP_S, actor, True, "", amount, key=f"{lang}{amount}")
            assert reply.alert and reply.text == want, (lang, reply.text)
    reply = await service.grant(GROUP_S, ALICE_S, True, "", "-1 000", key="neg")
    assert reply.text is not None and reply.text.startswith("Who gets −1,000 kush?"), reply.text
    for amount in ("0", "000", "10000000000000"):
        reply = await service.grant(GROUP_S, ALICE_S, True, "", amount, key=f"u{amount}")
        assert reply.text == tr("en", "reply.grant_usage"), reply.text
    community = await store.community("telegram", GROUP_S.community_id)
    assert await store.ledger(community.id) == []


async def test_grant_1_000_typed_with_nobody_named_grants_nothing(tmp_path: Path) -> None:
    """Through Telegram: ``/grant 1 000`` (a space or a no-break space), ``/grant 1,000`` and
    ``/grant 1000`` ask who gets it; nothing moves. As a reply to Bob's message it is his
    thousand."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/balance")
        want = tr("en", "reply.grant_whom", amount=1000, label="kush", whole="1000")
        for typed in ("1 000", "1\u00a0000", "1,000", "1000"):
            reply = await w.say(ALICE, f"/grant {typed}")
            assert reply["text"] == want, (typed, reply)
        top = await w.say(ALICE, "/top")
        assert "2,000" not in top["text"] and "1,000 kush" in top["text"], top["text"]
        said = await w.fake.send_text(BOB, GROUP_ID, "me too")
        reply = await w.say(ALICE, "/grant 1 000", reply_to=said)
        assert reply["text"] == "Bob: +1,000 kush, balance 2,000.", reply


# -- 3. an empty level of chips_schedule, an empty place of payouts ---------------------------
@pytest.mark.parametrize(
    ("name", "typed", "lang", "said"),
    [
        ("chips_schedule", "10,,20", "en",
         "chips_schedule: a level has no chips per point (“10,,20”): write one for each level."),
        ("chips_schedule", "10;;20", "ru",
         "цена_по_уровням: у уровня нет цены очка («10;;20»): укажите цену каждого уровня."),
        ("payouts", "50,,50", "en",
         "payouts: a prize place has no percentage (“50,,50”): write one for each place."),
        ("payouts", "50,,50", "ru",
         "призы: у призового места нет процента («50,,50»): укажите процент каждого места."),
    ],
)  # fmt: skip
async def test_each_list_setting_tells_an_empty_place_in_its_own_terms(
    name: str, typed: str, lang: str, said: str
) -> None:
    """``/settings chips_schedule 10,,20`` was told of "a place in the list" and "50,,50",
    the payouts' wording: a level of the schedule has no chips per point. Nothing saved."""
    service, store = new_service()
    actor = ALICE_S if lang == "en" else BORIS_S
    reply = await service.settings(GROUP_S, actor, True, [name, typed])
    assert reply.alert and reply.text is not None and said in reply.text, reply.text
    community = await store.community("telegram", GROUP_S.community_id)
    assert getattr(community.settings, name) == ""


# -- 4. what a refusal quotes back: no invisible characters, no length of text ----------------
def test_quoted_drops_invisible_format_characters_but_keeps_emoji_sequences() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # (joined by zero-width joiners)
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    assert quoted("ofc\u200bx") == "ofcx"
    assert quoted("\ufeffbo\u00adb\u2060 x\u200c") == "bob x"
    assert quoted(f"{family} {scotland}") == f"{family} {scotland}"
    assert quoted("x" * 500) == "x" * 63 + "…"
    assert quoted("a\u200b\nb\u202e") == "a b"


ZW = "\u200b"
LONG = "<b>" + "x" * 3000 + "</b> *y* _z_"


async def test_refusals_quote_no_invisible_character_and_no_long_text(tmp_path: Path) -> None:
    """A copied word's zero-width space was quoted back ("Unknown game “ofc\\u200bx”"), and
    ``/kick``, ``/grant``, ``/stats`` quoted a name of any length whole (a 3,000-character
    name made the bot post it in the group). Each quotes at most a short argument, without
    the invisible characters; Telegram's messages are plain text (no parse mode): "<b>" is
    shown as typed, never as markup."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(ALICE, "/newtable")
        for command in ("/rules", "/newtable"):
            reply = await w.say(ALICE, f"{command} ofc{ZW}x")
            assert reply["text"] == tr("en", "reply.unknown_game", game="ofcx",
                                       games="pineapple, ofc, chinese"), reply  # fmt: skip
        reply = await w.say(ALICE, f"/kick bo{ZW}bx")
        assert reply["text"] == "bobx is not seated here.", reply
        reply = await w.say(ALICE, f"/grant bo{ZW}bx 100")
        assert reply["text"] == tr("en", "reply.grant_unknown", name="bobx"), reply
        reply = await w.say(ALICE, f"/stats bo{ZW}bx")
        assert reply["text"].startswith("No such player here: bobx.\n"), reply
        clipped = quoted(LONG)
        assert clipped.startswith("<b>xxx") and clipped.endswith("…") and len(clipped) == 64
        for command, said in (
            ("/kick", f"{clipped} is not seated here."),
            ("/grant", tr("en", "reply.grant_unknown", name=clipped)),
            ("/rules", tr("en", "reply.unknown_game", game=clipped,
                          games="pineapple, ofc, chinese")),
        ):  # fmt: skip
            # (a game is one word: /rules is given the name's first 3,000 characters)
            word = LONG.split()[0] if command == "/rules" else LONG
            typed = f"{command} {word}" + (" 100" if command == "/grant" else "")
            reply = await w.say(ALICE, typed)
            assert reply["text"] == said, (command, reply)
            assert "parse_mode" not in reply, reply
        reply = await w.say(ALICE, f"/stats {LONG}")
        assert reply["text"].startswith(f"No such player here: {clipped}.\n"), reply
        assert len(reply["text"]) < 300, reply


async def test_topup_quotes_no_long_number_back() -> None:
    """``/topup 1.000.000.…`` (thousands grouped by points, 3,000 characters) was told
    "“1.000.000…”: write 1000000…" with both numbers whole (5,700 characters), a fraction
    of 3,000 digits "Whole numbers only, not 1.5000…"; the amount is cut as /grant's is, and
    the refusal quotes nothing long. Nothing moves."""
    service = service_env()[0]
    t = await seated(service, S_ALICE, S_BOB)
    assert t is not None
    seat = t.seat_of(S_ALICE.user_id)
    assert seat is not None
    stack = seat.stack
    grouped = "1." + ".".join(["000"] * 800)
    for typed in (grouped, "1 " + " ".join(["000"] * 800) + ",5", "1.5" + "0" * 3000):
        reply = await service.top_up(S_GROUP, S_ALICE, typed)
        assert reply.alert and reply.text is not None and len(reply.text) < 200, reply.text
        assert reply.text.startswith(tr("en", "reply.number_grouped") + "\n"), reply.text
    reply = await service.top_up(S_GROUP, S_ALICE, "9" * 3000 + ",5")  # (beyond every limit)
    assert reply.text == "Top up from 1 to 800 kush (a stack holds at most 1,000). Usage: /topup N"
    assert seat.stack == stack
    # a short one is still told as before
    reply = await service.top_up(S_GROUP, S_ALICE, "1.000")
    assert reply.text is not None and reply.text.startswith("“1.000”: write 1000"), reply.text
