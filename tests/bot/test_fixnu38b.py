"""A new user's sandbox findings (fixnu38b): each test fails without its fix."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import itertools
from pathlib import Path

import pytest

from bot.sandbox import Sandbox, SandboxOptions
from bot.texts import grouped, tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_bots import alice_and_a_bot, play_hand_with_bots
from tests.bot.test_brk26_timers import _closes
from tests.bot.test_fixnu6b_texts import ALICE as NU6B_ALICE
from tests.bot.test_fixnu6b_texts import BORIS as BORIS_RU
from tests.bot.test_fixnu6b_texts import GROUP as NU6B_GROUP
from tests.bot.test_fixnu6b_texts import new_service as nu6b_service
from tests.bot.test_sandbox import _sandbox_session
from tests.bot.test_service import ALICE, BOB, GROUP, play_out, press_auto_and_confirm, seated
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import BOB as C_BOB
from tests.bot.test_service_classic import CAROL as C_CAROL
from tests.bot.test_service_classic import GROUP as C_GROUP
from tests.bot.test_service_classic import configure
from tests.bot.test_settings import ALICE as S_ALICE
from tests.bot.test_settings import BORIS as S_BORIS
from tests.bot.test_settings import new_service as settings_service
from tests.bot.test_settings import say
from tests.bot.test_transitions import player_balance


async def test_lang_ru_sets_the_groups_language_so_a_later_start_stays_russian(
    tmp_path: Path,
) -> None:
    """``--lang ru`` on a fresh file, then a start without the flag: the start said "» --lang
    en: this table was opened in Russian…" (never typed) and the replies came in English under
    the Russian table, the group's language left auto. Now the flag sets the group's language
    as ``/settings language ru`` would (docs/sandbox.md), and the later start keeps it."""
    first = await _sandbox_session(tmp_path, ["g1"], "--fast", "--lang", "ru")
    assert any("Вы сели на место" in x for x in first), first
    again = await _sandbox_session(tmp_path, ["/rules"], "--fast")
    assert not any(x.startswith("» --lang") for x in again), again
    assert any(x.startswith("» Язык этой группы — русский") for x in again), again
    assert any(x.startswith("» Ананас: 13 карт") for x in again), again  # /rules
    assert any(x.startswith("» Пока (стол сохранён") for x in again), again


async def test_a_turn_ping_reprints_the_hand_with_its_numbered_buttons(tmp_path: Path) -> None:
    """The Telegram adapter's turn ping (a short "your move" message after 10 s without a
    press) was printed as a private screen of two lines without buttons: the last thing on
    screen a hand with no numbers. Now the hand is printed again with its numbered buttons,
    its clock line the ping's."""
    out = io.StringIO()
    # (the computer player, first to act, moves after a while: the hand's message is sent
    # before the player's turn, which an edit begins, as the ping wants)
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.5), out)
    try:
        await box.start()
        assert box.adapter is not None
        box.adapter.turn_ping_seconds = 0.3
        assert await box.handle("g1")
        assert await box.handle("g2")
        pinged = await box._wait(
            lambda: any(
                c.method == "sendMessage"
                and str(c.params.get("chat_id")) == str(box.human.id)
                and not c.params.get("reply_markup")
                and str(c.params.get("text", "")).count("\n") == 1  # (title and clock)
                for c in box.fake.calls
            )
        )
        assert pinged, out.getvalue()
        await asyncio.sleep(0.2)
        await box.print_changes()
        lines = out.getvalue().splitlines()
        last_title = max(i for i, x in enumerate(lines) if x.startswith("── private"))
        screen = lines[last_title:]
        assert screen[1].startswith("🃏 Table #1 · hand 1")
        assert screen[2].startswith("Your move · ⏱ 1:5"), screen  # the ping's clock
        assert screen[-1].strip().endswith("✅ Confirm"), screen
        assert any(x.strip().startswith("[1] ") for x in screen), screen
    finally:
        await box.stop()


async def test_r8_2a_a_lowered_idle_close_counts_from_its_change(env) -> None:  # type: ignore[no-untyped-def]
    """Alice sits alone ten minutes after the table opened (no hand dealt); an admin sets
    ``idle_close_seconds`` to 300: "Saved", and at once "Table #1 closed: no hand for 5
    minutes" (R8.2a). Now the wait counts from the change: open until five minutes after."""
    service, presenter, store, clock = env
    await service.new_table(GROUP, ALICE)
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    t = service.table_in(GROUP)
    clock.now += 600
    reply = await service.settings(GROUP, BOB, True, ["idle_close_seconds", "300"])
    assert not reply.alert, reply.text
    await service.run_due()
    assert service.table_in(GROUP) is t is not None
    assert t.options.idle_close_seconds == 300
    assert _closes(presenter) == []
    clock.now += 299
    await service.run_due()
    assert service.table_in(GROUP) is t
    clock.now += 2
    await service.run_due()
    assert service.table_in(GROUP) is None
    assert _closes(presenter) == [tr("en", "table.idle_closed", table=1, minutes=5, seconds=300)]
    assert await player_balance(store, ALICE) == 1000
    assert await check_store(store) == []


async def test_r6_3_a_fantasyland_board_is_said_alike_on_the_group_and_private_screens() -> None:
    """R6.3: heads-up, Anna (a computer player) in Fantasyland sets her 13 cards at once while
    Alice plays her streets; both boards stay hidden until showdown, their counts public.
    Alice's private screen read "🤖 Anna: · · · | · · · · · | · · · · · 🂠 13 hidden" (an
    empty board and 13 more) where the group read "🂠 hidden until showdown: 13 cards". Both
    say the group's words now, and neither shows a card of Anna's."""
    service, presenter, _store, clock = await alice_and_a_bot("normal")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    anna = next(s for s in t.seats.values() if s.bot)
    assert t.match is not None and t.next_hand_at is not None
    t.match = dataclasses.replace(t.match, fantasyland={anna.seat: 14}, match_over=False)
    clock.now = t.next_hand_at
    await service.run_due()
    hand = t.hand
    assert hand is not None and hand.is_fantasyland(anna.seat)
    faces = [str(c) for c in hand.current_cards(anna.seat)]
    assert t.bot_due is not None
    clock.now = t.bot_due
    await service.run_due()
    assert hand.board_of(anna.seat).is_complete
    said = "🂠 hidden until showdown: 13 cards"
    for _street in range(2):
        group = presenter.tables[GROUP.chat_id][-1].text.splitlines()
        private = presenter.last_private(ALICE.user_id).text.splitlines()
        at = next(i for i, x in enumerate(group) if x.startswith("🤖 Anna · ") and "🌴" in x)
        assert group[at + 1] == "  " + said
        assert f"🤖 Anna: {said}" in private, private
        for text in ("\n".join(group), "\n".join(private)):
            assert not any(face in text for face in faces), text
        await press_auto_and_confirm(service, presenter, ALICE)
    ru = tr("ru", "board.hidden_count", hidden=tr("ru", "board.hidden"), count=13)
    assert ru == "🂠 закрыто до вскрытия: 13 карт"


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r4_2_double_boxes_say_the_players_one_stack_once(lang: str) -> None:
    """Double boxes (R4.2): the group's table read "Alice ① · 1,000" and "Alice ② · 1,000"
    for one stack of 1,000, which reads as 2,000. The stack is said at the first board only."""
    service, presenter, _store, _clock = service_env()
    await configure(service, game="ofc", heads_up_double_boxes="on")
    assert not (await service.settings(C_GROUP, C_ALICE, True, ["language", lang])).alert
    assert not (await service.new_table(C_GROUP, C_ALICE, "ofc")).alert
    for step in (service.join, service.ready):
        for a in (C_ALICE, C_BOB):
            assert not (await step(C_GROUP, a)).alert
    t = service.table_in(C_GROUP)
    assert t is not None and t.hand is not None and len(t.hand.order) == 4
    alice = t.seat_of(C_ALICE.user_id)
    assert alice is not None
    stack = grouped(alice.stack, lang)
    lines = presenter.tables[C_GROUP.chat_id][-1].text.splitlines()
    heads = [  # (each board's head follows a blank line; the turn line names ① too)
        b.removeprefix("▶ ") for a, b in itertools.pairwise(lines) if not a
    ]
    heads = [x for x in heads if x.startswith("Alice")]
    assert len(heads) == 2, lines
    assert heads[0].startswith(f"Alice ① · {stack}"), heads
    assert heads[1] == "Alice ②" or (heads[1].startswith("Alice ② · ") and stack not in heads[1])
    assert sum(stack in x for x in heads) == 1, heads
    assert heads[1] == "Alice ② · " + ("street 1/9" if lang == "en" else "улица 1/9"), heads


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r8_2_a_full_lobby_offers_no_join(lang: str) -> None:
    """Three players seated at a three-seat Pineapple table, between hands: the lobby still
    offered Join, which only answered that the table is full. Join shows while a seat is
    free, as during a hand; it comes back when a seat frees up."""
    service, presenter, _store, _clock = service_env()
    assert not (await service.settings(C_GROUP, C_ALICE, True, ["language", lang])).alert
    assert not (await service.new_table(C_GROUP, C_ALICE, "pineapple")).alert
    join, ready = tr(lang, "btn.join"), tr(lang, "btn.ready")
    for a in (C_ALICE, C_BOB):
        assert not (await service.join(C_GROUP, a)).alert
    labels = [b.label for b in presenter.last_table(C_GROUP.chat_id).all_buttons()]
    assert labels[:2] == [join, ready]
    assert not (await service.join(C_GROUP, C_CAROL)).alert
    t = service.table_in(C_GROUP)
    assert t is not None and t.hand is None and len(t.seats) == t.options.max_players == 3
    labels = [b.label for b in presenter.last_table(C_GROUP.chat_id).all_buttons()]
    assert join not in labels and labels[0] == ready, labels
    assert not (await service.leave(C_GROUP, C_CAROL)).alert
    labels = [b.label for b in presenter.last_table(C_GROUP.chat_id).all_buttons()]
    assert labels[:2] == [join, ready]


async def test_a_refused_settings_value_writes_its_range_as_the_hint_asks() -> None:
    """``/settings min_buy_in 1 000``: the refusal printed the range as "1 000 000 000 000"
    and then said numbers are written without spaces ("1000, а не 1 000"); and "Нельзя
    установить — min_buy_in: …" read unnaturally. The Russian answer reads «Не удалось
    изменить min_buy_in: …»; the range's bounds are grouped as every amount is (fixnu40a:
    /grant writes «1 000 000 000 000»), and the hint says how to *type* a number
    («Набирайте число …»)."""
    service, _store = settings_service()
    hint_en = tr("en", "reply.number_grouped")
    hint_ru = tr("ru", "reply.number_grouped")
    # ("1 000" itself is a thousand now, fix39g: its thousands grouped as the bot writes them)
    reply = await say(service, "min_buy_in", "1 00", actor=S_ALICE)
    assert reply.alert and reply.text == (
        "Cannot set that — min_buy_in takes a whole number from 1 to 1,000,000,000,000 kush.\n"
        + hint_en
    ), reply.text
    reply = await say(service, "min_buy_in", "1 00", actor=S_BORIS)
    assert reply.alert and reply.text == (
        "Не удалось изменить взнос: целое число от 1 до 1\u00a0000\u00a0000\u00a0000\u00a0000 "
        "кушей.\n" + hint_ru
    ), reply.text
    assert "5000 или 5 000" in hint_ru
    # a range with no hint on writing numbers keeps its thousands grouped, as amounts are
    reply = await say(service, "kush_per_point", "0", actor=S_BORIS)
    assert reply.text == (
        "Не удалось изменить куш_за_очко: целое число от 1 до 1\u00a0000\u00a0000 кушей."
    )


async def test_russian_help_lists_top_once_with_the_russian_words_it_takes() -> None:
    """Russian /help listed /top twice and gave English arguments (me, week) though «я» and
    «неделя» work: /top is listed once, with the words in the reader's language, and they
    work."""
    service, presenter, _store, _clock = service_env()
    for actor, top, stats in (
        (ALICE, "/top [week|month|all] — ", "/stats [@user|me] [week|month|all] — "),
        (BOB, "/top [неделя|месяц|всё] — ", "/stats [@игрок|я] [неделя|месяц|всё] — "),
    ):
        lines = (await service.help(GROUP, actor)).text.split("\n")
        assert sum("/top" in x.replace("/topup", "") for x in lines) == 1, lines
        assert any(x.startswith(top) for x in lines), lines
        assert any(x.startswith(stats) for x in lines), lines
    await seated(service, ALICE, BOB)
    await play_out(service, presenter, [ALICE, BOB])
    for word in ("неделя", "месяц", "всё"):
        reply = await service.top(GROUP, BOB, word)
        assert not reply.alert and "Формат" not in reply.text, reply.text
    assert not (await service.stats(GROUP, BOB, ["я", "неделя"])).alert
    # /history names the table as every other message does: «стол #1», "table #1"
    history = (await service.history(GROUP, BOB)).text.splitlines()
    assert history[1].split(" · ", 1)[1].startswith("Стол #1, раздача 1: "), history
    history = (await service.history(GROUP, ALICE)).text.splitlines()
    assert history[1].split(" · ", 1)[1].startswith("Table #1, hand 1: "), history


async def test_r7_5_rules_say_a_claim_after_the_middle_keeps_the_two_of_three_point() -> None:
    """/rules chinese says what a claim after the middle counts, in both languages."""
    service, _store = nu6b_service()
    await service.new_table(NU6B_GROUP, NU6B_ALICE)
    english = (await service.rules(NU6B_GROUP, NU6B_ALICE, "chinese")).text.split("\n")
    assert "A claim after the middle keeps the +1 for bottom and middle both won." in english
    russian = (await service.rules(NU6B_GROUP, BORIS_RU, "chinese")).text.split("\n")
    said = "«Закончить игру» после середины сохраняет +1 за выигранные низ и середину."
    assert said in russian, russian


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_discord_help_lists_ofc_top_once(lang: str) -> None:
    """Discord's /help listed ``/ofc top`` twice (with the balance, and with its period), as
    Telegram's did before: once now, with what its period does."""
    text = tr(lang, "help.discord")
    assert text.count("/ofc top ") + text.count("/ofc top,") == 1, text
    assert "/ofc top [" in text
