"""Computer players (issue 13) hold house kush only and join a Chinese Poker game under way
as a person does: what the fixbot round fixed and checked."""

from __future__ import annotations

import pytest

from bot.model import LiveTable
from bot.service.bots import HOUSE_BUY_INS, HOUSE_REASON
from storage.api import LedgerKind
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm


@pytest.mark.parametrize("min_buy_in", [200, 10])
async def test_addbot_gives_a_computer_player_house_kush_only(min_buy_in: int) -> None:
    """Issue 13: "Computer players play with house kush that never touches a member's balance
    (their own ledger account)". A computer player made by ``/addbot`` was given the
    community's starting balance too (a ``starting`` row of 1,000 next to the house's grant
    of 9,000; at a 10-kush table no grant at all, it played with starting kush the house
    never gave). Now its account holds the house's grant alone: 50 buy-ins, one of them at
    the table."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    if min_buy_in != 200:
        reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", str(min_buy_in)])
        assert not reply.alert, reply.text
    await service.new_table(GROUP, ALICE)
    assert not (await service.add_bot(GROUP, ALICE, True, "easy")).alert
    t = service.table_in(GROUP)
    assert t is not None
    (bot,) = t.seats.values()
    assert bot.stack == min_buy_in
    community = await store.community("telegram", "-100")
    player = await store.get_player(bot.player_id)
    assert player is not None and player.balance == (HOUSE_BUY_INS - 1) * min_buy_in
    rows = [
        (e.kind, e.balance_delta, e.stack_delta, e.actor, e.reason)
        for e in await store.ledger(community.id)
        if e.player_id == bot.player_id
    ]
    assert rows == [
        (LedgerKind.ADMIN_GRANT, HOUSE_BUY_INS * min_buy_in, 0, "house", HOUSE_REASON),
        (LedgerKind.BUY_IN, -min_buy_in, min_buy_in, None, None),
    ]
    assert await check_store(store) == []


async def _chinese_game_with_a_latecomer(bot: bool) -> LiveTable:
    """Alice and 🤖 Anna play the first hand of a Chinese Poker game to 51 (R7.1); between
    hands a third player sits down (🤖 Boris by ``/addbot`` if ``bot``, else Bob by Join and
    Ready) and the second hand is played to its end. Returns the table."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.settings(GROUP, ALICE, True, ["game", "chinese"])
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    people = {ALICE.user_id: ALICE, BOB.user_id: BOB}
    for number, step in ((1, 0), (2, 1)):
        if step:
            assert t.hand is None and t.chinese is not None and not t.chinese.over
            if bot:
                assert not (await service.add_bot(GROUP, ALICE, True, "easy")).alert
            else:
                assert not (await service.join(GROUP, BOB)).alert
                assert not (await service.ready(GROUP, BOB)).alert
        for _ in range(100):
            if t.hand_no == number and t.hand is None and t.reveal is None:
                break
            hand = t.hand
            if hand is not None and t.reveal is None and hand.to_act:
                seat = t.seats[t.owner(hand.to_act[0])]
                if not seat.bot:
                    await press_auto_and_confirm(service, presenter, people[seat.user_id])
                    continue
            clock.now = t.bot_due if t.bot_due is not None else clock.now + 4
            await service.run_due()
        assert t.hand_no == number and t.hand is None and t.reveal is None
    assert await check_store(store) == []
    return t


async def test_r7_a_computer_player_seated_mid_chinese_game_joins_it_as_a_person_does() -> None:
    """Reported: a computer player seated during a Chinese Poker game to 51 joins it on 0
    points. So does a person (docs/playing.md: "A player who sits down during a game starts
    it at 0 ... each pair settles only the hands both played"), by one rule,
    :meth:`game.chinese.ChineseGame.apply` (its ``joined``): the points the others had when
    it came are left out of its pairs (R7.6). The same deal gives the latecomer the same
    game whether it is 🤖 Boris or Bob."""
    by_bot = await _chinese_game_with_a_latecomer(bot=True)
    by_person = await _chinese_game_with_a_latecomer(bot=False)
    game = by_bot.chinese
    assert game is not None and game.hands == 2 and not game.over
    assert by_bot.seats[2].bot and not by_person.seats[2].bot
    assert game == by_person.chinese  # the same points, the same record of the latecomer
    before = game.joined[2]  # the others' points when it came: the first hand's
    assert set(before) == {0, 1} and set(game.joined) == {2}
    for a, b, points in game.pairs([0, 1, 2]):
        if 2 in (a, b):  # its pairs count the second hand only
            other = a if b == 2 else b
            mine, theirs = game.totals[2], game.totals[other] - before[other]
            assert points == (mine - theirs if a == 2 else theirs - mine)
