"""The table service: the platform-neutral application layer (issues 4 and 10).

Adapters call the coroutines of :class:`TableService` with an :class:`~bot.model.Actor` and a
:class:`~bot.model.ChatRef` and show the :class:`~bot.model.Reply` it returns; the service
writes table and private messages through each platform's :class:`~bot.model.Presenter`,
except the message a press is answered on: that one only the adapter writes, from the reply.
Game rules are not written here: every action goes to the core (``game/``), which decides.

A table is a state machine (:class:`~bot.model.Phase`) whose every step commits in one
storage transaction together with its ledger entries (:mod:`.runtime`); messages go out after
the commit. The steps live in modules by subject: :mod:`.lobby` (seating, Ready and its
buy-in, Leave and its cash-out, closing), :mod:`.play` (presses on a hand, moving it on),
:mod:`.showdown` (settlement and the next hand), :mod:`.chinese` (reveals and claims),
:mod:`.dealing` (the deal and stacks leaving), :mod:`.timers`, :mod:`.recovery`,
:mod:`.wallet` and :mod:`.settings`. This class is the facade: it finds the table, takes its
lock, checks who may do what, and turns a refused transition into a short notice.

One :class:`asyncio.Lock` per table serialises everything that touches a table, so handlers of
both platforms may run concurrently.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Concatenate, ParamSpec

from bot.model import (
    HAND_VIEW_PREFIX,
    PENDING_PREFIX,
    REQUESTS_KEPT,
    Actor,
    ChatRef,
    LiveTable,
    Phase,
    Presenter,
    Reply,
    SeatState,
    lobby_version_no,
)
from bot.names import clean_arg
from bot.presses import (
    AllSettings,
    Arrange,
    Claim,
    ConfirmMove,
    Continue,
    DiscardCard,
    Join,
    Leave,
    MyHand,
    PlaceCard,
    Press,
    Ready,
    Register,
    ReplayStep,
    SettingStep,
    StartTournament,
    TakeBack,
    TopUp,
    Undo,
    Unregister,
    decode,
    encode,
    start_table,
)
from bot.retries import pending_ref
from bot.screens import Screen
from bot.service import (
    bots,
    chats,
    chinese,
    hand_pictures,
    lobby,
    play,
    recovery,
    stats,
    tournaments,
    wallet,
)
from bot.service import settings as settings_mod
from bot.service import timers as timing
from bot.service.recovery import START_SEND_SECONDS
from bot.service.rules import rules_text
from bot.service.runtime import (
    STEP_TOKEN,
    STORAGE_WAIT,
    Answered,
    ChangedElsewhere,
    ClosedElsewhere,
    Runtime,
    TransitionFailed,
    posts_by_ref,
    unsure_ref,
)
from bot.service.settings import PLAYABLE_GAMES, SETTINGS
from bot.texts import kush_word, language_of, on, tr
from game.cards import Card
from game.errors import OptionError
from game.options import GameKind
from game.tournament import Tournament, TournamentPhase
from storage.api import Community, StorageError, StorageTimeout, Store, TableRecord, answer_within

__all__ = ["PLAYABLE_GAMES", "SETTINGS", "Answer", "TableService", "TransitionFailed"]

log = logging.getLogger("bot.service")

#: Seconds between two marks that the bot is running (:meth:`TableService.start`): after a
#: crash, the players' clocks (R8.5) stop at most this long before the bot did.
ALIVE_SECONDS = 5.0
#: Seconds between two looks at whether the start has restored the tables, for a player's
#: sign of life told meanwhile (:meth:`TableService.player_seen`).
RESTORE_POLL_SECONDS = 0.05
#: Seconds a hand a sign of life posted anew (:meth:`TableService.player_seen`: Telegram's
#: unblock) stands in for the one a ``/start`` would post: an unblock is mostly followed by
#: the player's /start, which posted the hand a second time, the first copy's buttons then
#: "out of date" (:meth:`TableService.private_start`).
REVIVED_SECONDS = 30.0

#: What the service calls with a command's reply as soon as its step is committed, before
#: the step's messages are sent (answer first: a platform that makes us wait comes after).
Answer = Callable[[Reply], Awaitable[None]]

#: What a platform adapter looks at in one of its tables just restored (:meth:`TableService.
#: register`): a close the bot's removal or mute queued (R8.2a) that the platform undid while
#: no process served the table, which no event tells.
RestoredLook = Callable[[LiveTable], Awaitable[None]]


_P = ParamSpec("_P")
_Command = Callable[Concatenate["TableService", _P], Awaitable[Reply]]


def _refused(t: LiveTable, lang: str, exc: Exception) -> Reply:
    """The answer, in ``lang``, to a command or press at table ``t`` whose step storage
    refused with ``exc``, nothing committed: the table found closed by another worker's
    step (:class:`~.runtime.ClosedElsewhere`, issue 14: an admin's ``/closetable`` whose
    close that worker made, say) "Table #N is closed."; another worker's step found stored
    (:class:`~.runtime.ChangedElsewhere`) ``err.changed_elsewhere``; else ``err.storage``
    ("nothing changed, try again")."""
    if isinstance(exc, ClosedElsewhere):
        return Reply(tr(lang, "reply.table_closed", table=t.id), alert=True)
    if isinstance(exc, ChangedElsewhere):
        return Reply(tr(lang, "err.changed_elsewhere"), alert=True)
    return Reply(tr(lang, "err.storage"), alert=True)


def _waits_for_storage(method: _Command[_P]) -> _Command[_P]:
    """A command of the service whose store calls wait :attr:`Runtime.storage_wait` in all
    (``STORAGE_WAIT_SECONDS``, :func:`storage.api.answer_within`): a database that does not
    answer by then (silent, or slow: a far server, a lock held) has the command answered
    ``err.storage_slow`` ("did not answer in time, try again", in the actor's language),
    not left hanging. For the commands a user waits on that hold no table (``/stats``,
    ``/balance``, ``/daily``, …): a table's steps bound themselves once they hold its lock
    (:meth:`TableService._at_table`, :meth:`TableService.press`). The method takes an
    ``actor`` (:class:`Actor`) argument."""
    at = list(inspect.signature(method).parameters).index("actor") - 1  # (self not in args)

    @functools.wraps(method)
    async def bounded(self: TableService, /, *args: _P.args, **kwargs: _P.kwargs) -> Reply:
        actor = kwargs["actor"] if "actor" in kwargs else args[at]
        assert isinstance(actor, Actor)
        return await self._within(actor, method(self, *args, **kwargs))

    return bounded


class TableService:
    """Runs the tables of every platform on one event loop.

    :param store: the storage implementation.
    :param clock: wall-clock seconds (injected for tests).
    :param rng: shuffles decks when given (tests); otherwise decks use a CSPRNG (R1.1).
    :param next_hand_delay: seconds between a showdown and the next deal.
    :param timers: run real asyncio timers; with ``False`` tests call :meth:`run_due`.
    :param deck_source: returns the deck of each new hand (tests stack decks with it).
    :param bot_pace: seconds (least, most) a computer player waits before it moves.
    :param decisions_in_process: make the computer players' and "Arrange for me"'s decisions
        in a worker process (:class:`bot.thinking.Thinker`, ``DECISIONS_IN_PROCESS``);
        ``False``: in threads; ``None``: :data:`bot.thinking.IN_PROCESS`.
    :param storage_wait: seconds a press, a command or a timer's step waits for storage in
        all, then answered "nothing changed, try again" (``STORAGE_WAIT_SECONDS``; default
        :data:`~bot.service.runtime.STORAGE_WAIT`). :raises ValueError: not above 0.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        next_hand_delay: float = 4.0,
        timers: bool = True,
        deck_source: Callable[[], Sequence[Card]] | None = None,
        bot_pace: tuple[float, float] = (1.0, 3.0),
        decisions_in_process: bool | None = None,
        storage_wait: float = STORAGE_WAIT,
    ) -> None:
        self.rt = Runtime(
            store,
            clock=clock,
            rng=rng,
            next_hand_delay=next_hand_delay,
            timers=timers,
            deck_source=deck_source,
            bot_pace=bot_pace,
            decisions_in_process=decisions_in_process,
            storage_wait=storage_wait,
        )
        rt = self.rt

        async def fire(t: LiveTable, overdue: bool) -> None:
            await timing.on_time(rt, t, overdue=overdue)

        rt.on_time = fire
        rt.think = functools.partial(bots.think_ahead, rt)
        self._alive: asyncio.Task[None] | None = None
        #: platform → its adapter's look at a table restored (:meth:`register`)
        self._looks: dict[str, RestoredLook] = {}
        #: (table id, user id) → when :meth:`player_seen` posted the player's hand anew there
        #: (time.monotonic()): a /start soon after posts it no second time (:data:`REVIVED_SECONDS`)
        self._revived: dict[tuple[int, str], float] = {}
        #: (platform, user id) → the lock :meth:`private_news` takes the user's news under,
        #: and how many news hold or wait for it (dropped at none)
        self._news: dict[tuple[str, str], tuple[asyncio.Lock, list[int]]] = {}

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def store(self) -> Store:
        """The storage implementation."""
        return self.rt.store

    @property
    def tables(self) -> dict[int, LiveTable]:
        """Every open table by id."""
        return self.rt.tables

    def register(self, presenter: Presenter, look: RestoredLook | None = None) -> None:
        """Attach a platform adapter's presenter, and ``look``: what the adapter looks at in
        a table of its platform restored (its bot's standing in the chat now, a close that
        waits for it), the same look for a table taken over from another worker
        (:meth:`adopt`) as for those restored at a start (the composition root calls the
        adapter's ``look_at_restored`` after :meth:`start`)."""
        self.rt.presenters[presenter.platform] = presenter
        if look is not None:
            self._looks[presenter.platform] = look

    async def start(self) -> None:
        """Rebuild every open table from its last committed transition (restart recovery)
        and wait for the messages that sends, :data:`~.recovery.START_SEND_SECONDS` at most
        (then they go on in the background); then, with real timers, mark the bot running every
        :data:`ALIVE_SECONDS` (one process: a restart after a crash stops the clocks at the
        last mark, R8.5). The decision process and the drawing process start meanwhile, in
        the background (the first showdown after a start waited for the drawing process to
        start: its picture, and the table message behind it, came a second or more after
        the last press)."""
        self.warm_up()
        self.rt.stopping = False  # (started again after a stop: its timers run again)
        self.rt.restoring = True
        try:
            await recovery.start(self.rt)
        finally:
            self.rt.restoring = False

        async def sent() -> None:
            for t in list(self.rt.tables.values()):
                await self.rt.settled(t)

        try:  # (a waiter cancelled leaves the senders be: :meth:`Runtime.settled`)
            await asyncio.wait_for(sent(), START_SEND_SECONDS)
        except TimeoutError:
            log.info("restored tables still sending after %.0f s: started", START_SEND_SECONDS)
        if self.rt.timers:
            self._alive = asyncio.create_task(self._keep_alive(), name="alive")

    def warm_up(self) -> None:
        """Start the decision process and the drawing process in the background, so that the
        first decision and the first showdown picture find them up: :meth:`start` does, and
        a worker's start (issue 14: its tables come by takeover, never by :meth:`start`)."""
        self.rt.thinker.start_soon()
        self.rt.drawer.start_soon()

    async def mark_alive(self) -> None:
        """Record in the store that the bot is running now (its clock)."""
        await self.rt.store.mark_alive(self.rt.clock())

    async def remember_username(self, platform: str, username: str, user_id: str) -> None:
        """Keep in the store that ``username`` (a platform @username, without ``@``) names
        ``user_id`` now (:meth:`storage.api.Store.remember_username`: it moves from whoever
        had it), so that ``/grant @name`` and ``/stats @name`` find the member after a
        restart. A store error is logged, never raised: the next update of theirs writes it
        again."""
        try:
            with answer_within(self.rt.storage_wait):  # (a pool connection held, else)
                await self.rt.store.remember_username(platform, username, user_id)
        except Exception as exc:
            log.warning("could not keep the username of %s: %r", user_id, exc)

    async def user_of_username(self, platform: str, username: str) -> str | None:
        """The user id ``username`` (with or without ``@``) names in the store, or ``None``
        (none known, or the store failed or did not answer within :attr:`Runtime.storage_wait`:
        logged; the command that asked goes on, bound afresh)."""
        try:
            with answer_within(self.rt.storage_wait):
                return await self.rt.store.user_of_username(platform, username)
        except Exception as exc:
            log.warning("could not look the username %r up: %r", username, exc)
            return None

    async def _keep_alive(self) -> None:
        while True:
            try:
                with answer_within(self.rt.storage_wait):  # (a silent database held it)
                    await self.mark_alive()
            except Exception as exc:  # the store is busy or away: the next mark will do
                log.warning("could not mark the bot running: %r", exc)
            await asyncio.sleep(ALIVE_SECONDS)

    async def stop(self) -> None:
        """Cancel timers, save every table and shut the drawing process (after the last
        pictures were sent) and the decision process down, together (each waits 3 s at most
        for a task hung in it: :data:`bot.drawing.CLOSE_SECONDS`,
        :data:`bot.thinking.CLOSE_SECONDS`)."""
        if self._alive is not None:
            self._alive.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._alive
            self._alive = None
        await recovery.stop(self.rt)
        # (together: each waits its CLOSE_SECONDS at most for a task hung in its process,
        # so a hung drawing and a hung decision hold the stop for the longer, not the sum)
        await asyncio.gather(self.rt.drawer.close(), self.rt.thinker.close())

    async def adopt(
        self, table_id: int, alive: float | None = None, *, again: bool = False
    ) -> bool:
        """Serve one more open table, restored from its last committed transition (a worker
        taking over a table, issue 14; call while holding its chat's lease). ``alive``: when
        the worker that served it last showed it was running (its last renewal of the chat's
        lease, :meth:`.cluster.Worker.claim`; ``None``: not known, or it gave the lease up
        after saving the table): the clocks stopped then (:meth:`LiveTable.from_json`).
        ``again``: the chat's lease was not held here throughout (taken back after it ran
        out): a table served here is kept only while it is the store's last committed
        state; one another worker took over meanwhile is let go and restored anew.
        ``False`` when the table is closed (or could not be restored and was closed with a
        refund)."""
        t = self.rt.tables.get(table_id)
        if t is not None and (not again or await self._current(t)):
            return True
        state = await self.rt.store.table_state(table_id)
        if state is None or table_id in self.rt.tables:
            return state is not None
        t = await recovery.restore(self.rt, *state, alive, taken_over=True)
        if t is None:
            return False
        # the resumed table's messages (new private hand messages) go out before any update
        # of the chat is handled: a press meanwhile would race them for the same message;
        # for START_SEND_SECONDS at most: one the platform holds (a flood wait of minutes)
        # held the worker's sweep, its other takeovers behind it (as the start, :meth:`start`)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.rt.settled(t), START_SEND_SECONDS)
        # as at a start: a close the bot's removal or mute queued may have been undone while
        # the table was not served (a mute that ran out, the bot let write again), which no
        # event tells this worker (R8.2a)
        await self._look_at_restored(t)
        return True

    async def _look_at_restored(self, t: LiveTable) -> None:
        """Let ``t``'s adapter look at it, restored (:meth:`register`); a failure is logged
        (a close it queued stands)."""
        look = self._looks.get(t.platform)
        if look is None or self.rt.tables.get(t.id) is not t:
            return
        try:
            await look(t)
        except Exception:
            log.exception("table %s: could not look at it as restored", t.id)

    async def _current(self, t: LiveTable) -> bool:
        """Whether ``t``, served here, is the store's last committed state of its table (its
        step counter and that step's token the snapshot's, :data:`~.runtime.STEP_TOKEN`: a
        step of the same number another worker committed is not this one's). Else another
        worker served the table while this one did not hold its chat (a stall past the
        lease, issue 14): ``t`` is let go, nothing written, and ``False``."""
        async with t.lock:
            if not self.rt.serves(t):
                return False
            state = await self.rt.store.table_state(t.id)
            if (
                state is not None
                and int(state[1].get("seq", 0)) == t.seq
                and state[1].get(STEP_TOKEN) == t.step_token
            ):
                return True
            log.warning("table %s: served elsewhere meanwhile; restored anew", t.id)
            self.rt.let_go(t)
            return False

    async def deliver_owed(self, record: TableRecord, snap: Mapping[str, Any]) -> bool:
        """Send what a closed table still owes its chat, from its final snapshot (a worker
        holding the chat's lease, issue 14: :func:`.recovery.deliver`). ``True`` when it
        owes nothing any more."""
        return await recovery.deliver(self.rt, record, snap)

    async def release(self, table_id: int, *, save: bool = False) -> None:
        """Stop serving a table whose lease this worker lost (issue 14): nothing is written
        (``save``: handed over while its lease may still be held here, its snapshot is saved
        first, :func:`.recovery.release`).
        Also a closed table that owes only pictures posted later here
        (:attr:`Runtime.owing_pictures`): they are dropped, the worker serving the chat now
        posts them from its final snapshot."""
        t = self.rt.tables.get(table_id)
        if t is None and table_id in self.rt.owing_pictures:
            t = self.rt.closing.get(table_id)
        if t is not None:
            await recovery.release(self.rt, t, save=save)

    async def hand_over(self, table_id: int, until: float) -> bool:
        """Let an idle open table go to another worker while this one still holds its
        chat's lease (issue 14, :meth:`bot.cluster.Worker.rebalance`): its snapshot saved,
        it is forgotten as a lost one is (:func:`.recovery.hand_over`). ``until``: the
        clock's time before which nothing may be due at the table. ``False``, still served
        here, when it is not served here, not idle (:meth:`Runtime.idle_for_handover`) or
        not saved."""
        t = self.rt.tables.get(table_id)
        return t is not None and await recovery.hand_over(self.rt, t, until)

    async def run_due(self) -> None:
        """Fire every due timer now (for tests running with ``timers=False``)."""
        for t in list(self.rt.tables.values()):
            async with t.lock:
                if self.rt.open_here(t):
                    await timing.on_time(self.rt, t)
            await self.rt.settled(t)

    def table_in(self, chat: ChatRef) -> LiveTable | None:
        """The open table of a chat, if any."""
        return self.rt.table_at(chat.platform, chat.chat_id)

    # -- helpers ---------------------------------------------------------------------------
    async def _within(self, actor: Actor, work: Awaitable[Reply]) -> Reply:
        """``work``'s reply, its store calls bound to :attr:`Runtime.storage_wait` in all;
        storage not answering by then: ``err.storage_slow`` in the actor's language
        (:func:`_waits_for_storage`). A write among them may have been saved all the same:
        the commands this bounds are safe to repeat (``/daily`` pays once a day, a setting
        set twice is set; ``/grant`` says itself that it cannot tell, ``err.grant_unsure``)."""
        try:
            with answer_within(self.rt.storage_wait):
                return await work
        except StorageTimeout as exc:
            log.warning("storage did not answer within %.1f s: %s", self.rt.storage_wait, exc)
            return Reply(tr(language_of(actor.language), "err.storage_slow"), alert=True)

    async def _community(self, chat: ChatRef) -> Community:
        """The chat's community (made on its first command): the first read of nearly every
        command, waited for :attr:`Runtime.storage_wait` at most (a silent database raises
        :class:`StorageTimeout`, answered "nothing changed" by the adapter, at once)."""
        with answer_within(self.rt.storage_wait):
            return await self.rt.store.community(chat.platform, chat.community_id, chat.title)

    async def _lang(self, community: Community | None, actor: Actor | None) -> str:
        """The language of a reply to ``actor`` in ``community``: the group's setting
        (``en``/``ru``), else the actor's own; under ``auto`` an actor the platform gives no
        language (an anonymous admin, who writes as the group) reads the group's
        (:meth:`_group_lang`), not English."""
        chosen = settings_mod.group_language(community.settings) if community else None
        if chosen:
            return chosen
        if actor is not None and not actor.language and community is not None:
            return await self._group_lang(community)
        return language_of(actor.language if actor else None)

    async def _presser(self, t: LiveTable, actor: Actor) -> tuple[Community, str]:
        """The community of table ``t`` and the language a press on its table message is
        answered ``actor`` in (:meth:`_lang`: their own under ``auto``, not the table's):
        Join, Register, and Start pressed by someone not seated."""
        community = await self.rt.store.community(t.platform, t.community_ext)
        return community, await self._lang(community, actor)

    async def _group_lang(self, community: Community, *, tables: bool = True) -> str:
        """The group's language under ``auto`` as the bot decides it for the group's
        messages: the open table's (``tables``; :func:`~.settings.table_language`: most of
        its seated people's), else the one most of the group's players speak (their stored
        languages; English when none is known, or on a tie)."""
        if tables:
            for t in self.rt.tables.values():
                if t.community_id == community.id:
                    return t.lang
        return await settings_mod.readers_language(self.rt, community, tie="en")

    async def _at_table(
        self,
        chat: ChatRef,
        actor: Actor,
        body: Callable[[LiveTable, Community, str], Awaitable[Reply]],
        answer: Answer | None = None,
        request: str | None = None,
        came_back: list[bool] | None = None,
    ) -> Reply:
        """Run ``body(table, community, language)`` under the table's lock, or answer that the
        chat has no open table (a private chat never has one: the command works in a group);
        a transition storage refused is a short notice. ``request``: the platform's key of
        the command (Telegram: ``tg:<chat>:<update_id>``, the same when the update is
        delivered again): a command whose step committed is answered "already done" when it
        comes again, later steps in between or not (a /join delivered again after a /leave
        sat the player down again); the key commits with the command's step. ``came_back``:
        gets whether the command brought its player back from away (R8.7), read under the
        lock before ``body`` runs."""
        if chat.private:
            return await self._group_only(actor)
        t = self.table_in(chat)
        try:
            with answer_within(self.rt.storage_wait):  # (a silent database)
                community = await self._community(chat)
                lang = await self._lang(community, actor)
        except StorageTimeout:
            return Reply(tr(language_of(actor.language), "err.storage"), alert=True)
        if t is None:
            key = "err.restarting" if self.rt.restoring else "reply.no_table"
            return Reply(tr(lang, key), alert=True)
        failure: Exception | None = None
        async with t.lock:
            with answer_within(self.rt.storage_wait):  # (a silent database)
                if not self.rt.open_here(t):  # closed while we waited
                    return Reply(tr(lang, "reply.no_table"), alert=True)
                if t.applied(request):  # delivered again: applied once, nothing more
                    return Reply(tr(lang, "reply.request_done"))
                version, renamed = t.version, lobby.rename(t, actor)  # the name they go by now
                seq, requests = t.seq, t.requests
                t.remember(request)  # (in the snapshot of every step the command commits)
                back = self._back(t, actor)  # a command of theirs at the table: back if away (R8.7)
                if came_back is not None:
                    came_back.append(back is not None)
                try:
                    # the idle close (R8.2a) due before the command came: made first, the
                    # command answered with its notice
                    closed = await timing.idle_first(self.rt, t, lang)
                    reply = closed if closed is not None else await body(t, community, lang)
                except Exception as exc:
                    committed = t.seq != seq
                    if not committed and self.rt.open_here(t):
                        t.requests = requests  # nothing applied: a copy may try again
                    # (rolled back to a state with them back) committed however the command
                    # failed: only when storage refused it, their coming back was left to a
                    # background save after any other error, which a crash then lost (R8.7)
                    if back is not None:
                        await tournaments.keep_back(self.rt, t, seq)
                    if not committed:  # nothing committed: nothing to follow up
                        if not isinstance(exc, TransitionFailed | StorageTimeout):
                            raise
                        return _refused(t, lang, exc)
                    # a step of the command committed before it failed (a dealt hand, a close):
                    # its after-steps run all the same (the new name stored and shown, the step's
                    # messages sent); it was the next update's step that took them, or the
                    # rename's new name stayed unsaved. It is answered as done: "nothing changed,
                    # try again" (the adapter's answer to a failure, or storage's) was untrue,
                    # and trying again did it twice
                    failure, reply = exc, self._after_commit(t, actor, lang, exc)
                if t.seq == seq and back is None:
                    # refused, nothing committed: not applied (a copy says the same); one that
                    # brought its player back (R8.7) was, whatever it said: its key commits with
                    # their coming back, and a copy after they went away again leaves them away
                    t.requests = requests
                if renamed:
                    await lobby.show_renamed(self.rt, t, actor, version)
                if back is not None and failure is None:  # committed before the answer (R8.7)
                    await tournaments.keep_back(self.rt, t, seq)
        if answer is not None:
            await answer(reply)  # the caller first: a platform that makes us wait comes after
        await self.rt.settled(t)  # the messages of the step, sent without holding the table
        return reply

    async def _group_only(self, actor: Actor) -> Reply:
        """The answer to a table command (``/back``, ``/sitout``, ``/leave``, …) sent in the
        private chat, which is no table: it works in the table's group. A player seated at
        tables is told which (number, group, whether they sit out there, and the table
        message's link where the platform has one): the private chat's own messages tell them
        to type ``/back``, and with two tables "works in a group chat" named neither the table
        nor the group."""
        lang = await self._lang(None, actor)
        lines = []
        # (with several workers, issue 14, the tables others serve: their committed states)
        elsewhere = await hand_pictures.tables_elsewhere(self.rt, actor.platform, actor.user_id)
        for t in sorted([*self.rt.tables.values(), *elsewhere], key=lambda t: t.id):
            seat = t.seat_of(actor.user_id)
            if t.platform != actor.platform or seat is None:
                continue  # (not their table: its lock is not needed to see that)
            try:
                community = await self.rt.store.get_community(t.community_id)
            except StorageError:
                community = None
            title = community.title if community else ""  # (stored as the platform shows it)
            line = tr(lang, "reply.your_table", table=t.id) + (f" · {title}" if title else "")
            if seat.sitting_out:  # (the table /back is for)
                line += " · " + tr(lang, "reply.your_table_out")
            link = self.rt.table_link(t)
            lines.append(line + (f"\n{link}" if link else ""))
        if not lines:
            return Reply(tr(lang, on(actor.platform, "reply.group_only")), alert=True)
        text = tr(lang, on(actor.platform, "reply.group_only_tables"))
        return Reply(text + "\n" + "\n".join(lines), alert=True)

    @staticmethod
    def _after_commit(t: LiveTable, actor: Actor, lang: str, exc: Exception) -> Reply:
        """The answer to a command or press that failed with ``exc`` after a step of it was
        committed: logged here (with its traceback; the adapter never sees it), answered
        ``err.after_commit`` ("that was done, but something went wrong after it")."""
        log.error(
            "table %s: a step of %s's command or press was committed, then it failed",
            t.id, actor.user_id, exc_info=exc,
        )  # fmt: skip
        return Reply(tr(lang, "err.after_commit"), alert=True)

    # -- commands --------------------------------------------------------------------------
    async def new_table(
        self, chat: ChatRef, actor: Actor, game: str | None = None, request: str | None = None
    ) -> Reply:
        """Open a table in a group chat (one per chat) and post its lobby message;
        ``request``: the platform's key of the command (a copy delivered after the table
        closed opens no other, :func:`lobby.open_table`)."""
        return await self._open(chat, actor, game, tournament=False, request=request)

    async def new_tournament(
        self, chat: ChatRef, actor: Actor, game: str | None = None, request: str | None = None
    ) -> Reply:
        """``/tournament [game]``: open a sit-and-go lobby in a group (R8.7) with the
        community's tournament settings (buy-in, starting chips, level length, schedule,
        payouts); players register with its buttons (or /join); ``request`` as in
        :meth:`new_table`."""
        return await self._open(chat, actor, game, tournament=True, request=request)

    async def _open(
        self,
        chat: ChatRef,
        actor: Actor,
        game: str | None,
        *,
        tournament: bool,
        request: str | None = None,
    ) -> Reply:
        """:meth:`new_table` and :meth:`new_tournament`. The reads before and the opening
        each wait :attr:`Runtime.storage_wait` at most (``err.storage_slow`` after; apart:
        an idle close due first, :meth:`_idle_closed`, sends its messages in between).
        Two openings in one chat at once take turns (:meth:`Runtime.opening_lock`): the
        second is told the first's table is open."""
        try:
            with answer_within(self.rt.storage_wait):
                community = await self._community(chat)
                lang = await self._lang(community, actor)
        except StorageTimeout:
            return Reply(tr(language_of(actor.language), "err.storage_slow"), alert=True)
        if chat.private:
            return Reply(tr(lang, on(actor.platform, "reply.group_only")), alert=True)
        # the game first: "/newtable holdem" at an open table answered "already has an open
        # table", as if holdem could be opened once it closed
        games = tr(lang, "games.names")
        known = None if game is None else settings_mod.game_named(game)
        if game is not None and known is None and len(game.split()) > 1:  # one game, no more
            command = "tournament" if tournament else "newtable"
            return Reply(tr(lang, "reply.game_usage", command=command, games=games), alert=True)
        if game is not None and known is None:
            name = self.rt.typed_text(chat.platform, clean_arg(game))
            return Reply(tr(lang, "reply.unknown_game", game=name, games=games), alert=True)
        async with self.rt.opening_lock(chat.platform, chat.chat_id):
            opened = await self._open_in(
                chat, actor, community, lang, known, tournament=tournament, request=request
            )
        if isinstance(opened, Reply):
            return opened
        t = opened
        await self.rt.settled(t)
        if t.group_ref is None and self.rt.presenter(t) is not None:
            # the platform refused the table message (say the bot may not write in the chat,
            # which then closes the table, R8.2a): no "is open" for a table nobody can see;
            # in a Discord thread the permission is Send Messages in Threads, and a private
            # thread must have the bot added to it first
            key = on(t.platform, "reply.table_not_posted")
            if chat.private_thread:
                key = "reply.table_not_posted.discord_private"
            elif chat.thread:
                key = "reply.table_not_posted.discord_thread"
            return Reply(tr(lang, key, table=t.id), alert=True)
        said = "reply.tournament_opened" if tournament else "reply.table_opened"
        return Reply(tr(lang, said, table=t.id))

    async def _open_in(
        self,
        chat: ChatRef,
        actor: Actor,
        community: Community,
        lang: str,
        known: str | None,
        *,
        tournament: bool,
        request: str | None,
    ) -> LiveTable | Reply:
        """The table :meth:`_open` opens in ``chat`` (R8.1, R8.7 with ``tournament``), the
        game ``known`` or the community's; or the answer when none opens (the chat's table
        open: its number; refused, or storage failed). Called under the chat's
        :meth:`Runtime.opening_lock`: the look for the chat's table and the opening are one
        step for the other openings here."""
        existing = self.table_in(chat)
        if existing is None and self.rt.restoring:  # (the chat's table may be one still to
            # be restored: storage refused the new one, "something went wrong")
            return Reply(tr(lang, "err.restarting"), alert=True)
        if existing is not None and await self._idle_closed(existing, lang):
            existing = None  # its idle close was due (R8.2a): made now, a new table opens
        elif existing is not None and existing.phase is Phase.CLOSED:
            # closed while this waited for it (a /closetable committing as /newtable came):
            # the chat's table now, if another opened meanwhile; it was refused "a table is
            # open here (#N)", naming the table just closed, and none opened
            existing = self.table_in(chat)
        if existing is not None:  # (in a forum, it may be in another topic: its link)
            if unsure_ref(existing.group_ref):  # (its send failed, or its answer was lost)
                self.rt.show_group_later(existing, unposted=True)  # posted now (R8.2)
            return await self._table_exists(existing, lang)
        if request is not None and (
            request in self.rt.chat_requests.get((chat.platform, chat.chat_id), ())
            or request in community.settings.table_requests  # (before a restart)
        ):  # delivered again after the table it opened closed: no other table
            return Reply(tr(lang, "reply.request_done"))
        settings = community.settings
        game = known  # ("ананас", "Classic": the game's code name)
        try:
            options = settings_mod.table_options(settings, game)  # the options game has
        except OptionError:
            options = None
        if options is None or options.game not in PLAYABLE_GAMES:
            games = tr(lang, "games.names")
            return Reply(tr(lang, "reply.game_unavailable", games=games), alert=True)
        tour = None
        if tournament:
            try:
                tour = Tournament(settings_mod.tournament_config(settings, options.game))
            except OptionError:  # stored payouts or schedule that make no tournament
                refusal = settings_mod.tournament_refusal(settings)  # (the core's is English)
                error = refusal(lang) if refusal else tr(lang, "settings.tournament_bad")
                return Reply(tr(lang, "reply.tournament_settings_bad", error=error), alert=True)
        try:
            with answer_within(self.rt.storage_wait):  # (a silent database)
                t = await lobby.open_table(
                    self.rt, community, chat.platform, chat.chat_id, options, lang,
                    tournament=tour, opener=actor.user_id, topic=chat.topic, request=request,
                )  # fmt: skip
        except TransitionFailed:
            return Reply(tr(lang, "err.storage"), alert=True)
        except StorageTimeout:  # (a record made all the same is closed by the next opening)
            return Reply(tr(lang, "err.storage_slow"), alert=True)
        except StorageError as exc:
            # the chat's record open in storage: its table served here now, if it is (one
            # restored anew in the background meanwhile, say); another opening here waits
            # for this one (:meth:`Runtime.opening_lock`)
            existing = self.table_in(chat)
            if existing is None:
                # the chat's table not served here at that moment (a step read back as saved
                # after all: let go and served again from storage in the background), or
                # storage out of reach: nothing opened (it raised: "something went wrong")
                log.warning("no table opened in %s: %r", chat.chat_id, exc)
                return Reply(tr(lang, "err.storage"), alert=True)
            return await self._table_exists(existing, lang)
        return t

    async def _idle_closed(self, t: LiveTable, lang: str) -> bool:
        """Whether the chat's table ``t`` closed for want of a hand (R8.2a): its idle close
        was due before its timer fired, and is made now (:func:`timers.idle_first`; its
        messages sent first). A /newtable then was answered "a table is open here" and the
        table closed a moment later."""
        async with t.lock:
            if not self.rt.open_here(t) or await timing.idle_first(self.rt, t, lang) is None:
                return False
        await self.rt.settled(t)
        return True

    async def _table_exists(self, existing: LiveTable, lang: str) -> Reply:
        """The answer to a ``/newtable`` where a table is open: its number and link; a table
        an admin closed during a hand (R8.2a) closes after this hand, then a new one opens; a
        tournament's then refunds every buy-in (R8.7), as the close's own answer says. The
        table message is written again first (:meth:`Runtime.refresh_group`, at most once
        in :data:`~bot.service.runtime.REFRESH_SECONDS`): one a moderator deleted, which
        the bot is never told of, is posted anew, and the link names it (it named the
        deleted message, nothing posted until the table's next write)."""
        await self.rt.refresh_group(existing)
        # a tournament's close cancels it (R8.7): "an admin closes it with /closetable
        # (stacks go back to balances)" had an admin cancel a running one for a cash table
        key = "reply.table_exists" if existing.tournament is None else "tour.exists"
        if existing.closing:
            key = "reply.table_closing" if existing.tournament is None else "tour.table_closing"
        text = tr(lang, on(existing.platform, key), table=existing.id)
        link = self.rt.table_link(existing)
        return Reply(text + ("\n" + link if link else ""), alert=True)

    async def join(
        self,
        chat: ChatRef,
        actor: Actor,
        answer: Answer | None = None,
        request: str | None = None,
    ) -> Reply:
        """Take a free seat (R8.2). Refused without enough kush for the buy-in."""
        return await self._at_table(
            chat, actor, lambda t, c, lang: lobby.join(self.rt, t, c, actor, lang), answer, request
        )

    async def ready(
        self,
        chat: ChatRef,
        actor: Actor,
        answer: Answer | None = None,
        request: str | None = None,
    ) -> Reply:
        """Confirm readiness: the buy-in moves from the balance to the stack (R8.2); the hand
        starts when every seated player is ready."""
        return await self._at_table(
            chat, actor, lambda t, _, lang: lobby.ready(self.rt, t, actor, lang), answer, request
        )

    async def leave(
        self,
        chat: ChatRef,
        actor: Actor,
        answer: Answer | None = None,
        request: str | None = None,
    ) -> Reply:
        """Stand up: between hands the stack goes back to the balance (R8.2); during a hand the
        player's moves are made as on timeout and they leave after it (R8.5)."""
        return await self._at_table(
            chat, actor, lambda t, _, lang: lobby.leave(self.rt, t, actor, lang), answer, request
        )

    async def top_up(
        self,
        chat: ChatRef,
        actor: Actor,
        amount: str = "",
        answer: Answer | None = None,
        request: str | None = None,
    ) -> Reply:
        """``/topup [N]``: add to the stack from the balance between hands (R8.2); with
        ``request`` (the platform's key of the command, e.g. ``tg:<chat>:<update_id>``) a
        command delivered twice applies once. ``amount`` is cut as every argument is
        (:func:`~bot.names.clean_arg`, as ``/grant``'s), so its refusal never quotes more
        than a short argument (a 3,000-digit "1.000.000…" was echoed whole, twice)."""
        amount = clean_arg(amount)  # (digits cut "…" read as beyond every limit)
        return await self._at_table(
            chat,
            actor,
            lambda t, c, lang: lobby.top_up(self.rt, t, c, actor, lang, amount, request),
            answer,
        )

    async def sit_out(
        self,
        chat: ChatRef,
        actor: Actor,
        answer: Answer | None = None,
        request: str | None = None,
    ) -> Reply:
        """Sit out from the next hand, keeping seat and stack (R8.6)."""
        return await self._at_table(
            chat, actor, lambda t, _, lang: lobby.sit_out(self.rt, t, actor, lang), answer, request
        )

    async def back(
        self,
        chat: ChatRef,
        actor: Actor,
        answer: Answer | None = None,
        request: str | None = None,
    ) -> Reply:
        """Return from sit-out (R8.6); at a tournament, from being away (R8.7: the command
        brings them back as any at the table does, :meth:`_back`, and says so)."""
        came_back: list[bool] = []  # (read under the table's lock: the timer may have marked
        # them away while the command waited for it)
        return await self._at_table(
            chat,
            actor,
            lambda t, _, lang: lobby.back(self.rt, t, actor, lang, away=any(came_back)),
            answer,
            request,
            came_back=came_back,
        )

    async def close_table(
        self,
        chat: ChatRef,
        actor: Actor,
        is_admin: bool,
        answer: Answer | None = None,
        request: str | None = None,
    ) -> Reply:
        """An admin closes the chat's table between hands: every stack goes back to its
        player's balance (R8.2a) and the chat may open a new table (another game, say);
        ``request`` as in :meth:`_at_table`."""
        if not is_admin and not chat.private:
            community = await self._community(chat)
            return _admins_only(await self._lang(community, actor), chat.platform)
        return await self._at_table(
            chat, actor, lambda t, _, lang: lobby.close(self.rt, t, lang), answer, request
        )

    async def kick(
        self,
        chat: ChatRef,
        actor: Actor,
        is_admin: bool,
        target: str,
        shown: str | None = None,
        answer: Answer | None = None,
        request: str | None = None,
    ) -> Reply:
        """``/kick <name>`` (admins only): stand the seated person ``target`` (a user id, or a
        name as :func:`lobby.kick` reads it) up exactly as their own ``/leave`` would (R8.2;
        mid-hand after the hand, R8.5), a sitting-out player's seat and stack (R8.6) included;
        at a tournament still registering unregistered, the buy-in back (R8.7); refused at a
        tournament once started (R8.7), for a computer player (``/removebot``) and for anyone
        not seated. The admin themself (``me``) gets their own ``/leave``. ``shown``: what the
        admin typed when the adapter replaced it by a user id; ``request`` as in
        :meth:`_at_table`."""
        if not is_admin and not chat.private:
            community = await self._community(chat)
            return _admins_only(await self._lang(community, actor), chat.platform)
        named = clean_arg(target)
        return await self._at_table(
            chat,
            actor,
            lambda t, _, lang: lobby.kick(self.rt, t, actor, lang, named, shown),
            answer,
            request,
        )

    @_waits_for_storage
    async def usage(self, chat: ChatRef, actor: Actor, command: str) -> Reply:
        """The answer to ``command`` (one that takes no words: ``join``, ``ready``, ``leave``,
        ``sitout``, ``balance``, ``hand``) typed with words a user plausibly
        means something by (``/leave now``, ``/balance @bob``, ``/hand 12``): refused with
        what it does and which command takes such words (``usage.<command>``), nothing done.

        :raises KeyError: ``command`` has no usage text."""
        community = None if chat.private else await self._community(chat)
        return Reply(tr(await self._lang(community, actor), f"usage.{command}"), alert=True)

    @_waits_for_storage
    async def balance(self, chat: ChatRef, actor: Actor) -> Reply:
        """The player's balance and stack in the group (a private chat has no wallet: told to
        ask in the group, :meth:`_no_wallet_here`)."""
        if chat.private:
            return self._no_wallet_here(actor)
        community = await self._community(chat)
        lang = await self._lang(community, actor)
        return await wallet.balance(self.rt, community, self.table_in(chat), actor, lang)

    @_waits_for_storage
    async def top(self, chat: ChatRef, actor: Actor, period: str = "") -> Reply:
        """The community leaderboard: by balance plus stacks, or with ``period`` (``week``,
        ``month``, ``all``) by kush won in it (issue 12). Not in a private chat."""
        if chat.private:
            return self._no_wallet_here(actor)
        community = await self._community(chat)
        lang = await self._lang(community, actor)
        if period.strip():
            return await stats.top(self.rt, community, lang, clean_arg(period.strip(), 16))
        return await wallet.top(self.rt, community, lang)

    @staticmethod
    def _no_wallet_here(actor: Actor) -> Reply:
        """The answer to a wallet command in a private chat: kush belong to a group, and a
        private chat must not grow a wallet of its own (its balance would mean nothing)."""
        return Reply(
            tr(language_of(actor.language), on(actor.platform, "reply.wallet_in_group")), alert=True
        )

    @_waits_for_storage
    async def stats(
        self,
        chat: ChatRef,
        actor: Actor,
        args: Sequence[str] = (),
        shown: Mapping[str, str] | None = None,
        of: str | None = None,
    ) -> Reply:
        """``/stats [@user|me] [week|month|all]``: the group's statistics and the caller's, or
        one player's (issue 12); the words of ``args`` that are not a period are one name.
        Statistics belong to a group: refused in a private chat. ``shown``: an argument the
        adapter replaced (a user id) → what the asker typed (``@username``), echoed if nobody
        matches. ``of``: the user id a reply to a message names (a name besides is refused)."""
        if chat.private:
            return Reply(
                tr(language_of(actor.language), on(actor.platform, "reply.group_only")), alert=True
            )
        community = await self._community(chat)
        lang = await self._lang(community, actor)
        return await stats.stats(self.rt, community, actor, lang, list(args), shown or {}, of)

    @_waits_for_storage
    async def replay(self, chat: ChatRef, actor: Actor, arg: str, *, here: bool = False) -> Reply:
        """``/replay N``: hand ``#N`` of ``/history`` street by street with ◀ ▶, for its
        players only. ``here``: the reply is seen by the asker alone (a Discord ephemeral
        answer), so it carries the replay; from a group it goes to the private chat."""
        community = None if chat.private else await self._community(chat)
        lang = await self._lang(community, actor)
        return await stats.replay(self.rt, chat, actor, lang, clean_arg(arg, 16), here=here)

    @_waits_for_storage
    async def history(self, chat: ChatRef, actor: Actor, count: str = "") -> Reply:
        """``/history [N]``: the player's last ``N`` hands in the group, 5 without ``N`` (not
        in a private chat). ``count``: everything typed after the command (Discord's integer
        option as its digits), read by :func:`wallet.history_count`: a whole number 1..20;
        anything else ("0", "21", "abc", "3 4") is refused with ``usage.history``, nothing
        listed."""
        if chat.private:
            return self._no_wallet_here(actor)
        community = await self._community(chat)
        lang = await self._lang(community, actor)
        limit = wallet.history_count(count)
        if limit is None:
            return Reply(tr(lang, "usage.history"), alert=True)
        return await wallet.history(self.rt, community, actor, lang, limit)

    @_waits_for_storage
    async def daily(self, chat: ChatRef, actor: Actor) -> Reply:
        """The daily bonus in the group, once a day of the group's time zone (not in a
        private chat)."""
        if chat.private:
            return self._no_wallet_here(actor)
        community = await self._community(chat)
        return await wallet.daily(self.rt, community, actor, await self._lang(community, actor))

    @_waits_for_storage
    async def grant(
        self,
        chat: ChatRef,
        actor: Actor,
        is_admin: bool,
        target: str,
        amount: str,
        key: str,
        target_name: str | None = None,
        shown: str | None = None,
        target_bot: bool = False,
        other: tuple[str, str, str | None] | None = None,
    ) -> Reply:
        """An admin gives (or takes, negative) kush: ``/grant @user N``. With ``target_name``
        (a platform that names the member, e.g. Discord), ``target`` is a user id and a member
        who never played is created first. ``shown``: the name the admin typed for
        ``target`` when the adapter replaced it by a user id (echoed if nobody matches).
        ``target_bot``: the platform says ``target`` is a bot account (refused: it never
        plays). ``other``: a second reading of what was typed, ``(target, amount, shown)``
        (:func:`wallet.grant`)."""
        community = await self._community(chat)
        lang = await self._lang(community, actor)
        if chat.private:
            return Reply(tr(lang, on(actor.platform, "reply.group_only")), alert=True)
        if not is_admin:
            return _admins_only(lang, chat.platform)
        target, amount = clean_arg(target), clean_arg(amount)  # echoed in refusals
        if other is not None:
            other = (clean_arg(other[0]), clean_arg(other[1]), other[2])
        return await wallet.grant(
            self.rt,
            community,
            actor,
            lang,
            target,
            amount,
            key,
            target_name,
            shown,
            target_bot,
            other,
        )

    @_waits_for_storage
    async def rules(self, chat: ChatRef, actor: Actor, game: str = "") -> Reply:
        """``/rules [game]``: short rules of ``game`` (``pineapple``, ``ofc``, ``chinese``),
        by default of the open table's game (or the community's game), as that table plays
        it (its scoring, Fantasyland, target score); a game no table here plays is described
        with the community's settings for it, as a new table of it would play."""
        community = await self._community(chat)
        lang = await self._lang(community, actor)
        t = self.table_in(chat)
        name = game.strip().lower()
        games = tr(lang, "games.names")
        known = settings_mod.game_named(name)
        if known is None and len(name.split()) > 1:  # one game, no more words
            return Reply(tr(lang, "reply.game_usage", command="rules", games=games), alert=True)
        if name and known is None:
            typed = self.rt.typed_text(chat.platform, clean_arg(name))
            text = tr(lang, "reply.unknown_game", game=typed, games=games)
            return Reply(text, alert=True)
        name = known or ""  # ("ананас", "Classic": the game's code name)
        label = self.rt.kush_label(community)
        if t is not None and (not name or name == t.options.game.value):
            return Reply(rules_text(t.options, lang, None if t.tournament else label))
        try:
            opts = settings_mod.table_options(community.settings, name or None)
        except OptionError:  # (a stored game no longer playable)
            opts = settings_mod.table_options(community.settings, GameKind.PINEAPPLE)
        return Reply(rules_text(opts, lang, label))

    @_waits_for_storage
    async def sent_as(self, chat: ChatRef, actor: Actor, *, group: bool) -> Reply:
        """The refusal of a command sent as the group itself (``group``: an anonymous admin,
        who would share one seat and one wallet with every other) or on behalf of a channel,
        where only a person may use it; in the group's language under ``auto`` (neither
        sender has a language of its own)."""
        community = await self._community(chat)
        key = "reply.anonymous" if group else "reply.as_channel"
        return Reply(tr(await self._lang(community, actor), key), alert=True)

    @_waits_for_storage
    async def help(self, chat: ChatRef, actor: Actor) -> Reply:
        """The command list."""
        community = await self._community(chat) if not chat.private else None
        key = "help.discord" if chat.platform == "discord" else "help"
        lang = await self._lang(community, actor)
        # what kush are, by the group's own label (R8.1; in a private chat the default)
        label = kush_word(self.rt.kush_label(community) if community else "kush", lang)
        line = tr(lang, key.replace("help", "help.kush"), unit=label[:1].upper() + label[1:])
        return Reply(tr(lang, key) + "\n" + line)

    @_waits_for_storage
    async def settings(
        self,
        chat: ChatRef,
        actor: Actor,
        is_admin: bool,
        args: list[str],
        request: str | None = None,
    ) -> Reply:
        """``/settings`` (show with buttons) or ``/settings <name> <value>`` (admins only);
        ``request``: the platform's key of the command: a change delivered again is answered
        "already done" and changes nothing (its key is saved with the change it made:
        :attr:`~storage.api.CommunitySettings.requests`, a restart and later changes in
        between or not; :attr:`Runtime.settings_requests` for a copy that comes while the
        first is still being handled)."""
        community = await self._community(chat)
        lang = await self._lang(community, actor)
        if chat.private:
            return Reply(tr(lang, on(actor.platform, "reply.group_only")), alert=True)
        if not is_admin:
            return _admins_only(lang, chat.platform)
        if not settings_mod.asks_list(args) and self._settings_again(community, request):
            # (a list changes nothing: asked again, it is shown again)
            return Reply(tr(lang, "reply.request_done"))
        # cleaned, and cut only far beyond the longest value a setting takes (the setting's
        # own range then refuses it): a value cut to fit would be saved silently shortened
        args = [settings_mod.typed_arg(a) for a in args]
        # the admin's own language (a change to auto is answered in it, an empty table takes
        # it); one who writes as the group has none: the language most of its players speak
        own = (
            language_of(actor.language)
            if actor.language
            else await self._group_lang(community, tables=False)
        )
        return await settings_mod.settings(
            self.rt,
            community,
            lang,
            args,
            own,
            self._game_in(chat),
            self._tournament_in(chat),
            request,
            self._table_number_in(chat),
        )

    def _settings_again(self, community: Community, request: str | None) -> bool:
        """Whether the settings change ``request`` (a command's or press's platform key) was
        applied before (saved with its change, :attr:`~storage.api.CommunitySettings.
        requests`: before a restart too) or is handled here (delivered again while the first
        is); records it in memory either way (the last :data:`REQUESTS_KEPT` of the
        community, :attr:`Runtime.settings_requests`)."""
        if request is None:
            return False
        done = self.rt.settings_requests.setdefault(community.id, [])
        if request in done or request in community.settings.requests:
            return True
        done.append(request)
        del done[:-REQUESTS_KEPT]
        return False

    def _game_in(self, chat: ChatRef) -> GameKind | None:
        """The game of the chat's open table (what ``/settings`` shows), ``None`` for none."""
        t = self.table_in(chat)
        return t.options.game if t is not None else None

    def _table_number_in(self, chat: ChatRef) -> int | None:
        """The number of the chat's open table, ``None`` for none."""
        t = self.table_in(chat)
        return t.id if t is not None else None

    def _tournament_in(self, chat: ChatRef) -> int | None:
        """The number of the chat's open table if it is a tournament's (R8.7), else ``None``."""
        t = self.table_in(chat)
        return t.id if t is not None and t.tournament is not None else None

    # -- computer players ---------------------------------------------------------------------
    async def add_bot(
        self,
        chat: ChatRef,
        actor: Actor,
        is_admin: bool,
        level: str = "",
        request: str | None = None,
        answer: Answer | None = None,
    ) -> Reply:
        """``/addbot [easy|normal|strong]`` (admins and the table's opener, or whom it passed
        to when they left their seat, :func:`.runtime.pass_opener`): seat a computer
        player that plays with house kush (issue 13); ``request`` as in :meth:`top_up` (the
        same command delivered twice seats one); ``answer``: an :data:`Answer`, called with the
        reply as soon as the step is committed, before the table's messages go out."""

        async def body(t: LiveTable, community: Community, lang: str) -> Reply:
            if not bots.is_opener_or_admin(t, actor, is_admin):  # (the opener may too)
                return Reply(bots.who_may(t, lang, chat.platform), alert=True)
            level_ = clean_arg(level, 16).lower()
            return await bots.add_bot(self.rt, t, community, lang, level_, request)

        return await self._at_table(chat, actor, body, answer)

    async def remove_bot(
        self,
        chat: ChatRef,
        actor: Actor,
        is_admin: bool,
        request: str | None = None,
        name: str = "",
        answer: Answer | None = None,
    ) -> Reply:
        """``/removebot [name]`` (admins and the table's opener): stand up the computer player
        ``name``, else the last one seated; ``request`` as in :meth:`top_up` (the same
        command delivered twice stands one up); ``answer`` as in :meth:`add_bot`."""

        async def body(t: LiveTable, community: Community, lang: str) -> Reply:
            if not bots.is_opener_or_admin(t, actor, is_admin):  # (the opener may too)
                return Reply(bots.who_may(t, lang, chat.platform), alert=True)
            # (cut beyond the longest name as the seating notice shows it, "🤖 Boris
            # (сильный)", so that the level is still there to leave out)
            named = clean_arg(name, 32)
            return await bots.remove_bot(self.rt, t, lang, request, named)

        return await self._at_table(chat, actor, body, answer)

    # -- chats that change under us ----------------------------------------------------------
    async def migrate_chat(self, platform: str, old_chat_id: str, new_chat_id: str) -> bool:
        """A chat got a new id (a Telegram group upgraded to a supergroup: the service message
        or the API's ``migrate_to_chat_id`` tells the adapter): the table, wallets, settings
        and history follow it. Safe to call more than once."""
        try:
            return await chats.migrate_chat(self.rt, platform, old_chat_id, new_chat_id)
        except TransitionFailed:
            return False

    async def moved_chat(self, platform: str, chat_id: str) -> str | None:
        """The id the chat ``chat_id`` has now when storage has it moved (a Telegram group
        upgraded to a supergroup, followed by another worker, or by this process before a
        restart: :meth:`storage.api.Store.moved_chat`), else ``None``; ``None`` too for a
        chat with a table served here (it moves with its chat) and when storage cannot
        tell (logged; the update is handled under the id it came with), or does not answer
        within :attr:`Runtime.storage_wait` (every update of a Telegram basic group asks
        this first: a silent database held every command and press there for good)."""
        if self.rt.table_at(platform, chat_id) is not None:
            return None
        try:
            with answer_within(self.rt.storage_wait):
                return await self.rt.store.moved_chat(platform, chat_id)
        except StorageError as exc:
            log.warning("where chat %s moved is not known: %r", chat_id, exc)
            return None

    async def chat_left(self, platform: str, chat_id: str, sent: float | None = None) -> bool:
        """The bot was removed from a group (Telegram's ``my_chat_member``, status ``kicked``
        or ``left``) or the chat was deleted (a Discord channel): its table closes, at the end
        of the hand in progress if one is, and the stacks go back to balances (R8.2a).
        ``sent``: a write refused for want of access told it, sent then
        (``time.monotonic()``): ignored when sent before the bot was back in the chat
        (:meth:`chat_back`). ``True`` if the chat had an open table."""
        try:
            return await chats.chat_left(self.rt, platform, chat_id, sent)
        except TransitionFailed:
            return False

    async def _closed_press(
        self, actor: Actor, table_id: int, chat: ChatRef | None, lang: str
    ) -> Reply:
        """A press on a button of table ``table_id``, which is not served here: a closed
        table's is answered "Table #N is closed." (in the presser's language) and changes
        nothing, anything else is out of date. A press in the table's own chat on a table
        message that still shows the table open (closed while the bot was removed, R8.2a,
        its return not told yet) has it written as closed, one edit
        (:func:`~bot.service.chats.owed_pressed`)."""
        stale = Reply(tr(lang, "err.stale"), alert=True)
        try:
            record = await self.rt.store.get_table(table_id)
            community = None
            if record is not None and not record.open:
                community = await self.rt.store.get_community(record.community_id)
        except StorageError:
            return stale
        if record is None or community is None or community.platform != actor.platform:
            return stale
        if chat is not None and not chat.private and chat.chat_id == record.chat_id:
            await chats.owed_pressed(self.rt, actor.platform, record.chat_id, table_id)
        return Reply(tr(lang, "reply.table_closed", table=table_id), alert=True)

    async def chat_back(self, platform: str, chat_id: str) -> bool:
        """The bot was added back to a group it had been removed from (Telegram's
        ``my_chat_member``, status ``member`` or ``administrator``), or may write there again,
        before the hand its removal waited for ended: the close the removal queued is
        cancelled (an admin's close stands). ``True`` if one was."""
        try:
            return await chats.chat_back(self.rt, platform, chat_id)
        except TransitionFailed:
            return False

    async def chats_back(self, platform: str, chat_ids: Sequence[str]) -> int:
        """The bot may write again in each of ``chat_ids`` (a Discord guild's channels after
        a role or member update): as :meth:`chat_back` for each, the closed tables owed
        there looked for in one read of storage for all of them
        (:func:`chats.chats_back`). Returns how many closes were cancelled."""
        return await chats.chats_back(self.rt, platform, chat_ids)

    async def community_back(
        self,
        platform: str,
        community_ext: str,
        writable: Callable[[str, str], bool] | None = None,
    ) -> int:
        """The bot was added back to a community (a Discord guild, ``on_guild_join``) before
        the hands its removal waited for ended: each close the removal queued is cancelled
        (:meth:`chat_back`). Returns how many tables go on. ``writable(community_ext,
        chat_id)``: whether the bot may write in a chat now: only such a chat's table goes
        on (one in a channel deleted or closed to the bot meanwhile keeps its close, R8.2a),
        and a table closed meanwhile has its message written as closed only there
        (:func:`chats.owed_back`)."""
        try:
            return await chats.community_back(self.rt, platform, community_ext, writable)
        except TransitionFailed:
            return 0

    async def owed_found(self, platform: str, writable: Callable[[str, str], bool]) -> int:
        """At a start: the bot is back, without having been told (a Discord guild that took
        the bot back while it was stopped sends no ``on_guild_join``), in the chats for which
        ``writable(community_ext, chat_id)`` holds: each table closed there while the bot was
        out has its table message written as closed (:func:`chats.owed_back`). Returns how
        many."""
        return await chats.owed_back(self.rt, platform, writable=writable)

    async def community_left(self, platform: str, community_ext: str) -> int:
        """The bot was removed from a community (a Discord guild, ``on_guild_remove``): each
        of its tables closes as in :meth:`chat_left`. Returns how many it had open."""
        try:
            return await chats.community_left(self.rt, platform, community_ext)
        except TransitionFailed:
            return 0

    async def member_left(
        self, chat: ChatRef, actor: Actor, request: str | None = None
    ) -> Reply | None:
        """A member left the group or was removed from it (Telegram's ``left_chat_member``):
        they can press none of the table's buttons nor type /leave there any more, so they
        leave the chat's table as /leave would (R8.2: the stack goes back to the balance, at
        once between hands, after the hand they play; R8.7: a running tournament knocks
        them out, one registering gives the buy-in back); the group is told in a short
        notice (names only). ``None`` if they had no seat. ``request``: the platform's key
        of the update (Telegram: ``tg:<chat>:<update_id>``): delivered again during the
        hand they leave after, it is "already done" (it told the group a second time)."""
        t = self.table_in(chat)
        if chat.private or t is None or t.seat_of(actor.user_id) is None:
            return None
        return await self._at_table(
            chat,
            actor,
            lambda t, _, lang: lobby.leave(self.rt, t, actor, lang, left_group=True),
            request=request,
        )

    async def renamed(self, chat: ChatRef, actor: Actor) -> bool:
        """``actor`` goes by a new name (``actor.name``) with no update of theirs at the table
        to carry it (the sandbox's ``b name X``): their seat at ``chat``'s table takes it as
        a command's or a press's would (:func:`lobby.rename`, under the table's lock, only
        while the table is served here), saved and shown (:func:`lobby.show_renamed`), the
        step's messages sent. Whether a seat was renamed (``False``: no table, no seat of
        theirs, a computer player, the same name, or the table not served here)."""
        t = self.table_in(chat)
        if chat.private or t is None:
            return False
        async with t.lock:
            if not self.rt.open_here(t):  # closed while we waited
                return False
            version, renamed = t.version, lobby.rename(t, actor)
            if renamed:
                await lobby.show_renamed(self.rt, t, actor, version)
        await self.rt.settled(t)
        return renamed

    async def member_gone(self, platform: str, community_ext: str, user_id: str) -> int:
        """A member left a whole community or was removed from it (a Discord guild: left,
        kicked or banned): at each of its tables where they sit they leave as in
        :meth:`member_left` (R8.2: the stack back to the balance, at once between hands,
        after the hand they play, R8.5; R8.7 in a tournament), the group told in a short
        notice. The name their seat shows is kept (the platform tells only the account). A
        seat already leaving (a ban, then the removal Discord sends with it, handled one
        after the other under the table's lock) is left alone. Returns at how many tables
        they were stood up."""
        actor = Actor(platform, user_id, "")  # no name: the seat's stays (lobby.rename)
        left = 0

        async def leave(t: LiveTable, _: Community, lang: str) -> Reply:
            nonlocal left
            seat = t.seat_of(user_id)
            if seat is None or seat.leaving:
                return Reply("")
            left += 1
            return await lobby.leave(self.rt, t, actor, lang, left_group=True)

        for t in list(self.rt.tables.values()):
            if t.platform == platform and t.community_ext == community_ext:
                seat = t.seat_of(user_id)
                if seat is not None and not seat.leaving:
                    await self._at_table(ChatRef(platform, community_ext, t.chat_id), actor, leave)
        return left

    async def player_unreachable(self, platform: str, user_id: str) -> None:
        """The platform refused a private message (the player blocked the bot mid-hand): the
        seat is marked unreachable as at deal time and the group shows the link."""
        await chats.player_unreachable(self.rt, platform, user_id)

    async def private_news(self, platform: str, user_id: str, *, blocked: bool) -> None:
        """What was heard of ``user_id``'s private chat with the bot, at the tables served
        here: ``blocked`` (Telegram said they blocked it) marks them unreachable
        (:meth:`player_unreachable`), else they showed life there (:meth:`player_seen`).
        One dispatch for the news heard here (the Telegram adapter) and told by another
        worker (:meth:`bot.cluster.Worker.private_life`).

        A user's news are taken one after the other, in the order they came: a block and an
        unblock told at once (two updates handled together while their table was busy) were
        taken in either order, :meth:`player_seen` finding the seat still reachable (its
        block not marked yet) and doing nothing, the block then marking it unreachable for
        good: a player who had unblocked the bot got no hand, and the group told them to open
        the private chat with it."""
        key = (platform, user_id)
        lock, users = self._news.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                if blocked:
                    await self.player_unreachable(platform, user_id)
                else:
                    await self.player_seen(platform, user_id)
        finally:
            users[0] -= 1
            if not users[0]:
                del self._news[key]

    async def settings_saved_elsewhere(self, community_id: int, language: str | None) -> bool:
        """Another worker saved a change of the community's settings (issue 14,
        :meth:`bot.cluster.Worker.settings_saved`): its tables served here take the settings as
        stored now, as that worker's own tables took them
        (:func:`~.settings.settings_changed`: a new time zone rewrites a hand's open private
        screens and the table message in the step, R8.5; the buy-in from the next hand).
        ``language``: the change was the group's language, made by an admin of that own
        language (``""`` unknown), else ``None``. ``False`` when there is no such community."""
        async with self.rt.settings_lock(community_id):  # (after this worker's own changes)
            community = await self.store.get_community(community_id)
            if community is None:
                return False
            await settings_mod.settings_changed(self.rt, community, language=language)
        return True

    async def player_seen(self, platform: str, user_id: str) -> None:
        """The player showed life in their private chat with the bot (Telegram: a command or
        a press there, or the platform saying they unblocked it), so the bot may write there
        again: at each table of theirs served here where a refusal made them unreachable
        (:func:`~.runtime.quiet_until_seen`: not written to since), their hand is posted anew
        during a hand they play (the group's line naming them, with the link, goes once it
        is through: :meth:`Runtime.send_private`), else they are taken as reachable, so the
        next deal sends their cards. Nothing is done, and no table's lock taken, for a
        player reachable everywhere (every press of theirs in private comes here). Told
        while the start restores the tables (an unblock Telegram kept while the bot was
        down), it waits for them. What the table is sending is waited for first: a /start
        told at the same time (Telegram's unblock comes with the player's /start, each
        handled at once) may be posting the hand, which makes them reachable (it was posted
        twice); a hand posted here is not posted again by a /start soon after
        (:meth:`private_start`)."""
        while self.rt.restoring:
            await asyncio.sleep(RESTORE_POLL_SECONDS)
        for t in list(self.rt.tables.values()):
            seat = t.seat_of(user_id) if t.platform == platform else None
            if seat is None or seat.reachable or seat.bot:
                continue
            await self.rt.settled(t)
            async with t.lock:
                seat = t.seat_of(user_id)
                if seat is None or seat.reachable or not self.rt.open_here(t):
                    continue
                if t.hand is not None and t.boards_of(seat):
                    self._repost_private(t, seat.seat)
                    now = time.monotonic()
                    self._revived = {
                        k: at for k, at in self._revived.items() if now - at < REVIVED_SECONDS
                    }
                    self._revived[(t.id, user_id)] = now
                else:
                    seat.reachable = True
                    self.rt.save_soon(t)

    # -- private chat ----------------------------------------------------------------------
    async def hand_picture(self, chat: ChatRef, actor: Actor) -> Reply:
        """``/hand``: a picture of the player's own board, in the private chat only."""
        return await hand_pictures.hand_picture(self.rt, chat, actor)

    async def _revived_here(self, t: LiveTable, user_id: str) -> None:
        """Wait for what ``t`` is sending when :meth:`player_seen` posted ``user_id``'s hand
        there anew lately (that post first: :meth:`_just_revived`)."""
        if (t.id, user_id) in self._revived:
            await self.rt.settled(t)

    def _just_revived(self, t: LiveTable, seat: SeatState) -> bool:
        """Whether :meth:`player_seen` posted the hand of ``seat`` anew at ``t`` less than
        :data:`REVIVED_SECONDS` ago and it went through (call under ``t.lock``, after
        :meth:`_revived_here`): a ``/start`` then posts it no second time. Once only: the
        next /start posts it anew."""
        at = self._revived.pop((t.id, seat.user_id), None)
        fresh = at is not None and time.monotonic() - at < REVIVED_SECONDS
        return fresh and seat.reachable and seat.private_ref is not None

    async def private_start(self, actor: Actor, arg: str) -> Reply:
        """``/start t<table>`` in a private chat: show the player's hand there. A hand an
        unblock posted anew just now (:meth:`player_seen`; Telegram sends the unblock and
        the player's /start together) is not posted a second time (:meth:`_just_revived`)."""
        lang = language_of(actor.language)
        number = start_table(arg)
        if number is not None:
            t = self.rt.tables.get(number)
            if t is not None and t.platform == actor.platform:
                await self._revived_here(t, actor.user_id)
                async with t.lock:
                    seat = t.seat_of(actor.user_id)
                    if seat is not None:
                        if not self._just_revived(t, seat):
                            self._repost_private(t, seat.seat)
                        linked = Reply(_where_cards(t, seat)[1])
                if seat is not None:
                    await self.rt.settled(t)  # the hand first, then the reply
                    return linked
        # a /start with no table: refresh any table the user sits at (on this platform: a
        # user id means someone else on another); the table message of one where they were
        # unreachable (they blocked the bot, and unblocking it sends a bare /start) is
        # written again once the hand reaches them: its link to the private chat goes. A
        # player seated somewhere is answered about each table they sit at, by number, not
        # "add me to a group and start a table with /newtable" (it named one table, the first
        # whose hand they were dealt in: "your cards for table #1 are above" left out #2's,
        # posted above as well, and a table whose cards were still to come)
        told: dict[int, str] = {}  # table → the answer about it
        for t in sorted(self.rt.tables.values(), key=lambda t: t.id):
            if t.platform != actor.platform or t.seat_of(actor.user_id) is None:
                continue  # (not their table: its lock, held by a long step, not waited for)
            await self._revived_here(t, actor.user_id)
            async with t.lock:
                seat = t.seat_of(actor.user_id)
                if seat is not None:
                    if t.hand is not None and not self._just_revived(t, seat):
                        self._repost_private(t, seat.seat)
                    told[t.id] = _where_cards(t, seat)[1]
            await self.rt.settled(t)
        # (with several workers, issue 14, a table another serves is not posted anew here: the
        # link of its /start t<table>, which reaches that worker, posts it)
        p = self.rt.presenters.get(actor.platform)
        for t in await hand_pictures.tables_elsewhere(self.rt, actor.platform, actor.user_id):
            seat = t.seat_of(actor.user_id)
            link = p.private_link(t.id) if p is not None else None
            if seat is not None and link and t.hand is not None and t.boards_of(seat):
                told[t.id] = tr(seat.lang, "reply.private_elsewhere", table=t.id, link=link)
            elif seat is not None:
                told[t.id] = _where_cards(t, seat)[1]
        told = dict(sorted(told.items()))
        return Reply("\n".join(told.values()) if told else tr(lang, "reply.welcome"))

    async def private_hand(self, platform: str, user_id: str, table_id: int) -> Screen | None:
        """The player's private hand screen at table ``table_id`` as it is now (its clock
        the time actually left), or ``None`` when the table is not served here or they have
        no seat there: a reminder of their turn (a Telegram turn ping, sent a while after
        the turn began) is written from it."""
        t = self.rt.tables.get(table_id)
        if t is None or t.platform != platform:
            return None
        async with t.lock:
            seat = t.seat_of(user_id)
            if seat is None or seat.bot or not self.rt.open_here(t):
                return None
            return self.rt.render_private(t, seat)

    async def message_posted(self, platform: str, chat_id: str, pending: str, ref: str) -> None:
        """A new message the platform could not post at once (it was down) and gave the
        pending ref ``pending`` (:data:`~bot.model.PENDING_PREFIX`) is posted in ``chat_id``
        as ``ref``: the table message or private hand that held ``pending`` holds ``ref`` now,
        at once (a press on it is then the current message's), and is saved (``pending``
        may also be a table message someone deleted, which the platform posted again as
        ``ref``: the table's next commit holds the new one); a showdown
        picture posted later (:attr:`~bot.model.LiveTable.late_pictures`) is no longer owed
        (a restart does not post it again)."""
        if await self._late_picture_done(platform, pending):
            return
        for t in list(self.rt.tables.values()):
            if t.platform != platform:
                continue
            hit = t.group_ref == pending and (
                pending.startswith(PENDING_PREFIX)  # (random: no other chat's)
                or chat_id.split("#", 1)[0] == t.chat_id
            )
            if hit:
                t.group_ref = ref
            seat = t.seat_of(chat_id)
            if seat is not None and seat.private_ref == pending:
                seat.private_ref, hit = ref, True
            if hit:
                async with t.lock:
                    self.rt.save_soon(t)

    async def picture_given_up(self, platform: str, chat_id: str, pending: str) -> None:
        """The showdown picture the platform was posting later under the pending ref
        ``pending`` (:attr:`~bot.model.LiveTable.late_pictures`) is given up: refused for
        good, its answer lost (perhaps posted: not sent again) or past the give-up time. It
        is no longer owed, so a restart does not post it (the text showdown is the record).
        Not told at the adapter's stop: a restart posts it then."""
        await self._late_picture_done(platform, pending)

    async def _late_picture_done(self, platform: str, pending: str) -> bool:
        """Forget the late picture ``pending`` (:attr:`~bot.model.LiveTable.late_pictures`)
        of the table on ``platform`` that keeps it, open or closed since
        (:meth:`Runtime.late_picture_done`); whether one did."""
        for t in [*self.rt.tables.values(), *self.rt.closing.values()]:
            if t.platform == platform and any(i.get("ref") == pending for i in t.late_pictures):
                return await self.rt.late_picture_done(t, pending)
        return False

    async def private_deleted(self, platform: str, user_id: str, ref: str) -> None:
        """The player deleted their private hand message ``ref`` (the platform refused an
        edit of it): the hand of the table it showed is sent anew, the player's hands at
        other tables are left as they are (a /start would send every one anew, leaving
        their old messages with buttons that are out of date). Returns once it is sent (the
        table's sender never waits for the presenter's edits, which call this)."""
        for t in list(self.rt.tables.values()):
            if t.platform != platform or t.seat_of(user_id) is None:
                continue  # (not their table: its lock, held by a long step, not waited for)
            async with t.lock:
                seat = t.seat_of(user_id)
                reposted = seat is not None and seat.private_ref == ref and t.hand is not None
                if reposted and seat is not None:
                    self._repost_private(t, seat.seat)
            if reposted:
                await self.rt.settled(t)

    def _back(self, t: LiveTable, actor: Actor, *, private: bool = True) -> SeatState | None:
        """``actor`` did something at table ``t`` (call under ``t.lock``): a tournament player
        away is back (R8.7, :func:`tournaments.back_from_away`). ``private``: their private
        hand is written again (without the line saying they are away) when they have one.
        Returns the seat when it was away."""
        seat = tournaments.back_from_away(self.rt, t, actor.user_id)
        if seat is not None and private:
            self._rewrite_private(t, seat)
        return seat

    def _rewrite_private(self, t: LiveTable, seat: SeatState) -> None:
        """Write the private hand of ``seat`` again, if it is still seated with boards in the
        hand (call under ``t.lock``)."""
        if t.hand is not None and t.seats.get(seat.seat) is seat and t.boards_of(seat):
            self._write_private_later(t, seat.seat, self.rt.render_private(t, seat))

    def _repost_private(self, t: LiveTable, seat_no: int) -> None:
        """Post the player's hand anew in their private chat (call under ``t.lock``): rendered
        now, written by the table's sender after what is queued, without the table's lock (a
        429 on that send held every other player's press unanswered). The table message is
        written again only if the write made them reachable (it named them unreachable, with
        the link: :meth:`Runtime.send_private`); a player reachable before, who posts their
        hand anew again and again, costs the group no write (each rewrote the table message
        under a new version). Sent even to a player the platform refused before (the
        callers: the player asked for it, or showed life, or deleted the message)."""
        seat = t.seats[seat_no]
        seat.private_ref = None
        self._write_private_later(t, seat_no, self.rt.render_private(t, seat), again=True)

    def _write_private_later(
        self, t: LiveTable, seat_no: int, screen: Screen, *, again: bool = False
    ) -> None:
        """Write ``screen`` as the player's private hand (edited in place, or posted anew
        without a :attr:`~bot.model.SeatState.private_ref`) through the player's sender, after
        what is queued there and without the table's lock (call under it); a change of their
        reachability writes the table message again (:meth:`Runtime.send_private`).
        ``again``: written even if the platform refused the player for good before (the
        player asked for it, or showed life: :meth:`Runtime.send_private`)."""
        seat = t.seats[seat_no]
        p = self.rt.presenter(t)
        if p is None:
            return
        rt = self.rt
        # posted anew outside a step (after a delete, "My cards" once DMs are open again): under
        # a pending ref saved first, as a step's (:func:`~.runtime.posts_by_ref`), so a bot
        # killed after the post and before its id is saved posts under it again after the
        # restart, and Discord returns the hand already posted (before: a random nonce)
        minted = None
        if seat.private_ref is None and not seat.bot and posts_by_ref(p):
            seat.private_ref = minted = pending_ref(PENDING_PREFIX)

        async def write() -> None:
            now = t.seats.get(seat_no)  # (a rolled-back step puts new seat objects in place)
            if now is None or now.user_id != seat.user_id or not rt.open_here(t):
                return  # left, or the table closed, meanwhile
            if minted is not None and now.private_ref == minted:
                await rt.snapshot_saved(t)  # (the ref in storage before the post)
            await rt.send_private(t, p, now, screen, again=again)
            async with t.lock:
                rt.save_soon(t)

        rt.send_later(t, write, chain=seat.user_id)
        self.rt.save_soon(t)

    # -- button presses --------------------------------------------------------------------
    async def press(
        self,
        actor: Actor,
        data: str | None,
        chat: ChatRef | None = None,
        is_admin: Callable[[], Awaitable[bool]] | None = None,
        *,
        message_ref: str | None = None,
        answer: Answer | None = None,
        request: str | None = None,
        shown: bool | None = None,
    ) -> Reply:
        """Handle a button press. Stale, forged or foreign presses are answered with a short
        notice and change nothing; legal ones go to the core.

        :param message_ref: the ref of the pressed message when the platform tells it, in
            the format of its private refs for a message in a private chat (and never equal
            to one for any other message): a press on a private hand message that is no
            longer the player's current one (e.g. one sent before a restart) is out of date;
            a press on the current one is answered with the hand's new screen, which the
            adapter shows there (the service does not write that message, issue 10).
        :param answer: called with the reply as soon as the step is committed, before its
            messages are sent (answer first: the platform may make the sending wait).
        :param request: the platform's key of this press (Telegram: ``tg:<chat>:<update_id>``,
            the same when the update is delivered again): a press delivered again never
            brings a tournament player away back (R8.7, :attr:`LiveTable.presses`).
        :param shown: whether the pressed message carries ``data`` among its buttons, when
            the platform tells it (Telegram sends the message as it is now; ``None``: not
            known): an older table button not on the table message is no lost edit of it
            (:meth:`_stale_lobby`).
        :returns: the same reply, once the step's messages are sent."""
        lang = language_of(actor.language)
        press = decode(data)
        if press is None:
            return Reply(tr(lang, "err.forged"), alert=True)
        if isinstance(press, SettingStep | AllSettings):
            return await self._within(  # (no table: bound here, a table's under its lock)
                actor, self._settings_press(chat, actor, press, is_admin, request)
            )
        if isinstance(press, ReplayStep):  # a history entry, no table (issue 12)
            if chat is not None and not chat.private and not _hand_view(message_ref):
                # (a replay is on a message only its player sees: its frames hold their
                # discards, R3.3; on a group's message it was dropped without a word)
                return Reply(tr(lang, "err.forged"), alert=True)
            return await self._within(actor, stats.replay_press(self.rt, actor, press, lang))
        t = self.rt.tables.get(press.table)
        if t is None and self.rt.restoring:  # (its table may be one still to be restored)
            return Reply(tr(lang, "err.restarting"), alert=True)
        if t is None or t.platform != actor.platform:
            return await self._within(actor, self._closed_press(actor, press.table, chat, lang))
        async with t.lock:
            with answer_within(self.rt.storage_wait):  # (a silent database)
                if not self.rt.open_here(t):
                    return Reply(tr(lang, "err.stale"), alert=True)
                lang = _press_lang(t, actor)
                # a press carries the presser's current name as a command does (the press's own
                # version is checked against the table message before anything is redrawn); not
                # one in a private chat: Discord names a DM's presser by their account's name, not
                # the server's nickname the seat took, and the seat's name flipped between the two
                # with every press there and in the group (a group write each time)
                in_group = chat is None or not chat.private
                version, renamed = t.version, in_group and lobby.rename(t, actor)
                # any press of theirs at the table brings a player away back (R8.7); the presses
                # of their hand write it themselves, after the press
                hand_press, seq = isinstance(press, _HAND_PRESSES), t.seq
                # (a press delivered again, pressed before they went away, says nothing of now)
                again = t.pressed_again(request)
                back = None if again else self._back(t, actor, private=not hand_press)
                failure: Exception | None = None
                try:
                    reply = await self._table_press(
                        t, actor, chat, press, lang, message_ref, is_admin, again=again, shown=shown
                    )
                except TransitionFailed as exc:
                    if t.seq == seq:  # nothing committed: storage refused the press's step
                        reply = _refused(t, lang, exc)
                    else:  # a later step of it was refused: the first one is done (as below)
                        if back is not None:
                            await tournaments.keep_back(self.rt, t, seq)
                        failure, reply = exc, self._after_commit(t, actor, lang, exc)
                except Exception as exc:  # their coming back committed all the same (R8.7)
                    committed = t.seq != seq
                    if back is not None:
                        await tournaments.keep_back(self.rt, t, seq)
                    if not committed and not isinstance(exc, StorageTimeout):
                        raise  # nothing committed: nothing to follow up
                    if not committed:  # a read not answered in time (a silent database)
                        reply = Reply(tr(lang, "err.storage"), alert=True)
                    else:
                        # a step of the press committed before it failed: its after-steps run
                        # all the same (the new name, the step's messages) and it is answered
                        # as done (it was "something went wrong; nothing changed", and
                        # pressed again)
                        failure, reply = exc, self._after_commit(t, actor, lang, exc)
                if (
                    failure is None
                    and back is not None
                    and hand_press
                    and t.seq == seq
                    and not reply.private
                ):
                    # refused (stale, not theirs, not legal) without their hand to show and no
                    # step taken that wrote it: it is written here, or it kept saying they are away
                    self._rewrite_private(t, back)
                if renamed:
                    await lobby.show_renamed(self.rt, t, actor, version)
                if back is not None and failure is None:  # committed before the answer (R8.7)
                    await tournaments.keep_back(self.rt, t, seq)
        if answer is not None:
            await answer(reply)  # the presser first: a platform that makes us wait comes after
        await self.rt.settled(t)
        return reply

    def press_notice(self, actor: Actor, table: int | None, key: str) -> str:
        """The text of the notice ``key`` (``err.stale_edited``, ``err.forged``) answering a press
        of ``actor`` at table ``table`` (``None``: no table) that the adapter refuses
        itself, the press never reaching :meth:`press` (a Discord button no longer on the
        pressed message: discord.py drops the press), in the language :meth:`press` answers
        that table's presses in: the seat's, the table's for someone not seated there, the
        presser's own where the table is not served here."""
        t = self.rt.tables.get(table) if table is not None else None
        if t is None or t.platform != actor.platform:
            return tr(language_of(actor.language), key)
        return tr(_press_lang(t, actor), key)

    async def _table_press(
        self,
        t: LiveTable,
        actor: Actor,
        chat: ChatRef | None,
        press: Press,
        lang: str,
        message_ref: str | None,
        is_admin: Callable[[], Awaitable[bool]] | None = None,
        *,
        again: bool = False,
        shown: bool | None = None,
    ) -> Reply:
        rt = self.rt
        closed = await timing.idle_first(rt, t, lang)  # (due before the press: R8.2a)
        if closed is not None:
            return closed
        seat = t.seat_of(actor.user_id)
        if isinstance(press, Register | Unregister | StartTournament):
            if chat is not None and chat.chat_id != t.chat_id:  # (an admin here is not there)
                return _foreign(t, chat, lang)
            if t.tournament is None or not _lobby_shaped(press.version):
                # (a tournament's button at a cash table: no message of it ever showed one)
                return Reply(tr(lang, "err.forged"), alert=True)
            # a Register double-tapped: the second tap's version is one the first moved on;
            # it was "out of date", which the player read as the first not counted. Not a
            # lost edit either: the table message is not written again for it (it was, and
            # that answer then dropped: a group edit for a tap that changed nothing)
            if (
                not t.lobby_version(press.version)
                and not _still_meant(rt, t, actor, press, again, message_ref)
                and not _registered_twice(t, actor, press, again)
            ):
                return await self._stale_lobby(t, chat, lang, message_ref, shown)
            if isinstance(press, Register):  # in the presser's language, as Join (below)
                community, lang = await self._presser(t, actor)
                return await tournaments.register(rt, t, community, actor, lang)
            if isinstance(press, Unregister):
                return await tournaments.unregister(rt, t, actor, lang)
            if seat is None:  # (in the presser's language, as Register: the table's was
                # answered to someone not seated)
                _community, lang = await self._presser(t, actor)
            admin = is_admin is not None and await is_admin()
            return await tournaments.start(rt, t, actor, admin, lang)
        if isinstance(press, Join | Ready | Leave | MyHand | TopUp):
            if chat is not None and chat.chat_id != t.chat_id:
                return _foreign(t, chat, lang)
            cash_only = isinstance(press, Join | Ready | TopUp)
            if not _lobby_shaped(press.version) or (cash_only and t.tournament is not None):
                # (no table message carries such a version, nor a tournament's these buttons:
                # forged, and the table message is not written again for it)
                return Reply(tr(lang, "err.forged"), alert=True)
            if not t.lobby_version(press.version) and not _still_meant(
                rt, t, actor, press, again, message_ref
            ):
                stale = await self._stale_lobby(t, chat, lang, message_ref, shown)
                if not isinstance(press, MyHand):
                    return stale
                # "My cards" shows the presser their own hand as it is now, whatever the
                # table message shows: one whose edits are refused (the bot lost Send
                # Messages mid-hand, R8.2a: the hand is played out) keeps its old buttons,
                # and its players without DMs had no other way to their cards
            if isinstance(press, Join):
                community, joiner = await self._presser(t, actor)
                return await lobby.join(rt, t, community, actor, joiner)
            if isinstance(press, Ready):
                return await lobby.ready(rt, t, actor, lang)
            if isinstance(press, Leave):
                return await lobby.leave(rt, t, actor, lang, button=True)
            if isinstance(press, TopUp):
                community = await rt.store.community(t.platform, t.community_ext)
                return await lobby.top_up(rt, t, community, actor, lang)
            # my hand (platforms without a private chat link show it ephemerally)
            if seat is None or t.hand is None or not t.boards_of(seat):
                return Reply(tr(lang, "private.none"), alert=True)
            screen = rt.render_private(t, seat)
            # the private chat's hand too, written by the table's sender without the lock (a
            # 429 there held every press at the table); asked for, so tried even after a
            # refusal
            self._write_private_later(t, seat.seat, screen, again=True)
            rt.save_soon(t)
            return Reply(screen=screen, private=True)
        if isinstance(press, Claim | Continue):
            if chat is not None and chat.chat_id != t.chat_id:  # (the table message's buttons)
                return _foreign(t, chat, lang)
            return await chinese.claim_press(
                rt, t, seat, isinstance(press, Claim), press.version, lang
            )
        if chat is not None and not chat.private and not _hand_view(message_ref):
            # a hand's buttons are on a message only its player sees (their private chat, a
            # Discord ephemeral hand): the payload pressed on a group's message is forged (it
            # placed the card, R3.3)
            return Reply(tr(lang, "err.forged"), alert=True)
        answered = None
        if message_ref is not None and seat is not None:
            # a private chat holds the one private hand message of the player; anything else
            # pressed (say a Discord ephemeral hand) is another view of the hand
            own = chat is not None and chat.private
            if own and seat.private_ref is not None and message_ref != seat.private_ref:
                # a superseded hand message
                return Reply(tr(lang, on(t.platform, "err.stale_hand")), alert=True)
            if own and seat.private_ref is None and self._hand_elsewhere(t, actor, message_ref):
                # the player's hand message of another table: never taken as this one's (both
                # tables wrote their hands into one message)
                return Reply(tr(lang, on(t.platform, "err.stale_hand")), alert=True)
            view = message_ref.startswith(HAND_VIEW_PREFIX)
            answered = Answered(seat.seat, message_ref, own, view)
        # a private hand (``again``: the press delivered again, never a second press)
        return await play.hand_press(rt, t, seat, press, lang, answered, again=again)

    def _hand_elsewhere(self, t: LiveTable, actor: Actor, message_ref: str) -> bool:
        """Whether ``message_ref`` (in ``actor``'s private chat) is their hand message of
        another table than ``t`` served here."""
        for other in self.rt.tables.values():
            if other is t or other.platform != t.platform:
                continue
            seat = other.seat_of(actor.user_id)
            if seat is not None and seat.private_ref == message_ref:
                return True
        return False

    async def _stale_lobby(
        self,
        t: LiveTable,
        chat: ChatRef | None,
        lang: str,
        message_ref: str | None,
        shown: bool | None = None,
    ) -> Reply:
        """A press of an older table message: refused. Pressed on the table message itself
        (in the table's chat), that message is written again at its current version: it
        shows an older screen because an edit of it was lost, and its buttons were out of
        date for good. A press on any other message (an older table's, one scrolled back
        to) writes nothing: pressing it again and again costs the group no writes; nor does
        one whose button the table message does not carry (``shown`` false: it shows a newer
        screen already, the press a fast second tap racing its edit, or a forged older
        version: one group edit per press, R8.2)."""
        if chat is not None and shown is not False and _same_message(message_ref, t.group_ref):
            await self.rt.reshow_group(t)
        return Reply(tr(lang, "err.stale"), alert=True)

    async def _settings_press(
        self,
        chat: ChatRef | None,
        actor: Actor,
        press: SettingStep | AllSettings,
        is_admin: Callable[[], Awaitable[bool]] | None,
        request: str | None = None,
    ) -> Reply:
        if chat is None or chat.private:
            return Reply(tr(language_of(actor.language), "err.forged"), alert=True)
        community = await self._community(chat)
        lang = await self._lang(community, actor)
        if is_admin is None or not await is_admin():
            return _admins_only(lang, chat.platform)
        # delivered again: its version is a digest of the settings, which a later press may
        # have set back as they were (+ then −): the copy moved the value a second time
        # (the "All settings" button changes nothing: shown again, it shows the list again)
        if isinstance(press, SettingStep) and self._settings_again(community, request):
            return Reply(tr(lang, "reply.request_done"))
        return await settings_mod.settings_press(
            self.rt, community, lang, press, language_of(actor.language), self._game_in(chat),
            self._tournament_in(chat), request, self._table_number_in(chat),
        )  # fmt: skip


def _still_meant(
    rt: Runtime, t: LiveTable, actor: Actor, press: Press, again: bool, message_ref: str | None
) -> bool:
    """Whether a lobby button pressed on an older version of the table message counts as
    pressed on the current one (a busy lobby: two people press Join at once, the first
    press moves the version on and the second was told "out of date"): only when its
    meaning for the presser cannot have changed since that version was shown:

    - it was pressed on the table message itself (``message_ref``; ``None``: not known):
      not on another message (an older copy scrolled back to), which writes nothing
      (:meth:`TableService._stale_lobby`);
    - the version is from the table's present lobby stretch (:meth:`LiveTable.same_lobby`:
      the lobby or between hands, nothing dealt, started or stopped since);
    - the current table message offers the same button;
    - the press does what it did then for its presser, once: Join when they are not
      seated, Ready when they are seated and not ready (Ready is no toggle, but a ready
      player sitting out is brought back by it: not counted), Register when not registered,
      Unregister when registered (R8.2, R8.7); and the presser has not left their seat
      (stood up, unregistered) since that version was shown (:meth:`LiveTable.left_since`:
      a Join double-tapped, Leave pressed between and the second tap late seated them again).

    Leave counts only as a first tap, from any older version (a running tournament's Leave
    asks first and writes the table message anew: another player's Leave pressed meanwhile
    was told "out of date"): when the current message offers Leave and a Leave of the
    presser's now would only ask (:func:`.lobby.leave_asks`: seated, not asked within
    :data:`~bot.model.LEAVE_CONFIRM_SECONDS`, R8.5, R8.7); it never confirms a leave (a
    double tap's second press stays out of date).

    Top up, Start and "My cards" never count (their meaning depends on more than the
    presser's own state); nor a press delivered again (``again``: it applied once)."""
    if again or not isinstance(press, Join | Ready | Leave | Register | Unregister):
        return False
    if message_ref is not None and not _same_message(message_ref, t.group_ref):
        return False
    if isinstance(press, Leave):
        seat = t.seat_of(actor.user_id)
        if seat is None or not lobby.leave_asks(rt, t, seat):
            return False
        return rt.offers(t, encode(Leave(t.id, f"L{t.version}")))
    if not t.same_lobby(press.version) or t.left_since(actor.user_id, press.version):
        return False
    seat = t.seat_of(actor.user_id)
    tour = t.tournament
    if isinstance(press, Join | Register):
        if seat is not None:
            return False
        if isinstance(press, Register) and (
            tour is None or tour.phase is not TournamentPhase.REGISTERING
        ):
            return False
    elif isinstance(press, Ready):
        if seat is None or seat.ready or seat.leaving or seat.bot is not None:
            return False
    elif seat is None or tour is None or not tour.can_unregister(seat.player_id):
        return False
    return rt.offers(t, encode(type(press)(t.id, f"L{t.version}")))


def _registered_twice(t: LiveTable, actor: Actor, press: Press, again: bool) -> bool:
    """Whether a Register on an older version of the table message is a second tap of a
    registered player (R8.7): pressed in the present lobby stretch
    (:meth:`LiveTable.same_lobby`), a new press (not ``again``), its presser registered and
    seated since that version was shown (not :meth:`LiveTable.left_since`). It is answered
    "You are registered already" (:func:`.tournaments.register`, nothing changed), not "out
    of date"."""
    if again or not isinstance(press, Register):
        return False
    if not t.same_lobby(press.version) or t.left_since(actor.user_id, press.version):
        return False
    seat = t.seat_of(actor.user_id)
    return seat is not None and not seat.leaving and seat.bot is None


def _foreign(t: LiveTable, chat: ChatRef, lang: str) -> Reply:
    """The answer to a lobby press of table ``t`` from another chat than the table's: out of
    date from the chat the table was in before its group moved (:attr:`LiveTable.moved_from`:
    the old group's message, pressed after a restart made the adapter forget the move; it
    answered "Unknown button"), else forged (a table's buttons are in its own chat only).
    Either way nothing changes."""
    key = "err.stale" if chat.chat_id == t.moved_from else "err.forged"
    return Reply(tr(lang, key), alert=True)


def _press_lang(t: LiveTable, actor: Actor) -> str:
    """The language of the answer to a press of ``actor`` at ``t``: their seat's (which
    follows the group's ``language`` setting), the table's for someone not seated."""
    seat = t.seat_of(actor.user_id)
    return seat.lang if seat else t.lang


def _admins_only(lang: str, platform: str, key: str = "reply.admins_only") -> Reply:
    """The refusal of what only admins (``key``: and someone else) may do, naming them as the
    platform does: Discord has no group admins, its admins are members with Manage Server
    (a member told "only group admins" there could not tell whether their role was one)."""
    return Reply(tr(lang, on(platform, key)), alert=True)


def _where_cards(t: LiveTable, seat: SeatState) -> tuple[bool, str]:
    """The answer to a ``/start`` in private of a player seated at ``t``, said after their
    hand is posted there: ``(dealt in, text)``; dealt in, their cards are above it, else they
    come when they are dealt in (the screen says there is no hand)."""
    dealt = t.hand is not None and bool(t.boards_of(seat))
    key = "reply.private_linked" if dealt else "reply.private_seated"
    return dealt, tr(seat.lang, key, table=t.id)


#: Presses that write the presser's private hand themselves (:meth:`TableService._back`).
_HAND_PRESSES = (PlaceCard, DiscardCard, TakeBack, Undo, Arrange, ConfirmMove, MyHand)


def _lobby_shaped(version: str) -> bool:
    """Whether ``version`` is shaped as a table message's button version (``L<n>``)."""
    return lobby_version_no(version) is not None


def _hand_view(message_ref: str | None) -> bool:
    """Whether the pressed message is a view of a hand that only its player sees outside
    their private chat (:data:`~bot.model.HAND_VIEW_PREFIX`: a Discord ephemeral hand)."""
    return message_ref is not None and message_ref.startswith(HAND_VIEW_PREFIX)


def _same_message(pressed: str | None, table_ref: str | None) -> bool:
    """Whether the pressed message (``press``'s ``message_ref``: a message id, or
    ``"<channel id>:<message id>"`` on Discord) is the table message ``table_ref`` of the
    same chat (message ids are unique within a chat)."""
    if pressed is None or table_ref is None:
        return False
    return pressed.rsplit(":", 1)[-1] == table_ref.rsplit(":", 1)[-1]
