"""fix38e, Russian texts a new player read: one word for the group's admins («админ», as most
texts had it, short for a phone; «администратор» in nine), and the answer to a setting
changed while tournaments are open agreeing with their number (R8.7)."""

from __future__ import annotations

from typing import Any

from bot.model import Actor, ChatRef
from bot.texts import TEXTS, tr

HERE = ChatRef("discord", "g1", "c-a", "Poker")
THERE = ChatRef("discord", "g1", "c-b", "Poker")
ANNA = Actor("discord", "11", "Anna", "ru")
BORIS = Actor("discord", "12", "Boris", "ru")


def test_russian_texts_say_admin_one_way() -> None:
    longer = [k for k, v in TEXTS.items() if "дминистратор" in v.get("ru", "")]
    assert longer == []
    assert tr("ru", "reply.admins_only") == "Это могут только админы группы."
    assert tr("ru", "private.admin_cancel", table=3) == "Турнир #3 отменён админом."


async def test_r8_7_a_setting_changed_during_two_tournaments_agrees_with_their_number(
    env: Any,
) -> None:
    """Two tournaments open in one Discord server (two channels): «Турнир #1, #2 идёт с
    настройками, с которыми открыт» read as one; «Турниры #1, #2 идут … открыты», "Tournaments
    #1, #2 keep the settings they opened with"."""
    service, _presenter, _store, _clock = env
    for chat in (HERE, THERE):
        assert not (await service.new_tournament(chat, ANNA, "pineapple")).alert
    ids = [t.id for t in service.tables.values()]
    assert len(ids) == 2
    tables = ", ".join(f"#{n}" for n in sorted(ids))
    reply = await service.settings(HERE, ANNA, True, ["tournament_buy_in", "7"])
    assert not reply.alert, reply.text
    assert reply.text.splitlines()[1] == (
        f"Турниры {tables} идут с настройками, с которыми открыты (на них регистрировались "
        "игроки): новое значение — со следующего /tournament."
    ), reply.text
    english = Actor("discord", "13", "Carl", "en")
    reply = await service.settings(HERE, english, True, ["tournament_buy_in", "8"])
    assert reply.text.splitlines()[1] == (
        f"Tournaments {tables} keep the settings they opened with (their players registered for "
        "them): this one applies from the next /tournament."
    ), reply.text
