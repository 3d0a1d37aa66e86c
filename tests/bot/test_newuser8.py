"""What a new group admin met reading only README.md and typing into the sandbox (helper
nu8): the settings' own explanations said something other than what the settings take."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest

from bot.model import Actor
from bot.sandbox import Sandbox, SandboxOptions
from bot.texts import tr
from storage.api import DEFAULT_KUSH_LABEL
from tests.bot.test_service_classic import BOB, GROUP, chinese_after_one_hand
from tests.bot.test_settings import ALICE, BORIS, new_service, say, stored


@pytest.mark.parametrize(
    ("actor", "setting", "shown"),
    [
        (ALICE, "payouts", "separated by commas, spaces or semicolons"),
        (BORIS, "payouts", "через запятую, пробел или точку с запятой"),
        (ALICE, "chips_schedule", "e.g. “10,15,20,30”, or “default”"),
        (BORIS, "chips_schedule", "например «10,15,20,30», или «по умолчанию»"),
    ],
)
async def test_a_list_settings_explanation_says_how_to_write_the_list(
    actor: Actor, setting: str, shown: str
) -> None:
    """R8.7: ``/settings payouts`` explained the prizes and then gave their range as "payouts
    is text of 0 to 60 characters, without control characters" (Russian "текст от 0 до 60
    символов"): the length of the stored text, not what an admin may write. Its range is the
    list's: whole numbers separated by commas, or the word for the default."""
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, setting, actor=actor)
    assert shown in reply.text, reply.text
    assert "0 to " not in reply.text and "от 0 до" not in reply.text, reply.text
    assert await stored(store) == before


@pytest.mark.parametrize(
    ("actor", "setting", "value", "shown"),
    [
        (ALICE, "level_minutes", "0", "takes a number of minutes from 1 to 240"),
        (BORIS, "level_minutes", "0", "длина_уровня: число минут от 1 до 240"),
        (ALICE, "tournament_chips", "5", "takes a whole number of chips from 10 to 1,000,000"),
        (BORIS, "tournament_chips", "5", "целое число фишек от 10 до 1\u00a0000\u00a0000"),
    ],
)
async def test_a_tournament_settings_range_names_its_unit(
    actor: Actor, setting: str, value: str, shown: str
) -> None:
    """R8.7: a refused ``level_minutes`` said "takes a number from 0.05 to 240", not of what
    (every other timer names its seconds or hours), and ``tournament_chips`` "a whole number
    from 10 to 1,000,000": minutes and chips now, in the refusal and in the explanation."""
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, setting, value, actor=actor)
    assert reply.alert and shown in reply.text, reply.text
    assert shown in (await say(service, setting, actor=actor)).text
    assert await stored(store) == before


@pytest.mark.parametrize(
    ("actor", "shown", "wrong"),
    [(ALICE, "never falling", "rising"), (BORIS, "не убывая", "по возрастанию")],
)
async def test_the_schedules_explanation_allows_what_it_saves(
    actor: Actor, shown: str, wrong: str
) -> None:
    """R8.7: ``chips_schedule`` was explained as "rising" ("по возрастанию") while "10,10" (a
    level repeated) is saved, as the refusal of a falling one says ("cannot fall")."""
    service, store = new_service()
    reply = await say(service, "chips_schedule", actor=actor)
    assert shown in reply.text and wrong not in reply.text, reply.text
    reply = await say(service, "chips_schedule", "10,10,20", actor=actor)
    assert not reply.alert, reply.text
    assert (await stored(store)).chips_schedule == "10,10,20"


@pytest.mark.parametrize(
    ("key", "extra", "expected"),
    [
        ("reply.ready", {}, "Вы готовы: взнос 201 куш на столе."),
        ("reply.left", {}, "Вы встали из-за стола; возвращено на баланс: 201 куш."),
        (
            "notice.left_after_hand",
            {"name": "Аня"},
            "👋 Аня встаёт из-за стола; возвращено на баланс: 201 куш.",
        ),
        ("tour.unregistered", {}, "Регистрация снята; возвращено на баланс: 201 куш."),
    ],
)
def test_russian_amounts_ending_in_one_agree_with_their_verb(
    key: str, extra: dict[str, str], expected: str
) -> None:
    """R8.2, R8.7: "на баланс вернулось 201 куш", "на стол внесено 1 куш": a neuter verb
    before an amount whose noun agrees as one ("куш") is wrong Russian, and stacks of 201 or
    buy-ins of 101 are everyday amounts. The verb now stands apart from the amount."""
    assert tr("ru", key, amount=201, label=DEFAULT_KUSH_LABEL, **extra) == expected


def test_english_unregistering_reads_right_for_one_kush() -> None:
    """R8.7: "Unregistered: 1 kush are back in your balance" (a buy-in of 1 is allowed)."""
    text = tr("en", "tour.unregistered", amount=1, label=DEFAULT_KUSH_LABEL)
    assert text == "Unregistered: 1 kush back to your balance."


def test_leaving_during_the_hand_says_so_with_the_comma_the_leave_button_has() -> None:
    """``/leave`` during your hand said "разложены автоматически и рука может оказаться
    мёртвой" (two clauses, no comma); the Leave button's question has the comma."""
    assert "автоматически, и рука может оказаться мёртвой" in tr("ru", "reply.leave_after_hand")


async def test_r7_6_history_of_a_chinese_hand_before_its_game_ends_says_kush_come_later() -> None:
    """R7.6: a Chinese Poker cash hand moves no kush until the game to the target ends.
    ``/history`` read "Table 1, hand 1: +22 pts, +0 kush" (Russian "+22 очка, +0 кушей"), a
    hand won for nothing; ``/replay`` of the same hand said "game 22/200 · kush settled when
    the game ends". ``/history`` says so too."""
    service, _presenter, store, _clock, t = await chinese_after_one_hand()
    assert t.chinese is not None and not t.chinese.over
    hands = await store.export_hands(t.id)
    lines = (await service.history(GROUP, ALICE)).text.splitlines()
    assert lines[1] == (
        f"#{hands[0]['id']} · Table #1, hand 1: +22 pts, game 22/200 · settled when the game ends"
    ), lines
    ru = dataclasses.replace(BOB, language="ru")
    lines = (await service.history(GROUP, ru)).text.splitlines()
    assert lines[1] == (
        f"#{hands[0]['id']} · Стол #1, раздача 1: 0 очков, игра 0/200 · расчёт в конце игры"
    ), lines


async def test_the_sandbox_answers_a_button_it_has_not_with_the_ones_it_has(
    tmp_path: Path,
) -> None:
    """The sandbox's "» no such button" said nothing of which buttons there are (the group's
    after /closetable during a hand are only g1, Leave; a hand's change every street): it
    names them, as they are typed, and a message without any says so."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0, lang="ru"), out)
    try:
        await box.start()
        assert await box.handle("g9")
        assert "» нет такой кнопки: у этого сообщения кнопки g1–g4" in out.getvalue().splitlines()
        assert await box.handle("5")  # no hand dealt: a bare number has no buttons to press
        assert (
            "» нет такой кнопки: вашей руки на экране нет; N нажимает кнопки руки, rN — "
            "повтора, gN — группы"
        ) in out.getvalue().splitlines()
        assert tr("en", "sandbox.no_button", first="g1", last="g4") == (
            "no such button: that message's buttons are g1–g4"
        )
    finally:
        await box.stop()
