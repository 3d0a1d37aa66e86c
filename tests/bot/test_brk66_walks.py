"""Break-it session brk66: random walks through tournaments (R8.7) and cash tables with
computer players, mixing in what the walks of :mod:`tests.bot.test_chaos` leave out: an
admin's ``/kick`` (by name, at any moment: registering, mid-level, mid-hand), ``/grant``
(given and taken) to a seated player, a member leaving the group (``member_left``), the
bot removed from the group and added back, an admin's ``/closetable`` far more often, and
restarts between any two of them.

After every step: the table's snapshot reads back, the ledger is balanced (``storage
check``: every row balanced, balances and stacks equal the kush minted), a running
tournament's chips are conserved, and no group message written during a step that left the
same hand running shows a card that hand has not made public. At the end nobody presses
any more and the clocks must finish the hand and any running tournament (no table waits
forever)."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import pytest

from bot.screens import Payload
from game.cards import shuffled_deck
from storage.api import Store
from storage.check import check_store
from tests.bot.test_chaos import GROUP, PEOPLE, Mark, TournamentWalk, Walk

pytestmark = pytest.mark.usefixtures("short_hand_seconds")

SLOW = os.environ.get("OFC_SLOW") == "1"
SEEDS = range(200) if SLOW else (3, 11, 42)
ADMIN_COMMANDS = ["kick", "kick", "grant", "gone", "chat", "close"]


class AdminWalk(Walk):
    """The admin's commands and departures both walks add (:meth:`admin_command`), the press
    that reads the private screen anew, and the step checks (:meth:`after_step`)."""

    async def admin_command(self, cmd: str) -> str:
        s, rng = self.service, self.rng
        admin = PEOPLE[0]
        target = rng.choice(PEOPLE)
        t = s.table_in(GROUP)
        if cmd == "kick":
            how = rng.random()
            arg = target.name if how < 0.5 else target.user_id if how < 0.8 else "me"
            reply = await s.kick(GROUP, admin, True, arg)
        elif cmd == "grant":
            amount = rng.choice(["50", "1000", "-1", "-300", "-100000"])
            reply = await s.grant(GROUP, admin, True, target.user_id, amount, f"k{rng.random()}")
        elif cmd == "gone":
            left = await s.member_left(GROUP, target)
            return f"{target.name} left the group: {left.text[:50] if left else None!r}"
        elif cmd == "chat":
            if t is not None and rng.random() < 0.5:
                await s.chat_left(GROUP.platform, GROUP.chat_id)
                return "the bot removed from the group"
            await s.chat_back(GROUP.platform, GROUP.chat_id)
            return "the bot added back"
        else:
            reply = await s.close_table(GROUP, admin, True)
        assert "Could not save" not in reply.text, "storage refused a step"
        return f"admin {cmd} {target.name}: {reply.text[:60]!r}"

    async def press(self) -> None:
        await _press(self)

    def mark(self) -> Mark:
        return _mark(self)

    async def after_step(self, before: Mark) -> None:
        """The snapshot and tournament checks (:meth:`check`), no hidden card shown in the
        group (:func:`_hidden_shown`), and the ledger balanced (``storage check``)."""
        self.check()
        await _hidden_shown(self, before)
        problems = await check_store(self.store)
        assert problems == [], problems


async def _hidden_shown(walk: Walk, before: Mark) -> None:
    """No group message written during the step shows a card the hand (the same one as
    before the step, still running) has not made public; nor does the group's answer to
    /history, /balance, /top or /replay (of the hand's number or the one before) typed now."""
    t = walk.service.table_in(GROUP)
    if before is None or t is None or t.hand is None or t.hand.is_over or t.reveal is not None:
        return
    table_id, hand_no, screens, posts = before
    if (t.id, t.hand_no) != (table_id, hand_no):
        return
    public = {str(c) for c in t.hand.public_cards()}
    hidden = {str(c) for c in shuffled_deck(rng=random.Random(0))} - public
    texts = [sc.text for sc in walk.presenter.tables.get(GROUP.chat_id, [])[screens:]]
    texts += [text for chat, text in walk.presenter.posts[posts:] if chat == GROUP.chat_id]
    s, who = walk.service, walk.rng.choice(PEOPLE)
    asked = [
        await s.history(GROUP, who),
        await s.balance(GROUP, who),
        await s.top(GROUP, who),
        await s.replay(GROUP, who, str(t.hand_no)),
        await s.replay(GROUP, who, str(max(1, t.hand_no - 1))),
    ]
    texts += [r.text for r in asked]
    for text in texts:
        shown = {c for c in hidden if c in text}
        assert not shown, f"hidden cards in the group: {shown}: {text}"


def _mark(walk: Walk) -> Mark:
    t = walk.service.table_in(GROUP)
    if t is None or t.hand is None:
        return None
    screens = len(walk.presenter.tables.get(GROUP.chat_id, []))
    return t.id, t.hand_no, screens, len(walk.presenter.posts)


async def _press(walk: Walk) -> None:
    """:meth:`~tests.bot.test_chaos.Walk.press`, reading the private screen anew before
    each press (another step may have changed it meanwhile: a screen with no button left)."""
    t = walk.service.table_in(GROUP)
    if t is None or t.hand is None or not t.hand.to_act:
        return
    seat = t.seats.get(t.owner(walk.rng.choice(list(t.hand.to_act))))
    if seat is None or seat.bot:
        return
    actor = next(a for a in PEOPLE if a.user_id == seat.user_id)
    actions = ("a", "c") if walk.rng.random() < 0.7 else (None,)
    for action in actions:
        screens = walk.presenter.privates.get(actor.user_id)
        if not screens:  # (not written yet: the deal's messages go after its commit)
            return
        screen = screens[-1]
        datas = [
            b.data
            for b in screen.all_buttons()
            if b.data and (action is None or Payload.decode(b.data).action == action)
        ]
        if not datas:
            continue
        data = walk.rng.choice(datas)
        reply = await walk.service.press(actor, data)
        walk.log.append(f"{actor.name} presses {data}: {reply.text[:50]!r}")


class AdminTournamentWalk(AdminWalk, TournamentWalk):
    """:class:`~tests.bot.test_chaos.TournamentWalk` with the admin's commands."""

    async def command(self, step: int) -> None:
        if self.service.table_in(GROUP) is not None and self.rng.random() < 0.35:
            cmd = self.rng.choice(ADMIN_COMMANDS)
            if cmd == "close" and self.rng.random() < 0.6:
                return
            self.log.append(await self.admin_command(cmd))
            return
        await super().command(step)


class AdminCashWalk(AdminWalk):
    """:class:`~tests.bot.test_chaos.Walk` (computer players, Fantasyland, settings) with
    the admin's commands."""

    async def command(self, step: int) -> None:
        if self.service.table_in(GROUP) is not None and self.rng.random() < 0.3:
            cmd = self.rng.choice([*ADMIN_COMMANDS, "removebot", "addbot"])
            if cmd == "close" and self.rng.random() < 0.7:
                return
            if cmd == "removebot":
                reply = await self.service.remove_bot(GROUP, PEOPLE[0], True)
                self.log.append(f"removebot: {reply.text[:60]!r}")
                return
            if cmd == "addbot":
                reply = await self.service.add_bot(GROUP, PEOPLE[0], True, "", f"x{step}")
                self.log.append(f"addbot: {reply.text[:60]!r}")
                return
            self.log.append(await self.admin_command(cmd))
            return
        await super().command(step)


@pytest.mark.parametrize("seed", SEEDS)
async def test_r8_7_tournaments_with_kicks_grants_departures_and_closes_balance(
    seed: int,
) -> None:
    await AdminTournamentWalk(seed).run(300, press=0.45, restart=0.48, tick=0.6)


@pytest.mark.parametrize("seed", SEEDS)
async def test_r8_cash_tables_with_bots_kicks_grants_and_departures_balance(seed: int) -> None:
    await AdminCashWalk(seed).run(400, press=0.5, restart=0.52, tick=0.6)


class ConcurrentTournamentWalk(AdminTournamentWalk):
    """Each step may be two to four of the walk's commands, presses and clock ticks at
    once (``asyncio.gather``): an admin's /kick or /closetable racing a press, a departure,
    a /grant and the table's timer."""

    async def steps(self, count: int, press: float, restart: float, tick: float) -> None:
        for step in range(count):
            before = self.mark()
            r = self.rng.random()
            if r < restart - press:
                await self.restart(step)
            else:
                jobs = []
                for _ in range(self.rng.randint(2, 4)):
                    r = self.rng.random()
                    jobs.append(
                        self.press() if r < press else self.tick() if r < tick else
                        self.command(step)
                    )  # fmt: skip
                await asyncio.gather(*jobs)
            await self.after_step(before)

    async def open(self, store: Store) -> None:
        """The walk on ``store`` (a SQLite or PostgreSQL store: their transactions, not the
        memory store's), its service built anew over it; :meth:`close` after."""
        self.store = store  # type: ignore[assignment]
        self.service, self.presenter = self._service(self.seed)

    async def close(self) -> None:
        await self.service.stop()
        await self.store.close()


class ConcurrentCashWalk(AdminCashWalk):
    """:class:`AdminCashWalk` with steps made at once as :class:`ConcurrentTournamentWalk`."""

    async def steps(self, count: int, press: float, restart: float, tick: float) -> None:
        await ConcurrentTournamentWalk.steps(self, count, press, restart, tick)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", SEEDS)
async def test_r8_7_tournament_steps_at_once_balance_and_finish(seed: int) -> None:
    await ConcurrentTournamentWalk(seed).run(200, press=0.45, restart=0.48, tick=0.6)


@pytest.mark.parametrize("seed", SEEDS)
async def test_r8_cash_steps_at_once_balance_and_finish(seed: int) -> None:
    await ConcurrentCashWalk(seed).run(300, press=0.5, restart=0.52, tick=0.6)


@pytest.mark.parametrize("seed", SEEDS)
async def test_r8_7_tournament_steps_at_once_on_sqlite(seed: int, tmp_path: Path) -> None:
    from storage.sqlite import SqliteStore

    walk = ConcurrentTournamentWalk(seed)
    await walk.open(await SqliteStore.open(tmp_path / "ofc.sqlite3"))
    try:
        await walk.run(150, press=0.45, restart=0.48, tick=0.6)
    finally:
        await walk.close()


@pytest.mark.parametrize("seed", range(int(os.environ.get("BRK66_PG", "1"))))
async def test_r8_7_tournament_steps_at_once_on_postgresql(seed: int) -> None:
    """:class:`ConcurrentTournamentWalk` on PostgreSQL (issue 14: its transactions, row
    locks and triggers)."""
    from storage.postgres import PostgresStore
    from tests.pg import fresh_database

    async with fresh_database() as url:
        walk = ConcurrentTournamentWalk(seed)
        await walk.open(await PostgresStore.open(url))
        try:
            with walk.shown_on_failure():
                await walk.steps(120, press=0.45, restart=0.48, tick=0.6)
                assert await check_store(walk.store) == []
        finally:
            await walk.close()
