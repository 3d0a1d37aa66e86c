"""Bad-input edges (ux45):

* ``/settings kush_label co\u200bins`` stored the zero-width space as typed (R8.1): the label
  is saved without invisible format characters (an emoji's joiners kept), and one with
  nothing left is refused, saying so in the admin's language;
* ``/grant 100 200`` with no player of id 100 here was "No such player here: 100": the words
  read as user 100 and 200 or as 100,200 for nobody named; both readings are said and how
  to name the player, nothing granted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.wallet import GrantWords, read_grant
from bot.texts import tr
from tests.bot import tg_world
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_settings import ALICE as ALICE_S
from tests.bot.test_settings import BORIS as BORIS_S
from tests.bot.test_settings import GROUP as GROUP_S
from tests.bot.test_settings import new_service

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji, held by its joiners


@pytest.mark.parametrize(
    ("typed", "saved"),
    [
        ("co\u200bins", "coins"),
        ("\u2060coins\u200c", "coins"),
        ("мо\u00adне\u200dты", "монеты"),  # a soft hyphen, a joiner
        ("\u200b" + FAMILY, FAMILY),  # the emoji's own joiners kept
    ],
)
async def test_r8_1_a_kush_label_is_saved_without_invisible_characters(
    typed: str, saved: str
) -> None:
    service, _presenter, store, _clock = service_env()
    reply = await service.settings(GROUP, ALICE, True, ["kush_label", typed])
    assert not reply.alert, reply.text
    community = await store.community("telegram", "-100")
    assert community.settings.kush_label == saved
    # typed again without them: the same label, nothing changed
    again = await service.settings(GROUP, ALICE, True, ["kush_label", saved])
    assert again.text.startswith("Already so"), again.text


async def test_r8_7_a_chips_label_with_a_zero_width_space_is_refused_as_chips() -> None:
    """A label "chips" with a zero-width space passed the chips check (R8.7: a
    tournament's chips are chips)."""
    service, _presenter, store, _clock = service_env()
    reply = await service.settings(GROUP, ALICE, True, ["kush_label", "chips\u200b"])
    assert reply.alert, reply.text
    assert "tournament" in reply.text, reply.text
    assert (await store.community("telegram", "-100")).settings.kush_label == "kush"


@pytest.mark.parametrize("typed", ["\u200b", "\u200b\u200c\u2060", "\ufeff\u00ad"])
async def test_r8_1_a_kush_label_empty_once_stripped_is_refused_in_both_languages(
    typed: str,
) -> None:
    service, _presenter, store, _clock = service_env()
    for actor, lang in ((ALICE, "en"), (BOB, "ru")):
        reply = await service.settings(GROUP, actor, True, ["kush_label", typed])
        assert reply.alert, reply.text
        assert tr(lang, "settings.label_blank") in reply.text, reply.text
    assert "shows nothing" in tr("en", "settings.label_blank")
    assert "не видно" in tr("ru", "settings.label_blank")
    assert (await store.community("telegram", "-100")).settings.kush_label == "kush"


async def test_grant_of_a_number_no_player_has_then_an_amount_says_both_readings() -> None:
    """The service: an unknown user id typed before an amount, the two reading as one amount
    too, is refused with both readings in the admin's language; nothing moves. A known id
    (Boris is "2") still gets the grant; an id whose words make no one amount ("1001 100")
    is an unknown player, as before."""
    service, store = new_service()
    await service.balance(GROUP_S, BORIS_S)  # (Boris has a wallet here)
    community = await store.community("telegram", GROUP_S.community_id)
    before = await store.ledger(community.id)
    for actor, lang, want in (
        (ALICE_S, "en", "Grant 200 to user id 100, or 100,200 to someone? Nobody here has "
         "id 100; nothing was granted. Name them with @ or reply to their message with /grant N."),
        (BORIS_S, "ru", "200 игроку с id 100 или 100\u00a0200 кому-то? Игрока с id 100 тут нет; "
         "ничего не начислено. Укажите игрока через @ или ответьте /grant N на сообщение игрока."),
    ):  # fmt: skip
        reply = await service.grant(GROUP_S, actor, True, "100", "200", key=f"a{lang}")
        assert reply.alert and reply.text == want, (lang, reply.text)
        reply = await service.grant(GROUP_S, actor, True, "12", "345", key=f"b{lang}")
        assert reply.alert and reply.text is not None, reply
        said = (
            "Grant 345 to user id 12, or 12,345 to someone?",
            "345 игроку с id 12 или 12\u00a0345",
        )
        assert reply.text.startswith(said), reply.text
    assert await store.ledger(community.id) == before
    reply = await service.grant(GROUP_S, ALICE_S, True, "1001", "100", key="c")
    assert reply.text == tr("en", "reply.grant_unknown", name="1001"), reply.text
    reply = await service.grant(GROUP_S, ALICE_S, True, "2", "200", key="d")
    assert not reply.alert and reply.text is not None and "Boris: +200" in reply.text, reply.text


async def test_grant_100_200_through_telegram_grants_nothing(tmp_path: Path) -> None:
    """Through Telegram: ``/grant 100 200`` (no member of id 100 here) says both readings;
    nothing moves. ``/grant @bob 200`` and ``/grant 102 200`` (Bob's id) still grant."""
    async with tg_world.world(tmp_path) as w:
        w.fake.admins[tg_world.GROUP_ID] = {tg_world.ALICE.id}
        await w.say(tg_world.BOB, "/balance")
        reply = await w.say(tg_world.ALICE, "/grant 100 200")
        want = tr("en", "reply.grant_id_or_amount", id="100", amount="200", whole="100,200")
        assert reply["text"] == want, reply
        top = await w.say(tg_world.ALICE, "/top")
        assert "1,000 kush" in top["text"] and "200" not in top["text"], top["text"]
        reply = await w.say(tg_world.ALICE, "/grant @bob 200")
        assert reply["text"] == "Bob: +200 kush, balance 1,200.", reply
        reply = await w.say(tg_world.ALICE, "/grant 102 200")
        assert reply["text"] == "Bob: +200 kush, balance 1,400.", reply


@pytest.mark.parametrize(
    ("typed", "amount"), [("-100 200", "-100 200"), ("- 100 200", "-100 200"), ("+5 200", "+5 200")]
)
def test_read_grant_of_a_signed_first_number_names_nobody(typed: str, amount: str) -> None:
    """No user id has a sign: ``/grant -100 200`` is one amount (−100,200), not user "-100"
    given 200 ("No such player here: -100")."""
    assert read_grant(typed.split()) == GrantWords("", amount)


async def test_grant_of_a_signed_first_number_asks_who_through_telegram(tmp_path: Path) -> None:
    async with tg_world.world(tmp_path) as w:
        w.fake.admins[tg_world.GROUP_ID] = {tg_world.ALICE.id}
        await w.say(tg_world.BOB, "/balance")
        reply = await w.say(tg_world.ALICE, "/grant -100 200")
        want = tr("en", "reply.grant_whom", amount=-100200, label="kush", whole="-100200")
        assert reply["text"] == want, reply
        top = await w.say(tg_world.ALICE, "/top")
        assert "1,000 kush" in top["text"], top["text"]
