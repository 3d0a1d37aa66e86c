"""Small things the lead noticed (ux2): each with the behaviour it needs, in-memory store,
a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

from typing import Any

from bot.service import stats as stats_mod
from bot.texts import tr
from storage.api import HandStats
from storage.check import check_store
from tests.bot.test_ready_window import DAVE
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, seated
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import GROUP as CLASSIC
from tests.bot.test_service_classic import first_chinese_hand


async def test_r6_stats_of_a_chinese_poker_only_player_have_no_fantasyland_line(
    env: Any,
) -> None:
    """A player who only ever played Chinese Poker read "Fantasyland: entered —" in /stats
    (the group's figures too): Chinese Poker has no Fantasyland (R6 is the open-face
    games'). The line is left out then, and kept for whoever played an open-face hand."""
    service, presenter, _store, _clock = env
    await first_chinese_hand(service, presenter)
    reply = await service.stats(CLASSIC, C_ALICE, ["me"])
    lines = reply.text.splitlines()
    assert lines[0] == "📊 Alice · all time"
    assert not [line for line in lines if "Fantasyland" in line], reply.text
    assert any(line.startswith("Fouls: ") for line in lines), reply.text
    group = await service.stats(CLASSIC, C_ALICE)
    assert "Fantasyland" not in group.text, group.text
    # one open-face hand besides: the line is there, with its figures
    mixed = HandStats(hands=3, players=1, boards=3, fl_chances=1, fl_entered=1, bonus_boards=2)
    lines = stats_mod._stats_lines(mixed, "en", "kush", group=False)
    assert lines[-1] == "Fantasyland: entered 100%"
    ru = stats_mod._stats_lines(mixed, "ru", "kush", group=False)
    assert ru[-1] == "Фантазия: попадание 100%"
    chinese = HandStats(hands=2, players=1, boards=2, bonus_boards=2)
    assert [line for line in stats_mod._stats_lines(chinese, "ru", "kush", group=False)
            if "Фантазия" in line] == []  # fmt: skip
    # nothing played at all: as before
    assert stats_mod._stats_lines(HandStats(), "en", "kush", group=False)[-1] == (
        "Fantasyland: entered —"
    )


async def test_r8_2_a_late_joiner_gets_the_ready_seconds_an_admin_just_set(env: Any) -> None:
    """R8.2: an admin set ``ready_seconds`` 20 during a hand ("from the next hand"); Carol,
    who sat down during that hand, still got the old 60 s to press Ready. The time to press
    Ready is the admins' latest, as a newcomer's time bank is (R8.5)."""
    service, presenter, _store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await service.settings(GROUP, ALICE, True, ["ready_seconds", "20"])
    assert not reply.alert, reply.text
    assert t.options.ready_seconds == 60  # the hand being played keeps its options
    start = clock.now
    assert not (await service.join(GROUP, CAROL)).alert
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.ready_by == start + 20
    window = tr("en", "lobby.ready_window", name="Carol", seconds=20)
    assert window in presenter.last_table(GROUP.chat_id).text
    clock.now += 20
    await service.run_due()
    assert t.seat_of(CAROL.user_id) is None  # stood up after the new 20 s
    assert (GROUP.chat_id, tr("en", "lobby.stood_up", names="Carol")) in presenter.posts
    assert not (await service.join(GROUP, DAVE)).alert  # the seat is free again


async def test_r8_2_a_top_up_the_balance_cannot_pay_says_what_to_do(env: Any) -> None:
    """R8.2: ``/topup`` with too little on the balance answered "Not enough kush: the buy-in
    is 200, you have 50." (a top-up is no buy-in) with nothing on what to do; a join or a
    Ready refused for the same reason names the ways to kush. The top-up's refusal says it
    is the top-up and gives that advice (no lower buy-in: its amount is the player's own),
    between hands, during a hand (queued) and with an empty balance, in both languages."""
    service, _presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    assert not (await service.ready(GROUP, ALICE)).alert  # Bob not yet: no hand
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None
    assert not (await service.grant(GROUP, ALICE, True, "@Alice", "-750", "k1")).alert
    reply = await service.top_up(GROUP, ALICE)  # the minimum buy-in, 200
    assert reply.alert and reply.text == (
        "Not enough kush for a top-up of 200: you have 50.\n"
        "Take the /daily bonus, or ask an admin for /grant."
    )
    assert len(reply.text) <= 200  # a Telegram press's answer (MAX_ANSWER)
    reply = await service.top_up(GROUP, ALICE, "60")
    assert reply.text == (
        "Not enough kush for a top-up of 60: you have 50.\n"
        "Take the /daily bonus, or ask an admin for /grant."
    )
    # during a hand: a top-up is queued, and refused when the balance cannot pay it
    assert not (await service.ready(GROUP, BOB)).alert
    assert t.hand is not None
    assert not (await service.grant(GROUP, ALICE, True, "@Bob", "-750", "k2")).alert
    reply = await service.top_up(GROUP, BOB, "100")  # Bob reads Russian
    assert reply.alert and reply.text == (
        "Не хватает кушей на докупку 100: у вас 50.\n"
        "Возьмите бонус /daily или попросите админа о /grant."
    )
    assert t.seats[0].top_up == t.seats[1].top_up == 0  # nothing queued
    # an empty balance: told so, with the advice
    assert not (await service.grant(GROUP, ALICE, True, "@Alice", "-50", "k3")).alert
    reply = await service.top_up(GROUP, ALICE)
    assert reply.alert and reply.text == (
        "Your balance has no kush left to top up from.\n"
        "Take the /daily bonus, or ask an admin for /grant."
    )
    # no daily bonus in the group: not offered
    assert not (await service.settings(GROUP, ALICE, True, ["daily_bonus", "0"])).alert
    reply = await service.top_up(GROUP, ALICE)
    assert reply.text == "Your balance has no kush left to top up from.\nAsk an admin for /grant."
    assert await check_store(store) == []


async def test_r8_1_the_advice_offers_daily_only_while_it_can_be_taken(env: Any) -> None:
    """R8.1: once ``/daily`` was taken today, a refusal for too few kush still said "Take the
    /daily bonus", which then only answers "You already took today's bonus". It is offered
    while it can be taken; taken, the advice says when the next one comes (the group's next
    day, Moscow's by default), and offers it again then."""
    service, _presenter, _store, clock = env
    assert not (await service.settings(GROUP, ALICE, True, ["min_buy_in", "5000"])).alert
    assert not (await service.settings(GROUP, ALICE, True, ["max_buy_in", "10000"])).alert
    await service.new_table(GROUP, ALICE)
    reply = await service.join(GROUP, ALICE)
    assert reply.text == (
        "Not enough kush: the buy-in is 5000, you have 1000.\n"
        "Take the /daily bonus, or ask an admin for /grant or a lower buy-in "
        "(/settings min_buy_in)."
    )
    assert not (await service.daily(GROUP, ALICE)).alert
    taken = await service.daily(GROUP, ALICE)  # 16:46:40 in Moscow: the next in 7 h 14 min
    assert taken.text == tr("en", "reply.daily_taken", hours=7, minutes=14)
    reply = await service.join(GROUP, ALICE)
    assert reply.alert and reply.text == (
        "Not enough kush: the buy-in is 5000, you have 1100.\n"
        "Ask an admin for /grant or a lower buy-in (/settings min_buy_in). "
        "Next /daily in 7 h 14 min."
    )
    assert len(reply.text) <= 200  # a Telegram press's answer (MAX_ANSWER)
    assert not (await service.daily(GROUP, BOB)).alert
    reply = await service.join(GROUP, BOB)  # Bob reads Russian
    assert reply.text == (
        "Недостаточно кушей: взнос 5000, у вас 1100.\n"
        "Попросите админа о /grant либо о меньшем взносе (/settings min_buy_in). "
        "Следующий /daily — через 7 ч 14 мин."
    )
    assert len(reply.text) <= 200
    # a top-up's advice too
    assert not (await service.grant(GROUP, ALICE, True, "@Alice", "3900", "k1")).alert
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, ALICE)).alert  # 5000 - 5000: nothing left
    reply = await service.top_up(GROUP, ALICE)
    assert reply.text == (
        "Your balance has no kush left to top up from.\n"
        "Ask an admin for /grant. Next /daily in 7 h 14 min."
    )
    clock.now += 7 * 3600 + 14 * 60  # the group's next day: offered again
    reply = await service.top_up(GROUP, ALICE)
    assert reply.text == (
        "Your balance has no kush left to top up from.\n"
        "Take the /daily bonus, or ask an admin for /grant."
    )
