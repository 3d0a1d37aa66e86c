"""fix39c: leftovers on private screens, kicks and tournaments.

1. ``/settings utc_offset`` changed mid-turn: the private hand messages kept the old zone's
   "until 18:41" until their next rewrite; they, and the table message, are written anew in
   the change's step (one group write).
2. The time bank nudge said "⏱ 0:30 left", stale when read later: with the group's zone
   known it says when the bank runs out, "until 18:42:30 (0:30)".
3. A presenter's background task other than the Discord writer (a bank nudge, a picture
   posted later) ended with its error unseen: each reports it the same way
   (:func:`bot.logs.failure_logged`).
4. A player kicked mid-hand was told "you will stand up when the hand ends" and nothing when
   they did, their stack back: now told then too (a computer player never).
5. The tournament board read "Alice 10,120, Bob 9880": English groups from four digits,
   Russian from five (typographic convention).
6. Leaving a two-player tournament mid-hand wrote the group three messages and the
   standings: now the standings, with the knock-out and why, are the one group write
   beside the answer to /leave.
7. ``render._decimal`` and ``settings._fraction`` wrote fractions two ways: one helper,
   :func:`bot.texts.decimal`.
"""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import pytest

from bot import render
from bot.discord.presenter import DiscordPresenter
from bot.late_pictures import LatePictures
from bot.model import Actor, SeatClock
from bot.render import clock_time, private_screen
from bot.screens import Button, Screen
from bot.service.settings import SETTINGS
from bot.telegram.adapter import TelegramPresenter
from bot.texts import decimal, grouped, tr
from storage.memory import MemoryStore
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_fix38a import TG, _service
from tests.bot.test_fix38f_kick_notice import _seated
from tests.bot.test_service import ALICE, BOB, GROUP, leave_now, press_auto_and_confirm, seated
from tests.bot.test_tournament_service import (
    configure,
    new_service,
    running_tournament,
    two_started,
)
from tests.bot.test_transitions import player_balance_in

NBSP = "\u00a0"


# -- 1. a new utc_offset rewrites the open private screens and the table message once ------------
async def test_r8_5_a_new_utc_offset_mid_turn_rewrites_the_turn_clocks_at_once(env) -> None:  # type: ignore[no-untyped-def]
    """The group's zone is UTC+3, Alice is to act ("until 18:41" in Moscow); an admin sets
    UTC-5 mid-turn: both players' private messages and the table message say the turn's end
    in the new zone at once (they kept the old one until the next move), the table message
    in one write."""
    service, presenter, _store, _clock = env
    assert not (await service.settings(GROUP, ALICE, True, ["utc_offset", "3"])).alert
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    await service.rt.settled(t)
    now = service.rt.clock()
    budget, _bank = t.clocks[t.owner(t.hand.to_act[0])].left(now)
    old, new = clock_time(now + budget, 3), clock_time(now + budget, -5)
    assert old != new
    assert f"until {old}" in presenter.last_private(ALICE.user_id).text
    writes = presenter.writes
    privates = {u: len(presenter.privates[u]) for u in (ALICE.user_id, BOB.user_id)}
    assert not (await service.settings(GROUP, ALICE, True, ["utc_offset", "-5"])).alert
    await service.rt.settled(t)
    assert f"until {new}" in presenter.last_private(ALICE.user_id).text
    assert f"до {new}" in presenter.last_private(BOB.user_id).text  # (Bob reads Russian)
    for user in privates:
        assert len(presenter.privates[user]) == privates[user] + 1
    assert presenter.writes == writes + 1  # the table message: once
    assert f"until {new}" in presenter.last_table(GROUP.chat_id).text


# -- 2. the time bank nudge says until when ----------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "⏳ Your time bank has started · ⏱ until 03:18:40 (0:30), then your cards are "
               "placed for you."),
        ("ru", "⏳ Пошёл ваш тайм-банк · ⏱ до 03:18:40 (0:30), затем карты разложат за вас."),
    ],
)  # fmt: skip
async def test_r8_5_the_bank_nudge_says_when_the_bank_runs_out_in_the_groups_zone(
    lang: str, said: str
) -> None:
    """Budget 90 s and bank 30 s from t=1000 (epoch seconds), the screen made at 1010, the
    group at UTC+3: the nudge comes at 1090 and says the bank runs out at 1120, 03:18:40 in
    the group's zone (it said "0:30 left", stale when read later). Without a zone: as before."""
    service, _presenter, _store, _clock = service_env()
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    acting = t.owner(t.hand.to_act[0])
    t.clocks[acting] = SeatClock(budget=90.0, bank=30.0, running_since=1000.0)
    seat = t.seats[acting]
    seat.lang = lang
    screen = private_screen(t, seat, 1010.0, 3.0)
    assert screen.bank_nudge is not None
    assert screen.bank_nudge == (80.0, screen.text.splitlines()[0] + "\n" + said)
    plain = private_screen(t, seat, 1010.0).bank_nudge
    assert plain is not None and plain[1].endswith(tr(lang, "private.bank_started", time="0:30"))


def test_clock_time_with_seconds() -> None:
    assert clock_time(1120.0, 3.0, seconds=True) == "03:18:40"
    assert clock_time(1120.0, 3.0) == "03:18"


# -- 3. every presenter background task reports its failure -------------------------------------
def _failed(caplog: pytest.LogCaptureFixture, what: str) -> list[logging.LogRecord]:
    return [
        r for r in caplog.records if r.levelno == logging.ERROR and r.getMessage().startswith(what)
    ]


def _acting(table: int, nudge: float) -> Screen:
    return Screen("hand\nYour move", ((Button("x", "d"),),), table=table, bank_nudge=(nudge, "n"))


async def _ended(tasks: Any) -> None:
    await asyncio.wait(list(tasks))
    for _ in range(3):  # (the done-callbacks)
        await asyncio.sleep(0)


async def test_a_telegram_bank_nudge_that_fails_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    """Telegram's bank nudge raising something unexpected (not a TelegramError) ended unseen
    (asyncio: "Task exception was never retrieved", at best when collected)."""

    async def send_message(*_args: Any, **_kw: Any) -> None:
        raise RuntimeError("unexpected")

    presenter = TelegramPresenter(SimpleNamespace(bot=SimpleNamespace(send_message=send_message)))  # type: ignore[arg-type]
    presenter.follow_turn("7", _acting(1, 0.0))
    await _ended(presenter._nudgers.values())
    said = _failed(caplog, "a Telegram bank nudge failed")
    assert len(said) == 1 and "unexpected" in said[0].getMessage()


async def test_a_discord_bank_nudge_that_fails_is_logged(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    presenter = DiscordPresenter(SimpleNamespace())  # type: ignore[arg-type]

    def broken(*_args: Any) -> None:
        raise RuntimeError("unexpected")

    monkeypatch.setattr(presenter, "_want_ping", broken)
    presenter._follow_turn("7", "r1", 5, _acting(1, 0.0))
    await _ended(presenter._nudgers.values())
    assert len(_failed(caplog, "a Discord bank nudge failed")) == 1


class _Pictures(LatePictures):
    def __init__(self) -> None:
        self._late_pictures = {}
        self.on_posted = None
        self.on_picture_given_up = None

    async def _send_picture(
        self, chat_id: str, png: bytes, caption: str, ref: str, began: float, *, later: bool
    ) -> bool:
        raise RuntimeError("unexpected")


async def test_a_picture_posted_later_that_fails_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    presenter = _Pictures()
    assert await presenter.send_picture("-5", b"png", "caption", later=True) is not None
    await _ended(presenter._late_pictures.values())
    assert len(_failed(caplog, "posting a picture later in -5 failed")) == 1


async def test_a_cancelled_task_says_nothing(caplog: pytest.LogCaptureFixture) -> None:
    presenter = TelegramPresenter(SimpleNamespace())  # type: ignore[arg-type]
    presenter.follow_turn("7", _acting(1, 60.0))
    nudger = presenter._nudgers[("7", 1)]
    presenter.follow_turn("7", Screen("over", table=1))  # the turn ends: cancelled
    await _ended([nudger])
    assert nudger.cancelled() and _failed(caplog, "a Telegram") == []


# -- 4. the kicked player is told when they stand up ------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r8_5_a_player_kicked_mid_hand_is_told_when_they_stand_up(lang: str) -> None:
    """An admin kicks Bob mid-hand: told he stands up when it ends (fix38f); when the hand
    ends he stands up, his stack back to his balance, and is told so in private once."""
    service = _service(MemoryStore(), TG.platform)
    presenter = service.rt.presenters[TG.platform]
    assert isinstance(presenter, FakePresenter)
    alice = Actor(TG.platform, "11", "Alice", "en")
    bob = Actor(TG.platform, "12", "Bob", lang)
    try:
        assert not (await service.settings(TG, alice, True, ["language", lang])).alert
        t = await _seated(service, TG, alice, bob, "mid_hand")
        before = len(presenter.privates.get(bob.user_id, []))
        assert not (await service.kick(TG, alice, True, "Bob")).alert
        await service.rt.settled(t)
        hand_no = t.hand_no
        for _ in range(40):
            if t.hand is None or t.hand_no != hand_no:
                break
            acting = t.seats[t.owner(t.hand.to_act[0])]
            assert acting.user_id == alice.user_id  # (Bob's moves are made for him)
            await press_auto_and_confirm(service, presenter, alice)
        await service.rt.settled(t)
        assert t.seat_of(bob.user_id) is None
        balance = await player_balance_in(service.rt.store, TG, bob)  # type: ignore[arg-type]
        back = balance - (1000 - 200)  # (1000 to start, 200 bought in)
        key = "private.kicked_stood_up" if back else "private.kicked_stood_up_nothing"
        said = tr(lang, key, table=t.id, amount=back, label="kush")
        told = [s.text for s in presenter.privates.get(bob.user_id, [])[before:]]
        assert told.count(said) == 1, told
        assert told.count(tr(lang, "private.kicked_later", table=t.id)) == 1
        assert not any(said in text for _, text in presenter.posts)  # (not in the group)
    finally:
        await service.stop()


def test_the_stood_up_notice_in_either_language() -> None:
    assert tr("en", "private.kicked_stood_up", table=3, amount=1250, label="kush") == (
        "The hand at table #3 is over: you stood up, as an admin asked; 1,250 kush back to "
        "your balance."
    )
    assert tr("ru", "private.kicked_stood_up", table=3, amount=1250, label="куш") == (
        "Раздача за столом #3 закончилась: вы встали из-за стола по решению админа; "
        "возвращено на баланс: 1250 кушей."
    )


# -- 5. English groups from four digits, Russian from five -------------------------------------
def test_english_groups_from_four_digits_russian_from_five() -> None:
    assert [grouped(n, "en") for n in (999, 1000, 9880, 10_120, -9880)] == [
        "999", "1,000", "9,880", "10,120", "-9,880"
    ]  # fmt: skip
    assert [grouped(n, "ru") for n in (999, 1000, 9880, 10_120)] == [
        "999", "1000", "9880", f"10{NBSP}120"
    ]  # fmt: skip
    assert tr("en", "tour.chips", chips=9880) == "Chips: 9,880"
    assert tr("ru", "tour.chips", chips=9880) == "Фишки: 9880"


async def test_r8_7_the_tournament_board_groups_every_players_chips_alike(env) -> None:  # type: ignore[no-untyped-def]
    """The board read "Alice 10,120, Bob 9880, Carol 500": one grouped, one not."""
    service, _presenter, _store, clock = env
    t, tour = await running_tournament(service)
    tour._s.chips = {0: 10_120, 1: 9880, 2: 500}  # (as hands would leave them)
    names = [t.seats[s].name for s in (0, 1, 2)]
    en = render.tournament_status(t, "en", clock.now).splitlines()[-1]
    assert en == tr(
        "en", "tour.chips", chips=f"{names[0]} 10,120, {names[1]} 9,880, {names[2]} 500"
    )
    ru = render.tournament_status(t, "ru", clock.now).splitlines()[-1]
    assert ru == tr(
        "ru", "tour.chips", chips=f"{names[0]} 10{NBSP}120, {names[1]} 9880, {names[2]} 500"
    )


# -- 6. leaving a two-player tournament mid-hand: one group write --------------------------------
async def test_r8_7_the_last_opponent_leaving_mid_hand_writes_the_group_once() -> None:
    """Bob leaves a two-player tournament mid-hand: the group got "Bob is out", "the hand is
    not played on" and the standings (and the answer to /leave): now the standings, with
    both lines above them, are the step's one group write."""
    service, presenter, _store, _clock = new_service(next_hand_delay=0)
    await configure(service, tournament_buy_in="100")
    t = await two_started(service, presenter, "pineapple")
    table_id, hand_no = t.id, t.hand_no
    posts, writes = len(presenter.posts), presenter.writes
    reply = await leave_now(service, GROUP, BOB)
    await service.rt.settled(t)
    assert reply.text == tr("ru", "tour.left", place=2, prize=0, label="kush")
    assert presenter.posts[posts:] == []
    assert presenter.writes == writes + 1
    out = tr("en", "tour.knocked_out", name="Bob", place=2, prize=0, label="kush")
    why = tr("en", "tour.final_mid_hand", table=table_id, hand=hand_no)
    final = tr("en", "tour.final", table=table_id, pool=200, label="kush")
    assert presenter.last_table(GROUP.chat_id).text == (
        f"{out}\n{why}\n{final}\n1. Alice — 200 kush\n2. Bob — 0 kush"
    )


# -- 7. one format of a fraction ---------------------------------------------------------------
def test_one_decimal_format_for_settings_and_the_tournament_line() -> None:
    """:func:`bot.texts.decimal`: ten significant digits, no exponent, the decimal comma in
    Russian; ``render`` used ``:g`` (six digits, an exponent from 1e-05)."""
    assert decimal(7.5, "en") == "7.5" and decimal(7.5, "ru") == "7,5"
    assert decimal(5.0, "ru") == "5" and decimal(-5.75, "en") == "-5.75"
    assert decimal(0.0000001, "en") == "0.0000001"
    assert decimal(1 / 3, "en") == "0.3333333333"
    assert decimal(2.00000000005, "en") == "2"  # (ten digits: the tie to even)
    assert (
        SETTINGS["level_minutes"]
        .range_text("ru")
        .endswith("(дробное — через запятую или точку: 7,5)")
    )
