"""Small leftovers (fixsmall2): a top-up queued without an amount is the next hand's buy-in
(R8.2); the showdown's settlement line says what happens (R8.3); no button for Chinese
Poker (R4.5)."""

from __future__ import annotations

import pytest

from bot import render
from bot.model import LiveTable
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated
from tests.bot.test_service_classic import GROUP as CLASSIC_GROUP
from tests.bot.test_service_classic import chinese_after_one_hand
from tests.bot.test_transitions import new_service, player_balance


async def test_r8_2_a_queued_top_up_without_amount_is_the_next_hands_buy_in(env) -> None:  # type: ignore[no-untyped-def]
    """Alice types /topup during the hand (the buy-in 200); the admins then raise the buy-in
    to 300, which applies as the hand ends, and Bob types /topup. Both get the new buy-in, 300,
    as the table message then shows it, and Bob's reply says 300 (Alice's queued 200 while
    the next hand's buy-in was 300)."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await service.top_up(GROUP, ALICE)
    assert not reply.alert and reply.text == (
        "Top-up of 200 kush queued for after this hand (the next hand's buy-in)."
    )
    assert tr("ru", "reply.topup_queued_buy_in", amount=300, label="kush") == (
        "Докупка на 300 кушей пройдёт после этой раздачи — это взнос следующей."
    )
    reply = await service.settings(GROUP, ALICE, True, ["min_buy_in", "300"])
    assert not reply.alert, reply.text
    assert t.min_buy_in == 200 and t.pending_buy_in == 300
    reply = await service.top_up(GROUP, BOB, "")
    assert reply.text == tr("ru", "reply.topup_queued_buy_in", amount=300, label="kush")  # (Bob)
    alice, bob = t.seats[0], t.seats[1]
    assert LiveTable.from_json(t.to_json(), 0.0).seats[0].top_up_buy_in  # survives a restart
    while t.hand is not None and t.hand_no == 1:
        to_act = t.seats[t.hand.to_act[0]]
        await press_auto_and_confirm(service, presenter, ALICE if to_act is alice else BOB)
    assert t.hand is None and t.min_buy_in == 300
    stacks = (alice.stack, bob.stack)
    await service.run_due()
    assert (alice.stack, bob.stack) == (stacks[0] + 300, stacks[1] + 300)
    assert (alice.top_up, alice.top_up_buy_in) == (0, False)
    assert await player_balance(store, ALICE) == 500
    assert await player_balance(store, BOB) == 500
    assert await check_store(store) == []


@pytest.mark.parametrize("turned_off", [True, False])
async def test_r8_3_a_round_settled_as_the_hand_ends_is_not_said_to_settle_later(
    turned_off: bool,
) -> None:
    """settle_per_round on; during the first hand of the round an admin turns it off, which
    applies as the hand ends (the match is over, R6.6) and settles the round's points at once
    (R8.3). The showdown's text and its picture's caption said "Settlement comes after the
    full round" all the same; they say it only when the round really settles later."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock, delay=5)
    reply = await service.settings(GROUP, ALICE, True, ["settle_per_round", "true"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    if turned_off:
        reply = await service.settings(GROUP, ALICE, True, ["settle_per_round", "off"])
        assert not reply.alert, reply.text
        assert t.options.settle_per_round  # (not yet: it applies as the hand ends)
    alice = t.seats[0]
    while t.hand is not None:
        to_act = t.seats[t.hand.to_act[0]]
        await press_auto_and_confirm(service, presenter, ALICE if to_act is alice else BOB)
    later = tr("en", "showdown.settle_later")
    assert later == "Settlement comes after the full round."
    showdown = next(s.text for s in presenter.tables[GROUP.chat_id] if s.text.startswith("🏁"))
    assert (later in showdown) is not turned_off, showdown
    await service.run_due()
    captions = [caption for chat, _png, caption in presenter.pictures if chat == GROUP.chat_id]
    assert len(captions) == 1
    assert (later in captions[0]) is not turned_off, captions
    settled = any(
        "the round is settled early (new table settings)" in x for _, x in presenter.posts
    )
    assert settled is turned_off
    assert t.options.settle_per_round is not turned_off
    assert await check_store(store) == []


async def test_r4_5_chinese_poker_table_message_names_no_button() -> None:
    """Chinese Poker: everyone arranges at once (R4.5), so "Button: Bob" on the table message
    during the arrangement meant nothing; it is not shown there (either language). The
    open-face games, played in turn from the button, keep it."""
    service, presenter, _store, clock, t = await chinese_after_one_hand()
    clock.now += 10
    for _ in range(3):
        await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and t.reveal is None
    for lang in ("en", "ru"):
        text = render.group_screen(t, lang, None, clock.now).text
        assert not any(line.startswith(("Button:", "Баттон:")) for line in text.splitlines())
    assert "Button:" not in presenter.last_table(CLASSIC_GROUP.chat_id).text
    other = await seated(new_service(MemoryStore(), Clock())[0], ALICE, BOB)
    assert other is not None and other.hand is not None
    lines = render.group_screen(other, "en", None, 0.0).text.splitlines()
    button = other.player_of(other.hand.view(None).button)
    assert button is not None and f"Button: {button.name}" in lines
