"""Attacks on computer players and tournaments (the third break-it session): a hostile or
unlucky user meets a wrong answer, a leak, a hang or kush moved wrongly. In-memory store, a
hand-moved clock, timers fired by ``run_due``; every scenario ends with the ledger checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.model import Actor
from bot.service import bots
from bot.texts import tr
from game.board import Box
from game.cards import Card
from game.hand import Hand
from game.policy import Level, SeatKnowledge
from storage.check import check_database, check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.discord.dc_world import ALICE as DC_ALICE
from tests.bot.discord.dc_world import world as dc_world
from tests.bot.test_bots import alice_and_a_bot, play_hand_with_bots
from tests.bot.test_bots import new_service as new_bot_service
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, leave_now, press_auto_and_confirm
from tests.bot.test_tournament_service import configure as configure_tournament
from tests.bot.test_tournament_service import new_service as new_tournament_service
from tests.bot.test_tournament_service import two_started

DAN = Actor("telegram", "4", "Dan", "en")
DAVE = Actor("telegram", "5", "Dave", "en")


async def test_r8_7_a_player_knocked_out_is_told_place_and_prize_after_the_hand_ends() -> None:
    """Carol leaves a four-player tournament (50/30/20) during its first hand: knocked out in
    place 3, her prize of 80 kush paid when it ends (R8.7). While the hand ran /balance said
    so; once the hand ended (she is stood up then) it said "0 at the table", the prize
    forgotten, and her /leave answered "You are not registered"."""
    service, presenter, store, clock = new_tournament_service(next_hand_delay=4)
    await configure_tournament(
        service, tournament_buy_in="100", tournament_chips="1000", payouts="50,30,20"
    )
    await service.new_tournament(GROUP, ALICE, "ofc")
    by_id = {a.user_id: a for a in (ALICE, BOB, CAROL, DAN)}
    for a in by_id.values():
        await service.join(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    await leave_now(service, GROUP, BOB)  # place 4
    await leave_now(service, GROUP, CAROL)  # place 3
    while t.hand is not None and t.hand_no == 1:
        seat = t.seats[t.owner(t.hand.to_act[0])]
        if seat.user_id in (BOB.user_id, CAROL.user_id):
            clock.now += 1000  # their moves are made for them (R8.5)
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, by_id[seat.user_id])
    assert t.seat_of(CAROL.user_id) is None and t.tournament.finished is None
    prize = tr("en", "reply.balance_tour_prize", prize=80, label="kush")
    assert (await service.balance(GROUP, CAROL)).text == tr(
        "en", "reply.balance_tour_out", name="Carol", balance=900, label="kush", table=t.id,
        place=3, prize=prize,
    )  # fmt: skip
    reply = await service.leave(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "tour.already_out")
    reply = await service.leave(GROUP, DAVE)  # never registered
    assert reply.alert and reply.text == tr("en", "tour.not_registered")
    assert await check_store(store) == []


async def test_r8_7_a_chinese_tournament_hand_before_its_game_ends_is_a_tournament_hand() -> None:
    """A Chinese Poker tournament settles chips at the end of each game to the target (R8.7,
    R7.6). /history listed the hands before that as a cash table's, "Table 1, hand 1: +6 pts,
    0 kush", as if kush had been at stake; it is the tournament's hand that moved no chips
    yet."""
    service, presenter, store, clock = new_tournament_service(next_hand_delay=4)
    await configure_tournament(service, game="chinese", target_points="51")
    t = await two_started(service, presenter, "chinese")
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    while t.hand is not None and t.hand.to_act:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    while t.hand_no == 1 and (t.hand is not None or t.reveal is not None):
        clock.now += 5  # the reveal, box by box (R4.5)
        await service.run_due()
    records = await store.export_hands(t.id)
    assert len(records) == 1 and t.chinese is not None and not t.chinese.over
    hand_id = (await service.history(GROUP, ALICE)).text.splitlines()[1].split(" ")[0]
    points = int(records[0]["result"]["counted"]["0"])
    assert (await service.history(GROUP, ALICE)).text.splitlines()[1] == hand_id + " · " + tr(
        "en", "tour.history_hand_line", table=t.id, hand=1, points=points, chips=0, foul=""
    )
    assert await check_store(store) == []


async def test_discord_removebot_stands_up_the_one_named(tmp_path: Path) -> None:
    """``/ofc removebot`` took no name on Discord: with Anna and Boris seated there was no way
    to stand Anna up (Telegram's ``/removebot Anna`` does, and the refusal of a wrong name
    says "Usage: /ofc removebot [name]"). It takes the name now, and without one still
    stands one up."""
    async with dc_world(tmp_path, bot_pace=(0.05, 0.15)) as w:
        await w.slash(DC_ALICE, "new")
        for level in ("easy", "strong"):
            await w.slash(DC_ALICE, "addbot", {"level": level})
        t = w.table()
        assert [s.name for s in t.seats.values()] == ["🤖 Anna", "🤖 Boris"]
        reply = await w.slash(DC_ALICE, "removebot", {"name": "Zed"})
        assert reply["content"] == (
            "No computer player “Zed” is seated. Seated: 🤖 Anna, 🤖 Boris. "
            "Usage: /ofc removebot [name]"
        ), reply
        reply = await w.slash(DC_ALICE, "removebot", {"name": "anna"})
        assert reply["content"] == tr("en", "bot.removed", name="🤖 Anna"), reply
        assert [s.name for s in t.seats.values()] == ["🤖 Boris"]
        reply = await w.slash(DC_ALICE, "removebot")
        assert reply["content"] == tr("en", "bot.removed", name="🤖 Boris"), reply
        assert t.seats == {}
    assert await check_database(tmp_path / "ofc.sqlite3") == []


async def test_stats_of_a_computer_player_by_the_name_the_table_shows() -> None:
    """Alice plays a hand against 🤖 Anna and asks ``/stats Anna`` (the name ``/removebot
    Anna`` takes): it answered "No such player here: Anna" while Anna sat at the table."""
    service, presenter, store, clock = await alice_and_a_bot("easy")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    expected = (await service.stats(GROUP, ALICE, ["🤖 Anna"])).text
    assert expected.startswith(tr("en", "stats.title", name="🤖 Anna", when=tr("en", "period.all")))
    for name in ("Anna", "anna", "🤖 anna"):
        reply = await service.stats(GROUP, ALICE, [name])
        assert not reply.alert and reply.text == expected, name
    reply = await service.stats(GROUP, ALICE, ["Zed"])
    assert reply.alert and reply.text == (
        tr("en", "reply.unknown_player", name="Zed") + "\n" + tr("en", "stats.unknown_or_period")
    )
    assert await check_store(store) == []


def _raise(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
    raise RuntimeError("the decision process failed")


@pytest.mark.parametrize("failure", ["raises", "refused"])
async def test_r8_5_r8_6_a_computer_player_that_cannot_decide_plays_on(
    monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    """The computer player's decision fails (``raises``: the decision process, asked again,
    fails too; ``refused``: the core refuses the placement). Raising held the hand for good:
    the timer retried the same failing move every 5 s, the bot's clock never ran out, and
    Alice's /leave waited for a hand that never ended. Refused, its street was made by the
    timeout rule (R8.5), but that sat it out after the match (R8.6), as an absent person:
    nothing brings a computer player back, and Alice, ready, waited in the lobby for good.
    Now either way its street is made by the timeout rule, the hand ends and the next one
    is dealt to both."""
    monkeypatch.setattr(bots, "decide", _raise if failure == "raises" else lambda k, lvl: [])
    service, presenter, store, clock = await alice_and_a_bot("easy")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    for _ in range(30):
        if t.hand is None:
            break
        if any(not t.seats[t.owner(s)].bot for s in t.hand.to_act):
            await press_auto_and_confirm(service, presenter, ALICE)
        else:
            clock.now += 3
            await service.run_due()
    assert t.hand is None and t.hand_no == 1
    anna = next(s for s in t.seats.values() if s.bot)
    assert not anna.sitting_out and t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and sorted(t.hand.order) == sorted(t.seats)
    assert await check_store(store) == []


def _strategy_fails(hand: Hand, seat: int, lookahead: int | None = None) -> list[object]:
    raise RuntimeError("the strategy failed")


async def test_r8_5_a_failing_safe_autoplay_does_not_stall_a_computer_players_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``safe_autoplay`` on: the computer player's decision fails, so its street is made by
    the timeout rule (R8.5), and the timeout's own placement by the strategy fails too (a
    bug in it). That held the hand for good: the timer retried the same failing timeout
    every 5 s, the bot never moved, and Alice's /leave waited for a hand that never ended.
    Now the timeout falls back to the plain rule (cards in the order received to bottom,
    then middle, then top): the street is placed, the hand ends and the next is dealt."""
    monkeypatch.setattr(bots, "decide", _raise)
    monkeypatch.setattr(Hand, "suggest", _strategy_fails)
    store, clock = MemoryStore(), Clock()
    service, presenter = new_bot_service(store, clock, False)
    reply = await service.settings(GROUP, ALICE, True, ["safe_autoplay", "on"])
    assert not reply.alert, reply.text
    await service.new_table(GROUP, ALICE)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.options.safe_autoplay
    anna = next(s for s in t.seats.values() if s.bot)
    first: tuple[Card, ...] | None = None
    for _ in range(30):
        if t.hand is None:
            break
        if any(not t.seats[t.owner(s)].bot for s in t.hand.to_act):
            await press_auto_and_confirm(service, presenter, ALICE)
        else:
            if first is None:
                first = t.hand.current_cards(anna.seat)
            clock.now += 3
            await service.run_due()
            if first is not None and t.hand is not None and t.hand.street_of(anna.seat) == 2:
                assert t.hand.board_of(anna.seat).bottom == first  # the plain rule (R8.5)
    assert first is not None and len(first) == 5
    assert t.hand is None and t.hand_no == 1
    assert t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and sorted(t.hand.order) == sorted(t.seats)
    assert await check_store(store) == []
