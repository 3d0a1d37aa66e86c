"""What a new user met in the sandbox: a showdown listing a box's cards as placed, not as the
hand reads; Claim / Continue and the two-of-three bonus unexplained; /rules' foul line read as
the fouled board's own royalties; terms never introduced; small slips in both languages."""

from __future__ import annotations

from bot.model import LiveTable
from bot.service import stats as stats_mod
from game.board import Box
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm
from tests.bot.test_transitions import play_street_by_plan, stacked_table

# the streets of :func:`stacked_decks`: the middle gets Q♠ Q♥ then K♠ K♥ then 9♠, the top
# 7♥ then 5♣ 6♦ (placed out of the order the hand reads in)
PLACED_OUT_OF_ORDER: dict[str, Box | None] = {
    "Qs": Box.MIDDLE, "Qh": Box.MIDDLE, "As": Box.BOTTOM, "Ad": Box.BOTTOM, "Ac": Box.BOTTOM,
    "Ks": Box.MIDDLE, "Kh": Box.MIDDLE, "2c": None, "Kd": Box.BOTTOM, "9s": Box.MIDDLE,
    "3c": None, "9h": Box.BOTTOM, "7h": Box.TOP, "4d": None, "5c": Box.TOP,
    "6d": Box.TOP, "8s": None,
}  # fmt: skip


async def _showdown() -> tuple[MemoryStore, LiveTable, FakePresenter, str]:
    store, _clock, service, presenter, t = await stacked_table()
    hand = t.hand
    assert hand is not None
    while t.hand is hand:
        seat = hand.to_act[0]
        if t.seats[seat].user_id == ALICE.user_id:
            await play_street_by_plan(service, presenter, seat, ALICE, PLACED_OUT_OF_ORDER)
        else:
            await press_auto_and_confirm(service, presenter, BOB)
    shown = [s.text for s in presenter.tables[GROUP.chat_id] if "Showdown" in s.text]
    assert shown, presenter.tables[GROUP.chat_id][-1].text
    return store, t, presenter, shown[-1]


async def test_r1_2_the_showdown_lists_a_box_as_the_hand_reads() -> None:
    """ "K♣ 2♣ K♥ 2♦ 8♥ — two pair": the cards as placed. The pairs come first by rank, then
    the kickers (R1.2)."""
    store, t, _presenter, text = await _showdown()
    assert "  K♠ K♥ Q♠ Q♥ 9♠ — " in text, text
    assert "  7♥ 6♦ 5♣ — " in text, text
    assert "  A♠ A♦ A♣ K♦ 9♥ — " in text, text
    assert "Q♠ Q♥ K♠ K♥ 9♠" not in text
    # the last frame of the hand's /replay is the showdown: listed the same way
    alice = t.seats[0].player_id
    record = (await store.hand_history(alice, 1))[0]
    frames = await stats_mod._frames(record, 0)
    text = stats_mod.replay_screen(record, frames, len(frames), 0, {0: "A", 1: "B"}, "en").text
    assert frames[-1].final and "  K♠ K♥ Q♠ Q♥ 9♠\n" in text and "  7♥ 6♦ 5♣\n" in text, text
