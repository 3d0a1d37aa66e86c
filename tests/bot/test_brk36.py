"""Break session brk36: settings saved during a hand apply as it ends (fixnu6a, R6.6, R8.2)."""

from __future__ import annotations

import random

import pytest

from bot.service import TableService
from bot.service.dealing import TOP_UP_SECONDS
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_bots import alice_and_a_bot, play_hand_with_bots
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm, seated
from tests.bot.test_tournament_service import new_service
from tests.bot.test_transitions import player_balance


async def test_r8_2_a_computer_player_the_new_point_busts_at_the_hands_end_tops_up_at_once() -> (
    None
):
    """Alice and a computer player at 1 kush a point; during the hand the admins set the
    buy-in to 400 and the point to 201. The hand leaves 🤖 Anna 199, below the new point that
    now applies as the hand ends (R6.6: the match is over). A computer player tops up from
    the house (issue 13, R8.2): its top-up is queued with the hand's end and the next hand
    comes in the usual time. The table message told the computer player to "top up (➕ or
    /topup) to play" and the table waited the 20 s top-up window for nobody: its top-up was
    queued before the new point applied."""
    service, presenter, store, clock = await alice_and_a_bot(point=1)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    for name, value in (("min_buy_in", "400"), ("kush_per_point", "201")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    await play_hand_with_bots(service, presenter, clock)
    anna = next(s for s in t.seats.values() if s.bot)
    alice = next(s for s in t.seats.values() if not s.bot)
    assert t.hand is None and t.options.kush_per_point == 201 and t.min_buy_in == 400
    assert (anna.stack, alice.stack) == (199, 201)  # (the seeded hand: Anna lost a point)
    assert anna.top_up == 400  # queued with the hand's end, from the house
    table = presenter.last_table(GROUP.chat_id).text
    assert "top up" not in table and "20 seconds" not in table, table
    ended = clock.now
    for _ in range(4):
        clock.now += 2.5
        await service.run_due()
        if t.hand is not None:
            break
    assert t.hand is not None and t.hand_no == 2, (t.phase, t.next_hand_at)
    assert clock.now - ended <= 5  # the usual next_hand_delay, not the top-up window
    assert anna.stack == 599 and alice.stack == 201
    assert tr("en", "lobby.busted_stood_up", names="🤖 Anna") not in [p for _, p in presenter.posts]
    assert await check_store(store) == []


async def test_r8_2_a_queued_top_up_the_new_point_leaves_short_offers_the_top_up() -> None:
    """During the first hand the admins raise ``kush_per_point`` to 200 and Bob queues a
    top-up of 2. The hand leaves him 196; the new point applies as the hand ends (R6.6) and
    his 2 are added: 198, still below a point. He is offered the top-up, with the 20 s window
    for it, as a player the showdown leaves below a point is (R8.2). (The queued top-up counted
    as taken when the point applied; once added, the deal 4 s later stood him up, "No top-up
    in time", never having offered one: before the point applied at the hand's end, the
    top-up was added first and the new point's offer followed.)"""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "200"])
    assert not reply.alert, reply.text
    reply = await service.top_up(GROUP, BOB, "2")
    assert reply.text == tr("ru", "reply.topup_queued", amount=2, label="kush"), reply.text
    by_id = {a.user_id: a for a in (ALICE, BOB, CAROL)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and (bob.stack, bob.top_up) == (196, 2)
    assert t.options.kush_per_point == 200
    clock.now += 1
    await service.run_due()  # the queued top-up is added
    assert t.hand is None and bob.stack == 198 and bob.top_up == 0
    offer = tr("en", "showdown.below_point", name="Bob", stack=198, label="kush")
    assert any(text.endswith(offer) for _, text in presenter.posts), presenter.posts[-3:]
    assert t.next_hand_at is not None and t.next_hand_at >= clock.now + TOP_UP_SECONDS - 1
    clock.now += 4
    await service.run_due()
    assert t.hand is None and t.seat_of(BOB.user_id) is bob  # still offered, not stood up
    reply = await service.top_up(GROUP, BOB, "2")
    assert not reply.alert, reply.text
    clock.now += 4
    await service.run_due()
    assert t.hand is not None and len(t.hand.order) == 3 and bob.stack == 200
    assert await player_balance(store, BOB) == 1000 - 200 - 2 - 2  # (buy-in, two top-ups)
    assert await check_store(store) == []


async def test_r8_2_a_point_lowered_during_the_hand_to_a_stack_asks_no_top_up() -> None:
    """Buy-in 450 at 100 kush a point; during the first hand the admins lower the point to
    50. Bob ends the hand with 50: below the old point, one whole new point, which applies as
    the hand ends (R6.6). He can pay it: the showdown does not tell him to top up, and the
    next hand comes in the usual 4 s, not after the 20 s top-up window (R8.2). (The showdown
    said "50 kush left, less than a point — top up", and the table waited 20 s for a top-up
    nobody needed.)"""
    service, presenter, store, clock = new_service(next_hand_delay=4)
    for name, value in (("min_buy_in", "450"), ("kush_per_point", "100")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None and t.hand is not None
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "50"])
    assert not reply.alert, reply.text
    by_id = {a.user_id: a for a in (ALICE, BOB, CAROL)}
    tables = len(presenter.tables[GROUP.chat_id])
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert [(s.name, s.stack) for s in t.seats.values()] == [
        ("Alice", 850),
        ("Bob", 50),
        ("Carol", 450),
    ]
    assert t.options.kush_per_point == 50
    below = tr("en", "showdown.below_point", name="Bob", stack=50, label="kush")
    shown = [screen.text for screen in presenter.tables[GROUP.chat_id][tables:]]
    assert any("Bob: −4 pts · −400 kush → 50" in text for text in shown), shown  # (showdown)
    assert not any(below in text for text in shown), shown
    assert t.next_hand_at == clock.now + 4
    clock.now += 4
    await service.run_due()
    assert t.hand is not None and len(t.hand.order) == 3
    assert await check_store(store) == []


async def test_r7_6_a_point_lowered_that_ends_the_game_asks_no_top_up_of_a_stack_that_pays_it() -> (
    None
):
    """Chinese Poker to 200 at 9 kush a point: the first hand leaves Alice 22 points, Bob 0.
    Between hands the admins lower the point to 2: the game ends at once, settled at the rate
    it was played for (R7.6: Bob pays 22 × 9 = 198 and keeps 2), and the new point applies.
    Bob's 2 pay one new point: he is not told to top up and the next hand comes in the usual
    time (R8.2). (He was told "2 kush left, less than a point — top up", judged by the old
    point, and the deal waited 20 s for it.)"""
    from tests.bot.test_classic_games_e2e import ALICE_13, chinese_deck
    from tests.bot.test_service_classic import ALICE as C_ALICE
    from tests.bot.test_service_classic import BOB as C_BOB
    from tests.bot.test_service_classic import GROUP as C_GROUP
    from tests.bot.test_service_classic import auto_street, configure, start

    store, clock = MemoryStore(), Clock()
    deck = chinese_deck(ALICE_13, "Jc Td 4s 9c 9d 6s 6h 2h Qs Qd Qh 7c 8d")
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=5, timers=False,
        deck_source=lambda: list(deck),
    )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    await configure(
        service, game="chinese", reveal_pause_seconds="0", target_points="200", kush_per_point="9"
    )
    await start(service, [C_ALICE, C_BOB], "chinese")
    t = service.table_in(C_GROUP)
    assert t is not None
    for who in (C_ALICE, C_BOB):
        await auto_street(service, presenter, who)
    for _ in range(4):
        await service.run_due()
    assert t.hand is None and t.chinese is not None and t.chinese.totals == {0: 22, 1: 0}
    posts = len(presenter.posts)
    reply = await service.settings(C_GROUP, C_ALICE, True, ["kush_per_point", "2"])
    assert not reply.alert, reply.text
    assert t.chinese is None and t.options.kush_per_point == 2  # the game ended, settled
    assert {s: st.stack for s, st in t.seats.items()} == {0: 200 + 198, 1: 2}
    said = [text for _, text in presenter.posts[posts:]]
    below = tr("en", "showdown.below_point", name="Bob", stack=2, label="kush")
    assert not any(below in text for text in said), said
    assert t.next_hand_at is not None and t.next_hand_at <= clock.now + 5
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and len(t.hand.order) == 2
    assert await check_store(store) == []


@pytest.mark.parametrize(
    ("label", "one", "many"),
    [("фишки", "фишку", "фишек"), ("Монеты", "монету", "монет"), ("kush", "куш", "кушей")],
)
def test_r8_1_a_russian_unit_after_na_takes_its_accusative(label: str, one: str, many: str) -> None:
    """A common Russian unit chosen as the kush label agrees with its number (txt36), also
    after «на» (accusative: «докупка на 21 фишку», not «на 21 фишка») and «не больше»
    (genitive: «стек не больше 21 фишки», not «21 фишка»; «21 куша», not «21 куш») (R8.1)."""
    queued = tr("ru", "reply.topup_queued", amount=21, label=label)
    assert queued.startswith(f"Докупка на 21 {one} принята"), queued
    assert tr("ru", "reply.topup_queued", amount=5, label=label).startswith(
        f"Докупка на 5 {many} принята"
    )
    capped = tr("ru", "lobby.topup_capped", name="Bob", amount=21, added=1, label=label, max=21)
    gen = {"фишку": "фишки", "монету": "монеты", "куш": "куша"}[one]
    assert capped == f"Bob: докупка на 21 {one} урезана до 1: стек не больше 21 {gen}.", capped
    for key in ("reply.topup_already_queued", "lobby.topup_not_needed", "lobby.topup_above"):
        text = tr("ru", key, name="Bob", amount=1, stack=5, label=label, max=3, added=1, have=0)
        assert f"на 1 {one} " in text, text
    # a label that is no such unit is named as before; English reads a Russian one as kush
    assert tr("ru", "reply.topup_queued", amount=21, label="₽").startswith("Докупка на 21 ₽")
    assert tr("en", "reply.topup_queued", amount=21, label=label).startswith(
        "Top-up of 21 kush queued"
    )


def test_r8_1_a_russian_unit_after_a_verb_of_cost_or_gain_takes_its_accusative() -> None:
    """«очко стоит 1 фишку», «выиграли 21 монету», «превысил бы 1 звезду» (R8.1)."""
    raised = tr("ru", "lobby.point_raised", name="Вера", point=21, label="фишки", stack=5)
    assert raised.startswith("Вера: очко теперь стоит 21 фишку, больше стека (5)"), raised
    moved = tr("ru", "stats.group_moved", won=21, lost=5, label="монеты")
    assert moved.startswith("Участники выиграли 21 монету, проиграли 5 монет"), moved
    bound = tr("ru", "reply.grant_balance_bound", name="Вера", limit=1, label="звёзды")
    assert bound == "Нельзя: баланс игрока Вера превысил бы 1 звезду.", bound
    assert tr("ru", "lobby.point_raised", name="В", point=1, label="kush", stack=0).startswith(
        "В: очко теперь стоит 1 куш,"
    )
