"""Fifteenth break session: a hidden-information audit. Every message the service writes is
checked when it is written, against the hand as it is then: a group message (the table
message, a post, a picture's caption) holds only cards the table shows (R3.3, R3.6, R4.5,
R6.3), a player's private message only those and their own, and no message ever holds a
discard of another player (R3.3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bot import pictures
from bot.model import ChatRef, LiveTable
from bot.screens import Screen
from bot.service import TableService
from bot.texts import tr
from game.board import Box
from game.cards import DECK, Card, parse_cards
from game.hand import Hand
from tests.bot.conftest import Clock, service_env
from tests.bot.fakes import FakePresenter, record_drawings
from tests.bot.test_break13 import grant_fantasyland
from tests.bot.test_service import GROUP as TOUR_GROUP
from tests.bot.test_service import leave_now
from tests.bot.test_service_classic import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    auto_street,
    configure,
    start,
)
from tests.bot.test_tournament_service import new_service as new_tournament_service
from tests.bot.test_tournament_service import running_tournament

PLAYERS = {a.user_id: a for a in (ALICE, BOB, CAROL)}
REVEAL_ORDER = (Box.BOTTOM, Box.MIDDLE, Box.TOP)


def faces(text: str) -> set[Card]:
    return {c for c in DECK if c.face in text}


@dataclass
class Watcher(FakePresenter):
    """A recording presenter that checks each message against the table's hand when it is
    written; ``leaks`` says what a message showed that its reader must not see."""

    table: LiveTable | None = None
    leaks: list[str] = field(default_factory=list)
    #: every discard made so far in each hand (by its number), by the user who made it
    discards: dict[int, dict[Card, str]] = field(default_factory=dict)
    checked: int = 0
    #: group messages written while a board played closed held cards (R6.3, R4.5)
    closed_hidden: int = 0
    #: the numbers of the hands a board played in Fantasyland
    fantasyland_hands: set[int] = field(default_factory=set)

    def _note_discards(self) -> None:
        t = self.table
        if t is None or t.hand is None:
            return
        made = self.discards.setdefault(t.hand_no, {})
        for s in t.hand.order:
            player = t.player_of(s)
            for c in t.hand.discards_of(s):
                made.setdefault(c, player.user_id if player else "?")

    def _allowed(self, user_id: str | None) -> set[Card]:
        t = self.table
        if t is None:
            return set(DECK)
        if t.hand is None:  # between hands: the last showdown's boards, as far as shown
            record = t.last_result or {}
            shown = REVEAL_ORDER[: int(record.get("revealed", 3))]
            return {
                c
                for r in record.get("seats", [])
                for b in shown
                for c in parse_cards(r[b.name.lower()].split())
            }
        hand = t.hand
        if hand.result is not None and t.reveal is not None:  # Chinese Poker's reveal (R4.5)
            shown = REVEAL_ORDER[: int(t.reveal.get("stage", 3))]
            out = {c for r in hand.result.seats for b in shown for c in r.board.box(b)}
        else:
            out = set(hand.public_cards())
        if user_id is not None:
            for s in hand.order:
                player = t.player_of(s)
                if player is not None and player.user_id == user_id:
                    out |= set(hand.board_of(s, with_pending=True).cards())
                    out |= set(hand.current_cards(s)) | set(hand.discards_of(s))
                    # classic OFC's street 1, held face down before their turn (R4.1)
                    out |= set(hand.waiting_cards(s))
        return out

    def check(self, where: str, user_id: str | None, text: str) -> None:
        self._note_discards()
        self.checked += 1
        shown = faces(text)
        hand = self.table.hand if self.table is not None else None
        if hand is not None and any(hand.is_fantasyland(s) for s in hand.order):
            self.fantasyland_hands.add(self.table.hand_no)  # type: ignore[union-attr]
        if user_id is None and hand is not None and hand.result is None:
            closed = [s for s in hand.order if s not in hand.normal]
            self.closed_hidden += any(hand.board_of(s).count for s in closed)
        made = self.discards.get(self.table.hand_no, {}) if self.table is not None else {}
        foreign = {c for c in shown if c in made and made[c] != user_id}
        hidden = shown - self._allowed(user_id) if self.table is not None else set()
        for c in sorted(foreign | hidden, key=lambda c: c.index):
            kind = "discard" if c in foreign else "hidden card"
            self.leaks.append(f"{where} to {user_id or 'group'}: {kind} {c.face} in {text!r}")

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        self.check("table", None, screen.text)
        return await super().show_table(chat_id, screen, ref)

    async def show_private(
        self, user_id: str, screen: Screen, ref: str | None, answered: str | None = None
    ) -> str | None:
        self.check("private", user_id, screen.text)
        return await super().show_private(user_id, screen, ref, answered)

    async def post(self, chat_id: str, text: str, ref: str | None = None) -> bool:
        self.check("post", None, text)
        return await super().post(chat_id, text, ref)

    async def send_picture(
        self, chat_id: str, png: bytes, caption: str, ref: str | None = None, *, later: bool = False
    ) -> str | None:
        self.check("picture caption", None, caption)
        return await super().send_picture(chat_id, png, caption, ref, later=later)


def watched(next_hand_delay: float = 5) -> tuple[TableService, Watcher, Any, Clock]:
    service, _presenter, store, clock = service_env(next_hand_delay=next_hand_delay)
    watcher = Watcher()
    service.register(watcher)  # (replaces the recording presenter of the platform)
    return service, watcher, store, clock


async def play_until(
    service: TableService, w: Watcher, clock: Clock, hands: int, group: ChatRef = GROUP
) -> None:
    """Every street by Arrange and Confirm (the hand's every player at once when they act
    together, R3.6), the next hand dealt by the clock, until ``hands`` hands were played."""
    t = service.table_in(group)
    assert t is not None
    w.table = t
    guard = 0
    while t.hand_no <= hands and guard < 400 and t.seats:
        guard += 1
        if t.hand is None or t.hand.is_over:
            clock.now += 6
            await service.run_due()
            continue
        acting = {t.player_of(s).user_id for s in t.hand.to_act}  # type: ignore[union-attr]
        for user_id in sorted(acting):
            if t.hand is not None and not t.hand.is_over:
                await auto_street(service, w, PLAYERS[user_id])
        # every player's own screen and the group's, asked for now (a "My cards" press)
        for user_id in PLAYERS:
            seat = t.seat_of(user_id)
            if seat is not None and t.hand is not None:
                w.check("render", user_id, service.rt.render_private(t, seat).text)
    assert guard < 400


def drawn_cards(data: dict[str, Any]) -> str:
    return repr(data)


@pytest.mark.parametrize("simultaneous", ["on", "off"])
@pytest.mark.parametrize("earned", [(False, True, False), (True, True, False)])
async def test_r3_3_r3_6_r6_3_no_card_reaches_a_reader_who_must_not_see_it_fantasyland(
    monkeypatch: pytest.MonkeyPatch, simultaneous: str, earned: tuple[bool, ...]
) -> None:
    """Three players at Pineapple; Alice earns Fantasyland in the first hand and plays it
    in the second (R6.3: hidden until showdown) while Bob and Carol play their streets (in
    turn, or at once, R3.6). No message, picture caption or drawn showdown picture shows a
    card to whoever must not see it: another's discard, another's cards of this street, the
    Fantasyland board. ``earned``: the boards of the first hand (in its order) that earn
    Fantasyland: one of three (it plays after the others), or two (the third plays its
    streets hidden, all at once, R6.3)."""
    options = {"game": "pineapple", "simultaneous_streets": simultaneous}
    service, w, _store, clock = watched()
    drawn = record_drawings(
        monkeypatch,
        pictures.draw_json,
        lambda args, _pid: (w.table.hand_no, args[0]),  # type: ignore[union-attr]
    )
    await configure(service, **options)
    grant_fantasyland(monkeypatch, iter(earned))
    await start(service, [ALICE, BOB, CAROL], options["game"])
    await play_until(service, w, clock, 2)
    t = w.table
    assert t is not None and t.hand_no == 3
    assert w.discards and w.checked > 30
    assert 2 in w.fantasyland_hands
    if earned.count(True) == 2:  # some group message was written while a board was hidden
        assert w.closed_hidden > 0
    assert w.leaks == []
    assert len(drawn) >= 2
    for hand_no, data in drawn:
        shown = faces(drawn_cards(data))
        assert not shown & set(w.discards[hand_no]), data


async def replays_show_no_foreign_discard(service: TableService, store: Any, w: Watcher) -> int:
    """Every frame of every recorded hand's ``/replay`` for each of its players: no other
    player's discard (R3.3). Returns the frames read."""
    frames = 0
    chat = GROUP
    for record in list(store._hands.values()):
        if "setup" not in record.hand:
            continue
        hand = Hand.from_json(record.hand)
        owner = hand.setup.owner
        for user_id, actor in PLAYERS.items():
            player = await store.find_player(1, user_id)
            seats = record.players.items()
            seat = next((s for s, pid in seats if player and pid == player.id), None)
            if seat is None:
                continue
            foreign = {c for s in hand.order if owner(s) != seat for c in hand.discards_of(s)}
            reply = await service.replay(chat, actor, str(record.id), here=True)
            screen = reply.screen
            while screen is not None:
                frames += 1
                leaked = faces(screen.text) & foreign
                assert not leaked, (record.id, user_id, screen.text)
                forward = [b.data for b in screen.all_buttons() if b.label == "▶" and b.data]
                if not forward:
                    break
                screen = (await service.press(actor, forward[0])).screen
    return frames


async def test_r4_5_r7_5_chinese_poker_boards_stay_hidden_until_their_reveal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Closed Chinese Poker (R4.5), three players, a target of 5 points, so that a claim is
    offered early (R7.5) and made at once: no box reaches the group (or another player)
    before its stage of the reveal, bottom, middle, top; none the claim left unrevealed
    ever does, in a message or in the showdown picture."""
    service, w, store, clock = watched()
    drawn = record_drawings(monkeypatch, pictures.draw_json, lambda args, _pid: args[0])
    await configure(service, game="chinese", target_points="5")
    await start(service, [ALICE, BOB, CAROL], "chinese")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    w.table = t
    claimed = 0
    for _ in range(300):
        if t.hand is not None and not t.hand.is_over:
            for s in t.hand.to_act:
                player = t.player_of(s)
                assert player is not None
                await auto_street(service, w, PLAYERS[player.user_id])
            continue
        claim = (t.reveal or {}).get("claim") if t.hand is not None else None
        if claim:
            claimant = PLAYERS[t.seats[claim["seats"][0]].user_id]
            data = next(
                b.data
                for b in w.last_table(GROUP.chat_id).all_buttons()
                if b.data and b.label == tr("en", "btn.claim")
            )
            assert not (await service.press(claimant, data, GROUP)).alert
            claimed += 1
            if claimed == 2:
                break
            continue
        clock.now += 6
        await service.run_due()
    assert claimed == 2
    assert w.checked > 20 and w.leaks == []
    hidden_by_claim = {
        c
        for record in store._hands.values()
        if record.result.get("revealed", 3) < 3
        for r in record.result["seats"]
        for b in REVEAL_ORDER[record.result["revealed"] :]
        for c in parse_cards(r[b.name.lower()].split())
    }
    assert hidden_by_claim and drawn
    for data in drawn:
        assert not faces(drawn_cards(data)) & hidden_by_claim, data
    assert await replays_show_no_foreign_discard(service, store, w) >= 2


async def test_r4_2_r3_6_double_boxes_at_once_show_no_board_of_this_street_early() -> None:
    """Classic OFC, heads-up double boxes (R4.2), every street at once (R3.6): a board's
    cards of this street reach nobody but its player before the street is complete."""
    service, w, store, clock = watched()
    await configure(service, game="ofc", heads_up_double_boxes="on", simultaneous_streets="on")
    await start(service, [ALICE, BOB], "ofc")
    await play_until(service, w, clock, 2)
    assert w.checked > 30 and w.leaks == []
    assert await replays_show_no_foreign_discard(service, store, w) >= 2


@pytest.mark.parametrize("simultaneous", ["off", "on"])
async def test_r8_5_a_timeout_a_leaver_and_a_computer_player_show_no_card(
    simultaneous: str,
) -> None:
    """Pineapple with a computer player (issue 13): Bob's clock runs out on his first turn
    (R8.5), then he leaves mid-hand (his streets are made for him): no message shows a card
    to whoever must not see it, no replay another's discard."""
    service, w, store, clock = watched()
    await configure(
        service, game="pineapple", safe_autoplay="on", simultaneous_streets=simultaneous
    )
    assert "open" in (await service.new_table(GROUP, ALICE, "pineapple")).text
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    reply = await service.add_bot(GROUP, ALICE, True, "easy")
    assert not reply.alert, reply.text
    for a in (ALICE, BOB):
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and len(t.hand.order) == 3
    w.table = t
    timed_out = left = False
    guard = 0
    while t.hand_no == 1 and guard < 300:
        guard += 1
        hand = t.hand
        if hand is None or hand.is_over:
            break
        acting = {p.user_id for s in hand.to_act if (p := t.player_of(s)) and p.bot is None}
        if ALICE.user_id in acting:
            await auto_street(service, w, ALICE)
        elif BOB.user_id in acting and not timed_out:
            clock.now += 121
            await service.run_due()
            timed_out = True
        elif BOB.user_id in acting and not left:
            assert not (await leave_now(service, GROUP, BOB)).alert
            left = True
            await service.run_due()
        else:  # the computer player's move, or a leaver's street made for him
            clock.now += 5
            await service.run_due()
    assert timed_out and left and guard < 300
    assert w.checked > 20 and w.leaks == []
    assert await replays_show_no_foreign_discard(service, store, w) >= 5


async def test_r8_7_r8_2a_a_tournament_closed_mid_hand_shows_no_hidden_card() -> None:
    """A tournament of three (R8.7) plays two hands, then an admin closes its table during
    the third (R8.2a: it is cancelled after the hand): no message shows a card to whoever
    must not see it, the closing notices included."""
    service, _presenter, store, clock = new_tournament_service(next_hand_delay=5)
    w = Watcher()
    service.register(w)
    t, _tour = await running_tournament(service)
    await play_until(service, w, clock, 2, TOUR_GROUP)
    assert t.hand_no == 3 and t.hand is not None and not t.hand.is_over
    assert not (await service.close_table(TOUR_GROUP, ALICE, True)).alert
    await play_until(service, w, clock, 3, TOUR_GROUP)
    assert not t.seats and t.hand is None  # closed, the pool paid out
    assert w.checked > 30 and w.leaks == []
    assert await replays_show_no_foreign_discard(service, store, w) >= 3
