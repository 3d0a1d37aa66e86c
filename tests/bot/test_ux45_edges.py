"""Bad-input edges (ux45):

* ``/settings kush_label co\u200bins`` stored the zero-width space as typed (R8.1): the label
  is saved without invisible format characters (an emoji's joiners kept), and one with
  nothing left is refused, saying so in the admin's language.
"""

from __future__ import annotations

import pytest

from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, GROUP

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
