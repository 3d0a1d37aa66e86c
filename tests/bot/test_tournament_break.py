"""Tournaments off the happy path (R8.7): what a group meets when a tournament does not go as
planned, each found by a "break-it" round and checked through the table service."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot import pictures
from bot.model import Actor, LiveTable
from bot.presses import DiscardCard, PlaceCard, ReplayStep, StartTournament, decode, encode
from bot.service import TableService, dealing
from bot.texts import tr
from game.board import Box
from game.cards import DECK, Card, parse_cards
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, leave_now
from tests.bot.test_stats_service import hand_version
from tests.bot.test_tournament_service import configure, new_service, running_tournament
from tests.bot.test_transitions import player_balance

PLAYERS = (ALICE, BOB, CAROL)
_BOX = {"b": Box.BOTTOM, "m": Box.MIDDLE, "t": Box.TOP}

Streets = tuple[tuple[str, ...], ...]

#: A Pineapple hand for three, street by street ("cards|boxes", x: discarded), by the order
#: the players act in. The first makes Q♥Q♦ on top (Fantasyland, R6.1, royalty 7) over kings
#: and aces, and loses 29 points to the others' flushes, quads and straight flush (royalties
#: 18 and 23): with 200 chips at 10 chips a point, they are knocked out by the hand (R8.7).
STREETS: Streets = (
    ("Ac Ad 6h 7h 8c|b b b b b", "Qh Qd 2d|t t x", "2c Kc 3d|t m x", "Kd 3h Jd|m m x",
     "4h 5s 8h|m m x"),
    ("Ts Th Td Tc 2h|b b b b b", "3c 5c 9h|m m x", "7c 9c Jh|m m x", "Jc 2s Kh|m t x",
     "3s 4d Ah|t t x"),
    ("5d 6d 7d 8d 9d|b b b b b", "4s 8s 4c|m m x", "9s Js 6c|m m x", "Qs 5h Qc|m t x",
     "6s 7s Ks|t t x"),
)  # fmt: skip

#: Heads-up: the first the same Fantasyland board, the second fouls (trips on top over a
#: pair of jacks over nine high): 6 + 7 points, 130 chips at 10 a point, more than the 100
#: chips the second has.
HEADS_UP: Streets = (
    STREETS[0],
    ("9s 7s 5d 4c 2s|b b b b b", "Js Jc 3c|m m x", "Ts 6c 9d|m m x", "Th Tc 4s|t t x",
     "Td 5c 6s|t m x"),
)  # fmt: skip


def layout(streets: Streets) -> dict[Card, str]:
    """Card → the box it goes to (``x``: discarded) in ``streets``."""
    out: dict[Card, str] = {}
    for player in streets:
        for street in player:
            cards, boxes = street.split("|")
            out.update(zip(parse_cards(cards), boxes.split(), strict=True))
    return out


def scripted_deck(streets: Streets = STREETS) -> list[Card]:
    """``streets`` dealt street by street in the order the players act, then the rest."""
    head = [c for k in range(5) for player in streets for c in parse_cards(player[k].split("|")[0])]
    assert len(set(head)) == len(head) == 17 * len(streets)
    return head + [c for c in DECK if c not in set(head)]


async def play_street(
    service: TableService,
    presenter: FakePresenter,
    t: LiveTable,
    actor: Actor,
    boxes: dict[Card, str],
) -> None:
    """``actor``, to act, presses the box ``boxes`` gives each card of their street (``x``:
    Discard), then Confirm; every press is accepted."""
    assert t.hand is not None
    seat = t.seat_of(actor.user_id)
    assert seat is not None
    hand_seat = next(s for s in t.hand.to_act if t.owner(s) == seat.seat)
    for card in t.hand.current_cards(hand_seat):
        version = hand_version(presenter.last_private(actor.user_id))
        box = boxes[card]
        press = (
            DiscardCard(t.id, version, card)
            if box == "x"
            else PlaceCard(t.id, version, card, _BOX[box])
        )
        reply = await service.press(actor, encode(press))
        assert not reply.alert, reply.text
    version = hand_version(presenter.last_private(actor.user_id))
    reply = await service.press(actor, f"{t.id}:{version}:c")
    if reply.text in {tr(lang, "err.confirm_fouled") for lang in ("en", "ru")}:  # asks first
        reply = await service.press(actor, f"{t.id}:{version}:c")
    assert not reply.alert, reply.text


async def play_scripted_hand(
    service: TableService, presenter: FakePresenter, t: LiveTable, streets: Streets = STREETS
) -> None:
    """Every player presses the boxes ``streets`` give the cards of the hand being played,
    then Confirm, street by street, until it is over."""
    boxes = layout(streets)
    by_user = {a.user_id: a for a in PLAYERS}
    number = t.hand_no
    while t.hand is not None and t.hand_no == number:
        seat = t.hand.to_act[0]
        await play_street(service, presenter, t, by_user[t.seats[seat].user_id], boxes)


def _scripted(
    monkeypatch: pytest.MonkeyPatch, deck_source: Callable[[], list[Card]]
) -> tuple[MemoryStore, TableService, FakePresenter, list[dict[str, Any]]]:
    """A service dealing ``deck_source``'s decks, its presenter, and every showdown picture
    drawn (as JSON, in order)."""
    store = MemoryStore()
    service = TableService(
        store, clock=Clock(), rng=random.Random(5), next_hand_delay=0, timers=False,
        deck_source=deck_source,
    )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    return store, service, presenter, record_showdown_pictures(monkeypatch)


def record_showdown_pictures(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every showdown picture drawn from now on (as JSON, in order), in the list returned."""
    drawn: list[dict[str, Any]] = []
    real = pictures.showdown_picture

    def recorded(*args: Any, **kwargs: Any) -> pictures.Picture:
        picture = real(*args, **kwargs)
        drawn.append(picture.to_json())
        return picture

    monkeypatch.setattr(pictures, "showdown_picture", recorded)
    return drawn


async def assert_forgone(
    service: TableService,
    store: MemoryStore,
    drawn: list[dict[str, Any]],
    player_id: int,
    board_seat: int,
) -> None:
    """The Fantasyland ``board_seat`` made in the first hand is forgone and announced
    nowhere: not on the showdown picture (``drawn``), marked in the hand's record, not in
    its /replay; the store's books balance."""
    assert [b["name"] for b in drawn[0]["boards"] if b["fl_next"]] == []
    record = (await store.hand_history(player_id, 1))[0]
    assert record.result["fantasyland_forgone_seats"] == [board_seat]
    replay = await service.press(BOB, encode(ReplayStep(record.id, "R5", 5)))
    assert replay.screen is not None and "🌴" not in replay.screen.text, replay.screen.text
    assert await check_store(store) == []


async def test_r8_7_r6_a_player_knocked_out_by_the_hand_is_not_sent_to_fantasyland(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first to act makes Fantasyland (Q♥Q♦ on top) and loses every chip in the same
    hand: knocked out (R8.7), they play no Fantasyland. The showdown said "🌴 Fantasyland
    next (14 cards)" next to their board and "❌ Alice is out" under it; its picture had the
    FANTASYLAND 14 badge and the hand's /replay announced it too."""
    store, service, presenter, drawn = _scripted(monkeypatch, scripted_deck)
    await configure(service, tournament_chips="200")
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    for a in PLAYERS:
        assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.tournament is not None
    board_seat = t.hand.order[0]
    first = t.seats[t.owner(board_seat)]
    await play_scripted_hand(service, presenter, t)
    showdown = next(s.text for s in presenter.tables[GROUP.chat_id] if "Showdown" in s.text)
    board = showdown.split(f"\n\n{first.name}: ")[1].split("\n\n")[0]
    assert board.splitlines() == [
        "−29 pts",
        "  Q♥ Q♦ 2♣ — pair of queens",
        "  K♦ K♣ 5♠ 4♥ 3♥ — pair of kings",  # (as the hand reads, not as placed)
        "  A♦ A♣ 8♣ 7♥ 6♥ — pair of aces",
        "  royalties 7",  # (it said "royalties 7 · 🌴 Fantasyland next (14 cards)")
    ]
    out = tr("en", "tour.knocked_out", name=first.name, place=3, prize=0, label="kush")
    assert out in showdown and "Fantasyland" not in showdown
    assert first.seat not in t.tournament.chips and len(t.tournament.chips) == 2
    assert t.hand is not None and t.hand_no == 2 and not t.hand.setup.fantasyland
    await assert_forgone(service, store, drawn, first.player_id, board_seat)


@pytest.mark.parametrize(
    ("name", "value"),
    [("tournament_buy_in", "7"), ("level_minutes", "1"), ("hand_seconds", "30")],
)
async def test_r8_7_a_setting_changed_during_a_tournament_says_the_tournament_keeps_its_own(
    env: Any, name: str, value: str
) -> None:
    """An admin changes a tournament setting or a rule option while a tournament is open: the
    tournament keeps what its players registered for (R8.7) and the answer says so. It said
    "Saved: tournament_buy_in = 7." alone while the lobby still showed "Buy-in 100 kush" (a
    cash table's answer says when its table takes a rule option)."""
    service, _presenter, store, _clock = env
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    assert not (await service.join(GROUP, BOB)).alert  # registered for a buy-in of 100
    kept = tr("en", "tour.settings_kept", tables=f"#{t.id}")
    assert kept == (
        f"Tournament #{t.id} keeps the settings it opened with (its players registered for"
        " them): this one applies from the next /tournament."
    )
    reply = await service.settings(GROUP, ALICE, True, [name, value])
    assert not reply.alert and reply.text.splitlines()[1] == kept, reply.text
    # (another value: the same again changed nothing, and says nothing of the tournament)
    again = await service.settings(GROUP, BOB, True, [name, value])
    assert "/tournament" not in again.text, again.text
    russian = await service.settings(GROUP, BOB, True, [name, str(int(value) + 1)])
    assert russian.text.splitlines()[1] == tr("ru", "tour.settings_kept", tables=f"#{t.id}")
    assert "следующего /tournament" in russian.text
    assert t.tournament.config.buy_in == 100 and t.tournament.config.level_minutes == 5
    assert t.options.hand_seconds == 120
    # a setting the tournament takes (the pictures) or that is no tournament's says nothing
    for other, v in (("pictures", "off"), ("min_buy_in", "50")):
        reply = await service.settings(GROUP, ALICE, True, [other, v])
        assert "/tournament" not in reply.text, reply.text
    await service.close_table(GROUP, ALICE, True)  # no tournament open: nothing to say
    reply = await service.settings(GROUP, ALICE, True, [name, value])
    assert "/tournament" not in reply.text, reply.text
    assert await check_store(store) == []


async def test_r8_2a_r8_7_a_tournament_nobody_started_is_cancelled_in_its_own_words() -> None:
    """Two register and nobody presses Start: after ``idle_close_seconds`` the lobby closes
    itself (R8.2a) and both buy-ins go back (R8.7). The group read "Table #1 closed: no hand
    for 30 minutes. Stacks are back in balances; anyone may open a new one: /newtable." (no
    table, no stacks: a tournament that never started) above "Tournament #1 is cancelled"."""
    service, presenter, store, clock = new_service(next_hand_delay=0)
    assert not (await service.new_tournament(GROUP, BOB, "pineapple")).alert  # in Russian
    t = service.table_in(GROUP)
    assert t is not None
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    assert [await player_balance(store, a) for a in (ALICE, BOB)] == [900, 900]
    clock.now += t.options.idle_close_seconds
    await service.run_due()
    assert service.table_in(GROUP) is None
    assert presenter.last_table(GROUP.chat_id).text == (
        "Турнир #1 так и не начался за 30 минут.\nТурнир #1 отменён, все взносы возвращены."
    )
    assert tr("en", "tour.idle_unstarted", table=1, minutes=30) == (
        "Tournament #1 did not start within 30 minutes."
    )
    assert [await player_balance(store, a) for a in (ALICE, BOB)] == [1000, 1000]
    assert await check_store(store) == []


async def test_r8_2a_r8_7_a_running_tournament_whose_deal_keeps_failing_closes_as_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A running tournament whose next deal keeps failing (a bug: each try rolled back)
    closes itself after ``idle_close_seconds`` (R8.2a), every buy-in back (R8.7), and says
    so as a tournament: not "Table #1 closed … Stacks are back in balances"."""
    service, presenter, store, clock = new_service(next_hand_delay=5)
    t, _ = await running_tournament(service)  # (its first hand dealt)

    def broken(*_args: Any) -> None:
        raise RuntimeError("the deal fails")

    monkeypatch.setattr(dealing, "deal", broken)
    while t.hand is not None:  # everyone sleeps through hand 1 (R8.5)
        clock.now += 181
        await service.run_due()
    for _ in range(7):
        clock.now += 300
        await service.run_due()
    assert service.table_in(GROUP) is None and t.hand_no == 1
    assert presenter.last_table(GROUP.chat_id).text == (
        "No hand was dealt at tournament #1 for 30 minutes.\n"
        "Tournament #1 is cancelled; every buy-in is back."
    )
    assert tr("ru", "tour.idle", table=1, minutes=30) == ("В турнире #1 не было раздач 30 минут.")
    assert [await player_balance(store, a) for a in PLAYERS] == [1000, 1000, 1000]
    assert await check_store(store) == []


async def test_r8_7_newtable_during_a_tournament_says_a_close_cancels_it(env: Any) -> None:
    """A member types /newtable (or /tournament) while the chat's tournament runs: the
    answer named an open "table" that an admin closes with /closetable, "stacks go back to
    balances"; an admin who did so cancelled the tournament, every buy-in back (R8.7). It
    now says it is the tournament, that another table opens once it is over, and what a
    close does to it."""
    service, _presenter, store, _clock = env
    await configure(service, tournament_chips="1000")
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    t = service.table_in(GROUP)
    assert t is not None
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, BOB)).alert  # registering: the same answer
    for phase in ("registering", "running"):
        reply = await service.new_table(GROUP, CAROL)
        assert reply.alert and reply.text.split("\n")[0] == (
            "This chat's tournament #1 is under way: another table opens when it is over. An"
            " admin's /closetable cancels it (buy-ins back while nobody is out)."
        ), (phase, reply.text)
        assert (await service.new_tournament(GROUP, CAROL, "ofc")).text == reply.text
        russian = await service.new_table(GROUP, BOB)
        assert russian.text.split("\n")[0] == tr("ru", "tour.exists", table=t.id)
        assert "отменяет его" in russian.text
        if phase == "registering":
            assert not (await service.join(GROUP, CAROL)).alert  # the seats are full: it starts
    assert t.tournament is not None and t.hand is not None
    assert await check_store(store) == []


async def test_r8_7_a_new_game_set_during_a_tournament_does_not_ask_to_close_it(
    env: Any,
) -> None:
    """``/settings game ofc`` while the chat's Pineapple tournament runs answered "The open
    table stays Pineapple OFC: Classic OFC comes with the next /newtable (an admin closes
    this one first: /closetable)": the close cancels the tournament, every buy-in back
    (R8.7). It says the game comes once the tournament is over; a cash table's answer is
    as it was."""
    service, _presenter, store, clock = env
    await running_tournament(service)  # (its first hand dealt)
    reply = await service.settings(GROUP, ALICE, True, ["game", "ofc"])
    assert reply.text.splitlines()[1] == (
        "Tournament #1 goes on as Pineapple OFC: Classic OFC comes with the next /newtable or"
        " /tournament once it is over."
    ), reply.text
    assert "/closetable" not in reply.text
    russian = await service.settings(GROUP, BOB, True, ["game", "chinese"])
    assert russian.text.splitlines()[1] == tr(
        "ru", "tour.game_next", number=1, table=tr("ru", "game.pineapple"),
        game=tr("ru", "game.chinese"),
    )  # fmt: skip
    assert "/closetable" not in russian.text and "когда он закончится" in russian.text
    await service.close_table(GROUP, ALICE, True)  # (at the end of the hand)
    while service.table_in(GROUP) is not None:  # everyone sleeps through the hand (R8.5)
        clock.now += 181
        await service.run_due()
    assert not (await service.new_table(GROUP, ALICE, "pineapple")).alert
    cash = await service.settings(GROUP, ALICE, True, ["game", "ofc"])
    assert cash.text.splitlines()[1] == tr(
        "en", "settings.game_next_table", table=tr("en", "game.pineapple"),
        game=tr("en", "game.ofc"),
    )  # fmt: skip
    assert await check_store(store) == []


async def test_r8_7_r6_fantasyland_made_in_the_hand_that_wins_the_tournament_is_not_announced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Heads-up, the winner makes Fantasyland in the hand that knocks the last opponent out:
    the tournament is over, no Fantasyland is played, and neither the showdown, its picture
    nor the hand's /replay announces one; the pool is paid out (R6, R8.7)."""
    store, service, presenter, drawn = _scripted(monkeypatch, lambda: scripted_deck(HEADS_UP))
    await configure(service, tournament_chips="100")
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    start = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), StartTournament)
    )
    assert not (await service.press(ALICE, start, GROUP)).alert
    assert t.hand is not None
    winner = t.seats[t.hand.order[0]]
    await play_scripted_hand(service, presenter, t, HEADS_UP)
    assert service.table_in(GROUP) is None and t.tournament.finished is not None
    showdown = next(s.text for s in presenter.tables[GROUP.chat_id] if "Showdown" in s.text)
    assert f"{winner.name}: +13 pts" in showdown and "  royalties 7\n" in showdown
    assert "Fantasyland" not in showdown and "🌴" not in showdown
    assert [b["fl_next"] for b in drawn[0]["boards"]] == [0, 0]
    record = next(r for r in await store.hand_history(winner.player_id, 5) if r.number == 1)
    assert record.result["fantasyland_forgone"] is True
    replay = await service.press(ALICE, encode(ReplayStep(record.id, "R5", 5)))
    assert replay.screen is not None and "🌴" not in replay.screen.text, replay.screen.text
    loser = next(name for name in t.names.values() if name != winner.name)
    final = presenter.last_table(GROUP.chat_id).text
    assert final.splitlines()[1:] == [f"1. {winner.name} — 200 kush", f"2. {loser} — 0 kush"]
    assert sorted([await player_balance(store, a) for a in (ALICE, BOB)]) == [900, 1100]
    assert await check_store(store) == []


async def test_r6_r8_2_a_cash_player_who_leaves_during_the_hand_is_not_sent_to_fantasyland(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a cash table the first to act places Q♥Q♦ on top, then /leave-s: the rest of their
    hand is placed as on timeout (R8.5) and still makes Fantasyland (K K on the middle, A A
    at the bottom), which they forfeit with the seat (R6, R8.2): the showdown, its picture
    and the hand's /replay do not announce it."""
    store, service, presenter, drawn = _scripted(monkeypatch, scripted_deck)
    assert not (await service.new_table(GROUP, ALICE, "pineapple")).alert
    for a in PLAYERS:
        assert not (await service.join(GROUP, a)).alert
    for a in PLAYERS:
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.tournament is None
    hand = t.hand
    board_seat = hand.order[0]
    first = t.seats[t.owner(board_seat)]
    leaver = next(a for a in PLAYERS if a.user_id == first.user_id)
    boxes = layout(STREETS)
    by_user = {a.user_id: a for a in PLAYERS}
    while t.hand is hand:
        seat = hand.to_act[0]
        if seat == board_seat and hand.current_cards(seat)[:1] == tuple(parse_cards("2c")):
            assert not (await leave_now(service, GROUP, leaver)).alert  # street 3: away they go
            continue
        await play_street(service, presenter, t, by_user[t.seats[seat].user_id], boxes)
    result = next(r for r in hand.result.seats if r.seat == board_seat)  # type: ignore[union-attr]
    assert result.fantasyland_cards and not result.fouled  # made, as placed for them
    assert t.seat_of(leaver.user_id) is None and not (t.hand and t.hand.setup.fantasyland)
    showdown = next(s.text for s in presenter.tables[GROUP.chat_id] if "Showdown" in s.text)
    assert "Fantasyland" not in showdown, showdown
    await assert_forgone(service, store, drawn, first.player_id, board_seat)
