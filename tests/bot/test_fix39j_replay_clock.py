"""fix39j: a replay marks the streets the clock played for a player (R8.5): the hand log
records them (a :class:`~game.actions.Timeout` ended the street); before, only the
showdown frame said so ("⌛ auto"), from the result."""

from __future__ import annotations

from bot.service.stats import replay_screen
from bot.texts import tr
from game.history import distinct_frames, replay_frames
from storage.api import HandRecord
from tests.game.helpers import deal, place_all
from tests.game.test_history import DECK, scripted_hand, stored


def test_the_streets_a_timeout_ended_are_marked_in_their_frames_R8_5() -> None:
    """Seat 0's streets 2 and 4 end on timeout, seat 1's never: frames 2 and 4 mark seat 0's
    board, no other frame or board is marked (a board whose streets ended before a frame
    shows no new street in it)."""
    hand = deal(DECK, seats=(0, 1), button=1)
    place_all(hand, 0, "b b b b b")
    place_all(hand, 1, "b b b b b")
    for street, (layout0, layout1) in enumerate(
        [("m m x", "m m x"), ("m m x", "m m x"), ("m t x", "m t x"), ("t t x", "t t x")],
        start=2,
    ):
        if street in (2, 4):
            hand.timeout(0)
        else:
            place_all(hand, 0, layout0)
        place_all(hand, 1, layout1)
    assert hand.is_over
    for viewer in (0, 1, None):
        frames = replay_frames(stored(hand), viewer=viewer)
        marked = [[b.seat for b in f.boards if b.timed_out] for f in frames]
        assert marked == [[], [0], [], [0], []]
        assert distinct_frames(frames) == frames


def test_a_hand_played_by_hand_marks_nothing_R8_5() -> None:
    frames = replay_frames(stored(scripted_hand()), viewer=0)
    assert not any(b.timed_out for f in frames for b in f.boards)


def _clocked_hand() -> dict[str, object]:
    """Seat 0's street 2 ends on timeout; the rest is placed by hand."""
    hand = deal(DECK, seats=(0, 1), button=1)
    place_all(hand, 0, "b b b b b")
    place_all(hand, 1, "b b b b b")
    for street, (layout0, layout1) in enumerate(
        [("m m x", "m m x"), ("m m x", "m m x"), ("m t x", "m t x"), ("t t x", "t t x")],
        start=2,
    ):
        if street == 2:
            hand.timeout(0)
        else:
            place_all(hand, 0, layout0)
        place_all(hand, 1, layout1)
    return stored(hand)


def test_the_replay_screen_marks_a_street_the_clock_played_in_both_languages_R8_5() -> None:
    """The street-2 frame reads "⌛ auto" ("⌛ авто") under seat 0's board only, for either
    watcher; street 1 and 3 frames do not."""
    record = HandRecord(7, 3, 1, _clocked_hand(), {"seats": []}, {0: 10, 1: 11}, 0.0)
    names = {0: "Anna", 1: "Bob"}
    for lang, mark in (("en", "⌛ auto"), ("ru", "⌛ авто")):
        for viewer in (0, 1):
            frames = replay_frames(record.hand, viewer)
            for k in (1, 2, 3):
                lines = replay_screen(record, frames, k, viewer, names, lang).text.splitlines()
                marks = [i for i, line in enumerate(lines) if line == "  " + mark]
                if k != 2:
                    assert marks == [], lines
                    continue
                assert len(marks) == 1, lines
                # under seat 0's board: its name four lines up (the three boxes between)
                owner = tr(lang, "replay.you") + ":" if viewer == 0 else "Anna:"
                assert lines[marks[0] - 4] == owner, lines
