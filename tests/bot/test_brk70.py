"""brk70: attacks on the changes merged on day 39 (fix39g–fix39k): amounts typed back grouped,
/kick and Join, Discord's answer turns, Arrange afresh, the /replay cache."""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path

import pytest

from bot.discord.presenter import AnswerTurn
from bot.model import Actor, ChatRef
from bot.presses import ReplayStep, encode
from bot.service import TableService
from bot.service.numbers import digits_hint, fraction_typed, read_whole
from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_fix38f_kick_notice import _seated
from tests.bot.test_fix39h_kick import _play_on
from tests.bot.test_service import ALICE as KALICE
from tests.bot.test_service import BOB as KBOB
from tests.bot.test_service import GROUP as KGROUP
from tests.bot.test_service import leave_now
from tests.bot.test_stats_service import (
    CAROL,
    GROUP,
    LOSER_DISCARDS,
    WINNER_DISCARDS,
    _table,
    env,
    play_scripted,
)
from tests.bot.test_transitions import new_service, restart
from tests.bot.tg_world import ALICE, GROUP_ID, world

__all__ = ["env"]  # (the fixture, imported for these tests)


def _dm(actor: Actor) -> ChatRef:
    return ChatRef("telegram", actor.user_id, actor.user_id, "", private=True)


BOB = FakeUser(402, "Bob", None, "en")

# (what the admin types after "/grant Bob", the kush Bob's balance moves by; None: refused)
GRANTS: list[tuple[str, int | None]] = [
    ("5\u00a0000", 5000),  # no-break space (Russian amounts as the bot writes them)
    ("5\u202f000", 5000),  # narrow no-break space
    ("5\u2009000", 5000),  # thin space
    ("+5,000", 5000),
    ("\u22125 000", -5000),  # a typographic minus, grouped
    ("-5 000", -5000),
    ("1,000.5", None),  # mixed: English thousands with a fraction
    ("1 000,5", None),  # Russian thousands with a decimal comma
    ("1,000 000", None),  # two marks
    ("1 00 000", None),  # a group of two
    ("0 500", None),  # a leading zero group
    ("--5", None),
    ("5 000 more", None),
    ("1.000", None),  # grouped by points
    ("9223372036854775808", None),  # past the database's integer
    ("1 000 000 000 000 000 000 000", None),
    ("-9 223 372 036 854 775 809", None),
    ("1,000,000,000,001", None),  # one past the limit of a grant
    ("0", None),
    ("-0 000", None),
]


@pytest.mark.parametrize(("typed", "moved"), GRANTS)
async def test_grant_amounts_typed_oddly_move_exactly_that_or_nothing(
    tmp_path: Path, typed: str, moved: int | None
) -> None:
    """Every odd way of typing a /grant amount either moves exactly the amount it reads as or
    is refused with a notice, the balance and the ledger as they were."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/balance")
        community = await w.store.community("telegram", str(GROUP_ID))
        first = await w.say(ALICE, "/grant Bob 10 000")  # (room to take 5 000 back)
        assert first["text"] == tr(
            "en", "reply.granted", name="Bob", amount=10000, label="kush", balance=11000
        ), first
        before = await w.store.find_player(community.id, str(BOB.id))
        rows = len(await w.store.ledger(community.id))
        assert before is not None and before.balance == 11000
        reply = await w.say(ALICE, f"/grant Bob {typed}")
        after = await w.store.find_player(community.id, str(BOB.id))
        assert after is not None
        if moved is None:
            assert after.balance == before.balance, (typed, reply["text"])
            assert len(await w.store.ledger(community.id)) == rows
            assert "granted" not in reply["text"].lower() and reply["text"].strip(), reply
        else:
            assert after.balance == before.balance + moved, (typed, reply["text"])
            assert len(await w.store.ledger(community.id)) == rows + 1


# -- /replay's kept frames (Runtime.replays): one watcher's never another's -------------------
async def test_replay_frames_kept_for_a_seat_are_never_its_next_occupants(
    env: tuple[TableService, FakePresenter, MemoryStore],
) -> None:
    """Both players of a hand replay it to its showdown (each one's frames kept, their own
    discards, R3.3, on them). The loser leaves; Carol sits in the seat they had. Carol's
    /replay of that hand, and a ◀ ▶ press of it, are refused and make or read no frames;
    each player's frames still show their own discards, never the other's."""
    service, presenter, store = env
    winner, loser = await play_scripted(service, presenter)
    t = _table(service)
    hand = (await store.hand_history(t.seats[0].player_id, 1))[0]
    seats = {s.user_id: s.seat for s in t.seats.values()}
    mine = {winner.user_id: WINNER_DISCARDS, loser.user_id: LOSER_DISCARDS}

    async def last_frame(actor: Actor) -> str:
        first = await service.replay(_dm(actor), actor, f"#{hand.id}", here=True)
        assert first.screen is not None, first.text
        last = await service.press(actor, encode(ReplayStep(hand.id, "R5", 5)), _dm(actor))
        assert not last.alert and last.screen is not None, last.text
        return last.screen.text

    for actor in (winner, loser):
        text = await last_frame(actor)
        own = " ".join(c.face for c in mine[actor.user_id])
        other = mine[loser.user_id if actor is winner else winner.user_id]
        assert tr(actor.language or "en", "replay.discards", cards=own) in text, text
        assert not any(c.face in text.split("\n")[-1] for c in other), text
    kept = dict(service.rt.replays)
    assert set(kept) == {(hand.id, seats[winner.user_id]), (hand.id, seats[loser.user_id])}
    assert not (await leave_now(service, GROUP, loser)).alert  # (hand 2 is dealt at once)
    await _play_on(service, presenter, t, winner)
    assert t.seat_of(loser.user_id) is None
    assert not (await service.join(GROUP, CAROL)).alert
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.seat == seats[loser.user_id]
    refused = await service.replay(_dm(CAROL), CAROL, f"#{hand.id}", here=True)
    assert refused.alert and refused.screen is None
    assert refused.text == tr("en", "replay.not_yours")
    for k in (1, 2, 5):
        step = await service.press(CAROL, encode(ReplayStep(hand.id, "R5", k)), _dm(CAROL))
        assert step.alert and step.screen is None and step.text == tr("en", "replay.not_yours")
    assert dict(service.rt.replays) == kept
    # the loser, gone from the table, still sees their own hand as they played it
    again = await last_frame(loser)
    own = " ".join(c.face for c in LOSER_DISCARDS)
    assert tr(loser.language or "en", "replay.discards", cards=own) in again


# -- Discord: the answer turns of one message (AnswerTurn) --------------------------------------
@pytest.mark.parametrize("seed", range(8))
async def test_many_quick_answers_of_one_message_write_one_at_a_time_in_order(seed: int) -> None:
    """Twelve presses of one message answered as the adapter answers them (take a turn, wait
    for it, write only as the newest, finish in ``finally``), at random moments; some of
    their writes fail, some presses are cancelled while they wait or while they write (the
    stop). Never two writes of the message at once, the writes in the turns' order, a write
    only by the newest turn, and nothing left of the message's turns after them."""
    rng = random.Random(seed)
    order: dict[tuple[int, int], tuple[int, asyncio.Future[None]]] = {}
    key = (7, 8)
    writing: list[int] = []
    written: list[int] = []

    taken = itertools.count(1)  # (a turn's number starts again at 1 once all are done)

    async def press(pause: float, write: float, fails: bool) -> None:
        await asyncio.sleep(pause)
        turn = AnswerTurn(order, key)
        place = next(taken)  # the turns' order, over the whole run
        try:
            await turn.wait()
            if turn.newest:
                writing.append(place)
                assert len(writing) == 1, writing  # (one write of the message at a time)
                try:
                    await asyncio.sleep(write)
                    if fails:
                        raise OSError("the write failed")
                    written.append(place)
                finally:
                    writing.remove(place)
        except OSError:
            pass
        finally:
            turn.finish()

    tasks = [
        asyncio.create_task(press(rng.random() / 100, rng.random() / 50, rng.random() < 0.2))
        for _ in range(12)
    ]
    for task in rng.sample(tasks, 3):  # (given up: waiting, writing, or not begun)
        await asyncio.sleep(rng.random() / 100)
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert written == sorted(written) and len(set(written)) == len(written)
    assert not writing and order == {}
    # a press of the message afterwards takes its first turn again, at once
    turn = AnswerTurn(order, key)
    assert turn.number == 1 and turn.newest
    await asyncio.wait_for(turn.wait(), 1)
    turn.finish()
    assert order == {}


# -- an amount typed with a fraction is told that only whole numbers are taken ----------------
@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("typed", ["2.5", "2,5", "-0,25", "1 000,5", "1,000.5", "−1 000,75"])
def test_a_fraction_where_a_whole_number_goes_is_told_whole_numbers_only(
    typed: str, lang: str
) -> None:
    """An amount typed with a fraction, "/grant Bob 1 000,5" (Russian kopecks) or "/topup 2.5",
    was told to type the number with the digits 0–9, its thousands grouped or not, which it
    was: the fraction was never named. Told whole numbers only, as a whole-number setting
    tells "2,5"."""
    assert read_whole(typed) is None and fraction_typed(typed)
    assert digits_hint(lang, typed) == tr(lang, "reply.number_whole_only", value=typed)


@pytest.mark.parametrize("typed", ["1,00", "5.0", "10,0", "1.000,5", ",5", "1,5,5", "1,500", "2."])
def test_no_fraction_or_a_whole_number_is_no_fraction_typed(typed: str) -> None:
    """A fraction of 0 ("1,00": as likely "100" slipped), German grouping, no whole part,
    two marks, a grouped whole number, a point alone: not a fraction typed."""
    assert not fraction_typed(typed)


async def test_grant_topup_and_a_setting_refuse_a_fraction_as_whole_numbers_only(
    tmp_path: Path,
) -> None:
    """The three places an amount is typed, each refusing "1 000,5" (/grant "2.5" too) with
    whole numbers only; nothing moved, nothing saved."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(BOB, "/balance")
        community = await w.store.community("telegram", str(GROUP_ID))
        rows = len(await w.store.ledger(community.id))
        for typed in ("1 000,5", "2.5"):
            only = tr("en", "reply.number_whole_only", value=typed)
            reply = await w.say(ALICE, f"/grant Bob {typed}")
            assert reply["text"] == only + "\n" + tr("en", "reply.grant_usage"), reply
        # (a setting's "2.5" was told whole numbers already, with the nearest: 2 or 3; so is
        # "1 000,5" now, fix40h)
        reply = await w.say(ALICE, "/settings min_buy_in 1 000,5")
        only = tr("en", "reply.number_whole", nearest="1,000 or 1,001", value="1000.5")
        assert reply["text"].endswith("\n" + only), reply
        await w.say(ALICE, "/newtable")
        await w.press_lobby(ALICE, "j")
        await w.press_lobby(ALICE, "r")
        rows = len(await w.store.ledger(community.id))
        reply = await w.say(ALICE, "/topup 1 000,5")
        room = tr("en", "reply.topup_range", room=800, max=1000, label="kush")
        assert reply["text"] == tr("en", "reply.number_whole_only", value="1 000,5") + "\n" + room
        assert len(await w.store.ledger(community.id)) == rows
        after = await w.store.community("telegram", str(GROUP_ID))
        assert after.settings.min_buy_in == community.settings.min_buy_in


# -- /kick and Join ------------------------------------------------------------------------------
async def test_a_kick_mid_hand_survives_a_restart_and_joins_nobody_back() -> None:
    """Bob kicked mid-hand; the process killed (no stop) and started again on the same
    database: his Join is still refused, a second kick says he is leaving already and tells
    him nothing more; Alice's own name is her own /leave (asked first, no kick); as the hand
    ends Bob stands up once, his stack back, and may then join again. Kush conserved."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    t = await _seated(service, KGROUP, KALICE, KBOB, "mid_hand")
    assert not (await service.kick(KGROUP, KALICE, True, "Bob")).alert
    await service.rt.settled(t)
    await service.rt.drain()
    again, presenter = await restart(store, clock)
    try:
        t = again.table_in(KGROUP)
        assert t is not None and t.hand is not None
        seat = t.seat_of(KBOB.user_id)
        assert seat is not None and seat.leaving and seat.kicked
        reply = await again.join(KGROUP, KBOB)
        assert reply.alert and reply.text == tr(KBOB.language or "en", "reply.join_kicked")
        await again.rt.settled(t)
        told = len(presenter.privates.get(KBOB.user_id, []))
        reply = await again.kick(KGROUP, KALICE, True, "Bob")
        assert reply.alert and reply.text == tr("en", "reply.kick_leaving", name="Bob")
        await again.rt.settled(t)
        assert len(presenter.privates.get(KBOB.user_id, [])) == told  # (told once, before)
        own = await again.kick(KGROUP, KALICE, True, "Alice")  # her own leave: asked first
        assert own.alert and not t.seats[t.seat_of(KALICE.user_id).seat].leaving  # type: ignore[union-attr]
        await _play_on(again, presenter, t, KALICE)
        assert t.seat_of(KBOB.user_id) is None
        assert not (await again.join(KGROUP, KBOB)).alert  # a kick is no ban
        await assert_conserved(store)
    finally:
        await again.stop()


async def test_a_computer_player_is_not_kicked_and_nothing_changes() -> None:
    """/kick of a computer player points to /removebot; its seat, the hand and the ledger
    stay as they were."""
    store, clock = MemoryStore(), Clock()
    service, _presenter = new_service(store, clock)
    try:
        assert not (await service.new_table(KGROUP, KALICE, "pineapple")).alert
        assert not (await service.add_bot(KGROUP, KALICE, True)).alert
        t = service.table_in(KGROUP)
        assert t is not None
        bot = next(s for s in t.seats.values() if s.bot is not None)
        rows = len(await store.ledger(t.community_id))
        reply = await service.kick(KGROUP, KALICE, True, bot.name)
        bare = bot.name.removeprefix("🤖").strip()
        assert reply.alert and reply.text == tr(
            "en", "reply.kick_computer", name=bot.name, bare=bare
        )
        assert t.seats.get(bot.seat) is bot and not bot.leaving and not bot.kicked
        assert len(await store.ledger(t.community_id)) == rows
    finally:
        await service.stop()
