"""A snapshot written by today's code is read by the release before it (bb973ff2), and a seat
written by a newer release is read by today's: a restart on the code before an upgrade
(docs/operations.md, *Upgrades*: no schema change, so it starts) restores its tables
instead of failing on a seat key it does not know (``SeatState(**d)``, a TypeError)."""

from __future__ import annotations

from bot.model import LiveTable, SeatState
from game.options import RuleOptions

#: the fields of bb973ff2's SeatState, the release deployed before this one: each seat key
#: a snapshot holds must be one of them, else that release cannot restore the table
BB973FF2_SEAT_KEYS = frozenset(
    {
        "away", "back_early", "bank", "bot", "foul_asked", "kicked", "lang", "leave_asked",
        "leaving", "left_group", "name", "own_lang", "player_id", "private_ref", "reachable",
        "ready", "ready_by", "refused_for_good", "seat", "sitting_out", "stack", "timed_out",
        "top_up", "top_up_buy_in", "topped_up", "unplayed_buy_in", "user_id",
    }
)  # fmt: skip


def _seat() -> SeatState:
    return SeatState(
        seat=0, player_id=7, user_id="7", name="Alice", lang="en", stack=200, bank=60.0
    )


def test_a_seat_snapshot_holds_only_keys_the_release_before_reads() -> None:
    assert set(_seat().to_json()) <= BB973FF2_SEAT_KEYS


def test_a_seat_key_of_a_newer_release_is_ignored() -> None:
    data = {**_seat().to_json(), "joined_at": 1.5, "some_later_key": {"x": 1}}
    seat = SeatState.from_json(data)
    assert seat == _seat()


def test_r8_6_when_a_player_sat_down_is_kept_by_the_table_over_a_restart() -> None:
    t = LiveTable(5, "telegram", 1, "-1", "-1", "en", RuleOptions(), 200, "kush")
    t.seats[0] = _seat()
    t.joined_at[7] = 1000.0
    t.stamp_left(1010.0)  # (a seated player's time is kept)
    back = LiveTable.from_json(t.to_json(), 2000.0)
    assert back.joined_at == {7: 1000.0}
    del t.seats[0]
    t.stamp_left(1020.0)  # (stood up: dropped)
    assert t.joined_at == {}
