"""Finished hands read back from their stored JSON: a street-by-street replay and the
per-player statistics of a settlement (issue 12). Pure and deterministic: the same stored
hand always gives the same frames and the same figures.

* :func:`replay_frames` rebuilds a hand from ``Hand.to_json()`` and gives every board as it
  was after each street (R3.2, R4.1). Discards are never shown to anyone but their owner
  (R3.3): a frame holds only the discards of the *viewer's* boards, and the discards of every
  other board are never even read.
* :func:`seat_stats` derives from a stored result (``HandResult.to_json()`` plus what the
  service adds) what each player got from the hand: points, fouls, royalties, scoops,
  Fantasyland entered or kept; :func:`settlement_kind` tells a hand from the other
  settlements the history holds (a round, a Chinese Poker game, a tournament's payout).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from game.actions import Timeout, action_from_json
from game.board import Board, Box, assess_board
from game.cards import Card
from game.hand import Hand, HandSetup
from game.options import GameKind, RuleOptions

__all__ = [
    "HAND_KINDS",
    "SETTLEMENT_KINDS",
    "BoardFrame",
    "ReplayFrame",
    "SeatStats",
    "distinct_frames",
    "replay_frames",
    "revealed_boxes",
    "seat_stats",
    "settlement_kind",
]

#: The kinds of history entries: an ordinary hand, a round settled apart (R8.3), the end of a
#: Chinese Poker game (R7.6), a tournament's payout (R8.7) and a hand of a tournament (R8.7:
#: chips, not kush; its result carries the tournament's ``tournament`` record).
SETTLEMENT_KINDS = ("hand", "round_end", "game_end", "tournament_end", "tournament_hand")
#: The kinds of entries that are hands played (with boards and their figures).
HAND_KINDS = ("hand", "tournament_hand")


@dataclass(frozen=True, slots=True)
class BoardFrame:
    """One board in a replay frame.

    :ivar seat: the board seat (a player's table seat; with double boxes ``10p``/``10p + 1``).
    :ivar owner: the table seat of the player who plays it.
    :ivar board: the cards placed on the streets shown so far (empty while ``hidden``).
    :ivar hidden: the board was still hidden at that point of the hand (a Fantasyland or
        closed board before showdown, R6.3, R4.5), never the viewer's own.
    :ivar fantasyland: the board is played in Fantasyland (R6.2).
    :ivar unrevealed: boxes of a Chinese Poker board the reveal never showed (a claim ended
        the game first, R7.5): left out of ``board`` and shown face down; never the viewer's.
    :ivar dealt: the viewer's own closed board not set yet at that point (a Fantasyland
        board is set after the others' streets, R6.3): the cards it was dealt (R6.2), by
        rank; empty otherwise.
    :ivar timed_out: the street this frame shows of the board was finished for its player
        on timeout (R8.5: the clock, or a leave, placed it), as the hand log records it
        (a :class:`~game.actions.Timeout` ended it); never on a hidden board.
    """

    seat: int
    owner: int
    board: Board
    hidden: bool
    fantasyland: bool
    unrevealed: tuple[Box, ...] = ()
    dealt: tuple[Card, ...] = ()
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """The hand after one street.

    :ivar street: 1-based street number (the last frame is the showdown).
    :ivar streets: how many frames the hand has.
    :ivar boards: every board in acting order.
    :ivar discards: the viewer's own discards up to this street (R3.3: nobody else's).
    :ivar first: the first street this frame stands for, when it stands for several that
        showed its viewer the same (:func:`distinct_frames`); 0: ``street`` alone.
    """

    street: int
    streets: int
    boards: tuple[BoardFrame, ...]
    discards: tuple[Card, ...]
    first: int = 0

    @property
    def final(self) -> bool:
        """The frame is the showdown (every board complete and shown)."""
        return self.street == self.streets


#: The order a Chinese Poker reveal shows the boxes in (R4.5).
_REVEAL_ORDER = (Box.BOTTOM, Box.MIDDLE, Box.TOP)


def _by_rank(card: Card) -> tuple[int, int]:
    """Sort key: the highest rank first, then by suit."""
    return (-card.rank, card.index)


def replay_frames(
    hand: Mapping[str, Any], viewer: int | None = None, revealed: int = 3
) -> tuple[ReplayFrame, ...]:
    """Every board after each street of a stored hand (``Hand.to_json()``).

    Frame ``k`` shows each ordinary board with the cards of its first ``k`` streets (a board
    with fewer streets stays as it ended); boards played closed (Fantasyland, R6.3; Chinese
    Poker, R4.5), and the one ordinary board among Fantasyland ones (R6.3: its streets are
    played hidden), are hidden until the last frame, which is the showdown (the street-5 frame:
    every board complete), except from their own player (``viewer``), who sees such a board
    from the frame of the street during which it was set, and the cards it was dealt before
    (:attr:`BoardFrame.dealt`). A hand of closed boards only has one frame.

    :param hand: ``{"setup": …, "actions": […]}`` of a finished or unfinished hand.
    :param viewer: the table seat of the player watching: the frames show the discards of
        the boards that player played (R3.3) and nobody else's; ``None``: no discard at all.
    :param revealed: Chinese Poker: how many boxes the reveal showed, bottom first (R4.5);
        fewer than 3 when a claim ended the game (R7.5): the showdown frame leaves the other
        boxes of every board but the viewer's out (:attr:`BoardFrame.unrevealed`).
    :raises GameError: if the stored hand does not replay (bad setup or action log).
    :raises KeyError: if ``hand`` has no setup or actions.
    """
    game = Hand(HandSetup.from_json(hand["setup"]))
    owner = game.setup.owner
    mine = {s for s in game.order if viewer is not None and owner(s) == viewer}
    # per board: (board, own discards) after each of its streets
    after: dict[int, list[tuple[Board, tuple[Card, ...]]]] = {s: [] for s in game.order}
    # per board: whether each of its streets was ended by a Timeout (R8.5)
    clocked: dict[int, list[bool]] = {s: [] for s in game.order}
    normal = [s for s in game.order if s in game.normal]
    # per closed board: the first frame it is set in (the streets the open boards had all
    # finished when it was, plus one), which its own player sees it from
    set_from: dict[int, int] = {}
    for data in hand["actions"]:
        action = action_from_json(data)
        done = game.apply(action).street_done
        if done:
            s = action.seat
            after[s].append((game.board_of(s), game.discards_of(s) if s in mine else ()))
            clocked[s].append(isinstance(action, Timeout))
            if s not in game.normal and s not in set_from:
                set_from[s] = min((len(after[n]) for n in normal), default=0) + 1
    streets = max((game.streets_of(s) for s in normal), default=0) or 1
    frames: list[ReplayFrame] = []
    for k in range(1, streets + 1):
        final = k == streets
        boards: list[BoardFrame] = []
        discards: list[Card] = []
        for s in game.order:
            snaps = after[s]
            closed = s not in game.normal
            # a closed board is hidden before the showdown (R6.3), and so is the one ordinary
            # board among Fantasyland ones (R6.3: it plays its streets hidden), but never
            # from its player
            unseen = closed or not game.open_play
            hidden = unseen and not final and s not in mine
            dealt: tuple[Card, ...] = ()
            timed = False
            if closed and not final and (hidden or k < set_from.get(s, streets + 1)):
                shown: tuple[Board, tuple[Card, ...]] = (Board(), ())
                if not hidden and snaps:  # the player's own, not set yet: what it was dealt
                    board_set, thrown = snaps[-1]
                    dealt = tuple(sorted((*board_set.cards(), *thrown), key=_by_rank))
            elif hidden or not snaps:
                shown = (Board(), ())
            else:
                shown = snaps[min(k, len(snaps)) - 1] if not closed else snaps[-1]
                # the street shown was played in this frame (a board whose streets ended
                # before shows no new one) and the clock ended it
                if closed:
                    timed = clocked[s][-1]
                elif k <= len(snaps):
                    timed = clocked[s][k - 1]
            if s in mine:
                discards.extend(shown[1])
            board = shown[0]
            unrevealed: tuple[Box, ...] = ()
            if game.options.game is GameKind.CHINESE and s not in mine and revealed < 3:
                unrevealed = _REVEAL_ORDER[max(revealed, 0) :]
                rows = {b: () if b in unrevealed else board.box(b) for b in _REVEAL_ORDER}
                board = Board(rows[Box.TOP], rows[Box.MIDDLE], rows[Box.BOTTOM])
            boards.append(
                BoardFrame(
                    s, owner(s), board, hidden, game.is_fantasyland(s), unrevealed, dealt, timed
                )
            )
        frames.append(ReplayFrame(k, streets, tuple(boards), tuple(discards)))
    return tuple(frames)


def distinct_frames(frames: Sequence[ReplayFrame]) -> tuple[ReplayFrame, ...]:
    """``frames`` without repeats: a frame that shows its viewer exactly what the next one
    does (every board and the viewer's discards) is one step with it, the later, which
    stands for the streets of both (:attr:`ReplayFrame.first`). A Fantasyland player's
    replay stepped through four identical frames before the showdown (the others' boards
    hidden, their own set after the streets or during them, R6.3)."""
    kept: list[ReplayFrame] = []
    for frame in frames:
        if kept and (kept[-1].boards, kept[-1].discards) == (frame.boards, frame.discards):
            frame = replace(frame, first=kept[-1].first or kept[-1].street)
            kept[-1] = frame
        else:
            kept.append(frame)
    return tuple(kept)


@dataclass(frozen=True, slots=True)
class SeatStats:
    """What one player got from one hand (summed over their boards with double boxes, R4.2).

    :ivar boards: boards played (1, or 2 with ``heads_up_double_boxes``).
    :ivar points: net points (R5.1; Chinese Poker: the points the game counted, R7.5).
    :ivar fouls: fouled boards (R2.3).
    :ivar royalties: royalties of the unfouled boards (R5.6; open-face games only: Chinese
        Poker's strength bonuses are no royalties, they count in ``bonuses``).
    :ivar scoops: opponents' boards beaten in all three boxes (R5.2; open-face games only).
    :ivar fl_chances: ordinary boards that could earn Fantasyland (it is on, R6.7).
    :ivar fl_entered: ordinary boards that earned Fantasyland (R6.1).
    :ivar fl_played: boards played in Fantasyland (R6.2).
    :ivar fl_stayed: Fantasyland boards that earned it again (R6.4).
    :ivar bonuses: Chinese Poker's strength bonuses of the unfouled boards (R7.2; part of
        the points).
    :ivar bonus_boards: boards played at Chinese Poker (those ``bonuses`` are counted over).
    """

    boards: int = 0
    points: int = 0
    fouls: int = 0
    royalties: int = 0
    scoops: int = 0
    fl_chances: int = 0
    fl_entered: int = 0
    fl_played: int = 0
    fl_stayed: int = 0
    bonuses: int = 0
    bonus_boards: int = 0


def settlement_kind(result: Mapping[str, Any]) -> str:
    """Which of :data:`SETTLEMENT_KINDS` a stored result is (by the service's markers; a
    tournament's hand by its ``tournament`` record)."""
    for kind in SETTLEMENT_KINDS[1:4]:
        if result.get(kind):
            return kind
    return "tournament_hand" if result.get("tournament") else "hand"


def revealed_boxes(result: Mapping[str, Any]) -> int:
    """How many boxes of a stored Chinese Poker hand its reveal showed, bottom first (R4.5):
    ``result["revealed"]``, fewer than 3 when a claim ended the game (R7.5); 3 for any other
    hand. A result stored before the count was kept and ended by a claim counts as the
    bottom only (never show a box that may have stayed hidden)."""
    if "revealed" in result:
        return int(result["revealed"])
    claimed = (result.get("chinese") or {}).get("claimed_by")
    return 3 if claimed is None else 1


def seat_stats(hand: Mapping[str, Any], result: Mapping[str, Any]) -> dict[int, SeatStats]:
    """Per table seat (the player, not the board), what a stored hand gave: see
    :class:`SeatStats`. Empty for a settlement that is not a hand (:func:`settlement_kind`).

    Chinese Poker's strength bonuses (R7.2) are no royalties: they count in ``bonuses``,
    over its boards (``bonus_boards``), of the boxes the reveal showed only (a claim leaves
    the others hidden, R7.5: :func:`revealed_boxes`).

    Scoops are the result's own (``HandResult.scoops``); a result stored before it kept them
    has them counted again from its boards: a live board scoops an opponent's board that is
    fouled, or that it beats on all three boxes (R5.2, R5.4); a player's own two boards never
    count against each other (R4.2). Chinese Poker has no scoop (R7): 0.

    :raises KeyError: on a result without ``seats``.
    :raises GameError: on a stored board or options that do not parse.
    """
    if settlement_kind(result) not in HAND_KINDS:
        return {}
    setup = hand.get("setup") or {}
    opts: Mapping[str, Any] = setup.get("options") or {}
    game = str(opts.get("game", GameKind.PINEAPPLE.value))
    chinese = game == GameKind.CHINESE.value
    fantasyland = bool(opts.get("fantasyland", not chinese))  # the presets' default (R6.7)
    owners = {int(k): int(v) for k, v in dict(result.get("owners") or {}).items()}
    counted = {int(k): int(v) for k, v in dict(result.get("counted") or {}).items()}
    seats = list(result["seats"])
    first = 3 - (revealed_boxes(result) if chinese else 3)  # royalties: (top, middle, bottom)
    if all("scoops" in r for r in seats):
        scooped = {int(r["seat"]): int(r["scoops"]) for r in seats}
    else:
        scooped = _count_scoops(seats, owners, opts, chinese)
    out: dict[int, SeatStats] = {}
    for r in seats:
        seat = int(r["seat"])
        owner = owners.get(seat, seat)
        fouled = bool(r.get("fouled"))
        fl_played = bool(r.get("played_fantasyland"))
        earned = int(r.get("fantasyland_cards") or 0) > 0
        scoops = scooped.get(seat, 0)
        points = counted.get(seat, int(r.get("points") or 0))
        can_enter = not chinese and fantasyland and not fl_played
        prev = out.get(owner, SeatStats())
        earned_extra = 0 if fouled else sum(int(x) for x in list(r.get("royalties") or ())[first:])
        out[owner] = SeatStats(
            prev.boards + 1,
            prev.points + points,
            prev.fouls + int(fouled),
            prev.royalties + (0 if chinese else earned_extra),
            prev.scoops + scoops,
            prev.fl_chances + int(can_enter),
            prev.fl_entered + int(can_enter and earned),
            prev.fl_played + int(fl_played),
            prev.fl_stayed + int(fl_played and earned),
            prev.bonuses + (earned_extra if chinese else 0),
            prev.bonus_boards + int(chinese),
        )
    return out


def _count_scoops(
    seats: list[Mapping[str, Any]],
    owners: Mapping[int, int],
    opts: Mapping[str, Any],
    chinese: bool,
) -> dict[int, int]:
    """Scoops counted again from stored boards (results stored before they kept them)."""
    if chinese:
        return {}
    options = RuleOptions.from_json(opts) if opts else RuleOptions()
    assessed = []
    for r in seats:
        seat = int(r["seat"])
        board = Board.from_json(r)
        fl = bool(r.get("played_fantasyland"))
        assessed.append((seat, owners.get(seat, seat), assess_board(board, options, fl)))
    out: dict[int, int] = {}
    for seat, owner, mine in assessed:
        out[seat] = 0
        if mine.fouled:
            continue
        for other_seat, other_owner, theirs in assessed:
            if other_owner == owner or other_seat == seat:
                continue
            beats = all(a > b for a, b in zip(mine.strengths, theirs.strengths, strict=True))
            if theirs.fouled or beats:
                out[seat] += 1
    return out
