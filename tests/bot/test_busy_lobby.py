"""A busy lobby: two people press Join (Ready, a tournament's Register) on the table message
at the same moment. The first press moves the message's version on; the second, on the
version before it, was told "out of date" and had to press again. A lobby press on an older
version of the table message now counts when its meaning for its presser cannot have
changed: the table still in the same lobby stretch (nothing dealt, started or stopped), the
current message offering the button, and the press doing for its presser what it did then
(Join unseated, Ready not ready, Register unregistered, Unregister registered). Anything
else is still refused "out of date"; forged versions stay forged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.model import Actor, LiveTable, Phase
from bot.presses import Join, Leave, Ready, Register, StartTournament, Unregister, encode
from bot.screens import Payload
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, play_out
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import CAROL as TG_CAROL
from tests.bot.tg_world import GROUP_ID, World, world

#: "This button is out of date." in either language (Bob reads Russian)
STALE = frozenset(tr(lang, "err.stale") for lang in ("en", "ru"))


def _table(service: TableService) -> LiveTable:
    t = service.table_in(GROUP)
    assert t is not None
    return t


def _v(t: LiveTable) -> str:
    return f"L{t.version}"


async def _lobby(service: TableService, *joined: Actor) -> LiveTable:
    """Alice's new cash table in ``GROUP`` (in its lobby), ``joined`` seated in that order
    (each join asserted answered without an alert)."""
    await service.new_table(GROUP, ALICE)
    t = _table(service)
    for a in joined:
        assert not (await service.join(GROUP, a)).alert
    return t


async def _tournament(service: TableService, buy_in: str | None = None) -> LiveTable:
    """Alice's new OFC tournament in ``GROUP`` (its buy-in set to ``buy_in`` first when
    given), each step asserted answered without an alert."""
    if buy_in is not None:
        assert not (await service.settings(GROUP, ALICE, True, ["tournament_buy_in", buy_in])).alert
    assert not (await service.new_tournament(GROUP, ALICE, "ofc")).alert
    return _table(service)


def _join_button(w: World) -> tuple[dict[str, Any], str]:
    """The Telegram table message and its Join button's callback data."""
    message = w.table_message()
    join = next(
        b["callback_data"]
        for b in w.fake.buttons(message)
        if (p := Payload.decode(b.get("callback_data"))) is not None and p.action == "j"
    )
    return message, join


async def test_r8_2_two_joins_pressed_on_one_message_version_both_seat() -> None:
    service, _presenter, store, _clock = service_env()
    assert not (await service.new_table(GROUP, ALICE)).alert
    t = _table(service)
    shown = _v(t)  # the message everyone sees
    for a in (ALICE, BOB, CAROL):
        reply = await service.press(a, encode(Join(t.id, shown)), GROUP)
        assert not reply.alert, (a.name, reply.text)
    assert sorted(s.user_id for s in t.seats.values()) == ["1", "2", "3"]
    assert t.version > int(shown[1:])  # every join moved the version on
    # a second Join of a seated player on that old version: out of date, nothing changes
    seats = {n: (s.user_id, s.stack, s.ready) for n, s in t.seats.items()}
    reply = await service.press(BOB, encode(Join(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    assert {n: (s.user_id, s.stack, s.ready) for n, s in t.seats.items()} == seats
    assert await check_store(store) == []


async def test_r8_2_a_double_tapped_ready_stays_ready_and_a_second_readys_counts() -> None:
    service, _presenter, store, _clock = service_env()
    t = await _lobby(service, ALICE, BOB, CAROL)
    shown = _v(t)
    # Alice taps Ready twice on one message: bought in once, ready (Ready is no toggle)
    assert not (await service.press(ALICE, encode(Ready(t.id, shown)), GROUP)).alert
    alice = t.seat_of("1")
    assert alice is not None and alice.ready and alice.stack == t.min_buy_in
    reply = await service.press(ALICE, encode(Ready(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    assert alice.ready and alice.stack == t.min_buy_in and not alice.sitting_out
    # Bob's Ready pressed on the same message at the same moment counts
    assert not (await service.press(BOB, encode(Ready(t.id, shown)), GROUP)).alert
    bob = t.seat_of("2")
    assert bob is not None and bob.ready and bob.stack == t.min_buy_in
    assert t.hand is None and t.phase is Phase.LOBBY  # Carol is not ready yet
    assert await check_store(store) == []


async def test_r8_2_leave_and_top_up_on_an_older_version_stay_out_of_date() -> None:
    service, _presenter, _store, _clock = service_env()
    t = await _lobby(service)
    shown = _v(t)
    assert not (await service.press(ALICE, encode(Join(t.id, shown)), GROUP)).alert
    assert not (await service.press(BOB, encode(Join(t.id, shown)), GROUP)).alert
    reply = await service.press(BOB, encode(Leave(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    assert t.seat_of("2") is not None and not t.seat_of("2").leaving  # type: ignore[union-attr]


async def test_r8_2_a_join_on_a_message_from_before_the_hand_started_is_refused() -> None:
    service, presenter, store, _clock = service_env(next_hand_delay=600)
    t = await _lobby(service, ALICE, BOB)
    before = _v(t)  # the lobby's message, before the deal
    assert not (await service.ready(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, BOB)).alert
    assert t.hand is not None and t.phase is Phase.PLAYING
    reply = await service.press(CAROL, encode(Join(t.id, before)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    playing = _v(t)  # a message of the hand
    await play_out(service, presenter, [ALICE, BOB])
    assert t.phase is Phase.BETWEEN, t.phase
    # between hands now: a Join from before the hand, or from during it, is out of date
    for old in (before, playing):
        reply = await service.press(CAROL, encode(Join(t.id, old)), GROUP)
        assert reply.alert and reply.text in STALE, (old, reply.text)
    assert t.seat_of("3") is None
    # one from between hands, older than the current message, counts
    between = _v(t)
    await service.rt.show_group(t)  # (the message written again: a newer version)
    assert _v(t) != between
    assert not (await service.press(CAROL, encode(Join(t.id, between)), GROUP)).alert
    assert t.seat_of("3") is not None
    assert await check_store(store) == []


async def test_r8_7_two_registers_on_one_message_version_both_register() -> None:
    service, _presenter, store, _clock = service_env()
    t = await _tournament(service, buy_in="33")
    assert t.tournament is not None
    shown = _v(t)
    for a in (ALICE, BOB):
        reply = await service.press(a, encode(Register(t.id, shown)), GROUP)
        assert not reply.alert, (a.name, reply.text)
    assert sorted(s.user_id for s in t.seats.values()) == ["1", "2"]
    pool = t.tournament.pool
    assert pool == 66
    # a Register tapped twice on that version: registered already (fix40h; it was "out of
    # date"), no second buy-in
    reply = await service.press(BOB, encode(Register(t.id, shown)), GROUP)
    assert reply.alert and reply.text == tr("ru", "err.already_registered"), reply.text
    assert t.tournament.pool == 66
    # Unregister on the old version counts for the registered; a second is out of date
    assert not (await service.press(BOB, encode(Unregister(t.id, shown)), GROUP)).alert
    assert t.seat_of("2") is None and t.tournament.pool == 33
    reply = await service.press(BOB, encode(Unregister(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    # Start stays strict
    reply = await service.press(ALICE, encode(StartTournament(t.id, shown)), GROUP)
    assert reply.alert and reply.text in STALE, reply.text
    assert await check_store(store) == []


async def test_forged_lobby_versions_stay_forged() -> None:
    service, _presenter, _store, _clock = service_env()
    t = await _lobby(service)
    forged = frozenset(tr(lang, "err.forged") for lang in ("en", "ru"))
    for version in ("L-1", "Lx", "X1", "L", f"L{t.version}0"):
        data = f"{t.id}:{version}:j"
        reply = await service.press(BOB, data, GROUP)
        if version == f"L{t.version}0":  # (shaped as a version, never shown: a newer one)
            assert reply.alert and reply.text in STALE, (version, reply.text)
        else:
            assert reply.alert and reply.text in forged, (version, reply.text)
    reply = await service.press(BOB, encode(Register(t.id, _v(t))), GROUP)  # a cash table's
    assert reply.alert and reply.text in forged, reply.text
    assert t.seat_of("2") is None


async def test_telegram_two_joins_pressed_at_once_both_seat(tmp_path: Path) -> None:
    """End to end through python-telegram-bot: Bob and Carol press Join on the same table
    message (Alice's join moved its version on before Carol's press arrived): both sit."""
    async with world(tmp_path) as w:
        await w.say(TG_ALICE, "/newtable")
        message, join = _join_button(w)
        for user in (TG_ALICE, TG_BOB, TG_CAROL):  # the same button of the same message
            answer = await w.press(user, GROUP_ID, message, join)
            assert not answer.get("show_alert"), answer
        t = next(iter(w.service.tables.values()))
        assert sorted(s.user_id for s in t.seats.values()) == ["101", "102", "103"]
        # the table message shows them all
        assert all(n in w.table_message()["text"] for n in ("Alice", "Bob", "Carol"))
