"""Attacks on the timers added in the eighth session (R8.2 ready window of a late joiner,
the busted player's top-up window, R8.5 "too late"): a hostile or unlucky user, a restart,
settings changed meanwhile. In-memory store, a hand-moved clock, timers fired by
``run_due``; every scenario ends with the ledger checked."""

from __future__ import annotations

from bot.model import Phase
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_ready_window import carol_joins_mid_hand, window
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm
from tests.bot.test_transitions import player_balance


async def test_r8_2_a_late_joiner_is_not_stood_up_in_the_lobby_a_showdown_went_back_to(env) -> None:  # type: ignore[no-untyped-def]
    """Carol sits down during Alice and Bob's hand and has 60 s to press Ready; Bob leaves
    during the hand, so its showdown sends the table back to the lobby, with Alice alone
    ready. In the lobby the lobby's ready timer applies (R8.2: it starts when two are ready):
    Carol keeps her seat (she was stood up 60 s after joining, the lobby counting her
    down, while the lobby waited for a second ready player), and her Ready deals."""
    service, presenter, store, clock = env
    t = await carol_joins_mid_hand(service, presenter)
    assert (await service.leave(GROUP, BOB)).text == tr("ru", "reply.leave_after_hand")
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, ALICE)
    assert t.phase is Phase.LOBBY and t.seat_of(BOB.user_id) is None
    assert window("Carol", 60) not in presenter.last_table(GROUP.chat_id).text
    clock.now += 600
    await service.run_due()
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and not carol.ready
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) not in presenter.posts
    assert not (await service.ready(GROUP, CAROL)).alert
    assert t.hand is not None and sorted(t.hand.order) == [0, 2]
    assert await player_balance(store, CAROL) == 800
    assert await check_store(store) == []
