"""The storage interface the table service uses (issue 3): typed records and one repository
protocol, :class:`Store`. :mod:`storage.sqlite` implements it on aiosqlite;
:mod:`storage.postgres` on asyncpg (PostgreSQL, ``DATABASE_URL``: several bot processes on
one database); :mod:`storage.memory` is the in-memory fake for fast service tests. All pass
the same contract tests.

Money model (R8.1–R8.4): every player has a *wallet* (their balance) per community and, while
seated, a *stack* at one table. Stacks are the table's escrow. Every change is an append-only
ledger row written in the same transaction as the balances/stacks it changes; each row is
balanced by itself (``balance_delta + stack_delta == 0``) except the minting kinds
(``starting``, ``admin_grant``, ``daily_bonus``), so for every community
``sum(balances) + sum(stacks)`` changes only through minting. A ``hand_result`` is a set of
rows with ``stack_delta`` only, summing to zero over the hand. Amounts are whole kush.

Idempotency: every mutating call takes a ``key``; repeating a call with a key already applied
changes nothing and returns the first call's result.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from game.options import OPTION_GAMES, RuleOptions

__all__ = [
    "DEFAULT_KUSH_LABEL",
    "BuyIn",
    "CashOut",
    "Community",
    "CommunitySettings",
    "Grant",
    "HandRecord",
    "HandStats",
    "HouseGrant",
    "InsufficientFunds",
    "Joined",
    "LeaseLost",
    "LedgerEntry",
    "LedgerKind",
    "Move",
    "Player",
    "Settlement",
    "StaleStep",
    "StorageError",
    "StorageTimeout",
    "StorageUnreachable",
    "Store",
    "TableRecord",
    "answer_within",
    "fold_name",
    "lease_key",
    "time_left",
]


class StorageError(Exception):
    """Base class of storage errors; nothing was changed when one is raised."""


class StorageUnreachable(StorageError):
    """The database server could not be reached (refused, silent, a name that does not
    resolve, a server still starting up or out of connections): trying again later may
    succeed, unlike a refused password or a database that does not exist (plain
    :class:`StorageError`). Nothing was changed."""


class InsufficientFunds(StorageError):
    """A debit would make a balance or a stack negative; nothing was changed.

    :ivar player_id: a buy-in's player whose balance was short (``None`` for the other
        refusals: a stack, a grant that takes).
    :ivar balance: that balance, in kush, as the refusing transaction read it (what a refusal
        names: one read after it may have moved, a write landing meanwhile), or ``None``.
    :ivar need: the kush the buy-in asked for, or ``None``."""

    def __init__(
        self,
        message: str,
        *,
        player_id: int | None = None,
        balance: int | None = None,
        need: int | None = None,
    ) -> None:
        super().__init__(message)
        self.player_id = player_id
        self.balance = balance
        self.need = need


class StorageTimeout(StorageError):
    """Storage did not answer within the time the caller has (:func:`answer_within`): the
    database silent (a network partition, a server that hangs) or a lock another process
    holds. Unlike other storage errors, the outcome of a write is NOT known: it
    may have been applied, or be applied later (a caller reads it back, as after a lost
    answer); a read changed nothing."""


_DEADLINE: contextvars.ContextVar[tuple[float, asyncio.Task[Any] | None] | None] = (
    contextvars.ContextVar("storage_deadline", default=None)
)


@contextlib.contextmanager
def answer_within(seconds: float, *, anew: bool = False) -> Iterator[None]:
    """Within the block, the store calls the current task makes wait at most until
    ``seconds`` from now in all (a press or a command answered within a second whatever the
    database does), then raise :class:`StorageTimeout`; the stores that can wait
    (PostgreSQL, SQLite) honour it. Tasks started meanwhile (timers, background saves,
    the step's sending) are not bound by it: the bound is the task's, not its context's.
    Calls outside such a block have no bound (migrations, the start's restore). Within
    another such block of the task, the sooner end holds; with ``anew``, this block's own
    (work of its own inside a command, each table's step of a settings change, say, that
    must not find the command's time spent by the steps before it)."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    end = loop.time() + seconds
    outer = _DEADLINE.get()
    if outer is not None and outer[1] is task and not anew:
        end = min(end, outer[0])
    token = _DEADLINE.set((end, task))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def time_left() -> float | None:
    """The seconds the current task's store call may still wait (:func:`answer_within`), at
    most 0; ``None``: no bound."""
    bound = _DEADLINE.get()
    if bound is None or bound[1] is not asyncio.current_task():
        return None
    return max(0.0, bound[0] - asyncio.get_running_loop().time())


class StaleStep(StorageError):
    """A :meth:`Store.commit` whose live snapshot's ``"seq"`` (transition number) is not
    higher than the stored one's: storage holds that step or a later one already, made by
    another step (another worker's, issue 14, or an earlier commit that applied after all);
    nothing was changed. (The same step repeated, its key again, is answered as done.)"""


class LeaseLost(StorageError):
    """A fenced store (:meth:`Store.fence`) refused to write a table whose chat's lease its
    worker does not hold (issue 14): another worker serves the table now; nothing was
    changed."""


def fold_name(name: str) -> str:
    """``name`` as names are compared: letter case aside and ``ё`` read as ``е`` ("Алёна" and
    "алена" are one name to a reader of Russian, who mostly types ``е``). The one fold of
    names: the store's lookup key (:func:`storage._common.name_key`, which trims and drops a
    leading ``@`` besides) and the bot's comparisons of names (:func:`bot.names.folded`)."""
    return name.casefold().replace("ё", "е")


def lease_key(platform: str, chat_id: str) -> str:
    """The lease key of a chat (issue 14): ``"<platform>:<chat id>"``. A table is served by
    the worker holding the lease of its chat."""
    return f"{platform}:{chat_id}"


class LedgerKind(Enum):
    """Kinds of ledger rows."""

    STARTING = "starting"
    BUY_IN = "buy_in"
    CASH_OUT = "cash_out"
    HAND_RESULT = "hand_result"
    ADMIN_GRANT = "admin_grant"
    DAILY_BONUS = "daily_bonus"
    REFUND = "refund"


#: The kush label of a community whose admins have not chosen one (R8.1); players read it in
#: their own language (:func:`bot.texts.kush_word`).
DEFAULT_KUSH_LABEL = "kush"


def _hours(raw: Any) -> float | None:
    """A stored ``utc_offset``: hours, or ``None`` (never set: by the group's language)."""
    return None if raw is None else float(raw)


@dataclass(frozen=True, slots=True)
class CommunitySettings:
    """A community's defaults, set by its admins (R8.1).

    :ivar starting_balance: kush a new player starts with.
    :ivar daily_bonus: kush of ``/daily``.
    :ivar min_buy_in: kush moved to the table on Ready (R8.2).
    :ivar max_buy_in: the most a stack may hold after a top-up (R8.2); 0 means 5 × the
        minimum buy-in.
    :ivar kush_label: display label of the kush value (e.g. "1 kush = 10 ₽"), display only.
    :ivar language: ``"en"``/``"ru"`` to force a language, ``None`` for each user's own.
    :ivar game: game preset of new tables (``pineapple``, ``ofc``, ``chinese``).
    :ivar options: rule option overrides of new tables (R3–R8), JSON values.
    :ivar tournament_buy_in: kush a tournament registration moves to the prize pool (R8.7).
    :ivar tournament_chips: the starting chips of a tournament (R8.7).
    :ivar level_minutes: the length of a tournament level, minutes (R8.7).
    :ivar payouts: a tournament's payouts, whole percentages best place first (``"70,30"``);
        empty: R8.7's default.
    :ivar chips_schedule: chips per point by level (``"10,15,20"``, then +100 a level);
        empty: R8.7's default.
    :ivar pictures: a picture of every board goes to the group at each showdown (issue 12).
    :ivar utc_offset: the group's time zone, hours from UTC (−12 … 14): when its day turns
        (``/daily``) and the dates of its charts; ``None`` (the default, never set) follows
        the group's language: UTC (0) where it is English (set so, or ``auto`` with most of
        its players reading English), else Moscow's (3), most players writing Russian (every
        group had 3, an English one's chart axis and next /daily read 3 h off for a UTC
        reader). Read it as :meth:`day_zone`. A group stored before keeps the value it has
        (3 was saved with its settings).
    :ivar requests: the platform keys of the last settings changes applied (``/settings``
        commands and presses, e.g. ``tg:<chat>:<update_id>``), saved with the change they
        made: a copy delivered later (after a restart, or after newer changes) is answered,
        not applied again. Bookkeeping, not a setting: not compared, not in the settings
        message's version.
    :ivar table_requests: the platform keys of the one-shot commands of the community's last
        closed tables (``/newtable``, ``/closetable``, ...: each closed table's
        ``LiveTable.requests``, the last few), saved when a table closes: a copy delivered
        after a restart opens or closes no table (the keys of a table still open are in its
        snapshot). Bookkeeping, as ``requests``.
    """

    starting_balance: int = 1000
    daily_bonus: int = 100
    min_buy_in: int = 200
    kush_label: str = DEFAULT_KUSH_LABEL
    language: str | None = None
    game: str = "pineapple"
    options: Mapping[str, Any] = field(default_factory=dict)
    max_buy_in: int = 0
    tournament_buy_in: int = 100
    tournament_chips: int = 1000
    level_minutes: float = 5.0
    payouts: str = ""
    chips_schedule: str = ""
    pictures: bool = True
    utc_offset: float | None = None
    requests: tuple[str, ...] = field(default=(), compare=False)
    table_requests: tuple[str, ...] = field(default=(), compare=False)

    def rule_options(self) -> RuleOptions:
        """The :class:`RuleOptions` of a new table: the options its game has (one of another
        game, ``dummy_box`` kept for classic tables, is left out). :raises OptionError: on
        bad stored values."""
        game = RuleOptions.preset(self.game).game
        return RuleOptions.preset(
            game,
            **{k: v for k, v in self.options.items() if game in OPTION_GAMES.get(k, (game,))},
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "starting_balance": self.starting_balance,
            "daily_bonus": self.daily_bonus,
            "min_buy_in": self.min_buy_in,
            "kush_label": self.kush_label,
            "language": self.language,
            "game": self.game,
            "options": dict(self.options),
            "max_buy_in": self.max_buy_in,
            "tournament_buy_in": self.tournament_buy_in,
            "tournament_chips": self.tournament_chips,
            "level_minutes": self.level_minutes,
            "payouts": self.payouts,
            "chips_schedule": self.chips_schedule,
            "pictures": self.pictures,
            "utc_offset": self.utc_offset,
            "requests": list(self.requests),
            "table_requests": list(self.table_requests),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CommunitySettings:
        """Inverse of :meth:`to_json`; missing fields take their defaults."""
        base = cls()
        return cls(
            int(data.get("starting_balance", base.starting_balance)),
            int(data.get("daily_bonus", base.daily_bonus)),
            int(data.get("min_buy_in", base.min_buy_in)),
            str(data.get("kush_label", base.kush_label)),
            data.get("language", base.language),
            str(data.get("game", base.game)),
            dict(data.get("options") or {}),
            int(data.get("max_buy_in", base.max_buy_in)),
            int(data.get("tournament_buy_in", base.tournament_buy_in)),
            int(data.get("tournament_chips", base.tournament_chips)),
            float(data.get("level_minutes", base.level_minutes)),
            str(data.get("payouts", base.payouts)),
            str(data.get("chips_schedule", base.chips_schedule)),
            bool(data.get("pictures", base.pictures)),
            _hours(data.get("utc_offset", base.utc_offset)),
            tuple(str(r) for r in data.get("requests") or ()),
            tuple(str(r) for r in data.get("table_requests") or ()),
        )

    def day_zone(self, readers: str | None = None) -> float:
        """The group's time zone, hours from UTC: ``utc_offset``, or when never set 0 (UTC)
        in a group whose language is English and 3 (Moscow) otherwise. Under ``auto``
        (``language`` ``None``) the language is ``readers``: the one most of the group's
        players read (``"en"``/``"ru"``, decided by the bot,
        :func:`bot.service.settings.day_zone`; ``None``, not known: Moscow's)."""
        if self.utc_offset is not None:
            return self.utc_offset
        language = self.language if self.language in ("en", "ru") else readers
        return 0.0 if language == "en" else 3.0

    @property
    def top_up_limit(self) -> int:
        """The most a stack may hold after a top-up (R8.2): ``max_buy_in``, or 5 × the minimum
        buy-in when it is 0."""
        return self.max_buy_in or 5 * self.min_buy_in


@dataclass(frozen=True, slots=True)
class Community:
    """A Telegram group or a Discord guild: balances, leaderboards and settings live here."""

    id: int
    platform: str
    external_id: str
    title: str
    settings: CommunitySettings


@dataclass(frozen=True, slots=True)
class Player:
    """A person in one community. ``balance`` is their wallet (kush), not counting stacks."""

    id: int
    community_id: int
    user_id: str
    name: str
    language: str | None
    balance: int


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table in a chat (a group, or a Discord channel). ``options`` is ``RuleOptions.to_json``."""

    id: int
    community_id: int
    chat_id: str
    options: Mapping[str, Any]
    min_buy_in: int
    open: bool


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One append-only ledger row (see module doc)."""

    id: int
    community_id: int
    kind: LedgerKind
    player_id: int
    table_id: int | None
    hand_id: int | None
    balance_delta: int
    stack_delta: int
    actor: str | None
    reason: str | None
    key: str
    created_at: float


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand for the history.

    :ivar hand: ``Hand.to_json()``: setup (deck, seed) and ordered actions.
    :ivar result: ``HandResult.to_json()`` plus anything the service adds (e.g. kush moved).
    :ivar players: seat → player id.
    """

    id: int
    table_id: int
    number: int
    hand: Mapping[str, Any]
    result: Mapping[str, Any]
    players: Mapping[int, int]
    finished_at: float


@dataclass(frozen=True, slots=True)
class HandStats:
    """Sums over settlements from the per-player figures stored with every history entry
    (issue 12): of one player (:meth:`Store.player_stats`) or of a whole community
    (:meth:`Store.community_stats`). Amounts are whole kush; figures of hands count the hands
    played (not the separate entries of a round, a Chinese Poker game or a tournament's
    payout), while ``kush`` counts every entry. A tournament's payout (R8.7) is no hand's
    winnings: ``kush_won`` and the biggest win leave it out, ``tournaments`` and
    ``tournament_kush`` count it apart. A tournament's hand moves chips, not kush: ``hands``
    counts the ordinary (cash) hands only, ``tournament_hands`` and ``tournament_points``
    those; the board figures (boards, points, fouls, royalties, scoops, Fantasyland) count
    both.

    :ivar hands: ordinary (cash) hands played (a community: distinct hands).
    :ivar players: distinct players (a player's own: 1, or 0 without any entry).
    :ivar boards: boards played (2 a hand with double boxes, R4.2).
    :ivar points: net points (R5.1; Chinese Poker: the counted points, R7.5).
    :ivar kush: net kush over every settlement (0 for a whole community: hands are zero-sum).
    :ivar kush_won: kush won, the positive results only, tournament payouts left out.
    :ivar fouls: fouled boards (R2.3).
    :ivar royalties: royalties of unfouled boards (R5.6; open-face games only).
    :ivar scoops: opponents' boards beaten in all three boxes (R5.2).
    :ivar fl_chances: ordinary boards that could earn Fantasyland (R6.1).
    :ivar fl_entered: ordinary boards that earned it (R6.1).
    :ivar fl_played: boards played in Fantasyland (R6.2).
    :ivar fl_stayed: Fantasyland boards that earned it again (R6.4).
    :ivar tournaments: tournaments paid out (their payout entries, R8.7).
    :ivar tournament_kush: the net kush of those payouts: prizes less buy-ins (part of
        ``kush``; 0 for a whole community).
    :ivar tournament_hands: tournament hands played (R8.7; a community: distinct hands).
    :ivar tournament_points: the net points of those (part of ``points``).
    :ivar bonuses: Chinese Poker's strength bonuses of unfouled boards (R7.2; no royalties:
        part of the points).
    :ivar bonus_boards: boards played at Chinese Poker (part of ``boards``).
    :ivar chinese_hands: the ordinary (cash) hands of ``hands`` played at Chinese Poker (a
        community: distinct hands).
    :ivar chinese_points: the points of those (part of ``points``): R7's points of a game to
        its target, every box won counted and never a net against the opponents (R7.1), so
        no figure to average with the open-face games' net points (R5.1).
    :ivar tournament_chinese_hands: the tournament hands of ``tournament_hands`` played at
        Chinese Poker (R8.7; a community: distinct hands).
    :ivar tournament_chinese_points: the points of those (part of ``tournament_points``), as
        ``chinese_points``.
    :ivar biggest_win: the most kush won in one settlement other than a tournament's payout
        (0 when nothing was won).
    :ivar biggest_winner: the player id of that win (``None`` when nothing was won).
    """

    hands: int = 0
    players: int = 0
    boards: int = 0
    points: int = 0
    kush: int = 0
    kush_won: int = 0
    fouls: int = 0
    royalties: int = 0
    scoops: int = 0
    fl_chances: int = 0
    fl_entered: int = 0
    fl_played: int = 0
    fl_stayed: int = 0
    tournaments: int = 0
    tournament_kush: int = 0
    tournament_hands: int = 0
    tournament_points: int = 0
    bonuses: int = 0
    bonus_boards: int = 0
    chinese_hands: int = 0
    chinese_points: int = 0
    tournament_chinese_hands: int = 0
    tournament_chinese_points: int = 0
    biggest_win: int = 0
    biggest_winner: int | None = None


@dataclass(frozen=True, slots=True)
class BuyIn:
    """A move of a table transition: ``amount`` kush from the player's balance to their stack
    (R8.2; a top-up when a stack exists). Its result is the new stack."""

    player_id: int
    amount: int


@dataclass(frozen=True, slots=True)
class CashOut:
    """A move of a table transition: the player's whole stack back to their balance (a
    ``cash_out`` or ``refund`` row) and the stack row removed. Its result is the kush moved."""

    player_id: int
    kind: LedgerKind = LedgerKind.CASH_OUT


@dataclass(frozen=True, slots=True)
class Settlement:
    """A move of a table transition: a finished hand (or a settled round or game) recorded
    with its ``hand_result`` rows, as :meth:`Store.settle_hand` does. Its result is the hand
    history row's id.

    :ivar number: the table's hand number (unique per table).
    :ivar hand: ``Hand.to_json()`` or another JSON object describing what was settled.
    :ivar result: JSON result shown in the history.
    :ivar players: seat → player id.
    :ivar deltas: player id → kush, summing to zero.
    """

    number: int
    hand: Mapping[str, Any]
    result: Mapping[str, Any]
    players: Mapping[int, int]
    deltas: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Grant:
    """A move of a table transition: ``amount`` kush minted into the player's balance (an
    ``admin_grant`` row by ``actor`` for ``reason``, as :meth:`Store.grant` writes; negative:
    taken), so that a grant and the buy-in it pays for commit together: the house funding a
    computer player's top-up (issue 13). Its result is the new balance.

    :raises InsufficientFunds: (from :meth:`Store.commit`) if the balance would go negative."""

    player_id: int
    amount: int
    actor: str
    reason: str


@dataclass(frozen=True, slots=True)
class HouseGrant:
    """A move of a table transition: the house funds a computer player (issue 13) when its
    balance, read inside the commit's own transaction, is below ``need``: an ``admin_grant``
    row by ``actor`` for ``reason`` brings it to ``max(need, target)``; at ``need`` or more
    nothing is written. Decided there, not from a balance read before the commit: one
    computer player seated at two tables of a community was granted twice when both read it
    short, or not at all when both read it sufficient and the second buy-in then failed. Put
    it ahead of the buy-in of ``need`` it pays for. Its result is the kush granted (0: none).
    """

    player_id: int
    need: int
    target: int
    actor: str
    reason: str


@dataclass(frozen=True, slots=True)
class Joined:
    """A move of a table transition: the platform user took a seat at the table (a join, a
    tournament registration), kept as the table they joined last (:meth:`Store.last_table`),
    in the transaction that seats them. The time bank refills when the player joins another
    table, not when they leave and rejoin the same one (R8.6): a table that kept the bank of
    someone who left it gives it back only if no other table was joined since. By platform
    and user, not by player: a player is one community's (another Telegram group is another
    player of the same person). No ledger row. Its result is the table joined last before
    (0: none)."""

    platform: str
    user_id: str


Move = BuyIn | CashOut | Settlement | Grant | HouseGrant | Joined
"""One ledger-changing step of a table transition (:meth:`Store.commit`)."""


class Store(Protocol):
    """What the table service needs from storage. All methods are coroutines; every mutating
    one is a single transaction and takes an idempotency ``key``."""

    # communities and players
    async def community(self, platform: str, external_id: str, title: str = "") -> Community:
        """Get or create a community (new ones get default settings)."""

    async def update_settings(self, community_id: int, settings: CommunitySettings) -> Community:
        """Replace a community's settings."""

    async def change_settings(
        self, community_id: int, change: Callable[[CommunitySettings], CommunitySettings]
    ) -> Community:
        """Read-modify-write of a community's settings, atomic against every other writer
        (other processes on the same database too): ``change`` gets the settings as stored
        and returns the new ones, read and written in one transaction that holds the
        community's row (``SELECT … FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on
        SQLite), so two changes made at once by two workers both stay; :meth:`update_settings`
        after a read kept only the later one. ``change`` must be a plain function of its
        argument (a transaction may be run again); what it raises propagates, nothing
        saved. Returning the very object it was given writes nothing. Returns the community
        as saved. :raises StorageError: if no such community."""

    async def move_chat(self, platform: str, old_id: str, new_id: str) -> bool:
        """A chat got a new id (a Telegram group upgraded to a supergroup): the community
        whose external id is ``old_id`` takes ``new_id`` with its wallets, settings, history
        and tables (their chat ids too), in one transaction. A community already made under
        ``new_id`` (someone wrote there before the move was noticed) is renamed
        ``<new_id>~<its id>`` and kept, its kush untouched. Returns ``False`` (and changes
        nothing) when no community has ``old_id`` (moved already), or when the one that has
        it was made after the community of ``new_id`` (a higher id): an update of the old
        chat read after the move (typed before it) opened it, and moving it would put an
        empty community over the group's wallets and settings."""

    async def moved_chat(self, platform: str, chat_id: str) -> str | None:
        """The id the chat ``chat_id`` has now when :meth:`move_chat` moved it (following a
        later move of that one too), ``None`` when it never moved: a worker that did not
        hear of the move (another worker made it, or this process before a restart) finds
        it for an update still coming from the old chat."""

    async def player(
        self,
        community_id: int,
        user_id: str,
        name: str,
        language: str | None = None,
        *,
        starting: bool = True,
    ) -> Player:
        """Get or create a player; a new player gets the community's starting balance through a
        ``starting`` ledger row. Name and language are updated when they changed.
        ``starting=False``: a new player starts at 0 kush with no ``starting`` row (a computer
        player, issue 13: its kush comes only from the house's grants); an existing player is
        returned as it is either way."""

    async def get_player(self, player_id: int) -> Player | None:
        """A player by id, with the current balance."""

    async def find_player(self, community_id: int, name_or_user_id: str) -> Player | None:
        """A player of the community by user id or by display name (case-insensitive, an
        optional leading ``@`` ignored)."""

    async def leaderboard(self, community_id: int, limit: int = 10) -> Sequence[tuple[Player, int]]:
        """Players by balance plus stacks, highest first: ``(player, total)``."""

    async def languages(self, community_id: int) -> Mapping[str, int]:
        """How many of the community's players have each stored language code (players
        stored without one, computer players among them, are not counted)."""

    # wallet
    async def grant(
        self, community_id: int, player_id: int, amount: int, *, actor: str, reason: str, key: str
    ) -> int:
        """Give (or, negative, take) kush: an ``admin_grant`` row. Returns the new balance.
        :raises InsufficientFunds: if the balance would go negative."""

    async def claim_daily(
        self,
        community_id: int,
        player_id: int,
        amount: int,
        day: str,
        *,
        at: float | None = None,
        since: float | None = None,
    ) -> int | None:
        """The daily bonus for ``day`` (``YYYY-MM-DD``): the new balance, or ``None`` if the
        player already claimed that day or a later one (a group whose ``utc_offset`` was
        turned back reads an earlier day than the one taken), or made a claim at or after
        ``since`` (Unix seconds: the start of the group's current local day; a zone moved
        forward, e.g. the language switched from English to Russian, reads the next date at
        once): no second bonus within one local day, R8.1. ``at`` is the claim's time, stored
        with it (the caller's clock; the store's when ``None``). Decided inside the paying
        transaction."""

    async def daily_claimed(self, player_id: int, day: str, *, since: float | None = None) -> bool:
        """Whether the player claimed the daily bonus of ``day`` (``YYYY-MM-DD``) or of a
        later day, or (``since`` given) made a claim at or after ``since``, so that ``day``'s
        can no longer be taken (as :meth:`claim_daily` decides): a read, e.g. to offer
        ``/daily`` only while it can be taken."""

    async def last_daily(self, player_id: int) -> str | None:
        """The latest day (``YYYY-MM-DD``) whose daily bonus the player claimed, ``None`` if
        none: the next one is the day after it (or after today, whichever is later)."""

    async def buy_in(self, table_id: int, player_id: int, amount: int, *, key: str) -> int:
        """Move ``amount`` from the wallet to the player's stack at the table (R8.2): a
        ``buy_in`` row. Returns the new stack. :raises InsufficientFunds: on a short balance."""

    async def cash_out(
        self, table_id: int, player_id: int, *, key: str, kind: LedgerKind = LedgerKind.CASH_OUT
    ) -> int:
        """Move the whole stack back to the wallet (a ``cash_out`` or ``refund`` row) and free
        the seat's stack. Returns the amount moved (0 if there was no stack)."""

    async def stacks(self, table_id: int) -> Mapping[int, int]:
        """Player id → stack at the table, for players with a stack row."""

    async def settle_hand(
        self,
        table_id: int,
        number: int,
        hand: Mapping[str, Any],
        result: Mapping[str, Any],
        players: Mapping[int, int],
        deltas: Mapping[int, int],
        *,
        key: str,
    ) -> HandRecord:
        """Record a finished hand and apply its kush: ``hand_result`` rows changing the stacks of
        ``deltas`` (player id → kush, summing to zero) and the hand history row, in one
        transaction. :raises StorageError: if the deltas do not sum to zero.
        :raises InsufficientFunds: if a stack would go negative."""

    # tables
    async def create_table(
        self, community_id: int, chat_id: str, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        """Open a table in a chat. :raises StorageError: if the chat already has an open one."""

    async def open_table(self, community_id: int, chat_id: str) -> TableRecord | None:
        """The chat's open table, if any."""

    async def open_tables(self, community_id: int) -> Sequence[TableRecord]:
        """The community's open tables (one a chat at most), by id."""

    async def get_table(self, table_id: int) -> TableRecord | None:
        """A table by id."""

    async def update_table(
        self, table_id: int, options: Mapping[str, Any], min_buy_in: int
    ) -> TableRecord:
        """Change a table's options and minimum buy-in (between hands)."""

    async def close_table(self, table_id: int) -> None:
        """Close a table (its stacks must have been cashed out)."""

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        """One table transition in ONE transaction: apply ``moves`` in order (their ledger
        rows keyed ``key/<index>``), then store ``snapshot`` as the table's live state (when
        given) or, with ``close``, close the table (every stack must be empty by then) and
        keep ``snapshot`` (when given) as the closed table's final snapshot: what its closing
        step still owes the chat, listed by :meth:`closed_snapshots` until
        :meth:`delete_snapshot` forgets it (a table closed already keeps none). Either all of
        it is written or none of it. Returns one result per move (see each move).
        Repeating a committed ``key`` changes nothing and returns the first results. A live
        ``snapshot`` with a ``"seq"`` (transition number) not higher than the stored live
        snapshot's is refused (:class:`StaleStep`: another step of that number or a later
        one is stored; compare-and-set, checked after the key's repeat); so is a closing
        commit's final snapshot with a ``"step_token"`` (a table step's); a final snapshot
        without one (a refund's notice-only table) and a snapshot without ``"seq"`` are not
        compared.

        :raises InsufficientFunds: if a buy-in finds a short balance or a stack would go
            negative.
        :raises StaleStep: the stored live snapshot's ``"seq"`` is as high or higher.
        :raises StorageError: on anything else that fails (a closed table, a snapshot that is
            not JSON, the database); nothing was changed."""

    async def save_snapshot(self, table_id: int, data: Mapping[str, Any]) -> None:
        """Store the live state of a table (replacing the previous one), unless the stored
        one's ``"seq"`` (transition number) is higher: a background snapshot taken before a
        transition and written after its commit keeps out of the committed one's way.

        :raises StorageError: if no such table, it is closed, or ``data`` is not JSON."""

    async def delete_snapshot(self, table_id: int) -> None:
        """Forget a table's live state (an open table) or its final snapshot (a closed
        one)."""

    async def save_owed(self, table_id: int, data: Mapping[str, Any]) -> None:
        """Replace the final snapshot of a closed table (what it still owes its chat,
        :meth:`closed_snapshots`): part of it sent, the rest waiting (the table message of
        a chat the bot was removed from, R8.2a, written when the bot is back).

        :raises StorageError: if no such table, it is open, or ``data`` is not JSON."""

    async def snapshots(self) -> Sequence[tuple[TableRecord, Mapping[str, Any]]]:
        """Every open table with its last snapshot (for restart recovery)."""

    async def closed_snapshots(self) -> Sequence[tuple[TableRecord, Mapping[str, Any]]]:
        """Every closed table that still has the final snapshot its closing :meth:`commit`
        kept (what it owes the chat, not sent yet: a crash after the commit), by table id;
        restart recovery sends it, then deletes it (:meth:`delete_snapshot`); what waits for
        the bot's return to the chat (:meth:`save_owed`) stays until then."""

    # history
    async def hand_history(self, player_id: int, limit: int = 10) -> Sequence[HandRecord]:
        """The player's last ``limit`` hands, newest first."""

    async def export_hands(self, table_id: int) -> list[dict[str, Any]]:
        """Every hand of a table as JSON-ready dicts, oldest first."""

    async def ledger(self, community_id: int) -> Sequence[LedgerEntry]:
        """Every ledger row of a community, in order."""

    # statistics (issue 12): SQL aggregates over the per-player figures of every history
    # entry, which the writer derives when it records a settlement (storage._common
    # .stat_rows) and migration 002 derived for the entries written before it
    async def get_hand(self, hand_id: int) -> HandRecord | None:
        """A history entry by its id (``HandRecord.id``), or ``None``."""

    async def get_community(self, community_id: int) -> Community | None:
        """A community by id, or ``None``."""

    async def player_stats(self, player_id: int, since: float | None = None) -> HandStats:
        """One player's :class:`HandStats` over the entries finished at or after ``since``
        (Unix seconds; ``None``: all of them)."""

    async def community_stats(
        self, community_id: int, since: float | None = None, skip_prefix: str = ""
    ) -> HandStats:
        """The :class:`HandStats` of every player of a community together, over the entries
        finished at or after ``since`` (``None``: all), leaving out the entries of players
        whose user id starts with ``skip_prefix`` when it is given (letters, digits and ``:``
        only; the service's computer players, ``bot:``): their figures, their player count
        and their wins (a hand counts when anyone else played it)."""

    async def kush_leaderboard(
        self, community_id: int, since: float | None = None, limit: int = 10
    ) -> Sequence[tuple[Player, int, int]]:
        """Players of a community by net kush won in settlements finished at or after
        ``since`` (``None``: ever), highest first, ties by player id: ``(player, kush, hands
        played)``. Players without an entry in the period are left out."""

    async def kush_series(
        self, player_id: int, since: float | None = None, points: int = 200
    ) -> list[tuple[float, int]]:
        """A player's kush over time (the ``/stats`` chart, issue 12): ``(finished_at, net
        kush up to and including that entry)`` for their settlements finished at or after
        ``since`` (Unix seconds; ``None``: all), oldest first (ties by hand id), the sum
        counting from 0 at the start of the period. Every kind of entry counts, as in
        :attr:`HandStats.kush`. More entries than ``points`` are thinned to ``points``: the
        first, then the last of each of ``points − 1`` equal runs (so the last entry, whose
        sum is the net of the period, always). Empty without entries.

        :raises StorageError: if ``points`` is not a whole number ≥ 2."""

    async def mark_alive(self, at: float) -> None:
        """Record that the bot was running at ``at`` (its own clock, Unix seconds; a single
        process marks every few seconds): a restart after a crash measures the outage from
        the latest mark (R8.5)."""

    async def last_alive(self) -> float | None:
        """The latest :meth:`mark_alive` time, or ``None`` if none was ever written."""

    # @usernames (Telegram's "/grant @anna 100")
    async def remember_username(self, platform: str, username: str, user_id: str) -> None:
        """Record that ``username`` (with or without its ``@``, any case: the key is
        :func:`storage._common.name_key`) names ``user_id`` on ``platform`` now: a username
        another user had moves to this one, and the user's older usernames are forgotten
        (a user has one at a time). Idempotent: the same call again changes nothing.

        :raises StorageError: if ``username`` is empty."""

    async def user_of_username(self, platform: str, username: str) -> str | None:
        """The user id the latest :meth:`remember_username` gave ``username`` on
        ``platform`` (with or without ``@``, any case), or ``None``."""

    # workers sharing the tables (issue 14); a single process never calls these
    async def acquire_lease(self, key: str, worker: str, ttl: float) -> bool:
        """Take the lease ``key`` for ``worker`` for ``ttl`` seconds when it is free, expired
        or already this worker's (then it is renewed). ``True`` when ``worker`` holds it now.
        Time is the store's clock (PostgreSQL: the server's)."""

    async def renew_leases(self, worker: str, keys: Sequence[str], ttl: float) -> list[str]:
        """Extend by ``ttl`` seconds those of ``keys`` that ``worker`` still holds (not
        expired); returns them. A key missing from the result is lost: another worker may
        take it."""

    async def release_lease(self, key: str, worker: str) -> None:
        """Give up the lease ``key`` if ``worker`` holds it. One that ran out is left as it
        is (free to take already): when it ran out stays known (:meth:`lease_lapsed`)."""

    async def lease_owner(self, key: str) -> str | None:
        """The worker holding the live lease ``key``, or ``None``."""

    async def lease_lapsed(self, key: str) -> float | None:
        """Seconds since the lease ``key`` ran out, by the store's clock: negative while it
        runs, ``None`` when there is none (never taken, or given up). Its holder renewed it
        last that much plus its lease time ago: a worker taking a dead worker's table over
        reads it before taking the lease, to know when the dead one was last running."""

    async def leases(self, prefix: str) -> dict[str, str]:
        """Key → worker of every live lease whose key starts with ``prefix`` (say
        ``"discord-"``: the Discord shards' leases and the workers' shard preferences), in one
        read."""

    async def lapsed_leases(self, prefix: str) -> dict[str, str]:
        """Key → worker of every lease whose key starts with ``prefix`` that ran out and was
        not taken since (its holder died, or stalled past its lease time), in one read: whose
        tables a takeover took (a lease given up is gone, as :meth:`lease_lapsed` says)."""

    async def prune_leases(self, kept: float) -> int:
        """Delete, in one statement, every lease that ran out more than ``kept`` seconds ago
        by the store's clock (a crashed worker run's ``worker-run:`` lease, the chats of
        tables closed or moved since, ...): nothing reads them any more, while
        :meth:`lapsed_leases` read them all at every sweep that found an orphan. The chat
        lease of an open table is kept however old (no live worker holds it: the takeover
        reads when it ran out, :meth:`lease_lapsed`, and whose it was,
        :meth:`lapsed_leases`), and so is a lease running or lapsed for less. Returns how
        many were deleted.

        :raises ValueError: if ``kept`` is negative."""

    async def heartbeat(self, worker: str, address: str, ttl: float) -> None:
        """Register ``worker`` as alive at ``address`` (its internal URL) for ``ttl``
        seconds."""

    async def live_workers(self) -> dict[str, str]:
        """Worker → address of every worker whose heartbeat has not expired."""

    async def unleased_tables(self) -> list[tuple[int, str]]:
        """``(table id, lease key)`` of every open table whose chat has no live lease (its
        worker died or let it go): a takeover is due."""

    async def table_state(self, table_id: int) -> tuple[TableRecord, Mapping[str, Any]] | None:
        """One open table with its last snapshot (``{}`` if none), or ``None`` when the table
        is closed or unknown: what a worker taking the table over restores."""

    async def chat_table(self, platform: str, chat_id: str) -> int | None:
        """The open table of a platform's chat (in whichever community), or ``None``: what a
        worker that just took a chat's lease restores."""

    async def seated_tables(self, platform: str, user_id: str) -> list[int]:
        """Open tables where the platform user has a stack (is seated), by id: where a
        private message of that user is routed."""

    async def last_table(self, platform: str, user_id: str) -> int | None:
        """The table the platform user joined last (the last committed :class:`Joined`
        move, open or closed since), ``None`` if none: whether a rejoin is to the same table
        (R8.6)."""

    def fence(self, worker: str | None) -> None:
        """From now on refuse (:class:`LeaseLost`) every :meth:`create_table`, :meth:`commit`,
        :meth:`save_snapshot` and :meth:`delete_snapshot` of a table whose chat's lease
        (:func:`lease_key`) ``worker`` does not hold, checked in the writing transaction, so
        a worker that lost a table (a stall, a partition) can never write it again: no hand
        is settled twice.
        ``None`` (the default, one process) checks nothing."""

    async def close(self) -> None:
        """Release the database."""
