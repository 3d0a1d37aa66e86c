"""The pure game core: cards, hand evaluation, rule options, the hand state machine, scoring,
Fantasyland, matches and kush settlement (RULES.md R1–R8).

No I/O, no asyncio, no platform types: adapters call this package and render what it returns.
"""

from game.actions import Action, Arrange, Confirm, Discard, Place, Timeout, Unplace
from game.board import BOXES, Board, BoardAssessment, Box, assess_board, royalty
from game.cards import DECK, Card, Rank, Suit, format_cards, parse_card, parse_cards
from game.clock import SeatClock
from game.errors import (
    BoardError,
    BoxFull,
    CardError,
    CardNotInHand,
    DiscardNotAllowed,
    FantasylandError,
    GameError,
    HandOver,
    IllegalAction,
    IncompleteStreet,
    NotYourTurn,
    OptionConflict,
    OptionError,
    SettlementError,
)
from game.evaluator import HandCategory, evaluate, rank3, rank5
from game.hand import Hand, HandResult, HandSetup, HandView, Phase, PrivateView, SeatView
from game.match import HandPlan, MatchState
from game.names import hand_name
from game.options import OPTION_GAMES, GameKind, RuleOptions, Scoring
from game.scoring import Showdown, score_chinese, score_showdown
from game.settlement import Settlement, Transfer, settle

__all__ = [
    "BOXES",
    "DECK",
    "OPTION_GAMES",
    "Action",
    "Arrange",
    "Board",
    "BoardAssessment",
    "BoardError",
    "Box",
    "BoxFull",
    "Card",
    "CardError",
    "CardNotInHand",
    "Confirm",
    "Discard",
    "DiscardNotAllowed",
    "FantasylandError",
    "GameError",
    "GameKind",
    "Hand",
    "HandCategory",
    "HandOver",
    "HandPlan",
    "HandResult",
    "HandSetup",
    "HandView",
    "IllegalAction",
    "IncompleteStreet",
    "MatchState",
    "NotYourTurn",
    "OptionConflict",
    "OptionError",
    "Phase",
    "Place",
    "PrivateView",
    "Rank",
    "RuleOptions",
    "Scoring",
    "SeatClock",
    "SeatView",
    "Settlement",
    "SettlementError",
    "Showdown",
    "Suit",
    "Timeout",
    "Transfer",
    "Unplace",
    "assess_board",
    "evaluate",
    "format_cards",
    "hand_name",
    "parse_card",
    "parse_cards",
    "rank3",
    "rank5",
    "royalty",
    "score_chinese",
    "score_showdown",
    "settle",
]
