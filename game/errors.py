"""Typed errors of the game core.

Adapters turn each error type (and its ``code``) into a localised notice; the core never
produces prose for players. Every error leaves the state it was raised from unchanged.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base class of every rule violation or bad input the core refuses.

    ``code`` is a stable machine name (e.g. ``"not_your_turn"``) that adapters map to text.
    """

    code: str = "game_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class CardError(GameError):
    """A card or a list of cards could not be parsed, or repeats a card (R1.1)."""

    code = "bad_card"


class OptionError(GameError):
    """An unknown rule option or an option value out of range (R3–R8)."""

    code = "bad_option"


class OptionConflict(OptionError):
    """An option the table's game does not have (R4.2, R4.3, R6.2): refused when it is set,
    so every accepted combination deals from one 52-card deck.

    :ivar option: the option's name.
    :ivar game: the game it was set for (a :class:`~game.options.GameKind` value).
    :ivar games: the games that have it (values).
    """

    code = "option_conflict"

    def __init__(self, option: str, game: str, games: tuple[str, ...]) -> None:
        super().__init__(f"option {option} is for {' and '.join(games)} only, not {game}")
        self.option = option
        self.game = game
        self.games = games

    def __reduce__(self) -> tuple[type[OptionConflict], tuple[str, str, tuple[str, ...]]]:
        """Pickled with its three fields (the decision process sends it back to the bot: made
        again from its message alone it raised TypeError, which broke the process pool)."""
        return type(self), (self.option, self.game, self.games)


class FantasylandError(GameError):
    """A deal with a Fantasyland hand the table's game and options never deal (R6.2, R6.4,
    R6.7): a card count other than the game's (14 in Pineapple, 13 in classic OFC, 15–17 with
    ``progressive_fantasyland``), or any Fantasyland with ``fantasyland`` off or in Chinese
    Poker."""

    code = "bad_fantasyland"


class BoardError(GameError):
    """A board with the wrong number of cards in a box (R2.1) or a repeated card."""

    code = "bad_board"


class IllegalAction(GameError):
    """An action the hand state machine refuses (R3.3–R3.5); the state is unchanged."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The seat may not act now (R3.3, R6.3)."""

    code = "not_your_turn"


class CardNotInHand(IllegalAction):
    """The card is not one of the seat's cards of the current street (R3.4)."""

    code = "card_not_in_hand"


class BoxFull(IllegalAction):
    """The target box has no free slot (R3.5)."""

    code = "box_full"


class DiscardNotAllowed(IllegalAction):
    """A discard on a street without discards, or more discards than the street allows (R3.2):
    code ``discard_done`` for the latter (the street's discards are already made)."""

    code = "discard_not_allowed"


class IncompleteStreet(IllegalAction):
    """Confirm with cards still to place or discard (R3.2, R3.4); code ``discard_missing``
    when the street's discard is not made (``fl_discard_missing`` in a Fantasyland hand),
    ``place_and_discard`` when cards of a street with a discard are still to place
    (``fl_incomplete`` in a Fantasyland hand)."""

    code = "incomplete_street"


class HandOver(IllegalAction):
    """The hand has reached showdown; no more actions are taken."""

    code = "hand_over"


class SettlementError(GameError):
    """Settlement input that does not add up (unknown seats, negative stacks) (R8.4)."""

    code = "bad_settlement"
