"""brk60: a break-it round on ``/settings <name> default`` (fixdef37)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.discord.dc_world import ALICE as DC_ALICE
from tests.bot.discord.dc_world import BOB as DC_BOB
from tests.bot.discord.dc_world import world
from tests.bot.test_settings import ALICE, BORIS, new_service, say, stored


async def test_r8_1_a_label_english_readers_see_as_kush_names_what_it_was_when_reset() -> None:
    """R8.1: a group labelled «монеты» (readers of English see "kush") gives its label back
    with ``/settings kush_label default``: the English admin was answered "Back to default:
    kush_label = kush (was kush).", a change that named no change. The label that was
    dropped is named as it was saved; a Russian reader's answer is as before."""
    service, store = new_service()
    assert not (await say(service, "kush_label", "монеты")).alert
    reply = await say(service, "kush_label", "default")
    assert not reply.alert, reply.text
    assert reply.text.splitlines()[0] == "Back to default: kush_label = kush (was монеты).", (
        reply.text
    )
    assert (await stored(store)).kush_label == "kush"
    # typed as the label itself, the same
    assert not (await say(service, "kush_label", "жетоны")).alert
    typed = await say(service, "kush_label", "kush")
    assert typed.text.splitlines()[0] == "Saved: kush_label = kush (was жетоны).", typed.text
    # a Russian reader saw the label itself; a Latin label was never shown as "kush"
    assert not (await say(service, "kush_label", "монеты")).alert
    russian = await say(service, "kush_label", "сброс", actor=BORIS)
    assert russian.text.splitlines()[0] == "Снова по умолчанию: валюта = куш (было монеты).", (
        russian.text
    )
    assert not (await say(service, "kush_label", "жетоны")).alert
    latin = await say(service, "kush_label", "coins", actor=ALICE)
    assert latin.text.splitlines()[0] == "Saved: kush_label = coins (was kush).", latin.text


async def test_r8_1_the_reset_label_is_named_on_discord_too(tmp_path: Path) -> None:
    """The same through the Discord adapter and its ``value`` option."""
    async with world(tmp_path) as w:
        options = {"name": "kush_label", "value": "монеты"}
        reply = await w.slash(DC_BOB, "settings", options, admin=True)
        assert reply["content"].startswith("Сохранено: валюта = монеты (было куш)."), reply
        options = {"name": "kush_label", "value": "reset"}
        reply = await w.slash(DC_ALICE, "settings", options, admin=True)
        assert reply["content"].splitlines()[0] == (
            "Back to default: kush_label = kush (was монеты)."
        ), reply
