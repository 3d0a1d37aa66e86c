"""A name with nothing visible in it: Telegram users call themselves "ㅤ" (a Hangul filler),
a zero-width space or a blank Braille pattern to look nameless. The table showed "1.  — ready
✅ 200", the showdown "  +6", and no one could tell the player apart, nor name them to
``/stats`` or ``/grant``. Such a name is read as none: the Telegram username stands for it,
or the user id, as for an empty name (Discord: the account name)."""

from __future__ import annotations

import pytest
from telegram import User

from bot.discord.adapter import actor_of
from bot.names import clean_name
from bot.telegram.adapter import _actor

BLANKS = ["\u3164", "\u200b", "\u2800", "\u115f\u1160", "\u3164 \u200b\ufe0f", "\uffa0"]


@pytest.mark.parametrize("blank", BLANKS)
def test_a_name_with_nothing_visible_is_the_fallback(blank: str) -> None:
    assert clean_name(blank) == "?"
    assert clean_name(blank, fallback="42") == "42"


@pytest.mark.parametrize("name", ["\u3164Anna", "Анна\u200d", "🃏", "A\u0301"])
def test_a_name_with_something_visible_is_kept(name: str) -> None:
    assert clean_name(name) == name


def test_a_telegram_user_named_with_a_blank_goes_by_the_username_or_the_id() -> None:
    with_username = User(id=501, first_name="\u3164", is_bot=False, username="anna_k")
    assert _actor(with_username).name == "anna_k"
    without = User(id=502, first_name="\u3164", last_name="\u200b", is_bot=False)
    assert _actor(without).name == "502"
    named = User(id=503, first_name="Anna", last_name="\u3164", is_bot=False, username="a")
    assert _actor(named).name == "Anna \u3164".strip()


class _Locale:
    value = "en-US"


class _DiscordUser:
    id = 7
    name = "anna.k"
    display_name = "\u3164"


class _Interaction:
    user = _DiscordUser()
    locale = _Locale()


def test_a_discord_member_shown_as_a_blank_goes_by_the_account_name() -> None:
    assert actor_of(_Interaction()).name == "anna.k"  # type: ignore[arg-type]
