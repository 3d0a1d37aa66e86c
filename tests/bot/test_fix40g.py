"""fix40g: a Russian group names settings in Russian (``/settings язык en`` was «Настройки
«язык» нет. Может быть, language?»), the top-up answer says it short, and Chinese Poker's
``/history`` lists the hands of a game still being played."""

from __future__ import annotations

import dataclasses
import random

from bot.model import Actor, ChatRef, Reply
from bot.service import TableService
from bot.service.settings import (
    SETTING_NAMES,
    SETTINGS,
    _setting_key,
    leading_setting,
    setting_named,
    settings_matching,
)
from storage.memory import MemoryStore

GROUP = ChatRef("telegram", "-100", "-100", "Friends")
ALICE = Actor("telegram", "1", "Alice", "en")
BORIS = Actor("telegram", "2", "Boris", "ru")


def _service() -> TableService:
    return TableService(
        MemoryStore(), clock=lambda: 1_000_000.0, rng=random.Random(5), next_hand_delay=0,
        timers=False,
    )  # fmt: skip


async def _say(service: TableService, *args: str, actor: Actor = BORIS) -> Reply:
    return await service.settings(GROUP, actor, True, list(args))


async def _listed(service: TableService, actor: Actor = BORIS) -> list[str]:
    reply = await _say(service, "all", actor=actor)
    assert reply.screen is not None
    return reply.screen.text.splitlines()


def test_no_russian_name_is_another_setting_s_name() -> None:
    """Every setting has a Russian name; no two names (English or Russian, as typed: any case,
    «ё» as «е», "_", "-" or spaces) are alike, so a name never means two settings."""
    keys = [_setting_key(w) for s in SETTINGS.values() for w in (s.name, s.ru_name)]
    assert len(keys) == len(set(keys)) == 2 * len(SETTINGS) == len(SETTING_NAMES)
    for spec in SETTINGS.values():
        assert spec.ru_name and spec.ru_name != spec.name
        assert setting_named(spec.ru_name) is spec and setting_named(spec.name) is spec
        assert setting_named(spec.ru_name.upper().replace("_", " ")) is spec
    assert setting_named("подсчет_очков") is setting_named("Подсчёт очков") is SETTINGS["scoring"]
    assert setting_named("тайм банк") is setting_named("ТАЙМ_БАНК") is SETTINGS["time_bank_seconds"]
    assert leading_setting(["время", "на", "раздачу", "90"]) == (SETTINGS["hand_seconds"], 3)
    assert leading_setting(["взнос", "турнира", "500"]) == (SETTINGS["tournament_buy_in"], 2)
    assert leading_setting(["взнос", "500"]) == (SETTINGS["min_buy_in"], 1)
    assert leading_setting(["нет", "такой"]) == (None, 1)


async def test_a_russian_name_views_changes_and_resets_a_setting() -> None:
    service = _service()
    about = await _say(service, "язык")
    assert about.text.startswith("Язык (language): язык бота здесь"), about.text
    about = await _say(service, "Время_на_раздачу")
    assert about.text.startswith("Время на раздачу (hand_seconds): ")
    assert "/settings время_на_раздачу по умолчанию" not in about.text  # (at its default)
    saved = await _say(service, "время", "на", "раздачу", "90")
    assert saved.text.startswith("Сохранено: время_на_раздачу = 90 (было 120)."), saved.text
    assert "Время на раздачу: 90 с (по умолчанию 120 с)" in (await _say(service)).screen.text  # type: ignore[union-attr]
    about = await _say(service, "время на раздачу")
    assert "/settings время_на_раздачу по умолчанию — вернуть" in about.text, about.text
    back = await _say(service, "ВРЕМЯ_НА_РАЗДАЧУ", "по", "умолчанию")
    assert back.text.startswith("Снова по умолчанию: время_на_раздачу"), back.text
    assert "Время на раздачу: 120 с" in await _listed(service)
    saved = await _say(service, "подсчет", "очков", "two_per_row")  # (е for ё)
    assert saved.text.startswith("Сохранено: подсчёт_очков = two_per_row"), saved.text
    saved = await _say(service, "макс_стек", "1000")
    assert saved.text.startswith("Сохранено: макс_стек = 1000"), saved.text
    assert "Макс. стек (макс_стек): 1000" in await _listed(service)
    # two settings in one command, the second by its Russian name: one at a time
    two = await _say(service, "взнос", "100", "призы", "70,30")
    assert two.alert and "взнос 100" in two.text and "призы 70,30" in two.text, two.text
    assert "Взнос: 200" in await _listed(service)  # (nothing saved)
    # an English reader's group takes them too, and its list stays as it was
    saved = await _say(service, "язык", "en", actor=ALICE)
    assert saved.text.startswith("Saved: language = en"), saved.text
    assert "Time per hand (hand_seconds): 120 s" in await _listed(service, ALICE)


async def test_a_russian_group_is_offered_russian_names() -> None:
    """«Может быть, language?» named the setting in English to a Russian group that had
    typed «язык»; it is offered as the Russian list names it."""
    service = _service()
    reply = await _say(service, "языкк", "en")
    assert reply.text.startswith("Настройки «языкк» нет. Может быть, язык?\n"), reply.text
    reply = await _say(service, "языкк", "en", actor=ALICE)
    assert reply.text.startswith("“языкк” is not a setting. Did you mean language?\n")
    reply = await _say(service, "времяфантазии")
    assert "Может быть, время_фантазии?" in reply.text, reply.text
    reply = await _say(service, "раздачу")  # (a word of a Russian name)
    assert "Может быть, время_на_раздачу?" in reply.text, reply.text


async def test_discord_autocomplete_finds_russian_names() -> None:
    """Discord's name option is offered by the same lookup: «язык» finds ``language``."""
    from bot.discord.adapter import _setting_names

    found = await _setting_names(None, "язык")  # type: ignore[arg-type]
    assert [(c.name, c.value) for c in found] == [("language · язык", "language")]
    found = await _setting_names(None, "врем")  # type: ignore[arg-type]
    assert "hand_seconds" in [c.value for c in found]
    assert [s.name for s in settings_matching("тайм банк")] == ["time_bank_seconds"]


async def test_r7_5_history_says_a_chinese_poker_hand_is_listed_when_its_reveal_ends() -> None:
    """Chinese Poker records a hand when its reveal ends (R4.5, R7.5: a claim may still end
    the game with boxes unshown, :func:`~bot.service.chinese.close_chinese_hand`), as every
    hand already finished is listed. While the first hand was revealed (a pause between
    boxes, or 30 s for a claim), /history answered «Раздач пока нет.»: the players had played
    it. It says the hand is being revealed and is listed when the reveal ends."""
    from tests.bot.test_service import BOB
    from tests.bot.test_service_classic import GROUP as CHINESE_GROUP
    from tests.bot.test_service_classic import auto_street, chinese_hand_arranged

    service, presenter, _store, clock, t = await chinese_hand_arranged(reveal_pause="5")
    assert t.reveal is not None and t.hand_no == 1  # (the bottom boxes shown)
    ru = dataclasses.replace(ALICE, language="ru")
    assert (await service.history(CHINESE_GROUP, ru)).text == (
        "Раздач пока нет.\nСтол #1, раздача 1: идёт вскрытие, в списке она будет после него."
    )
    assert (await service.history(CHINESE_GROUP, ALICE)).text == (
        "No hands yet.\nTable #1, hand 1: being revealed; it is listed when the reveal ends."
    )
    while t.reveal is not None:
        clock.now += 6
        await service.run_due()
    listed = (await service.history(CHINESE_GROUP, ALICE)).text.splitlines()
    assert listed[1].startswith("#1 · Table #1, hand 1: +22 pts"), listed
    assert not any("revealed" in line for line in listed)
    # the next hand, arranged and being revealed: said first, the finished one after it
    clock.now += 6
    await service.run_due()
    assert t.hand is not None and t.reveal is None and t.hand_no == 2
    for who in (ALICE, BOB):
        await auto_street(service, presenter, who)
    assert t.reveal is not None
    listed = (await service.history(CHINESE_GROUP, ALICE)).text.splitlines()
    assert listed[:2] == [
        "Your last hands:",
        "Table #1, hand 2: being revealed; it is listed when the reveal ends.",
    ]
    assert listed[2].startswith("#1 · Table #1, hand 1: +22 pts"), listed
