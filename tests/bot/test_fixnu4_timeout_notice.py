"""A player whose clock runs out (R8.5) is told at once on their own private screen, not only
at the showdown: their moves are made for them and they sit out from the next hand (R8.6).
Only on their screen (the others' and the group's never say it), and the showdown's screen
says "sit out" once, not this line too."""

from __future__ import annotations

from pathlib import Path

from bot.service import TableService
from bot.texts import tr
from game.clock import SeatClock
from storage.api import Store
from tests.bot.conftest import Clock, service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import world

LANG = {ALICE.user_id: "en", BOB.user_id: "ru"}


async def test_r8_5_r8_6_a_timeout_is_said_at_once_on_the_own_screen_only() -> None:
    env: tuple[TableService, FakePresenter, Store, Clock] = service_env()
    service, presenter, _store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    sleeper = t.seats[t.hand.to_act[0]]
    awake = ALICE if sleeper.user_id == BOB.user_id else BOB
    notice = {lang: tr(lang, "private.timed_out_now") for lang in ("en", "ru")}
    assert all(notice.values()) and "/back" in notice["en"] and "/back" in notice["ru"]
    mine = notice[LANG[sleeper.user_id]]
    assert mine not in presenter.last_private(sleeper.user_id).text  # (not before)
    clock.now += 181  # budget 120 s and bank 60 s run out on street 1
    await service.run_due()
    hand = t.hand
    assert hand is not None and hand.result is None and t.hand_no == 1  # the hand goes on
    # at once, on the sleeper's own screen of this hand
    screen = presenter.last_private(sleeper.user_id).text
    assert (mine in screen and "· hand 1" in screen) or "· раздача 1" in screen, screen
    # never on the other player's screen nor in the group
    assert all(n not in presenter.last_private(awake.user_id).text for n in notice.values())
    for screens in presenter.tables.values():
        assert all(n not in s.text for s in screens for n in notice.values())
    while t.hand is not None and t.hand_no == 1:  # the rest of the hand: said on each screen
        if t.seats[t.hand.to_act[0]] is sleeper:
            clock.now += 1
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, awake)
            if t.hand is not None and t.hand_no == 1:
                assert mine in presenter.last_private(sleeper.user_id).text
    # the showdown's screen says it its own way, once: not this line too
    over = presenter.last_private(sleeper.user_id).text
    assert mine not in over, over
    assert over.count(tr(LANG[sleeper.user_id], "private.sitting_out")) == 1, over
    assert sleeper.sitting_out and sleeper.timed_out


async def test_r8_5_through_telegram_the_timeout_edits_the_private_hand_at_once(
    tmp_path: Path,
) -> None:
    """End to end through python-telegram-bot and the fake Bot API: the first player's clock
    is made to run out 0.3 s into their turn; the table's own timer makes the move, and their
    private hand message says so while the hand goes on; the group's messages never do."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({TG_ALICE.id, TG_BOB.id})
        await seat_everyone(w, [TG_ALICE, TG_BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        owner = t.owner(t.hand.to_act[0])
        sleeper = TG_ALICE if t.seats[owner].user_id == str(TG_ALICE.id) else TG_BOB
        text = tr(sleeper.language_code or "en", "private.timed_out_now")
        async with t.lock:  # their clock: 0.3 s left, no bank
            t.clocks[owner] = SeatClock(0.3, 0.0, w.service.rt.clock())
            await w.service.rt.arm(t)
        await w.fake.wait_for(lambda: text in ((w.private(sleeper) or {}).get("text") or ""))
        assert t.hand is not None and t.hand_no == 1 and t.hand.result is None
        await w.settle()
        assert all(text not in m for m in w.group_texts())


async def test_r8_6_back_said_during_the_timed_out_hand_keeps_the_player_in() -> None:
    """R8.6 ("one not yet moved returns with the command too"): the private screen of a
    player whose clock ran out says "/back to play again"; /back typed during that hand
    answered "You are not sitting out" (the sit-out is made when the hand ends) and they sat
    out anyway. Now it is taken: their screen drops the line, the hand ends with them still
    in, and the next hand deals them; a second /back says so again without a new step."""
    env: tuple[TableService, FakePresenter, Store, Clock] = service_env()
    service, presenter, _store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    sleeper = t.seats[t.hand.to_act[0]]
    sleeper_actor = ALICE if sleeper.user_id == ALICE.user_id else BOB
    awake = BOB if sleeper_actor is ALICE else ALICE
    lang = LANG[sleeper.user_id]
    clock.now += 181  # the budget and the bank run out on street 1
    await service.run_due()
    assert tr(lang, "private.timed_out_now") in presenter.last_private(sleeper.user_id).text
    reply = await service.back(GROUP, sleeper_actor)
    assert reply.text == tr(lang, "reply.back_before_sit_out_hand") and not reply.alert
    assert sleeper.back_early
    screen = presenter.last_private(sleeper.user_id).text
    assert tr(lang, "private.timed_out_now") not in screen, screen
    again = await service.back(GROUP, sleeper_actor)
    assert again.text == reply.text
    while t.hand is not None and t.hand_no == 1:
        if t.seats[t.hand.to_act[0]] is sleeper:
            clock.now += 1
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, awake)
    assert not sleeper.sitting_out and not sleeper.timed_out and not sleeper.back_early
    clock.now += 60
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2
    assert sleeper.seat in t.hand.order  # dealt in
