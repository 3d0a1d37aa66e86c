"""Small player-facing fixes found by new-user runs: what ``/closetable`` says of the
stacks (R8.2a), ..."""

from __future__ import annotations

from bot.model import Actor
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_service_classic import ALICE, BOB, GROUP, play_hand, start
from tests.bot.test_transitions import player_balance_in

OLGA = Actor("telegram", "5", "Olga", "ru")


async def test_r8_2a_closetable_says_the_stacks_went_back_to_the_balances() -> None:
    """``/closetable`` with two players bought in: the admin is told the table is closed
    and the stacks are back in the balances (in the admin's language); the table message
    keeps the shared "is closed." that stale presses are answered with."""
    service, presenter, store, _ = service_env(next_hand_delay=5)
    await start(service, [ALICE, BOB], "ofc")
    await play_hand(service, presenter, [ALICE, BOB])
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None and alice.stack > 0
    before = await player_balance_in(store, GROUP, ALICE)
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == "Table #1 is closed; the stacks are back in the players' balances."
    assert reply.text == tr("en", "reply.table_closed_cashed", table=1)
    assert presenter.last_table(GROUP.chat_id).text == "Table #1 is closed."
    assert await player_balance_in(store, GROUP, ALICE) == before + alice.stack
    assert await check_store(store) == []


async def test_r8_2a_closetable_in_russian_says_the_stacks_went_back() -> None:
    service, presenter, _, _ = service_env(next_hand_delay=5)
    await start(service, [ALICE, BOB], "ofc")
    await play_hand(service, presenter, [ALICE, BOB])
    reply = await service.close_table(GROUP, OLGA, True)
    assert reply.text == "Стол #1 закрыт, стеки вернулись на балансы игроков."


async def test_r8_2a_closetable_with_no_stack_at_the_table_names_none() -> None:
    """Nobody bought in (an empty table, or a player seated without Ready): no stack went
    anywhere, and the answer says only that the table is closed."""
    service, _, _, _ = service_env()
    assert "open" in (await service.new_table(GROUP, ALICE, "ofc")).text
    assert not (await service.join(GROUP, BOB)).alert
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == "Table #1 is closed."
