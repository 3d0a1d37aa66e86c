"""A new group admin's walk through the sandbox (nu48): /help named ``/settings`` and
``/grant`` without saying what they do, and four settings' explanations repeated their own
title or used a word the admin was never told ("match")."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.sandbox import Sandbox, SandboxOptions
from bot.service.settings import SETTINGS
from bot.texts import tr


async def _said(tmp_path: Path, *lines: str) -> list[str]:
    """What the sandbox prints for ``lines`` typed after its start."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0, bots=0), out)
    try:
        await box.start()
        before = len(out.getvalue().splitlines())
        for line in lines:
            assert await box.handle(line)
        return out.getvalue().splitlines()[before:]
    finally:
        await box.stop()


async def test_help_says_what_the_admin_commands_do(tmp_path: Path) -> None:
    """ "Admins: /settings, /grant @user N, /closetable — close the table …" said what only
    the last one does: an admin looking for how to set the stakes was not told it is
    /settings. Each now has its line, in both languages."""
    english = await _said(tmp_path, "/settings language en", "/help")
    assert (
        "  Admins: /settings — the buy-in, the point's price, timers, language "
        "(/settings all lists them, /settings <name> explains one)"
    ) in english, english
    assert "  /grant @user N — add to a balance (a negative N takes)" in english, english
    assert any(
        x.startswith("  /closetable — close the table (asked mid-hand: when the hand ends")
        for x in english
    )
    russian = await _said(tmp_path, "/settings language ru", "/help")
    assert (
        "  Админы: /settings — взнос, цена очка, таймеры, язык (/settings all — все "
        "настройки, /settings <имя> — описание одной)"
    ) in russian, russian
    assert "  /grant @игрок N — пополнить баланс (отрицательное N — списать)" in russian
    assert any(
        x.startswith("  /closetable — закрыть стол (посреди раздачи — в конце раздачи")
        for x in russian
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_discord_help_says_what_the_admin_commands_do(lang: str) -> None:
    lines = tr(lang, "help.discord").split("\n")
    settings = {"en": "the buy-in, the point's price", "ru": "взнос, цена очка"}[lang]
    assert any("/ofcadmin settings — " + settings in x for x in lines), lines
    assert any(x.startswith("/ofcadmin grant user amount — ") for x in lines), lines
    assert any(x.startswith("/ofcadmin close — ") for x in lines), lines


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_setting_explains_itself_by_its_own_title(lang: str) -> None:
    """ "Ready timer (ready_seconds): the ready timer: …", «Взнос турнира (tournament_buy_in):
    взнос турнира: …»: the explanation began with the title it follows."""
    for spec in SETTINGS.values():
        title = tr(lang, f"settings.name.{spec.name}").lower()
        explained = (spec.en if lang == "en" else spec.ru).lower().replace("'s ", " ")
        said = explained.removeprefix("the ").removeprefix("a ")
        assert not said.startswith(title + ":"), (
            spec.name,
            explained,
        )


async def test_the_timer_settings_say_what_they_count(tmp_path: Path) -> None:
    """What ``/settings <name>`` answers for the settings an admin asked about."""
    english = await _said(
        tmp_path,
        "/settings language en",
        "/settings ready_seconds",
        "/settings time_bank_refill_per_match",
        "/settings time_bank_seconds",
        "/settings tournament_buy_in",
    )
    assert (
        "» Ready timer (ready_seconds): once two players are ready, the others have this long "
        "to press Ready; then the unready are stood up and the hand starts."
    ) in english, english
    assert (
        "» Time bank refill (time_bank_refill_per_match): time bank seconds given back after "
        "every hand (after the Fantasyland hands it earns, if any), up to time_bank_seconds."
    ) in english, english
    assert (
        "» Time bank (time_bank_seconds): extra time that runs once a player's hand_seconds are "
        "spent; what is used stays used at this table (time_bank_refill_per_match gives some "
        "back)."
    ) in english, english
    assert (
        "» Tournament buy-in (tournament_buy_in): the kush each player pays to register, into "
        "the prize pool."
    ) in english, english
    russian = await _said(
        tmp_path,
        "/settings language ru",
        "/settings ready_seconds",
        "/settings time_bank_refill_per_match",
        "/settings tournament_buy_in",
    )
    assert (
        "» Таймер готовности (ready_seconds): когда готовы двое, у остальных есть столько "
        "времени, чтобы нажать «Готов»; потом неготовые встают и раздача начинается."
    ) in russian, russian
    assert not any("матч" in x for x in russian), russian
    assert (
        "» Взнос турнира (tournament_buy_in): сколько кушей каждый игрок платит при "
        "регистрации; они идут в призовой фонд."
    ) in russian, russian


async def test_the_words_of_the_list_find_their_settings(tmp_path: Path) -> None:
    """The list shows «Таймер готовности (ready_seconds)» and «Взнос турнира
    (tournament_buy_in)»: "/settings таймер" offered hand_seconds or time_bank_seconds, and
    "/settings взнос" min_buy_in or max_buy_in, neither the setting the admin had read
    («взнос» alone is min_buy_in's Russian name now; «взносы» offers both buy-ins)."""
    russian = await _said(tmp_path, "/settings language ru", "/settings таймер", "/settings взносы")
    assert (
        "» Настройки «таймер» нет. Может быть, время_на_раздачу, тайм-банк или таймер_готовности?"
    ) in russian, russian
    assert "» Настройки «взносы» нет. Может быть, взнос или взнос_турнира?" in russian
    english = await _said(tmp_path, "/settings language en", "/settings timer")
    assert (
        "» “timer” is not a setting. Did you mean hand_seconds, time_bank_seconds or ready_seconds?"
    ) in english, english


def test_the_command_menus_say_what_settings_sets() -> None:
    """Telegram's menu read "/settings — admins: settings", Discord's "Admins: this server's
    settings": an admin looking for the stakes learnt nothing from either."""
    from bot.discord.adapter import OfcAdminCommands
    from bot.telegram.adapter import COMMANDS
    from bot.texts import DISCORD_DESCRIPTIONS_RU

    by_name = {name: (en, ru) for name, en, ru in COMMANDS}
    assert by_name["settings"] == (
        "admins: buy-in, point price, timers, language",
        "админам: взнос, цена очка, таймеры, язык",
    )
    described = OfcAdminCommands.settings.description
    assert described == "Admins: buy-in, point price, timers, language"
    assert DISCORD_DESCRIPTIONS_RU[described] == ("Админам: взнос, цена очка, таймеры, язык")
