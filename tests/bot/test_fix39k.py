"""fix39k: three small fixes.

1. Chinese Poker (R7.6, R7.7): a player an admin's ``/kick`` stood up during a hand (or its
   reveal) was told, pressing Join, "you can join again after this hand", and in private
   "you leave when this hand ends": they stand up when the game to the target ends. Now
   both say so.
2. The cluster router answered a webhook request with the right secret token but not sent
   as ``application/json`` with 403, as if the secret were wrong. Now 415, its own warning
   line; a wrong or missing secret stays a 403.
3. The group line when several players act at once read "▶ Ход ⏱ Анна 5:00 · Игрок 7:30"
   in Russian; now "▶ Ходят ⏱ …" (the single player's line stays "▶ Ход: Анна · ⏱ 5:00").
"""

from __future__ import annotations

import logging

import aiohttp
import pytest

from bot.service import TableService
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_cluster import SECRET_OK, UPDATE, _router
from tests.bot.test_service_classic import ALICE, BOB, GROUP, auto_street, configure, start


async def _chinese_kick(service: TableService, presenter: FakePresenter, when: str) -> list[str]:
    """A two-player Chinese Poker game to 51: Bob kicked mid-hand (``hand``) or during the
    reveal (``reveal``). Returns what Bob was told in private then (his screens aside)."""
    await configure(service, game="chinese", reveal_pause_seconds="5")
    await start(service, [ALICE, BOB], "chinese")
    if when == "reveal":
        await auto_street(service, presenter, BOB)
        await auto_street(service, presenter, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and (t.reveal is not None) == (when == "reveal")
    before = len(presenter.privates.get(BOB.user_id, []))
    assert not (await service.kick(GROUP, ALICE, True, "Bob")).alert
    await service.rt.settled(t)
    return [s.text for s in presenter.privates.get(BOB.user_id, [])[before:]]


@pytest.mark.parametrize("when", ["hand", "reveal"])
async def test_r7_6_a_chinese_player_kicked_is_told_they_leave_when_the_game_ends(
    when: str,
) -> None:
    """Bob kicked (mid-hand, or during the reveal): his private notice and his refused Join
    say the game to 51 ends first, not "this hand"; he stands up as it ends."""
    service, presenter, _store, clock = service_env()
    try:
        told = await _chinese_kick(service, presenter, when)
        t = service.table_in(GROUP)
        assert t is not None
        told = [s for s in told if "admin" in s]
        assert told == [
            f"An admin stood you up at table #{t.id}: you leave when the game to 51 ends, "
            "settled for everyone; your stack back to your balance then."
        ]
        reply = await service.join(GROUP, BOB)
        assert reply.alert
        assert reply.text == "An admin stood you up: you can join again when the game to 51 ends."
        seat = t.seat_of(BOB.user_id)
        assert seat is not None and seat.leaving and seat.kicked
        if when == "hand":
            await auto_street(service, presenter, ALICE)
        for _ in range(6):
            clock.now += 60
            await service.run_due()
        assert t.seat_of(BOB.user_id) is None and t.chinese is None
    finally:
        await service.stop()


def test_the_chinese_kick_texts_in_russian() -> None:
    assert tr("ru", "reply.join_kicked_chinese", target=51) == (
        "По решению админа вы встаёте из-за стола: сесть снова можно, когда закончится игра "
        "до 51 очка."
    )
    assert tr("ru", "private.kicked_later_chinese", table=7, target=51) == (
        "По решению админа вы встанете из-за стола #7, когда закончится игра до 51 очка с "
        "расчётом для всех; тогда же стек вернётся на баланс."
    )


async def test_the_router_answers_a_webhook_request_not_json_with_the_secret_415(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The right secret token, a text/plain body: 415 and a warning naming the content type
    (not "403 ... not JSON"); another secret token, whatever the body: 403, its own line."""
    caplog.set_level(logging.WARNING, logger="bot.cluster")
    async with _router(MemoryStore()) as (_, url, _fake), aiohttp.ClientSession() as http:
        plain = {**SECRET_OK, "Content-Type": "text/plain"}
        wrong = {"X-Telegram-Bot-Api-Secret-Token": "wrong", "Content-Type": "text/plain"}
        for headers, status in [(plain, 415), (plain, 415), (wrong, 403)]:
            async with http.post(url, data=UPDATE, headers=headers) as resp:
                assert resp.status == status, headers
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.cluster"]
    refused = [line for line in lines if "refused a webhook request" in line]
    assert len(refused) == 2, lines  # (one a minute a kind: the second 415 is not logged)
    assert "(415): its Content-Type is text/plain, not application/json" in refused[0]
    assert "(403): with another secret token" in refused[1]


def test_the_russian_line_of_several_players_to_act_reads_naturally() -> None:
    assert tr("ru", "board.turns", turns="Анна 5:00 · Игрок 7:30") == (
        "▶ Ходят ⏱ Анна 5:00 · Игрок 7:30"
    )
    assert tr("en", "board.turns", turns="Anna 5:00 · Bob 7:30") == (
        "▶ To act ⏱ Anna 5:00 · Bob 7:30"
    )
