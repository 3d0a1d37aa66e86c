"""fixw37: a player knocked out before a tournament is cancelled (R8.7) was told "0 kush from
its pool went to your balance": now the notice says plainly that they were knocked out, their
place takes no prize and their buy-in is not refunded (a cancel gives the buy-ins back only
while nobody is out; after a knock-out it is rolled forward, docs/playing.md)."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, leave_now
from tests.bot.test_tournament_service import (
    PLAYERS,
    configure,
    leave_button_of,
    open_and_register,
    play_to_the_end,
    running_tournament,
)
from tests.bot.test_transitions import player_balance


async def test_r8_7_an_admin_s_cancel_tells_one_knocked_out_for_nothing_so(env) -> None:  # type: ignore[no-untyped-def]
    """Bob leaves hand 1 of a running tournament (knocked out, 3rd, no prize) and an admin
    closes the table: the end of the hand cancels it. Bob's private notice says he was
    knocked out in place 3 with no prize and his buy-in is not refunded, his balance
    unchanged (900: 1,000 less the buy-in), in Russian and English."""
    service, presenter, store, clock = env
    t, tour = await running_tournament(service)
    await service.press(BOB, leave_button_of(presenter), GROUP)
    reply = await service.press(BOB, leave_button_of(presenter), GROUP)
    assert reply.text == tr("ru", "tour.left", place=3, prize=0, label="kush")
    before = len(presenter.privates.get(BOB.user_id, []))
    await service.close_table(GROUP, ALICE, True)
    await play_to_the_end(service, presenter, clock)
    await service.rt.settled(t)
    assert tour.finished is None  # (cancelled)
    notice = (
        tr("ru", "private.admin_cancel", table=t.id)
        + " "
        + tr("ru", "private.pool_paid_none_cancel", place=3)
    )
    sent = [s.text for s in presenter.privates[BOB.user_id][before:]]
    assert notice in sent, sent
    assert notice.endswith(
        "Вы выбыли на 3-м месте, за которое приза нет: ваш взнос не возвращается (отмена "
        "возвращает взносы, только пока никто не выбыл)."
    )
    assert tr("en", "private.pool_paid_none_cancel", place=3) == (
        "You were knocked out in place 3, which has no prize: your buy-in is not refunded (a "
        "cancel refunds buy-ins only while nobody is out)."
    )
    assert await player_balance(store, BOB) == 900
    assert await check_store(store) == []


async def test_r8_7_the_bot_s_removal_tells_one_knocked_out_for_nothing_so(env) -> None:  # type: ignore[no-untyped-def]
    """Carol leaves hand 1 (knocked out, 3rd) and the bot is removed from the group: the
    tournament is cancelled. Carol, still seated for the hand, read "0 kush from its pool
    went to your balance"; now she is told she was knocked out with no prize."""
    service, presenter, store, clock = env
    await configure(service, tournament_chips="1000")
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.tournament is not None
    assert not (await leave_now(service, GROUP, CAROL)).alert
    before = len(presenter.privates.get(CAROL.user_id, []))
    assert await service.chat_left(GROUP.platform, GROUP.chat_id)
    while service.table_in(GROUP) is not None:
        clock.now += 181
        await service.run_due()
    await service.rt.settled(t)
    texts = [s.text for s in presenter.privates[CAROL.user_id][before:]]
    notice = tr("en", "private.chat_gone_tour_none", table=t.id, place=3)
    assert any(text.startswith(notice) for text in texts), texts
    assert not any("0 kush" in text for text in texts), texts
    assert notice.endswith("You were out in place 3, with no prize: your buy-in is not refunded.")
    assert await player_balance(store, CAROL) == 900
    assert await check_store(store) == []
