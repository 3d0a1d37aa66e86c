"""Small things the lead noticed (ux2): each with the behaviour it needs, in-memory store,
a hand-moved clock, timers fired by ``run_due``."""

from __future__ import annotations

import dataclasses
import io
from typing import Any

from PIL import Image

from bot import pictures
from bot.pictures import NOTE_H, BoardPicture, Picture, draw, layout
from bot.service import stats as stats_mod
from bot.texts import minus, tr
from storage.api import HandStats
from storage.check import check_store
from tests.bot.test_ready_window import DAVE
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, seated
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import BOB as C_BOB
from tests.bot.test_service_classic import GROUP as CLASSIC
from tests.bot.test_service_classic import configure, first_chinese_hand, play_hand, start


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
    assert lines[-1] == "Fantasyland: entered in 100% of hands"
    ru = stats_mod._stats_lines(mixed, "ru", "kush", group=False)
    assert ru[-1] == "Фантазия: попадание в 100% раздач"
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
    reply = await service.top_up(GROUP, ALICE, "60")  # an amount of one's own: what fits
    assert reply.text == (
        "Top up from 1 to 50 kush, your balance (a stack holds at most 1,000). Usage: /topup N"
    )
    # during a hand: a top-up is queued, and refused when the balance cannot pay it
    assert not (await service.ready(GROUP, BOB)).alert
    assert t.hand is not None
    assert not (await service.grant(GROUP, ALICE, True, "@Bob", "-750", "k2")).alert
    reply = await service.top_up(GROUP, BOB)  # Bob reads Russian
    assert reply.alert and reply.text == (
        "Недостаточно средств на балансе: докупка 200 кушей, у вас 50.\n"
        "Возьмите бонус /daily или попросите админа о /grant."
    )
    reply = await service.top_up(GROUP, BOB, "100")
    assert reply.alert and reply.text == (
        "Докупить можно от 1 до 50 кушей — это ваш баланс (в стеке не больше 1000)."
        " Формат: /topup N"
    )
    assert t.seats[0].top_up == t.seats[1].top_up == 0  # nothing queued
    # an empty balance: told so, with the advice
    assert not (await service.grant(GROUP, ALICE, True, "@Alice", "-50", "k3")).alert
    reply = await service.top_up(GROUP, ALICE)
    assert reply.alert and reply.text == (
        "Your balance is empty: nothing to top up from.\n"
        "Take the /daily bonus, or ask an admin for /grant."
    )
    # no daily bonus in the group: not offered
    assert not (await service.settings(GROUP, ALICE, True, ["daily_bonus", "0"])).alert
    reply = await service.top_up(GROUP, ALICE)
    assert reply.text == "Your balance is empty: nothing to top up from.\nAsk an admin for /grant."
    assert await check_store(store) == []


async def test_r8_1_the_advice_offers_daily_only_while_it_can_be_taken(env: Any) -> None:
    """R8.1: once ``/daily`` was taken today, a refusal for too few kush still said "Take the
    /daily bonus", which then only answers "You already took today's bonus". It is offered
    while it can be taken; taken, the advice says when the next one comes (the group's next
    day, Moscow's here), and offers it again then."""
    service, _presenter, _store, clock = env
    # (Moscow's day set: a group whose players read English and Russian alike is Moscow's
    # by default, one of English readers alone UTC's, which Alice was at first)
    assert not (await service.settings(GROUP, ALICE, True, ["utc_offset", "3"])).alert
    assert not (await service.settings(GROUP, ALICE, True, ["min_buy_in", "5000"])).alert
    assert not (await service.settings(GROUP, ALICE, True, ["max_buy_in", "10000"])).alert
    # (hours pass below with Alice alone at the table: no idle close meanwhile, R8.2a)
    assert not (await service.settings(GROUP, ALICE, True, ["idle_close_seconds", "86400"])).alert
    await service.new_table(GROUP, ALICE)
    reply = await service.join(GROUP, ALICE)
    assert reply.text == (
        "Not enough kush: the buy-in is 5,000, you have 1,000.\n"
        "Take the /daily bonus, or ask an admin for /grant or a lower buy-in "
        "(/settings min_buy_in)."
    )
    assert not (await service.daily(GROUP, ALICE)).alert
    taken = await service.daily(GROUP, ALICE)  # 16:46:40 in Moscow: the next in 7 h 14 min
    assert taken.text == tr("en", "reply.daily_taken", hours=7, minutes=14)
    reply = await service.join(GROUP, ALICE)
    assert reply.alert and reply.text == (
        "Not enough kush: the buy-in is 5,000, you have 1,100.\n"
        "Ask an admin for /grant or a lower buy-in (/settings min_buy_in). "
        "Next /daily in 7 h 14 min."
    )
    assert len(reply.text) <= 200  # a Telegram press's answer (MAX_ANSWER)
    assert not (await service.daily(GROUP, BOB)).alert
    reply = await service.join(GROUP, BOB)  # Bob reads Russian
    assert reply.text == (
        "Недостаточно средств на балансе: взнос 5000 кушей, у вас 1100.\n"
        "Попросите админа о /grant либо о меньшем взносе (/settings взнос). "
        "Следующий /daily — через 7 ч 14 мин."
    )
    assert len(reply.text) <= 200
    # a top-up's advice too
    assert not (await service.grant(GROUP, ALICE, True, "@Alice", "3900", "k1")).alert
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, ALICE)).alert  # 5000 - 5000: nothing left
    reply = await service.top_up(GROUP, ALICE)
    assert reply.text == (
        "Your balance is empty: nothing to top up from.\n"
        "Ask an admin for /grant. Next /daily in 7 h 14 min."
    )
    clock.now += 7 * 3600 + 14 * 60  # the group's next day: offered again
    reply = await service.top_up(GROUP, ALICE)
    assert reply.text == (
        "Your balance is empty: nothing to top up from.\n"
        "Take the /daily bonus, or ask an admin for /grant."
    )


def _chinese_picture(lang: str, two_of_three: int) -> Picture:
    """Two Chinese Poker boards after the whole reveal; Anna won two boxes of three."""
    anna = BoardPicture(
        "Anna",
        ("Qs Qh 2d", "6s 6c 6d Js Qc", "As Ad Ac 5h 5d"),
        ("pair of queens", "three sixes", "full house"),
        (1, -1, 1),
        points=1 + two_of_three,
        kush=1 + two_of_three,
        total=31,
        two_of_three=two_of_three,
    )
    boris = BoardPicture(
        "🤖 Boris",
        ("Js Jh 3d", "7s 7c 7d 2s 4c", "4h 6h Th 7h Td"),
        ("pair of jacks", "three sevens", "two pair"),
        (-1, 1, -1),
        points=-1 - two_of_three,
        kush=-1 - two_of_three,
        total=12,
    )
    title = "Chinese Poker · table #2 · hand 4"
    return Picture(title, lang, (anna, boris), chinese=True, notes=("🏆 Anna claimed.",), target=51)


def test_r7_3_the_picture_words_the_two_of_three_bonus_as_the_reveal_does() -> None:
    """R7.3: the reveal's text says "2+ of 3 boxes (+1 per opponent): +1" on a
    line of its own; the showdown picture still read "two of three +1" after the kush and
    the game total (cut with "…" where that line was full). It is a line under the boards,
    in the text's words, with the players' names; the line under a name keeps the kush and
    the game total."""
    pic = _chinese_picture("en", 1)
    anna = pic.boards[0]
    assert pictures.board_line(pic, anna) == ["+2 kush", "31 pts (target 51)"]
    assert pictures.notes_of(pic) == [
        "🏆 Anna claimed.",
        "2+ of 3 boxes (+1 per opponent): Anna +1",
    ]
    ru = dataclasses.replace(pic, lang="ru")
    assert pictures.board_line(ru, anna) == ["+2 куша", "31 очко (цель 51)"]
    assert pictures.notes_of(ru)[-1] == "2+ бокса из 3 (+1 с каждым соперником): Anna +1"
    # the line takes the picture's room (a note's height), drawn at the layout's size
    plain = _chinese_picture("en", 0)
    assert pictures.notes_of(plain) == ["🏆 Anna claimed."]
    assert layout(pic)[2] == layout(plain)[2] + NOTE_H
    png = draw(pic)
    with Image.open(io.BytesIO(png)) as img:
        assert img.size == layout(pic)[1:]


async def test_r8_3_a_later_settled_hands_caption_gives_its_units(env: Any) -> None:
    """R8.3: with ``settle_per_round`` the photo's caption of a hand settled later read
    "Alice -2 · Bob +2": numbers with no unit, next to captions whose kush say "kush". Its
    points say "pts" and that the settlement comes after the round, as the text showdown
    does; the hand that settles the round gives points and kush, each with its unit."""
    service, presenter, store, _clock = env
    await configure(service, game="ofc", settle_per_round="on", fantasyland="off")
    await start(service, [C_ALICE, C_BOB], "ofc")
    t = service.table_in(CLASSIC)
    assert t is not None
    names = {0: "Alice", 1: "Bob"}
    for n in (1, 2):
        await play_hand(service, presenter, [C_ALICE, C_BOB])
        await service.run_due()
        assert len(presenter.pictures) == n
        _chat, _png, caption = presenter.pictures[-1]
        record = (await store.hand_history(t.seats[0].player_id, 1))[0]
        assert record.number == n
        kush = record.result.get("kush") or {}
        parts = []
        for r in record.result["seats"]:
            part = f"{names[r['seat']]} {tr('en', 'showdown.points', points=r['points'])}"
            if n == 2:
                part += f" ({minus(format(kush[str(r['seat'])], '+d'))} kush)"
            parts.append(part)
        later = "\nSettlement comes after the full round." if n == 1 else ""
        title = f"Classic OFC · table #{t.id} · hand {n}"
        assert caption == title + "\n" + " · ".join(parts) + later
    assert await check_store(store) == []
