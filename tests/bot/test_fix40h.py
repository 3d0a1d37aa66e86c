"""fix40h: small leftovers, each in English and Russian where a player reads it.

1. ``/grant @bob - 100`` (the sign typed as a word of its own) answered "No such player
   here: @bob -": the sign is the amount's now, "-100", which takes as ``/grant @bob -100``
   does.
2. A tournament's Register tapped twice answered the second tap "out of date" (the first
   moved the table message's version on), read as the first not counted: it says "You are
   registered already" now, nothing changed.
3. Discord's ``/ofcadmin grant`` or ``/ofcadmin kick`` run without an option it requires (a
   command list of another version) was told the bot does not know the command: it names
   the option missing now.
4. Start pressed by someone not seated (not the opener, no admin) was refused in the
   table's language: in the presser's now, as Register and Join answer.
5. A whole-number setting typed "1 000,5" (its thousands grouped) was told "Whole numbers
   only" without the nearest whole numbers "2,5" is told: it is told them now.
6. Discord's "could not be posted here" named Send Messages in a thread too, where the bot
   writes with Send Messages in Threads: a thread's answer names that one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.presses import Register, StartTournament, encode
from bot.service.numbers import grouped_fraction
from bot.service.wallet import GrantWords, read_grant, signed_words
from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.discord.dc_world import ALICE as DC_ALICE
from tests.bot.discord.dc_world import BOB as DC_BOB
from tests.bot.discord.dc_world import world as dc_world
from tests.bot.test_service import ALICE as S_ALICE
from tests.bot.test_service import BOB as S_BOB
from tests.bot.test_service import CAROL as S_CAROL
from tests.bot.test_service import GROUP as S_GROUP
from tests.bot.test_settings import ALICE as SET_ALICE
from tests.bot.test_settings import BORIS, new_service, say
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world
from tests.fakes.discord_api import CHANNEL_ID, TOKEN, FakeDiscord


# -- 1. a sign typed apart from the amount ---------------------------------------------------
@pytest.mark.parametrize("sign", ["-", "−", "–"])
def test_read_grant_takes_a_lone_sign_as_the_amounts(sign: str) -> None:
    assert read_grant(["@bob", sign, "100"]) == GrantWords("@bob", f"{sign}100")
    assert read_grant(["Anna", "Maria", sign, "1", "000"]) == GrantWords(
        "Anna Maria", f"{sign}1 000", (f"Anna Maria {sign}1", "000")
    )
    assert read_grant([sign, "100"], replied=True) == GrantWords("", f"{sign}100")


def test_a_sign_before_no_number_stays_a_word() -> None:
    assert signed_words(["Anna", "-", "Maria", "100"]) == ["Anna", "-", "Maria", "100"]
    assert signed_words(["@bob", "-"]) == ["@bob", "-"]
    assert signed_words(["@bob", "+", "5"]) == ["@bob", "+5"]


@pytest.mark.parametrize("sign", ["-", "−"])
async def test_grant_with_the_sign_apart_takes_on_telegram(tmp_path: Path, sign: str) -> None:
    """Alice (an admin, English) takes 100 of Bob's 1000 typing ``/grant @bob - 100``: it was
    "No such player here: @bob -", nothing taken."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/balance")
        reply = await w.say(ALICE, f"/grant @bob {sign} 100")
        assert reply["text"] == tr("en", "reply.granted", name="Bob", amount=-100,
                                   label="kush", balance=900), reply  # fmt: skip


async def test_grant_to_a_picked_member_with_the_sign_apart_takes(tmp_path: Path) -> None:
    """A member picked from the mention list (no @username), ``/grant Dave − 100``: 100
    taken (it was refused as no number, "− 100")."""
    dave = FakeUser(401, "Dave", None, "en")
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(dave, "/balance")
        text = "/grant Dave − 100"
        entity = {"type": "text_mention", "offset": text.index("Dave"), "length": 4}
        reply = await w.say(ALICE, text, entities=[{**entity, "user": dave.to_json()}])
        assert reply["text"] == tr("en", "reply.granted", name="Dave", amount=-100,
                                   label="kush", balance=900), reply  # fmt: skip


# -- 2. Register tapped twice --------------------------------------------------------------
async def test_a_double_tapped_register_says_registered_already() -> None:
    """Alice (English) and Bob (Russian) each tap Register twice on one table message: the
    second tap says they are registered (each in their language), one buy-in each."""
    service, _presenter, store, _clock = service_env()
    assert not (await service.new_tournament(S_GROUP, S_ALICE, "ofc")).alert
    t = service.table_in(S_GROUP)
    assert t is not None and t.tournament is not None
    for actor, lang in ((S_ALICE, "en"), (S_BOB, "ru")):
        shown = f"L{t.version}"
        first = await service.press(actor, encode(Register(t.id, shown)), S_GROUP)
        assert not first.alert, first.text
        assert f"L{t.version}" != shown  # the first tap moved the version on
        second = await service.press(actor, encode(Register(t.id, shown)), S_GROUP)
        assert second.alert and second.text == tr(lang, "err.already_registered"), second.text
    assert sorted(s.user_id for s in t.seats.values()) == ["1", "2"]
    assert t.tournament.pool == 2 * t.tournament.config.buy_in
    assert await check_store(store) == []


# -- 4. Start refused in the presser's language ----------------------------------------------
async def test_start_refused_to_someone_not_seated_in_their_language() -> None:
    """Alice's (English) tournament, Alice and Carol registered: Bob (Russian, not seated, no
    admin) presses Start and is told in Russian that only the opener or an admin starts it
    (it was the table's English); Carol (seated, English) in English."""
    service, _presenter, _store, _clock = service_env()
    assert not (await service.new_tournament(S_GROUP, S_ALICE, "ofc")).alert
    t = service.table_in(S_GROUP)
    assert t is not None and t.lang == "en"
    for actor in (S_ALICE, S_CAROL):
        reply = await service.press(actor, encode(Register(t.id, f"L{t.version}")), S_GROUP)
        assert not reply.alert, reply.text

    async def no() -> bool:
        return False

    for actor, lang in ((S_BOB, "ru"), (S_CAROL, "en")):
        start = encode(StartTournament(t.id, f"L{t.version}"))
        reply = await service.press(actor, start, S_GROUP, no)
        assert reply.alert and reply.text == tr(lang, "tour.start_who"), (actor.name, reply.text)
    assert t.tournament is not None and t.hand is None


# -- 5. a grouped number with a fraction for a whole-number setting --------------------------
@pytest.mark.parametrize(
    ("typed", "read"),
    [("1 000,5", "1000.5"), ("1,000.5", "1000.5"), ("−1 000,75", "-1000.75"),
     ("2,5", None), ("1 000", None), ("1.000,5", None), ("1 000,0", None)],
)  # fmt: skip
def test_grouped_fraction_reads_only_a_grouped_number_with_a_fraction(
    typed: str, read: str | None
) -> None:
    assert grouped_fraction(typed) == read


@pytest.mark.parametrize(
    ("lang", "typed", "hint"),
    [
        ("en", "1 000,5", "Whole numbers only: 1,000 or 1,001, not 1000.5."),
        ("en", "1,000.5", "Whole numbers only: 1,000 or 1,001, not 1000.5."),
        ("ru", "1 000,5", "Только целые числа: 1000 или 1001, а не 1000,5."),
        ("ru", "2,5", "Только целые числа: 2 или 3, а не 2,5."),
    ],
)
async def test_a_grouped_fraction_for_a_whole_setting_is_told_the_nearest(
    lang: str, typed: str, hint: str
) -> None:
    service, _store = new_service()
    actor = BORIS if lang == "ru" else SET_ALICE
    reply = await say(service, "min_buy_in", typed, actor=actor)
    assert reply.alert and reply.text.splitlines()[-1] == hint, reply.text


# -- 3. a Discord command without an option it requires -------------------------------------
async def test_a_discord_command_without_a_required_option_names_it(tmp_path: Path) -> None:
    """``/ofcadmin grant`` without ``amount`` (or without ``user``) and ``/ofcadmin kick``
    without ``user``: answered, only to the admin, that the option is missing (in their
    language), nothing granted; it was "The bot does not know that command"."""
    async with dc_world(tmp_path) as w:
        for user, sub, options, missing in (
            (DC_ALICE, "grant", {"user": DC_BOB}, "amount"),
            (DC_BOB, "grant", {"amount": 5}, "user"),
            (DC_ALICE, "kick", {}, "user"),
            (DC_BOB, "kick", {}, "user"),
        ):
            reply = await w.slash(user, sub, options, admin=True)
            lang = "ru" if user is DC_BOB else "en"
            assert reply["content"] == tr(lang, "reply.option_missing", option=missing), reply
            assert reply["flags"] & 64  # (ephemeral)
        community = await w.store.community("discord", str(w.fake.guild_id))
        assert await w.store.find_player(community.id, str(DC_BOB.id)) is None
        assert w.logged == []


# -- 6. a Discord thread the bot cannot post in ------------------------------------------------
THREAD_ID = 555_000_000_000_000_777


async def test_a_thread_the_bot_cannot_post_in_names_send_messages_in_threads(
    tmp_path: Path,
) -> None:
    """``/ofc new`` in a thread whose writes the bot is refused: told, in the opener's
    language, that it needs Send Messages in Threads (it said Send Messages, which it may
    have); in the channel itself the answer still names Send Messages."""
    fake = FakeDiscord(TOKEN)
    fake.add_thread(THREAD_ID, CHANNEL_ID, "poker-thread")
    await fake.start()
    try:
        async with dc_world(tmp_path, fake=fake) as w:
            fake.locked_channels.add(THREAD_ID)  # (refused writes, no update about it)
            reply = await w.slash(DC_ALICE, "new", channel_id=THREAD_ID)
            assert reply["content"] == (
                "⚠ Table #1: its message could not be posted here. The bot needs View "
                "Channels and Send Messages in Threads here; without them the table closes."
            ), reply
            await fake.wait_for(lambda: not w.service.tables)  # (it closed)
            reply = await w.slash(DC_BOB, "new", channel_id=THREAD_ID)
            assert reply["content"] == tr("ru", "reply.table_not_posted.discord_thread",
                                          table=2), reply  # fmt: skip
            assert "«Отправлять сообщения в ветках»" in reply["content"]
            await fake.wait_for(lambda: not w.service.tables)
            fake.locked_channels.add(CHANNEL_ID)
            reply = await w.slash(DC_ALICE, "new")
            assert reply["content"] == tr("en", "reply.table_not_posted.discord", table=3)
            w.logged.clear()  # (the refused posts are logged)
    finally:
        await fake.stop()
