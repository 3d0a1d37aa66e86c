"""A new user's points (fixnu40a): each test fails without its fix."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import Any

from bot import render
from bot.model import Actor
from bot.render import private_screen
from bot.sandbox import GROUP, GROUP_ID, Sandbox, SandboxOptions
from bot.texts import tr
from game.clock import SeatClock
from tests.bot.conftest import service_env
from tests.bot.discord.dc_world import ALICE as DC_ALICE
from tests.bot.discord.dc_world import BOB as DC_BOB
from tests.bot.discord.dc_world import world as dc_world
from tests.bot.discord.test_discord_e2e import seat_everyone as dc_seat_everyone
from tests.bot.test_service import ALICE, BOB, CAROL, seated
from tests.bot.test_service import GROUP as T_GROUP
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import BOB as C_BOB
from tests.bot.test_service_classic import CAROL as C_CAROL
from tests.bot.test_service_classic import GROUP as C_GROUP
from tests.bot.test_service_classic import configure
from tests.bot.test_service_classic import start as c_start
from tests.bot.test_settings import ALICE as S_ALICE
from tests.bot.test_settings import BORIS as S_BORIS
from tests.bot.test_settings import new_service as settings_service
from tests.bot.test_settings import say
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.test_telegram_turn_ping import sends_to
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import GROUP_ID as TG_GROUP
from tests.bot.tg_world import world

# -- 1. the sandbox's group buttons: by label, and a numbered Leave asks first ---------------


async def _full_table(tmp_path: Path, name: str = "s.sqlite3") -> tuple[Sandbox, io.StringIO]:
    """A sandbox with two computer players seated and the player joined: the table is full,
    so the lobby has no Join ("[g1] Ready [g2] Leave [g3] ➕ Top up")."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / name, bots=2, bot_delay=0.0), out)
    await box.start()
    assert await box.handle("g1")  # Join (a free seat: Join is g1)
    return box, out


def _seated(box: Sandbox) -> bool:
    assert box.service is not None
    t = box.service.table_in(GROUP)
    return t is not None and t.seat_of(str(box.human.id)) is not None


async def test_g2_typed_as_readme_s_ready_on_a_full_table_asks_before_leaving(
    tmp_path: Path,
) -> None:
    """README's ``g2`` (Ready) on a full table is Leave: it stood the player up at once. Now
    it asks, naming the button and where Ready is; the player stays seated; the same ``g2``
    again leaves."""
    box, out = await _full_table(tmp_path)
    try:
        shown = box.screen(GROUP_ID)
        assert shown is not None
        assert [label for label, _ in shown.buttons] == ["Ready", "Leave", "➕ Top up"]
        start = len(out.getvalue().splitlines())
        assert await box.handle("g2")
        lines = out.getvalue().splitlines()[start:]
        assert lines[0] == (
            "» g2 is Leave now: type g2 again to leave the table (or g leave). Ready is g1."
        )
        assert _seated(box)
        assert await box.handle("g2")
        assert "» You left the table." in out.getvalue().splitlines()[start:]
        assert not _seated(box)
    finally:
        await box.stop()


async def test_a_leave_question_lapses_with_any_other_line(tmp_path: Path) -> None:
    """``g2`` asked; a line in between (``/balance``) drops the question: the next ``g2`` asks
    again and the player stays seated."""
    box, out = await _full_table(tmp_path)
    try:
        assert await box.handle("g2")
        assert await box.handle("/balance")
        start = len(out.getvalue().splitlines())
        assert await box.handle("g2")
        assert out.getvalue().splitlines()[start].startswith("» g2 is Leave now")
        assert _seated(box)
    finally:
        await box.stop()


async def test_g_and_a_label_presses_that_button_in_either_language_and_case(
    tmp_path: Path,
) -> None:
    """``g READY`` presses Ready whatever its number (g1 on a full table), ``g Встать`` the
    Leave at once (named, not a number: no question); a label the message lacks is answered
    with the buttons it has (``g join`` on a full table is pressed, as an old message's Join
    would be: "already seated")."""
    box, out = await _full_table(tmp_path)
    try:
        start = len(out.getvalue().splitlines())
        assert await box.handle("g join")  # (no Join on a full table: pressed, answered)
        assert out.getvalue().splitlines()[start] == "» You are already seated."
        start = len(out.getvalue().splitlines())
        assert await box.handle("g undo")
        assert out.getvalue().splitlines()[start] == (
            '» no button "undo" on the group message now; its buttons: g1 Ready, g2 Leave, '
            "g3 ➕ Top up"
        )
        assert await box.handle("g READY")
        assert "» Ready: 200 kush moved to the table." in out.getvalue().splitlines()[start:]
        assert box.service is not None
        t = box.service.table_in(GROUP)
        assert t is not None and t.hand is not None  # everyone ready: dealt
    finally:
        await box.stop()
    box2, out2 = await _full_table(tmp_path, "b.sqlite3")
    try:
        start = len(out2.getvalue().splitlines())
        assert await box2.handle("g Встать")
        assert "» You left the table." in out2.getvalue().splitlines()[start:]
        assert not _seated(box2)
    finally:
        await box2.stop()


async def test_the_first_hint_names_the_buttons_by_label_not_fixed_numbers(tmp_path: Path) -> None:
    """The start's hint said "Type g1 to Join and g2 for Ready": on a full table g2 is Leave."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bots=2, bot_delay=0.0), out)
    await box.start()
    try:
        text = out.getvalue()
        assert "Type g join, then g ready" in text
        assert "g2 for Ready" not in text
    finally:
        await box.stop()


# -- 4. Ready before Join --------------------------------------------------------------------


async def test_r8_2_ready_before_join_says_press_join_first_in_either_language() -> None:
    """Ready typed (or its button pressed) by a member with no seat answered only "You are
    not at this table.": now it says Join comes first, in the member's language; nothing
    changes. A full table (no seat to join) keeps the old answer."""
    service, presenter, _store, _clock = service_env()
    await service.new_table(T_GROUP, ALICE)
    reply = await service.ready(T_GROUP, ALICE)
    assert reply.alert and reply.text == "You are not at this table: press Join first."
    reply = await service.ready(T_GROUP, BOB)  # (Bob reads Russian)
    assert reply.text == "Вы не сидите за этим столом: сначала нажмите «Сесть»."
    ready = next(
        b.data for b in presenter.last_table(T_GROUP.chat_id).all_buttons() if b.label == "Ready"
    )
    reply = await service.press(ALICE, ready)
    assert reply.alert and reply.text == "You are not at this table: press Join first."
    t = service.table_in(T_GROUP)
    assert t is not None and not t.seats
    for a in (BOB, CAROL, ALICE):  # (three seats in Pineapple: full)
        assert not (await service.join(T_GROUP, a)).alert
    outsider = Actor("telegram", "4", "Dave", "en")
    assert (await service.ready(T_GROUP, outsider)).text == "You are not at this table."


# -- 5. a refused setting's bounds grouped as every amount ------------------------------------


async def test_a_refused_settings_value_groups_its_bounds_as_grant_does() -> None:
    """``/settings min_buy_in`` refused: the bounds came as «от 1 до 1000000000000 кушей»
    when the number was not typed as one ("- 5", "5k", "1 00"), while /grant writes
    «1 000 000 000 000» and English "1,000,000,000,000". Now every refusal groups them (a
    no-break space in Russian), the hint under it saying how to type a number."""
    service, _store = settings_service()
    nb = "\u00a0"
    for typed in ("-5", "- 5", "5k", "1 00"):  # ("1 000" is 1000, fix39g)
        reply = await say(service, "min_buy_in", typed, actor=S_ALICE)
        assert reply.alert
        assert reply.text.split("\n")[0] == (
            "Cannot set that — min_buy_in takes a whole number from 1 to 1,000,000,000,000 kush."
        ), typed
        reply = await say(service, "min_buy_in", typed, actor=S_BORIS)
        assert reply.text.split("\n")[0] == (
            f"Не удалось изменить взнос: целое число от 1 до 1{nb}000{nb}000{nb}000{nb}000 кушей."
        ), typed
    reply = await say(service, "min_buy_in", "5k", actor=S_BORIS)
    assert reply.text.split("\n")[1] == (
        "Набирайте число цифрами 0–9, тысячи можно отделить пробелом (5000 или 5 000; не 5_000)."
    )


# -- 6. /addbot's level checked before the table's state ---------------------------------------


async def test_addbot_with_a_bad_level_at_a_closing_table_is_refused_as_a_bad_level() -> None:
    """``/addbot godlike`` while the table closes after its hand answered only "closes at
    the end of this hand": the level is checked first (en and ru); a good level there is
    still told the table closes; nobody is seated."""
    service, _presenter, _store, _clock = service_env()
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    assert not (await service.close_table(T_GROUP, ALICE, True)).alert
    assert t.closing
    reply = await service.add_bot(T_GROUP, ALICE, True, "godlike")
    assert reply.alert and reply.text == "Levels: easy, normal, strong. Usage: /addbot [level]"
    reply = await service.add_bot(T_GROUP, BOB, True, "божественный")
    assert reply.text == (
        "Уровни: лёгкий (easy), средний (normal), сильный (strong). Формат: /addbot [уровень]"
    )
    reply = await service.add_bot(T_GROUP, ALICE, True, "strong")
    assert reply.alert and reply.text == (
        f"This chat's table #{t.id} closes at the end of this hand, stacks back to balances; "
        "then /newtable opens another."
    )
    assert sorted(s.user_id for s in t.seats.values()) == [ALICE.user_id, BOB.user_id]


# -- 2. a private nudge when the time bank starts ----------------------------------------------


async def test_r8_5_the_player_to_act_is_nudged_privately_when_their_time_bank_starts(
    tmp_path: Path,
) -> None:
    """Telegram: the player to act got one reminder 10 s in, then nothing until "⌛ Time is
    up". Now, when their budget is spent and the bank starts, a short private message says
    so (the hand's title and "⏳ Your time bank has started · ⏱ 1:00 left …"); the group's
    message is not written for it; the nudge goes when the turn ends."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({TG_ALICE.id, TG_BOB.id})
        w.adapter.presenter.turn_ping_seconds = 60.0  # (the 10 s reminder out of the way)
        await seat_everyone(w, [TG_ALICE, TG_BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        users = {str(u.id): u for u in (TG_ALICE, TG_BOB)}
        first_seat = t.hand.to_act[0]
        first = users[t.seats[first_seat].user_id]
        second = TG_BOB if first is TG_ALICE else TG_ALICE
        second_seat = next(s for s, x in t.seats.items() if x.user_id == str(second.id))
        clock = t.clocks[second_seat]
        assert not clock.running and clock.bank == 60
        t.clocks[second_seat] = dataclasses.replace(clock, budget=0.5)  # 0.5 s of budget left
        await w.play_street(first)  # the second's turn begins
        start = len(w.fake.calls)
        hand = w.private(second)
        assert hand is not None
        nudge = await w.fake.wait_for(
            lambda: next(iter(sends_to(w, second.id, start)), None), timeout=10
        )
        title = hand["text"].splitlines()[0]
        said = {
            "en": "⏳ Your time bank has started · ⏱ 1:00 left, then your cards are placed "
            "for you.",
            "ru": "⏳ Пошёл ваш тайм-банк · ⏱ осталось 1:00, затем карты разложат за вас.",
        }[t.seats[second_seat].lang]
        assert nudge.params["text"] == f"{title}\n{said}"
        assert not nudge.params.get("reply_markup")
        group_writes = [
            c for c in w.fake.calls[start:] if int(c.params.get("chat_id", 0)) == TG_GROUP
        ]
        assert group_writes == []
        sent = next(m for (chat, _), m in w.fake.messages.items() if chat == second.id
                    and m["text"] == nudge.params["text"])  # fmt: skip
        await w.play_street(second)  # the turn ends: the nudge is deleted, as a ping is
        await w.fake.wait_for(lambda: (second.id, sent["message_id"]) not in w.fake.messages)


async def test_r8_5_the_bank_nudge_is_on_the_acting_players_screen_only_in_either_language() -> (
    None
):
    """:attr:`Screen.bank_nudge`: the seconds of budget left and the text, Russian for a
    Russian reader; none once the bank runs, none for a player not to act."""
    service, _presenter, _store, _clock = service_env()
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    acting = t.owner(t.hand.to_act[0])
    other = next(s for s in t.seats if s != acting)
    t.clocks[acting] = SeatClock(budget=90.0, bank=30.0, running_since=1000.0)
    seat = t.seats[acting]
    seat.lang = "ru"
    screen = private_screen(t, seat, 1010.0)
    assert screen.bank_nudge is not None
    seconds, text = screen.bank_nudge
    assert seconds == 80.0
    assert text == (
        screen.text.splitlines()[0]
        + "\n⏳ Пошёл ваш тайм-банк · ⏱ осталось 0:30, затем карты разложат за вас."
    )
    assert private_screen(t, seat, 1095.0).bank_nudge is None  # the bank runs already
    assert private_screen(t, t.seats[other], 1010.0).bank_nudge is None


async def test_r8_5_discord_dms_the_time_bank_nudge_as_it_pings_a_turn(tmp_path: Path) -> None:
    """Discord: the turn's "your move" DM is replaced, when the bank starts, by the nudge
    (title and "⏳ …time bank…"); the table message is not written for it."""
    async with dc_world(tmp_path) as w:
        await dc_seat_everyone(w, [DC_ALICE, DC_BOB])
        t = w.table()
        assert t.hand is not None
        users = {str(u.id): u for u in (DC_ALICE, DC_BOB)}
        first = users[t.seats[t.owner(t.hand.to_act[0])].user_id]
        second = DC_BOB if first is DC_ALICE else DC_ALICE
        second_seat = next(s for s, x in t.seats.items() if x.user_id == str(second.id))
        t.clocks[second_seat] = dataclasses.replace(t.clocks[second_seat], budget=0.5)
        await w.play_street(first, "dm")  # the second's turn begins: pinged, then nudged
        board = w.table_message()
        edits = f"/channels/{board['channel_id']}/messages/{board['id']}"
        await w.fake.wait_for(lambda: f"{second.name} to act" in w.table_message()["content"])
        written = len(w.fake.calls_to("PATCH", edits))
        said = tr(t.seats[second_seat].lang, "private.bank_started", time="1:00")
        dm = w.fake.dm_channels[second.id]

        def nudge() -> dict[str, Any] | None:
            return next(
                (
                    m
                    for m in w.fake.messages.values()
                    if int(m["channel_id"]) == dm and m["content"].endswith(said)
                ),
                None,
            )

        sent = await w.fake.wait_for(nudge, timeout=10)
        assert len(sent["content"].splitlines()) == 2 and not sent["components"]
        assert len(w.fake.calls_to("PATCH", edits)) == written  # (the group's: not for it)
        await w.play_street(second, "dm")  # the turn ends: the nudge goes, as a ping does
        await w.fake.wait_for(lambda: int(sent["id"]) in w.fake.deleted)


# -- 3. the group message says when the turn ends, as a clock time in the group's zone --------


def _turn_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("▶") and "⏱" in line)


async def test_r8_5_the_group_message_says_when_the_turn_ends_in_the_groups_time_zone() -> None:
    """The group's message, written about once a move, showed "⏱ 2:00 + time bank 1:00" for
    the whole turn. Once an admin set the group's ``utc_offset`` it says when the turn's
    budget ends as a clock time in that zone, the bank after it, and follows a change of it
    at the next write (en and ru). Before (``auto``), the duration: a zone guessed from the
    players' language (Moscow's for Russian, UTC for English) printed a clock wrong by hours."""
    service, presenter, _store, clock = service_env()
    clock.now = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    assert t.community_id not in service.rt.zones  # (auto: no zone printed)
    line = _turn_line(presenter.last_table(T_GROUP.chat_id).text)
    assert line == "▶ Alice to act · ⏱ 2:00 + time bank 1:00", line
    assert not (await service.settings(T_GROUP, ALICE, True, ["utc_offset", "3"])).alert
    assert service.rt.zones[t.community_id] == 3.0
    # Alice to act from 22:13:20 UTC with 2:00 of budget: until 01:15 Moscow time
    screen = render.group_screen(t, "en", None, clock.now, service.rt.zones[t.community_id])
    assert _turn_line(screen.text) == "▶ Alice to act · ⏱ until 01:15 (+1:00 time bank)"
    assert not (await service.settings(T_GROUP, ALICE, True, ["utc_offset", "-5"])).alert
    assert service.rt.zones[t.community_id] == -5.0
    screen = render.group_screen(t, "ru", None, clock.now, service.rt.zones[t.community_id])
    assert _turn_line(screen.text) == "▶ Ход: Alice · ⏱ до 17:15 (+1:00 тайм-банк)"
    # in the bank: when the bank ends
    clock.now += 150
    screen = render.group_screen(t, "en", None, clock.now, -5.0)
    assert _turn_line(screen.text) == "▶ Alice to act · ⏱ time bank until 17:16"
    assert not (await service.settings(T_GROUP, ALICE, True, ["utc_offset", "auto"])).alert
    assert t.community_id not in service.rt.zones  # (back to auto: the duration again)


async def test_r8_5_three_to_act_each_with_the_time_their_turn_ends() -> None:
    """Chinese Poker, three arranging at once: each name with when their turn ends, the bank
    spelled out once ("+1:00" after); one in the bank, "time bank until"."""
    service, _, _, clock = service_env()
    clock.now = 1_700_000_000.0
    await configure(service, game="chinese")
    await c_start(service, [C_ALICE, C_BOB, C_CAROL], "chinese")
    t = service.table_in(C_GROUP)
    assert t is not None and t.hand is not None and len(t.hand.to_act) == 3
    owners = [t.owner(s.seat) for a in (C_ALICE, C_CAROL) if (s := t.seat_of(a.user_id))]
    t.clocks[owners[0]] = dataclasses.replace(t.clocks[owners[0]], bank=0.0)  # no bank left
    t.clocks[owners[1]] = dataclasses.replace(t.clocks[owners[1]], budget=0.0)  # in the bank
    en = _turn_line(render.group_screen(t, "en", None, clock.now, 0.0).text)
    budget = t.clocks[owners[0]].budget
    ends = render.clock_time(t.clocks[owners[0]].running_since + budget, 0.0)  # type: ignore[operator]
    # (Alice's spent bank is left out, fix39g: the first bank left spelled out, Bob's)
    alice = f"Alice until {ends}"
    assert en.startswith(f"▶ To act ⏱ {alice} · Bob until {ends} (+1:00 time bank)"), en
    assert en.endswith(" · Carol time bank until 22:14"), en
    ru = _turn_line(render.group_screen(t, "ru", None, clock.now, 0.0).text)
    assert ru.startswith(f"▶ Ходят ⏱ Alice до {ends} · Bob до {ends} (+1:00 тайм-банк)"), ru


async def test_r8_5_a_zone_set_before_the_table_opens_is_the_turns_clock() -> None:
    """A group whose admin set ``utc_offset`` (0 here) before its table opened: the turn's
    end is shown in that zone from the first deal (the zone is read as the table opens and
    as players join)."""
    service, presenter, _store, clock = service_env()
    clock.now = 1_700_000_000.0  # 22:13:20 UTC
    assert not (await service.settings(T_GROUP, ALICE, True, ["utc_offset", "0"])).alert
    await service.new_table(T_GROUP, ALICE)
    t = service.table_in(T_GROUP)
    assert t is not None
    for a in (ALICE, CAROL):
        assert not (await service.join(T_GROUP, a)).alert
    assert service.rt.zones[t.community_id] == 0.0
    for a in (ALICE, CAROL):
        assert not (await service.ready(T_GROUP, a)).alert
    assert t.hand is not None
    line = _turn_line(presenter.last_table(T_GROUP.chat_id).text)
    assert line.endswith("to act · ⏱ until 22:15 (+1:00 time bank)"), line


async def test_a_numbered_leave_during_your_hand_is_pressed_the_bot_asks_itself(
    tmp_path: Path,
) -> None:
    """During the player's own hand the bot asks before a Leave (R8.5): the sandbox does not
    ask a second time; the bot's question is printed."""
    box, out = await _full_table(tmp_path)
    try:
        assert await box.handle("g ready")  # everyone ready: the hand is dealt
        assert box.service is not None
        t = box.service.table_in(GROUP)
        assert t is not None and t.hand is not None
        # the table quiet first: the computer players before you have moved and wait for
        # yours (each move of theirs redraws the table message and moves its version on: a
        # Leave pressed on the screen from before is out of date), their screens printed
        await box._my_move()
        mine = box.screen(box.human.id)
        assert mine is not None and mine.buttons  # your turn: your hand shows its buttons
        await box._settled()
        await box.print_changes()
        shown = box.screen(GROUP_ID)
        assert shown is not None
        leave = 1 + [label for label, _ in shown.buttons].index("Leave")
        start = len(out.getvalue().splitlines())
        assert await box.handle(f"g{leave}")
        said = out.getvalue().splitlines()[start]
        assert said.startswith("» ") and said.endswith("Press Leave again to confirm."), said
        assert _seated(box)
    finally:
        await box.stop()
