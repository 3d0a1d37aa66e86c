"""Where features meet, played at random (seeded, service level): a Discord server's two
channels (the card room) with people and computer players at both, tournaments, /leave,
/removebot and a member leaving the server during hands, settings changed mid-hand, stale
and foreign button presses, and restarts at any step. After every step:

- the ledger balances (:func:`storage.check.check_store`) and the house's grants go to
  computer players only (house kush never reaches a member's balance, issue 13);
- no group message shows a card the table does not show (a hole card, a Fantasyland board
  or a discard) while a hand is played (R3.3, R6.3);
- no hand is dealt without a person in it (computer players never play each other);
- a tournament's chips are conserved (R8.7);
- no answer is "something went wrong" and nothing is logged as an error.

Then nobody acts any more: every table must close by itself (R8.2a; a tournament nobody
plays is stopped), with no kush lost. A tournament played to its end (or cancelled) pays each
registered player the prize of their place (or their share) and nothing else (R8.7)."""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Awaitable, Callable

import pytest

from bot.model import Actor, ChatRef, LiveTable, Reply
from bot.presses import StartTournament, decode
from bot.screens import Payload, Screen
from bot.service import TableService
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter

#: hand_seconds of 1–5 s among the values an admin may set (below the minimum, R8.5)
pytestmark = pytest.mark.usefixtures("short_hand_seconds")

P = "discord"
CHATS = (ChatRef(P, "G", "C1", "one"), ChatRef(P, "G", "C2", "two"))
PEOPLE = (
    Actor(P, "1", "Alice", "en"),
    Actor(P, "2", "Bob", "ru"),
    Actor(P, "3", "Carol", "en"),
    Actor(P, "4", "Dan", "ru"),
)
CARD = re.compile(r"(?:10|[2-9TJQKA])[♠♥♦♣]")
SETTINGS = (
    ("kush_per_point", ("1", "2", "50")),
    ("min_buy_in", ("20", "200")),
    ("max_buy_in", ("400", "default")),
    ("settle_per_round", ("on", "off")),
    ("hand_seconds", ("5", "120")),
    ("safe_autoplay", ("on", "off")),
    ("target_points", ("5", "30")),
    ("tournament_chips", ("10", "40")),
    ("payouts", ("50,30,20", "default")),
)
WRONG = ("went wrong", "пошло не так")


class World:
    """One store, a fake clock, and the service (restarted at will) with a presenter whose
    group writes are checked for hidden cards."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.store, self.clock = MemoryStore(), Clock()
        self.leaks: list[tuple[str, str]] = []
        self.dealt: set[tuple[int, int]] = set()
        self.log: list[tuple[object, ...]] = []
        self.service, self.presenter = self._service()

    def _service(self) -> tuple[TableService, FakePresenter]:
        service = TableService(
            self.store, clock=self.clock, rng=random.Random(self.rng.randrange(1000)),
            next_hand_delay=5, timers=False, bot_pace=(1.0, 3.0),
        )  # fmt: skip
        presenter = FakePresenter(platform=P)
        service.register(presenter)
        shown, post = presenter.show_table, presenter.post

        def check(chat_id: str, text: str) -> None:
            t = service.rt.table_at(P, chat_id)
            if t is None or t.hand is None or t.hand.is_over:
                return
            public = {str(c) for c in t.hand.public_cards()}
            self.leaks += [(face, text) for face in CARD.findall(text) if face not in public]

        async def show_table(chat_id: str, screen: Screen, ref: str | None) -> str | None:
            check(chat_id, screen.text)
            return await shown(chat_id, screen, ref)

        async def posted(chat_id: str, text: str, ref: str | None = None) -> bool:
            check(chat_id, text)
            return await post(chat_id, text, ref)

        presenter.show_table = show_table  # type: ignore[method-assign]
        presenter.post = posted  # type: ignore[method-assign]
        return service, presenter

    async def restart(self) -> None:
        await self.service.stop()
        self.service, self.presenter = self._service()
        await self.service.start()

    async def play_street(self, t: LiveTable, actor: Actor) -> str:
        """Press "Arrange for me", then Confirm, on the actor's latest hand of table ``t``."""
        for action in ("a", "c"):
            screens = [s for s in self.presenter.privates.get(actor.user_id, []) if s.table == t.id]
            data = [
                b.data
                for b in (screens[-1].all_buttons() if screens else ())
                if b.data and Payload.decode(b.data).action == action
            ]
            if not data:
                return "no button"
            reply = await self.service.press(actor, data[0])
        return reply.text

    async def old_press(self, actor: Actor) -> Reply:
        """Any button seen lately, in a group or the actor's private chat, pressed again."""
        screens = [s for c in CHATS for s in self.presenter.tables.get(c.chat_id, [])[-6:]]
        screens += self.presenter.privates.get(actor.user_id, [])[-8:]
        data = [b.data for s in screens for b in s.all_buttons() if b.data]
        if not data:
            return Reply("")
        chat = self.rng.choice((*CHATS, None))
        admin = self.rng.random() < 0.5

        async def is_admin() -> bool:
            return admin

        return await self.service.press(actor, self.rng.choice(data), chat, is_admin)

    async def due(self, t: LiveTable) -> None:
        """The table's next deadline (a few seconds on when it is far off or none)."""
        deadline = self.service.rt.next_deadline(t)
        if deadline is None or deadline - self.clock.now > 200:
            self.clock.now += self.rng.choice((1, 5, 20))
        else:
            self.clock.now = max(self.clock.now, deadline)
        await self.service.run_due()

    async def turn(self, t: LiveTable) -> str:
        """The player to act plays their street (a computer player's pace runs out)."""
        assert t.hand is not None
        acting = t.seats[t.owner(t.hand.to_act[0])]
        if acting.bot:
            self.clock.now = max(self.clock.now, t.bot_due or self.clock.now)
            await self.service.run_due()
            return "bot"
        person = next(a for a in PEOPLE if a.user_id == acting.user_id)
        return await self.play_street(t, person)

    async def step(self) -> tuple[object, ...]:
        rng, s = self.rng, self.service
        chat, a = rng.choice(CHATS), rng.choice(PEOPLE[:3])
        t = s.table_in(chat)
        if t is None:
            if rng.random() < 0.3:
                game = rng.choice(("pineapple", "ofc", "chinese"))
                opened = s.new_tournament if rng.random() < 0.25 else s.new_table
                return ("open", (await opened(chat, a, game)).text)
            return ("clock",) if await self.due_any() else ("idle",)
        if t.hand is not None and t.hand.to_act and rng.random() < 0.6:
            return ("turn", await self.turn(t))
        ops: dict[str, Callable[[], Awaitable[Reply]]] = {
            "join": lambda: s.join(chat, a),
            "ready": lambda: s.ready(chat, a),
            "leave": lambda: s.leave(chat, a),
            "topup": lambda: s.top_up(chat, a, rng.choice(("", "50", "900"))),
            "sitout": lambda: s.sit_out(chat, a),
            "back": lambda: s.back(chat, a),
            "addbot": lambda: s.add_bot(chat, a, True, rng.choice(("easy", "normal", "strong"))),
            "removebot": lambda: s.remove_bot(chat, a, True),
            "old press": lambda: self.old_press(a),
            "setting": lambda: s.settings(chat, a, True, self._setting()),
            "start": lambda: self.start(chat, t, a),
        }
        op = rng.choice([*ops, "join", "ready", "due", "due", "rare"])
        if op == "due":
            await self.due(t)
            return ("due",)
        if op == "rare":
            k = rng.random()
            if k < 0.3:
                await self.restart()
                return ("restart",)
            if k < 0.45:
                return ("gone", a.name, await s.member_gone(P, "G", a.user_id))
            if k < 0.6:
                return ("close", (await s.close_table(chat, a, True)).text)
            return ("daily", (await s.daily(chat, a)).text)
        return (op, a.name, (await ops[op]()).text)

    def _setting(self) -> list[str]:
        name, values = self.rng.choice(SETTINGS)
        return [name, self.rng.choice(values)]

    async def start(self, chat: ChatRef, t: LiveTable, actor: Actor) -> Reply:
        screens = self.presenter.tables.get(chat.chat_id, [])[-1:]
        data = [
            b.data
            for s in screens
            for b in s.all_buttons()
            if b.data and isinstance(decode(b.data), StartTournament)
        ]
        if t.tournament is None or not data:
            return Reply("")

        async def admin() -> bool:
            return True

        return await self.service.press(actor, data[0], chat, admin)

    async def due_any(self) -> bool:
        tables = list(self.service.rt.tables.values())
        if tables:
            await self.due(self.rng.choice(tables))
        return bool(tables)

    async def check(self, entry: tuple[object, ...], caplog: pytest.LogCaptureFixture) -> None:
        self.log.append(entry)
        recent = self.log[-8:]
        assert not any(w in str(x) for x in entry for w in WRONG), recent
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert errors == [], (errors, recent)
        assert await check_store(self.store) == [], recent
        assert self.leaks == [], (self.leaks[:2], recent)
        for t in self.service.rt.tables.values():
            if t.hand is not None and (t.id, t.hand_no) not in self.dealt:
                self.dealt.add((t.id, t.hand_no))
                people = [b for b in t.hand.order if not t.seats[t.owner(b)].bot]
                assert people, ("a hand of computer players only", recent)
            tour = t.tournament
            if tour is not None and tour.started_at is not None:
                chips = tour.chips_in_play + tour.chips_removed
                assert chips == len(tour.players) * tour.config.starting_chips, recent
        community = await self.store.community(P, "G")
        # the house's grants go to computer players' accounts only
        house = [r for r in await self.store.ledger(community.id) if r.actor == "house"]
        members = {
            p.id for a in PEOPLE if (p := await self.store.find_player(community.id, a.user_id))
        }
        assert not [r for r in house if r.player_id in members], recent

    async def drain(self, caplog: pytest.LogCaptureFixture) -> None:
        """Nobody acts any more (restarts still happen): every table closes by itself."""
        for _ in range(3000):
            tables = list(self.service.rt.tables.values())
            if not tables:
                return
            deadlines = [d for t in tables if (d := self.service.rt.next_deadline(t)) is not None]
            assert deadlines, ("a table waits for nothing", [t.id for t in tables])
            self.clock.now = max(self.clock.now, min(deadlines))
            await self.service.run_due()
            if self.rng.random() < 0.03:
                await self.restart()
            await self.check(("drain",), caplog)
        raise AssertionError("a table nobody plays at never closes")


@pytest.mark.parametrize("seed", range(3))
async def test_the_card_room_with_computer_players_tournaments_and_restarts(
    seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    w = World(seed)
    tour_chips = ["tournament_chips", w.rng.choice(("10", "40"))]
    assert not (await w.service.settings(CHATS[0], PEOPLE[0], True, tour_chips)).alert
    for _ in range(400):
        await w.check(await w.step(), caplog)
    await w.drain(caplog)
    assert len(w.dealt) >= 5  # (the seeds do play hands)
    await w.service.stop()


@pytest.mark.parametrize("seed", range(8))
async def test_a_tournament_with_leaves_timeouts_and_restarts_pays_each_place(
    seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    """2–4 players, any game, small chips; players time out (away), leave, leave the server,
    press stale buttons; restarts at any step, the final hand's too. Once it is over each
    registered player's balance is their starting balance less the buy-in plus their prize
    (or, cancelled, their share), and the shares are the pool."""
    caplog.set_level(logging.ERROR)
    w = World(100 + seed)
    rng, chat = w.rng, CHATS[0]
    for name, value in (
        ("tournament_chips", rng.choice(("10", "40", "200"))),
        ("tournament_buy_in", rng.choice(("1", "7", "100"))),
        ("payouts", rng.choice(("default", "50,30,20", "60,40", "40,30,20,10"))),
        ("level_minutes", rng.choice(("1", "5"))),
        ("target_points", rng.choice(("3", "10"))),
    ):
        assert not (await w.service.settings(chat, PEOPLE[0], True, [name, value])).alert
    await w.service.new_tournament(chat, PEOPLE[0], rng.choice(("pineapple", "ofc", "chinese")))
    for a in PEOPLE[: rng.choice((2, 3, 4))]:
        await w.service.join(chat, a)
    t = w.service.table_in(chat)
    assert t is not None
    await w.start(chat, t, PEOPLE[0])
    last = t
    for _ in range(3000):
        t = w.service.table_in(chat)
        if t is None:
            break
        last, k, a = t, rng.random(), rng.choice(PEOPLE)
        if k < 0.03:
            await w.restart()
            entry: tuple[object, ...] = ("restart",)
        elif k < 0.034:
            entry = ("leave", a.name, (await w.service.leave(chat, a)).text)
        elif k < 0.036:
            entry = ("gone", a.name, await w.service.member_gone(P, "G", a.user_id))
        elif k < 0.2:
            entry = ("old press", a.name, (await w.old_press(a)).text)
        elif k < 0.4 or t.hand is None or not t.hand.to_act:
            await w.due(t)
            entry = ("due",)
        else:
            entry = ("turn", await w.turn(t))
        await w.check(entry, caplog)
    else:
        raise AssertionError("the tournament never ended")
    tour = last.tournament
    assert tour is not None and tour.started_at is not None
    shares = tour.prizes if tour.finished is not None else tour.cancel_shares()
    assert sum(shares.values()) == tour.pool
    community = await w.store.community(P, "G")
    for a in PEOPLE:
        player = await w.store.find_player(community.id, a.user_id)
        if player is not None and player.id in tour.players:
            won = shares[tour.players.index(player.id)]
            assert player.balance == 1000 - tour.config.buy_in + won, (a.name, shares, w.log[-8:])
    assert await w.store.stacks(last.id) == {}
    await w.service.stop()
