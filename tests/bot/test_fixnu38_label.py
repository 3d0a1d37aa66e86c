"""A kush label written in Russian («монеты», «кушей») read as it was typed to the English
players of a group: "1,000 кушей on balance". A reader of English now sees the default
label, "kush", for a label in other than Latin letters; a Russian reader sees the label; a
Latin word or a sign reads the same for both (R8.1). The settings list and the answer to the
change say what English readers see."""

from __future__ import annotations

import pytest

from bot.texts import kush_word, latin_only, tr
from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, say


@pytest.mark.parametrize(
    ("label", "english"),
    [
        ("монеты", "kush"),
        ("кушей", "kush"),
        ("coins", "coins"),
        ("crédits", "crédits"),
        ("₽", "₽"),
        ("🪙", "🪙"),
        ("kush", "kush"),
    ],
)
def test_a_reader_of_english_sees_kush_for_a_label_in_other_letters(
    label: str, english: str
) -> None:
    assert kush_word(label, "en") == english
    assert latin_only(label) == (english == label)
    said = tr("en", "reply.balance", name="Al", balance=500, label=label, stack=0, elsewhere="")
    assert said == f"Al: 500 {english} on balance, 0 at the table."


def test_a_russian_reader_sees_the_label_itself() -> None:
    said = tr("ru", "reply.balance", name="Бо", balance=500, label="монеты", stack=0, elsewhere="")
    assert said == "Бо: 500 монет на балансе, 0 на столе."
    assert kush_word("coins", "ru", 5) == "coins"


async def test_an_english_player_of_a_group_labelled_in_russian_reads_kush() -> None:
    service, _ = new_service()
    saved = await say(service, "kush_label", "монеты")
    assert saved.text.splitlines()[:2] == [
        'Saved: kush_label = монеты (was kush) (readers of English see "kush").',
        'Readers of English see "kush" instead: a label in Latin letters ("coins") or a sign '
        "(🪙, ₽) reads the same for everyone.",
    ], saved.text
    russian = await say(service, "kush_label", "жетоны", actor=BORIS)
    assert russian.text.splitlines()[:2] == [
        "Сохранено: валюта = жетоны (было монеты).",
        "Читающие по-английски видят вместо него «kush»: название латиницей («coins») или "
        "значок (🪙, ₽) все читают одинаково.",
    ], russian.text
    alice = await service.balance(GROUP, ALICE)
    assert alice.text == "Alice: 1,000 kush on balance, 0 at the table.", alice.text
    boris = await service.balance(GROUP, BORIS)
    assert boris.text == "Boris: 1000 жетонов на балансе, 0 на столе.", boris.text
    listed = await say(service, "all")
    assert listed.screen is not None
    line = 'Kush label: жетоны (readers of English see "kush")'
    assert line in listed.screen.text.splitlines(), listed.screen.text
    help_en = await say(service, "kush_label")
    assert 'Now: жетоны (readers of English see "kush")' in help_en.text, help_en.text
    # a Latin label: no note, shown as typed to both
    latin = await say(service, "kush_label", "coins")
    assert latin.text.splitlines()[0] == "Saved: kush_label = coins (was kush).", latin.text
    assert "Readers of English" not in latin.text
    alice = await service.balance(GROUP, ALICE)
    assert alice.text == "Alice: 1,000 coins on balance, 0 at the table.", alice.text


async def test_a_group_set_to_russian_is_not_told_of_english_readers() -> None:
    service, _ = new_service()
    assert not (await say(service, "language", "ru")).alert
    saved = await say(service, "kush_label", "монеты")
    assert saved.text.splitlines()[0] == "Сохранено: валюта = монеты (было куш).", saved.text
    assert "по-английски" not in saved.text
    # the group reads Russian: its English member too
    alice = await service.balance(GROUP, ALICE)
    assert alice.text == "Alice: 1000 монет на балансе, 0 на столе.", alice.text
