"""Attacks on the ninth session's merges (the top-up window when a third player leaves, a
settings change during the window, the bot re-added to its group): a hostile or unlucky
user, an admin, a stale platform error. In-memory store, a hand-moved clock, timers fired by
``run_due``; every scenario ends with the ledger checked."""

from __future__ import annotations

from bot.model import Phase
from bot.texts import tr
from game.hand import Hand
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import BOB, CAROL, GROUP
from tests.bot.test_transitions import player_balance
from tests.bot.test_window_attacks import bob_busted_of_three


def assert_nothing_hidden_shown(presenter: FakePresenter, store: MemoryStore) -> None:
    """No discard of any hand played (R3.3) in any group message: the table message's every
    version and every post."""
    texts = [s.text for s in presenter.tables.get(GROUP.chat_id, [])]
    texts += [text for chat, text in presenter.posts if chat == GROUP.chat_id]
    records = [r for r in store._hands.values() if "setup" in r.hand]
    assert records
    for record in records:
        hand = Hand.from_json(record.hand)
        discards = [c.face for s in hand.order for c in hand.discards_of(s)]
        assert discards
        assert not [d for d in discards for text in texts if d in text]


async def test_r8_2_the_third_player_leaving_does_not_restart_the_top_up_window() -> None:
    """Alice, Bob and Carol; Bob loses his stack and has 20 s to top up before the next deal
    (R8.2). 5 s into them Carol leaves: Alice alone can play, the table goes back to the
    lobby, whose top-up window is what is left of Bob's 20 s (it started 20 s afresh: up to
    40 s in all for a player offered 20), and at its end Bob is stood up."""
    service, presenter, store, clock, t = await bob_busted_of_three(next_hand_delay=4)
    end = t.next_hand_at
    assert end is not None
    clock.now += 5
    assert not (await service.leave(GROUP, CAROL)).alert
    assert t.phase is Phase.LOBBY and t.top_up_deadline == end
    clock.now = end - 0.5
    await service.run_due()
    assert t.seat_of(BOB.user_id) is not None
    clock.now = end
    await service.run_due()
    assert t.seat_of(BOB.user_id) is None and t.hand is None
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) in presenter.posts
    assert await player_balance(store, BOB) == 800
    assert await check_store(store) == []
    assert_nothing_hidden_shown(presenter, store)
