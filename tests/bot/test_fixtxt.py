"""Admin settings and player texts (R8.1, R8.7):

- ``/settings utc_offset auto`` (``авто``) sets the time zone back to the group's language's:
  once set it could not be unset (refused as no number), on every store;
- a refused setting read "Нельзя установить: kush_per_point: …", two colons in a row;
- ``tour.abandoned`` read "В последних 1 раздачах" for any number;
- ``/settings <name>`` of a setting of the whole group (its language, time zone, label) said
  "Games: Pineapple OFC, Classic OFC, Chinese Poker";
- a kush label the admins chose, a Russian word, never agrees with the number before it
  ("Докупка на 100 фишка"): it is named after «ед.» instead, the default куш still agrees.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.pictures import drawn_word
from bot.service import TableService
from bot.service.showdown import ABANDONED_HANDS
from bot.texts import kush_word, tr
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_settings import ALICE, BORIS, GROUP, say, stored
from tests.storage.helpers import STORE_KINDS, open_store


# -- utc_offset auto -----------------------------------------------------------------------------
@pytest.mark.parametrize("kind", STORE_KINDS)
@pytest.mark.parametrize("word", ["auto", "AUTO", "авто"])
async def test_r8_1_utc_offset_auto_follows_the_language_again(
    kind: str, word: str, tmp_path: Path
) -> None:
    async with open_store(kind, tmp_path) as store:
        service = TableService(
            store, clock=lambda: 1_000_000.0, rng=random.Random(5), next_hand_delay=0,
            timers=False,
        )  # fmt: skip
        service.register(FakePresenter())
        assert not (await say(service, "language", "en")).alert
        assert not (await say(service, "utc_offset", "5")).alert
        assert (await stored(store)).utc_offset == 5
        reply = await say(service, "utc_offset", word)
        assert not reply.alert, reply.text
        assert reply.text.startswith("Saved: utc_offset = auto — 0 (was 5)."), reply.text
        s = await stored(store)
        assert (s.utc_offset, s.day_zone()) == (None, 0)
        help_ = await say(service, "utc_offset")
        assert help_.text.endswith("Now: auto — 0 (default)."), help_.text
        again = await say(service, "utc_offset", word)
        assert again.text.startswith("Already so: utc_offset = auto — 0."), again.text
        # it follows the language again: Russian, Moscow's
        assert not (await say(service, "language", "ru")).alert
        assert (await stored(store)).day_zone() == 3
        screen = (await say(service, "all", actor=BORIS)).screen
        assert screen is not None
        assert "Часовой пояс: авто — 3" in screen.text.splitlines()
        help_ru = await say(service, "utc_offset", actor=BORIS)
        assert help_ru.text.endswith("Сейчас: авто — 3 (по умолчанию)."), help_ru.text


async def test_r8_1_a_time_zone_set_shows_its_number_and_the_default() -> None:
    """Set, it is shown as the number, not as auto (it stays whatever the language)."""
    service = TableService(
        MemoryStore(), clock=lambda: 1_000_000.0, next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    assert not (await say(service, "language", "en")).alert
    saved = await say(service, "utc_offset", "3")
    assert saved.text.startswith("Saved: utc_offset = 3 (was auto — 0)."), saved.text
    assert (await say(service, "utc_offset")).text.endswith(
        "Now: 3 (default 0)." + "\n/settings utc_offset default gives it back its default."
    )


# -- refusals ------------------------------------------------------------------------------------
async def test_a_refused_setting_reads_one_colon_in_either_language() -> None:
    service = TableService(
        MemoryStore(), clock=lambda: 1_000_000.0, next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    ru = await say(service, "kush_per_point", "0", actor=BORIS)
    assert ru.alert and ru.text == (
        "Не удалось изменить куш_за_очко: целое число от 1 до 1\u00a0000\u00a0000 кушей."
    ), ru.text
    en = await say(service, "payouts", "50,40")
    assert en.alert and en.text == (
        "Cannot set that — payouts: the percentages must add up to 100; these add up to 90."
    ), en.text
    for reply in (ru, en):
        assert "::" not in reply.text.replace(" ", "")
        assert reply.text.count(":") == 1, reply.text


# -- tour.abandoned ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hands", "ru", "en"),
    [
        (1, "никто не играл 1 раздачу подряд", "nobody played for 1 hand in a row"),
        (3, "никто не играл 3 раздачи подряд", "nobody played for 3 hands in a row"),
        (5, "никто не играл 5 раздач подряд", "nobody played for 5 hands in a row"),
        (21, "никто не играл 21 раздачу подряд", "nobody played for 21 hands in a row"),
    ],
)
def test_r8_7_an_abandoned_tournament_agrees_with_its_number(hands: int, ru: str, en: str) -> None:
    assert tr("ru", "tour.abandoned", table=4, hands=hands) == f"Турнир #4 остановлен: {ru}."
    assert tr("en", "tour.abandoned", table=4, hands=hands) == f"Tournament #4 is stopped: {en}."
    assert "3 раздачи подряд" in tr("ru", "tour.abandoned", table=4, hands=ABANDONED_HANDS)


# -- the description of a setting of the whole group ---------------------------------------------
@pytest.mark.parametrize("name", ["language", "utc_offset", "kush_label", "min_buy_in", "game"])
async def test_r8_1_a_group_setting_names_no_games(name: str) -> None:
    service = TableService(
        MemoryStore(), clock=lambda: 1_000_000.0, next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    en = await say(service, name)
    ru = await say(service, name, actor=BORIS)
    assert "Games:" not in en.text and "\nNow: " in en.text, en.text
    assert "Игры:" not in ru.text and "\nСейчас: " in ru.text, ru.text


async def test_a_rule_option_still_names_its_games() -> None:
    service = TableService(
        MemoryStore(), clock=lambda: 1_000_000.0, next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    text = (await say(service, "fantasyland_seconds")).text
    assert "\nGames: Pineapple OFC, Classic OFC. Now: " in text, text


# -- a kush label the admins chose ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("label", "shown"),
    [("бублик", "ед. «бублик»"), ("печенек", "ед. «печенек»"), ("₽", "₽"), ("руб.", "руб."),
     ("chips", "chips"), ("💰", "💰")],
)  # fmt: skip
def test_r8_1_a_chosen_label_reads_right_after_any_number(label: str, shown: str) -> None:
    for n in (1, 2, 5, 100):
        text = tr("ru", "reply.topup_queued", amount=n, label=label)
        assert text.startswith(f"Докупка на {n} {shown} принята"), text
        assert kush_word(label, "ru", n) == shown
    # up to ("{label:gen}"), and a number written in the text ("стек 0 {label}")
    text = tr("ru", "reply.topup_range", room=500, max=1000, label=label)
    assert text.startswith(f"Докупить можно от 1 до 500 {shown} (в стеке"), text
    text = tr("ru", "showdown.busted", name="Вера", label=label)
    assert text.startswith(f"Вера: стек 0 {shown} — докупите"), text
    # a picture's amount (a board's kush line) names it so too (an emoji it cannot draw)
    assert drawn_word(label, "ru", 3) == (shown if label != "💰" else "куша")
    # English: as written when in Latin letters (or a sign), else the default, kush; the
    # label alone, as written
    english = label if label in ("chips", "💰", "₽") else "kush"
    said = tr("en", "reply.topup_queued", amount=5, label=label)
    assert said.startswith(f"Top-up of 5 {english}"), said
    assert kush_word(label, "ru") == label


def test_r8_1_the_default_label_still_agrees() -> None:
    for n, word in ((1, "куш"), (2, "куша"), (5, "кушей"), (21, "куш")):
        text = tr("ru", "reply.topup_queued", amount=n, label="kush")
        assert text.startswith(f"Докупка на {n} {word} принята"), text
        assert kush_word("kush", "ru", n) == word
    assert tr("ru", "reply.topup_range", room=1, max=1000, label="kush").startswith(
        "Докупить можно от 1 до 1 куша (в стеке"
    )


async def test_r8_1_a_chosen_label_in_a_reply() -> None:
    store = MemoryStore()
    service = TableService(store, clock=lambda: 1_000_000.0, next_hand_delay=0, timers=False)
    service.register(FakePresenter())
    assert not (await say(service, "kush_label", "монеты")).alert
    reply = await service.daily(GROUP, BORIS)
    assert reply.text.startswith("Ежедневный бонус: +100 монет. Баланс"), reply.text
    reply = await service.daily(GROUP, ALICE)  # (English: a Russian label reads kush)
    assert reply.text.startswith("Daily bonus: +100 kush. Balance"), reply.text


@pytest.mark.parametrize("label", ["фишки", "фишка", "Фишки", "фишек"])
def test_r8_1_a_common_russian_unit_agrees_with_its_number(label: str) -> None:
    """The settings' own example, «фишки» ("500 фишек"), read «500 ед. «фишки»»: a common
    Russian unit agrees with its number as the default «куш» does."""
    for n, word in ((1, "фишка"), (2, "фишки"), (5, "фишек"), (21, "фишка"), (12, "фишек")):
        text = tr("ru", "reply.topup_queued", amount=n, label=label)
        acc = "фишку" if word == "фишка" else word  # (после «на»: на 1 фишку, brk36)
        assert text.startswith(f"Докупка на {n} {acc} принята"), text
        assert kush_word(label, "ru", n) == word
        assert drawn_word(label, "ru", n) == word
    assert tr("ru", "reply.topup_range", room=1, max=9, label=label).startswith(
        "Докупить можно от 1 до 1 фишки (в стеке"
    )
    assert tr("ru", "reply.topup_range", room=12000, max=9, label=label).startswith(
        "Докупить можно от 1 до 12\u00a0000 фишек (в стеке"
    )
    assert tr("ru", "showdown.busted", name="Вера", label=label).startswith("Вера: стек 0 фишек")
    lobby = tr("ru", "lobby.title", game="Ананас", table=1, buy_in=500, point=10, players=2,
               label=label)  # fmt: skip
    assert "Взнос 500 фишек · 1 очко = 10 фишек ·" in lobby, lobby
    assert kush_word(label, "ru") == label  # (alone: as written)
    assert kush_word("звёзды", "ru", 5) == "звёзд" == kush_word("звезды", "ru", 5)
    assert kush_word("ФИШКИ", "ru", 5) == "ед. «ФИШКИ»"  # (not a plain word: named)
