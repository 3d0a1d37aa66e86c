"""fix41b: the settings lists show a timer's value with its unit ("30 s", «30 с», a level's
"20 min", «20 мин»), as ``/settings <name>`` said it (R8.5, R8.7)."""

from __future__ import annotations

import random

import pytest

from bot.model import Actor, ChatRef, Reply
from bot.service import TableService
from storage.memory import MemoryStore

GROUP = ChatRef("telegram", "-200", "-200", "Classic")


def _settings_service() -> TableService:
    return TableService(
        MemoryStore(), clock=lambda: 1_000_000.0, rng=random.Random(5), next_hand_delay=0,
        timers=False,
    )  # fmt: skip


async def _say(service: TableService, actor: Actor, *args: str) -> Reply:
    return await service.settings(GROUP, actor, True, list(args))


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r8_5_the_settings_lists_show_timers_with_their_unit(lang: str) -> None:
    """«Тайм-банк: 30 (по умолчанию 60)» and «Закрытие без игры: 1800» said no unit (only
    ``/settings <name>`` did): seconds are "s" / «с», the level length "min" / «мин», in
    ``/settings`` (changed ones, with the default), ``/settings all`` and ``/settings <name>``;
    points, amounts and the game as before."""
    admin = Actor("telegram", "1", "Alice", lang)
    service = _settings_service()
    for name, value in (
        ("game", "chinese"),
        ("time_bank_seconds", "30"),
        ("level_minutes", "20"),
        ("reveal_pause_seconds", "1.5"),
        ("target_points", "30"),
    ):
        assert not (await _say(service, admin, name, value)).alert
    changed = await _say(service, admin)
    every = await _say(service, admin, "all")
    assert changed.screen is not None and every.screen is not None
    one = await _say(service, admin, "time_bank_seconds")
    listed = every.screen.text.splitlines()
    expected = {
        "en": [
            "Game: Chinese Poker (default Pineapple OFC)",
            "Time bank (time_bank_seconds): 30 s (default 60 s)",
            "Points to win (target_points): 30 (default 51)",
            "Reveal pause (reveal_pause_seconds): 1.5 s (default 3 s)",
            "Level length (level_minutes): 20 min (default 5 min)",
        ],
        "ru": [
            "Игра: Китайский покер (по умолчанию Ананас (OFC))",
            "Тайм-банк: 30 с (по умолчанию 60 с)",
            "Очки до победы: 30 (по умолчанию 51)",
            "Пауза вскрытия: 1,5 с (по умолчанию 3 с)",
            "Длина уровня: 20 мин (по умолчанию 5 мин)",
        ],
    }[lang]
    assert changed.screen.text.splitlines()[1:6] == expected
    every_line = {
        "en": [
            "Time per hand (hand_seconds): 120 s",
            "Time bank (time_bank_seconds): 30 s",
            "Time bank refill (time_bank_refill_per_match): 0 s",
            "Points to win (target_points): 30",
            "Reveal pause (reveal_pause_seconds): 1.5 s",
            "Ready timer (ready_seconds): 60 s",
            "Idle close (idle_close_seconds): 1800 s",
            "Buy-in (min_buy_in): 200",
            "Level length (level_minutes): 20 min",
        ],
        "ru": [
            "Время на раздачу: 120 с",
            "Тайм-банк: 30 с",
            "Пополнение банка: 0 с",
            "Очки до победы: 30",
            "Пауза вскрытия: 1,5 с",
            "Таймер готовности: 60 с",
            "Автозакрытие (закрытие_без_игры): 1800 с",
            "Взнос: 200",
            "Длина уровня: 20 мин",
        ],
    }[lang]
    assert [line for line in every_line if line not in listed] == []
    now = {
        "en": "Now: 30 s (default 60 s).",
        "ru": "Сейчас: 30 с (по умолчанию 60 с).",
    }[lang]
    assert one.text.splitlines()[2].endswith(now), one.text
