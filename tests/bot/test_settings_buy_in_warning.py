"""``/settings min_buy_in 5000`` with a starting balance of 1,000 was saved with "Saved" alone:
no new player could ever buy in (R8.2), and the admin was not told. It is still saved (kush
from /daily or a grant can pay it), with a warning line, only when it is true."""

from __future__ import annotations

from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_admin_settings_replies import _now
from tests.bot.test_bots import new_service
from tests.bot.test_service import ALICE, GROUP

WARN_EN = (
    "⚠️ The starting balance (1,000 kush) is below the buy-in (5,000): new players cannot buy in."
)


async def test_a_buy_in_above_the_starting_balance_is_saved_with_a_warning() -> None:
    service, _presenter = new_service(MemoryStore(), Clock())
    reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", "5000"])
    assert not reply.alert, reply.text
    lines = reply.text.splitlines()
    assert lines[0] == tr("en", "reply.settings_saved", what="min_buy_in = 5,000 (was 200)"), lines
    assert lines[1] == WARN_EN, lines
    assert await _now(service, "min_buy_in") == "5,000"

    # a buy-in the starting balance pays: no warning
    reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", "1000"])
    assert "⚠️" not in reply.text and "starting balance" not in reply.text, reply.text
    # the starting balance lowered below it: the same warning
    reply = await service.settings(GROUP, ALICE, True, ["starting_balance", "300"])
    assert not reply.alert, reply.text
    assert (
        "⚠️ The starting balance (300 kush) is below the buy-in (1,000): new players cannot "
        "buy in." in reply.text.splitlines()
    ), reply.text
    # another setting says nothing of it
    reply = await service.settings(GROUP, ALICE, True, ["daily_bonus", "100"])
    assert "⚠️" not in reply.text, reply.text


async def test_the_warning_is_in_the_groups_language() -> None:
    service, _presenter = new_service(MemoryStore(), Clock())
    reply = await service.settings(GROUP, ALICE, True, ["language", "ru"])
    assert not reply.alert, reply.text
    reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", "5000"])
    assert not reply.alert, reply.text
    warning = [line for line in reply.text.splitlines() if line.startswith("⚠️")]
    assert warning == [
        tr("ru", "settings.start_below_buy_in", balance=1000, buy_in=5000, label="kush")
    ], reply.text
    assert warning[0] == (
        "⚠️ Стартовый баланс (1000 кушей) меньше взноса (5000): новые игроки не смогут сесть "
        "за стол."
    )
