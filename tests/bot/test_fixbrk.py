"""Replies a break-it session on Discord and Telegram found confusing (fixbrk)."""

from __future__ import annotations

import pytest

from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_break4 import _claim_button
from tests.bot.test_service import ALICE, BOB, GROUP, play_out, seated
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import BOB as C_BOB
from tests.bot.test_service_classic import GROUP as C_GROUP
from tests.bot.test_service_classic import configure, play_hand, start


async def test_r8_2a_a_second_close_mid_hand_answers_the_admin_alone(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2a: a second admin close while the table already closes at the end of the hand
    is answered to that admin alone (a refusal: ephemeral on Discord) and writes nothing to
    the group: the table message is not written again, no notice posted."""
    service, presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    first = await service.close_table(GROUP, ALICE, True)
    assert first.text == tr("en", "reply.closes_after_hand", table=t.id) and not first.alert
    writes, posts, version = presenter.writes, list(presenter.posts), t.version
    again = await service.close_table(GROUP, BOB, True)  # Bob reads Russian
    assert again.alert
    assert again.text == f"Стол #{t.id} уже закроется в конце этой раздачи."
    assert (presenter.writes, presenter.posts, t.version) == (writes, posts, version)
    assert t.closing and t.hand is not None
    await play_out(service, presenter, [ALICE, BOB])  # the hand's end still closes it
    assert service.table_in(GROUP) is None


@pytest.mark.parametrize("delay", [0.0, 30.0], ids=["dealt_at_once", "between_hands"])
async def test_r7_5_a_claim_after_the_game_was_claimed_says_so(delay: float) -> None:
    """R7.5: Alice claims the game; her second Claim press (a double click), and Bob's press
    of the same message's Claim, are told the game is already claimed, not that the button
    is out of date, between hands and once the next hand is dealt; nothing changes."""
    service, presenter, store, clock = service_env(next_hand_delay=delay)
    await configure(service, target_points="1")
    await start(service, [C_ALICE, C_BOB], "chinese")
    t = service.table_in(C_GROUP)
    assert t is not None
    await play_hand(service, presenter, [C_ALICE, C_BOB])
    assert t.reveal is not None and t.reveal["claim"]["seats"] == [0]
    button = _claim_button(presenter, claim=True)
    hand_no = t.hand_no
    reply = await service.press(C_ALICE, button)
    assert not reply.alert and reply.text == tr("en", "reply.claimed")
    again = await service.press(C_ALICE, button)
    assert again.alert and again.text == "The game is already claimed."
    bob = await service.press(C_BOB, button)
    assert bob.alert and bob.text == "The game is already claimed."
    assert tr("ru", "err.already_claimed") == "«Доезд» уже нажат: игра окончена."
    assert (t.hand is None) == (delay > 0)
    clock.now += delay
    await service.run_due()  # the next hand dealt
    assert t.hand is not None and t.hand_no == hand_no + 1
    later = await service.press(C_ALICE, button)
    assert later.alert and later.text == tr("en", "err.already_claimed")
    assert t.last_result is not None and t.last_result["chinese"]["claimed_by"] == 0
    assert await check_store(store) == []


async def test_r7_5_a_stale_claim_of_an_unclaimed_game_is_still_out_of_date(env) -> None:  # type: ignore[no-untyped-def]
    """R7.5: the claim time ran out and the reveal went on to the game's end, nobody
    claiming: the old Claim button is out of date (no claim to speak of)."""
    service, presenter, _store, clock = env
    await configure(service, target_points="1")
    await start(service, [C_ALICE, C_BOB], "chinese")
    t = service.table_in(C_GROUP)
    assert t is not None
    await play_hand(service, presenter, [C_ALICE, C_BOB])
    button = _claim_button(presenter, claim=True)
    while t.reveal is not None:
        clock.now = service.rt.next_deadline(t) or clock.now + 1
        await service.run_due()
    assert t.last_result is not None and t.last_result["chinese"]["claimed_by"] is None
    reply = await service.press(C_ALICE, button)
    assert reply.alert and reply.text == tr("en", "err.stale")
