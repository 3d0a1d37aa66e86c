"""Break session 25: a hidden-information hunt off the paths the fifteenth session's audit
(tests/bot/test_break15.py) walked. Its watcher checks every message's text when it is
written; this one also reads every button of it (labels and payloads: a payload's card code
is as good as its face), the showdown pictures' data, and every log line at INFO and above
(whoever runs the bot may sit at its tables, R3.3), while computer players sit at the table
(issue 13), a progressive Fantasyland of 15–17 cards is played (R6.2) beside them, a player
sleeps through a hand with ``safe_autoplay`` (R8.5) and another leaves in the middle of one."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import game.hand
from bot import pictures
from bot.model import Actor
from bot.screens import Screen
from bot.service import TableService
from game.board import Board, assess_board
from game.cards import DECK, Card, parse_card
from game.hand import Hand
from tests.bot.conftest import Clock
from tests.bot.fakes import FOULED_NOTICES, record_drawings
from tests.bot.test_break15 import Watcher, faces, replays_show_no_foreign_discard, watched
from tests.bot.test_service import leave_now
from tests.bot.test_service_classic import ALICE, BOB, CAROL, GROUP, auto_street, configure
from tests.bot.tg_world import payload_cards

PLAYERS = {a.user_id: a for a in (ALICE, BOB, CAROL)}
#: a card's code as a payload or a log line may write it (``Ks``, ``Td``), not inside a word
CODE_RE = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][shdc])(?![0-9A-Za-z])")


def codes(text: str) -> set[Card]:
    return {parse_card(c) for c in CODE_RE.findall(text)}


def grant(monkeypatch: pytest.MonkeyPatch, cards: Iterator[int]) -> None:
    """The next boards judged at showdowns earn a Fantasyland of the number of cards
    ``cards`` yields (0: none) when they are not fouled (R6.2: 14–17 with
    ``progressive_fantasyland``)."""

    def judged(board, options, in_fantasyland=False):  # type: ignore[no-untyped-def]
        real = assess_board(board, options, in_fantasyland)
        n = next(cards, 0)
        return real._replace(fantasyland_cards=n) if n and not real.fouled else real

    monkeypatch.setattr(game.hand, "assess_board", judged)


@dataclass
class StrictWatcher(Watcher):
    """:class:`~tests.bot.test_break15.Watcher` that also checks each button of a screen: its
    label, and its payload's argument read for card codes."""

    buttons_checked: int = 0
    group_payloads: list[str] = field(default_factory=list)

    def _allowed(self, user_id: str | None) -> set[Card]:
        """As the audit's, with the dummy board (R4.3) once shown at the showdown."""
        out = super()._allowed(user_id)
        t = self.table
        if t is not None and t.hand is not None and t.hand.result is not None:
            if t.hand.result.dummy is not None:
                out |= set(t.hand.result.dummy.cards())
        elif t is not None and t.hand is None and (t.last_result or {}).get("dummy"):
            out |= set(Board.from_json(t.last_result["dummy"]).cards())
        return out

    def check_screen(self, where: str, user_id: str | None, screen: Screen) -> None:
        for b in screen.all_buttons():
            self.buttons_checked += 1
            self.check(where + " button", user_id, b.label)
            shown = {parse_card(c) for c in payload_cards(b.data)}
            if shown:
                if user_id is None:
                    self.group_payloads.append(f"{where}: {b.data}")
                self.check(where + " payload", user_id, " ".join(c.face for c in shown))

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        self.check_screen("table", None, screen)
        return await super().show_table(chat_id, screen, ref)

    async def show_private(
        self, user_id: str, screen: Screen, ref: str | None, answered: str | None = None
    ) -> str | None:
        self.check_screen("private", user_id, screen)
        return await super().show_private(user_id, screen, ref, answered)


class Lines(logging.Handler):
    """Every log line at INFO and above, with its traceback."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def strict_watched() -> tuple[TableService, StrictWatcher, Any, Clock]:
    service, _w, store, clock = watched()
    w = StrictWatcher()
    service.register(w)
    return service, w, store, clock


async def drive(
    service: TableService,
    w: StrictWatcher,
    clock: Clock,
    hands: int,
    *,
    sleepers: dict[int, str] | None = None,
    leavers: dict[int, str] | None = None,
) -> None:
    """Play until ``hands`` hands are over: people by "Arrange for me" and Confirm, computer
    players when their pace is due; in hand ``n`` the player ``sleepers[n]`` never presses
    (their time runs out, R8.5) and ``leavers[n]`` types /leave at their first turn."""
    t = service.table_in(GROUP)
    assert t is not None
    w.table = t
    sleepers, leavers = sleepers or {}, leavers or {}
    for _ in range(800):
        if t.hand_no > hands or not t.seats:
            return
        if t.hand is None or t.hand.is_over:
            clock.now += 6
            await service.run_due()
            continue
        hand = t.hand
        person = None
        for s in hand.to_act:
            seat = t.seats.get(t.owner(s))
            if seat is None or seat.bot or seat.leaving:
                continue
            if sleepers.get(t.hand_no) == seat.user_id:
                continue
            person = seat
            break
        if person is not None:
            if leavers.get(t.hand_no) == person.user_id:
                leaver = PLAYERS[person.user_id]
                # /leave in the hand asks first (R8.5; a tournament's always, R8.7)
                reply = await leave_now(service, GROUP, leaver)
                assert not reply.alert, reply.text
                w.check("reply", None, reply.text)  # (said in the group)
                continue
            await auto_street(service, w, PLAYERS[person.user_id])
            continue
        # a computer player's pace, or a sleeper's clock (R8.5: budget and bank)
        clock.now = t.bot_due if t.bot_due is not None else clock.now + 200
        await service.run_due()
    raise AssertionError("the hands did not end")


def discards_of(store: Any) -> dict[int, set[Card]]:
    """Every discard of every recorded hand, by the hand's storage id."""
    out: dict[int, set[Card]] = {}
    for record in list(store._hands.values()):
        if "setup" not in record.hand:
            continue
        hand = Hand.from_json(record.hand)
        out[record.id] = {c for s in hand.order for c in hand.discards_of(s)}
    return out


async def scan(
    monkeypatch: pytest.MonkeyPatch,
    options: dict[str, str],
    people: list[Actor],
    bots: int,
    earned: tuple[int, ...],
    hands: int,
    sleepers: dict[int, str] | None = None,
    leavers: dict[int, str] | None = None,
    *,
    tournament: bool = False,
) -> StrictWatcher:
    """Play ``hands`` hands of ``options`` with ``people`` and ``bots`` computer players, the
    first boards of hand 1 earning Fantasyland of ``earned`` cards; assert that no group
    message, button, payload, picture or log line shows a card to whoever must not see it,
    nor ever a discard. Returns the watcher."""
    service, w, store, clock = strict_watched()
    drawn = record_drawings(monkeypatch, pictures.draw_json, lambda args, _pid: args[0])
    await configure(service, **options)
    lines = Lines()
    root = logging.getLogger()
    level = root.level
    root.addHandler(lines)
    root.setLevel(logging.INFO)
    try:
        grant(monkeypatch, iter(earned))
        if tournament:  # (registered players; it starts when the seats are full, R8.7)
            assert not (await service.new_tournament(GROUP, people[0], options["game"])).alert
            for a in people:
                assert not (await service.join(GROUP, a)).alert
        else:
            assert "open" in (await service.new_table(GROUP, people[0], options["game"])).text
            for _ in range(bots):
                assert not (await service.add_bot(GROUP, people[0], True, "normal")).alert
            for a in people:
                assert not (await service.join(GROUP, a)).alert
            for a in people:
                assert not (await service.ready(GROUP, a)).alert
        refused = await service.hand_picture(GROUP, people[0])  # /hand in the group: refused
        assert refused.picture is None
        await drive(service, w, clock, hands, sleepers=sleepers, leavers=leavers)
    finally:
        root.removeHandler(lines)
        root.setLevel(level)
    assert w.buttons_checked > 30
    assert w.leaks == []
    assert w.group_payloads == []
    thrown = discards_of(store)
    every = set().union(*thrown.values()) if thrown else set()
    assert drawn
    for data in drawn:
        assert not faces(repr(data)) & every, data
    logged = [line for line in lines.lines if (faces(line) | codes(line)) & every]
    assert logged == []
    assert not {c for c in DECK if c.face in "\n".join(lines.lines)}, lines.lines
    frames = await replays_show_no_foreign_discard(service, store, w)
    assert frames > 0
    return w


@pytest.mark.parametrize("earned", [(17,), (0, 16), (15, 17)])
async def test_r3_3_r6_2_r6_3_r8_5_no_hidden_card_with_computer_players_sleepers_and_leavers(
    monkeypatch: pytest.MonkeyPatch, earned: tuple[int, ...]
) -> None:
    """Pineapple with progressive Fantasyland and ``safe_autoplay``: Alice, Bob and a computer
    player. Hand 1 earns Fantasyland of ``earned`` cards for its first boards (R6.2), played
    in hand 2 (R6.3: hidden until showdown, alone or all but one at once) while Bob sleeps
    through it (R8.5, his moves made by the strategy); in hand 3 Alice leaves at her first
    turn (her cards placed for her)."""
    options = {"game": "pineapple", "progressive_fantasyland": "on", "safe_autoplay": "on"}
    w = await scan(
        monkeypatch, options, [ALICE, BOB], 1, earned, 3,
        sleepers={2: BOB.user_id}, leavers={3: ALICE.user_id},
    )  # fmt: skip
    assert 2 in w.fantasyland_hands


@pytest.mark.parametrize(
    "options",
    [
        {"game": "ofc", "dummy_box": "on", "deuce_of_spades": "on"},
        {"game": "ofc", "simultaneous_streets": "on"},
        {"game": "pineapple", "simultaneous_streets": "on"},
    ],
)
async def test_r4_1_r4_3_r6_3_r8_5_three_seats_with_a_computer_player(
    monkeypatch: pytest.MonkeyPatch, options: dict[str, str]
) -> None:
    """Classic OFC (with the dummy board, R4.3, or all at once, R3.6) and Pineapple all at
    once: Alice, Bob and a computer player; two boards earn Fantasyland (all but one at once,
    R6.3), Bob sleeps through hand 2 and Alice leaves in hand 3."""
    earned = (14, 14) if options["game"] == "pineapple" else (13, 13)  # (R6.2)
    w = await scan(
        monkeypatch, options, [ALICE, BOB], 1, earned, 3,
        sleepers={2: BOB.user_id}, leavers={3: ALICE.user_id},
    )  # fmt: skip
    assert 2 in w.fantasyland_hands


async def test_r4_2_r6_3_double_boxes_against_a_computer_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Heads-up classic OFC with double boxes (R4.2) against a computer player: one of
    Alice's boards earns Fantasyland and is played hidden beside her open one (R6.3)."""
    options = {"game": "ofc", "heads_up_double_boxes": "on"}
    w = await scan(monkeypatch, options, [ALICE], 1, (13, 0, 13), 3, sleepers={3: ALICE.user_id})
    assert 2 in w.fantasyland_hands


async def test_r4_5_r7_7_chinese_poker_with_a_computer_player_and_a_sleeper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Closed Chinese Poker (R4.5) with Alice, Bob and a computer player; Bob sleeps through
    hand 2 (R7.7: his board counts as fouled, the game ends)."""
    options = {"game": "chinese"}
    await scan(monkeypatch, options, [ALICE, BOB], 1, (), 3, sleepers={2: BOB.user_id})


@pytest.mark.parametrize("leaver", ["1", "3"])
async def test_r8_7_r6_3_a_tournament_player_leaving_mid_hand_shows_nothing_hidden(
    monkeypatch: pytest.MonkeyPatch, leaver: str
) -> None:
    """A Pineapple tournament of three (R8.7): hand 1 earns Fantasyland for two boards, so
    hand 2 plays all at once with the third board hidden too (R6.3); a player leaves at
    their first turn of hand 2, knocked out at that moment, their chips out of play."""
    w = await scan(
        monkeypatch, {"game": "pineapple", "tournament_chips": "1000"}, [ALICE, BOB, CAROL],
        0, (14, 14), 3, leavers={2: leaver}, tournament=True,
    )  # fmt: skip
    assert 2 in w.fantasyland_hands


def restarted(store: Any, clock: Clock) -> tuple[TableService, StrictWatcher]:
    """A new service on ``store`` (a restart), watched strictly from its first write."""
    import random

    service = TableService(
        store, clock=clock, rng=random.Random(6), next_hand_delay=5, timers=False
    )
    w = StrictWatcher()
    service.register(w)
    return service, w


async def test_r6_3_r4_5_a_restart_in_a_fantasyland_hand_or_a_reveal_shows_nothing_hidden(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot restarts while a Fantasyland board waits hidden (R6.3) and again while a
    Chinese Poker reveal has shown only the bottom boxes (R4.5): the messages a restart
    writes anew (the table message, each private hand) show nothing hidden."""
    service, w, store, clock = strict_watched()
    await configure(service, game="pineapple")
    grant(monkeypatch, iter([14]))
    await service.new_table(GROUP, ALICE, "pineapple")
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    for a in (ALICE, BOB, CAROL):
        assert not (await service.ready(GROUP, a)).alert
    await drive(service, w, clock, 1)
    t = service.table_in(GROUP)
    assert t is not None
    for _ in range(20):  # into hand 2, the ordinary boards' first streets played
        if t.hand is not None and t.hand_no == 2:
            break
        clock.now += 6
        await service.run_due()
    hand = t.hand
    assert hand is not None and any(hand.is_fantasyland(s) for s in hand.order)
    for _ in range(3):
        seat = t.seats[t.owner(hand.to_act[0])]
        await auto_street(service, w, PLAYERS[seat.user_id])
    assert w.leaks == []
    await service.stop()
    service2, w2 = restarted(store, clock)
    await service2.start()
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.hand is not None and t2.hand_no == 2
    w2.table = t2
    await service2.rt.settled(t2)
    assert w2.checked >= 1
    await drive(service2, w2, clock, 2)
    assert w2.leaks == [] and w2.group_payloads == []
    await service2.stop()


async def test_r4_5_r7_5_a_restart_during_a_chinese_poker_reveal_shows_nothing_hidden() -> None:
    service, w, store, clock = strict_watched()
    await configure(service, game="chinese", target_points="5")
    await service.new_table(GROUP, ALICE, "chinese")
    for a in (ALICE, BOB, CAROL):
        assert not (await service.join(GROUP, a)).alert
    for a in (ALICE, BOB, CAROL):
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    w.table = t
    while not t.hand.is_over:
        seat = t.seats[t.owner(t.hand.to_act[0])]
        await auto_street(service, w, PLAYERS[seat.user_id])
    assert t.reveal is not None and t.reveal["stage"] == 1
    await service.stop()
    service2, w2 = restarted(store, clock)
    await service2.start()
    t2 = service2.table_in(GROUP)
    assert t2 is not None and t2.reveal is not None and t2.reveal["stage"] == 1
    w2.table = t2
    await service2.rt.settled(t2)
    assert w2.checked >= 1
    await drive(service2, w2, clock, 1)
    assert w2.leaks == [] and w2.group_payloads == []
    await service2.stop()


# -- end to end: what the real adapter sends the group ------------------------------------


async def test_r3_3_r6_2_telegram_group_sees_no_hidden_card_beside_a_computer_player(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the real python-telegram-bot and the fake Bot API: Alice, Bob and a computer
    player at Pineapple with progressive Fantasyland; the first board of hand 1 earns 16
    cards and the second 14 (R6.2), played in hand 2 all at once with the third board hidden
    too (R6.3). Every group write (texts, edits, photo
    captions, inline buttons and their payloads) shows only public cards, every drawn
    showdown picture no discard, and no log line at INFO or above a card."""
    import asyncio

    from tests.bot.tg_world import ALICE as TG_ALICE
    from tests.bot.tg_world import BOB as TG_BOB
    from tests.bot.tg_world import GROUP_ID, world

    drawn = record_drawings(monkeypatch, pictures.draw_json, lambda args, _pid: args[0])
    grant(monkeypatch, iter([16, 14]))
    lines = Lines()
    root = logging.getLogger()
    level = root.level
    root.addHandler(lines)
    root.setLevel(logging.INFO)
    try:
        async with world(tmp_path, bot_pace=(0.2, 0.3)) as w:
            w.fake.started_users.update({TG_ALICE.id, TG_BOB.id})
            w.fake.admins[GROUP_ID] = {TG_ALICE.id}
            leaks = w.watch_leaks()
            writes = len(w.fake.calls)
            for name, value in (("progressive_fantasyland", "on"), ("safe_autoplay", "on")):
                reply = await w.say(TG_ALICE, f"/settings {name} {value}")
                assert reply["text"].startswith(("Saved: ", "Already so: ")), reply["text"]
            await w.say(TG_ALICE, "/newtable")
            await w.say(TG_ALICE, "/addbot normal")
            await w.settle()
            for u in (TG_ALICE, TG_BOB):
                await w.press_lobby(u, "j")
            for u in (TG_ALICE, TG_BOB):
                await w.press_lobby(u, "r")
            t = next(iter(w.service.tables.values()))
            people = {str(u.id): u for u in (TG_ALICE, TG_BOB)}
            loop = asyncio.get_running_loop()
            end = loop.time() + 120
            while t.hand_no <= 2 and loop.time() < end:
                hand = t.hand
                mover = None
                if hand is not None and not hand.is_over:
                    for s in hand.to_act:
                        seat = t.seats.get(t.owner(s))
                        if seat is not None and seat.user_id in people:
                            mover = people[seat.user_id]
                            break
                if mover is None:
                    await asyncio.sleep(0.02)
                    continue
                await w.settle()
                for action in ("a", "c"):
                    data = w.hand_buttons(mover).get((action, ""))
                    if data is None:  # (the hand message not written yet)
                        await asyncio.sleep(0.02)
                        break
                    answer = await w.press(mover, mover.id, w.private(mover) or {}, data)
                    if answer.get("text") in FOULED_NOTICES:  # asks first (R2.3)
                        answer = await w.press(mover, mover.id, w.private(mover) or {}, data)
                    assert not answer.get("show_alert"), answer
            assert t.hand_no == 3, "the two hands did not end"
            await w.settle()
            exported = await w.store.export_hands(t.id)
            thrown = {c for h in exported for c in _discards(h)}
            played = [Hand.from_json(h["hand"]) for h in exported if "setup" in h["hand"]]
            sizes = [sorted(x.fantasyland_cards_of(s) for s in x.order) for x in played]
            assert sizes == [[0, 0, 0], [0, 14, 16]], sizes  # (R6.3: all at once)
            group = [
                c for c in w.fake.calls[writes:] if int(c.params.get("chat_id") or 0) == GROUP_ID
            ]
            assert leaks == [] and len(group) > 10
    finally:
        root.removeHandler(lines)
        root.setLevel(level)
    assert len(thrown) >= 8
    assert len(drawn) == 2
    for data in drawn:
        assert not faces(repr(data)) & thrown, data
    assert [line for line in lines.lines if (faces(line) | codes(line)) & thrown] == []


def _discards(record: Any) -> set[Card]:
    hand = record.get("hand") if isinstance(record, dict) else getattr(record, "hand", None)
    if not hand or "setup" not in hand:
        return set()
    h = Hand.from_json(hand)
    return {c for s in h.order for c in h.discards_of(s)}


async def test_r3_3_r6_2_discord_channel_sees_no_hidden_card_beside_a_computer_player(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the real discord.py and the fake Discord: Alice (DM hand), Bob ("My cards",
    his DMs closed) and a computer player at Pineapple with progressive Fantasyland; the first
    board of hand 1 earns 15 cards and the second 17 (R6.2), played in hand 2 all at once with
    the third board hidden too (R6.3). Every public
    channel write (content, embeds, every component's label, custom_id and select option,
    attachments' names and descriptions) shows only public cards, never a discard."""
    import asyncio

    from tests.bot.discord.dc_world import ALICE as DC_ALICE
    from tests.bot.discord.dc_world import BOB as DC_BOB
    from tests.bot.discord.dc_world import world as dc_world

    grant(monkeypatch, iter([15, 17]))
    async with dc_world(tmp_path, bot_pace=(0.2, 0.3)) as w:
        w.fake.closed_dms.add(DC_BOB.id)
        violations = w.watch_leaks()
        public = w.public_texts()
        await w.slash(
            DC_ALICE, "settings", {"name": "progressive_fantasyland", "value": "on"}, admin=True
        )
        await w.slash(DC_ALICE, "new")
        await w.slash(DC_ALICE, "addbot", {"level": "normal"})
        for u in (DC_ALICE, DC_BOB):
            await w.slash(u, "join")
        for u in (DC_ALICE, DC_BOB):
            await w.slash(u, "ready")
        t = w.table()
        via = {str(DC_ALICE.id): (DC_ALICE, "dm"), str(DC_BOB.id): (DC_BOB, "ephemeral")}
        loop = asyncio.get_running_loop()
        end = loop.time() + 120
        # (hand, seat, street) confirmed: a Confirm answered by a deferral (a loaded machine)
        # leaves the seat to act until its step runs; its street is not played twice
        done: set[tuple[int, int, int]] = set()
        while t.hand_no <= 2 and loop.time() < end:
            hand = t.hand
            mover = None
            if hand is not None and not hand.is_over:
                for s in hand.to_act:
                    seat = t.seats.get(t.owner(s))
                    turn = (t.hand_no, s, hand.street_of(s))
                    if seat is not None and seat.user_id in via and turn not in done:
                        mover = via[seat.user_id]
                        break
            if mover is None:
                await asyncio.sleep(0.02)
                continue
            user, how = mover
            for action in ("a", "c"):
                msg = await w.hand_message(user, how)
                cid = w.buttons(msg).get((action, ""))
                if cid is None:  # (the hand message not written yet: its writer's turn)
                    await asyncio.sleep(0.02)
                    break
                record = await w.press(user, msg, cid)
                if (w.notice(record) or {}).get("content") in FOULED_NOTICES:  # asks first
                    record = await w.press(user, await w.hand_message(user, how), cid)
                assert w.notice(record) is None, w.notice(record)
                if action == "c":
                    done.add(turn)
        assert t.hand_no == 3, "the two hands did not end"
        await w.adapter.presenter.flush()
        exported = await w.store.export_hands(t.id)
        played = [Hand.from_json(h["hand"]) for h in exported if "setup" in h["hand"]]
        sizes = [sorted(x.fantasyland_cards_of(s) for s in x.order) for x in played]
        assert sizes == [[0, 0, 0], [0, 15, 17]], sizes  # (R6.3: all at once)
        thrown = {c for h in exported for c in _discards(h)}
        assert len(thrown) >= 8
        assert violations == [] and len(public) > 10


async def test_r4_5_r7_5_telegram_chinese_poker_claims_show_no_box_before_its_reveal(
    tmp_path: Any,
) -> None:
    """Closed Chinese Poker (R4.5) to 5 points through the real python-telegram-bot: Alice and
    Bob arrange, the reveal shows bottom, middle, top with pauses, and whoever is offered
    the claim (R7.5) takes it at once, so games end with boxes never revealed. No group write
    (texts, edits, captions, buttons) shows a box before its stage of the reveal, nor one a
    claim left face down."""
    import asyncio

    from tests.bot.tg_world import ALICE as TG_ALICE
    from tests.bot.tg_world import BOB as TG_BOB
    from tests.bot.tg_world import GROUP_ID, world

    async with world(tmp_path) as w:
        w.fake.started_users.update({TG_ALICE.id, TG_BOB.id})
        w.fake.admins[GROUP_ID] = {TG_ALICE.id}
        leaks = w.watch_leaks()
        for name, value in (("target_points", "5"), ("reveal_pause_seconds", "0")):
            reply = await w.say(TG_ALICE, f"/settings {name} {value}")
            assert reply["text"].startswith(("Saved: ", "Already so: ")), reply["text"]
        await w.say(TG_ALICE, "/newtable chinese")
        for u in (TG_ALICE, TG_BOB):
            await w.press_lobby(u, "j")
        for u in (TG_ALICE, TG_BOB):
            await w.press_lobby(u, "r")
        t = next(iter(w.service.tables.values()))
        people = {str(u.id): u for u in (TG_ALICE, TG_BOB)}
        claims = 0
        loop = asyncio.get_running_loop()
        end = loop.time() + 120
        while t.hand_no <= 6 and loop.time() < end:
            await w.settle()
            hand = t.hand
            offer = (t.reveal or {}).get("claim") if hand is not None else None
            if offer:
                claimant = people[t.seats[offer["seats"][0]].user_id]
                msg = next(
                    m
                    for m in reversed(w.fake.chat_messages(GROUP_ID))
                    if any(str(b.get("text")).startswith("🏆") for b in w.fake.buttons(m))
                )
                data = next(b["callback_data"] for b in w.fake.buttons(msg) if "🏆" in b["text"])
                await w.press(claimant, GROUP_ID, msg, data)
                claims += 1
                continue
            if hand is None or hand.is_over:
                await asyncio.sleep(0.02)
                continue
            for s in hand.to_act:
                user = people[t.seats[t.owner(s)].user_id]
                for action in ("a", "c"):
                    data = w.hand_buttons(user).get((action, ""))
                    if data is None:
                        await asyncio.sleep(0.02)
                        break
                    answer = await w.press(user, user.id, w.private(user) or {}, data)
                    assert not answer.get("show_alert"), answer
                break
        await w.settle()
        records = await w.store.export_hands(t.id)
        revealed = [h["result"].get("revealed") for h in records if "setup" in h["hand"]]
        assert claims >= 1 and any(n is not None and n < 3 for n in revealed), revealed
        assert leaks == []
