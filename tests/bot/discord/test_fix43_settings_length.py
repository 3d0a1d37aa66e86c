"""fix43: the admin settings list with every setting changed and waiting (R6.6, R8.2).

With a match under way, each rule option saved then said " (in play: 120 s till the match
ends)" after its value; with every setting changed the English full list on Discord came to
some 2,020 characters, and Discord's presenter cut it at 2,000 (:func:`content_of`): the
footer and the game of new tables were lost. The list now says " (in play: 120 s)" and,
once, a line saying till when; a title that reads as the name typed ("Kush per point",
``/settings kush per point 5``) is no longer followed by the name in parentheses (the
Russian list did so already). Telegram's 4,096 is checked too."""

from __future__ import annotations

import random

import pytest

from bot.discord.components import MAX_CONTENT, content_of, discord_commands
from bot.model import Actor, ChatRef
from bot.service import SETTINGS, TableService
from bot.service.settings import _short
from bot.texts import tr
from game.options import GameKind
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter

#: Telegram's limit of a message's text
TELEGRAM_MAX = 4096

#: a long value of every setting other than its default (and another game's: the table's
#: game differs from the one saved for new tables, which the list says on a line of its own)
LONG = {
    "kush_label": "золотнички",
    "utc_offset": "-9:45",
    "pictures": "off",
    "min_buy_in": "1000000000000",
    "max_buy_in": "1000000000000",
    "starting_balance": "1000000000000",
    "daily_bonus": "1000000000000",
    "hand_seconds": "3570",
    "time_bank_seconds": "3570",
    "time_bank_refill_per_match": "3585",
    "fantasyland_seconds": "3570",
    "kush_per_point": "999999",
    "scoring": "one_six",
    "fantasyland": "off",
    "progressive_fantasyland": "on",
    "stay_on_full_house_middle": "off",
    "button_moves_in_fantasyland": "off",
    "simultaneous_streets": "on",
    "safe_autoplay": "on",
    "settle_per_round": "on",
    "deuce_of_spades": "on",
    "dummy_box": "on",
    "heads_up_double_boxes": "on",
    "target_points": "9990",
    "reveal_pause_seconds": "59",
    "ready_seconds": "585",
    "idle_close_seconds": "604500",
    "tournament_buy_in": "1000000000000",
    "tournament_chips": "999500",
    "level_minutes": "239",
    "payouts": ",".join(["4"] * 22 + ["2"] * 6),
    "chips_schedule": ",".join(str(100_000 + i) for i in range(17)),
}


@pytest.mark.parametrize("platform", ["discord", "telegram"])
async def test_every_setting_changed_and_waiting_is_listed_whole(platform: str) -> None:
    """A Classic OFC table in a hand; every setting saved at a long value then (the rule
    options wait for the match's end, the buy-in for the hand's), and the game of new tables
    set to Pineapple: the full list, in English and Russian, keeps every line and its
    footer within the platform's limit (Discord: after the commands are renamed)."""
    group = ChatRef(platform, "-100", "-100", "Friends")
    alice = Actor(platform, "1", "Alice", "en")
    boris = Actor(platform, "2", "Boris", "ru")
    service = TableService(
        MemoryStore(), clock=lambda: 1_000_000.0, rng=random.Random(5), next_hand_delay=0,
        timers=False,
    )  # fmt: skip
    service.register(FakePresenter())
    assert not (await service.settings(group, alice, True, ["game", "ofc"])).alert
    await service.new_table(group, alice)
    for actor in (alice, boris):
        assert not (await service.join(group, actor)).alert
        assert not (await service.ready(group, actor)).alert
    table = service.table_in(group)
    assert table is not None and table.hand is not None
    assert set(LONG) == set(SETTINGS) - {"game", "language"}
    for name, value in LONG.items():
        reply = await service.settings(group, alice, True, [name, value])
        assert not reply.alert, (name, reply.text)
    assert not (await service.settings(group, alice, True, ["game", "pineapple"])).alert
    assert table.pending_options is not None and table.pending_buy_in is not None
    limit = MAX_CONTENT if platform == "discord" else TELEGRAM_MAX
    for lang, actor, words in (
        ("en", alice, ["all"]),
        ("ru", boris, ["all"]),
        # the short list: each line with its default made it the longer (some 2,060
        # characters): the whole list is shown instead
        ("en", alice, []),
        ("ru", boris, []),
    ):
        screen = (await service.settings(group, actor, True, words)).screen
        assert screen is not None
        text = screen.text
        shown = content_of(text) if platform == "discord" else text
        if platform == "discord":
            assert shown == discord_commands(text), shown[-200:]  # nothing cut
        assert len(shown) <= limit, (lang, len(shown))
        lines = text.split("\n")
        for spec in SETTINGS.values():
            if spec.applies_to(GameKind.OFC) and spec.name != "game":
                assert any(line.startswith(_short(spec, lang)) for line in lines), spec.name
        # 15 lines wait for the match's end, the buy-in for the hand's
        brief = tr(lang, "settings.in_force_brief", value="")[:-1]
        assert sum(brief in line for line in lines) == 16, "\n".join(lines)
        assert tr(lang, "settings.in_force_hand", value="200") in text
        assert tr(lang, "settings.in_force_legend") in lines
        footer = tr(lang, "settings.footer", game=tr(lang, "game.ofc"))
        assert footer in lines
        assert lines[-1].startswith(tr(lang, "settings.game_apart", value="", table="")[:12])
        if lang == "en":
            assert "Kush per point: 999,999 (in play: 1)" in lines, lines
            assert "Fantasyland: off (in play: on)" in lines, lines
            assert "Time per hand (hand_seconds): 3570 s (in play: 120 s)" in lines, lines
