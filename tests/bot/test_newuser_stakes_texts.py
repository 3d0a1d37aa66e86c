"""What a new user met in the sandbox, in Russian: the price of a point shown nowhere (R7.6),
big amounts of kush without digit grouping, raw identifiers and no defaults in
``/settings``, and a custom kush label pasted in as a Russian noun."""

from __future__ import annotations

import dataclasses

from bot.service import TableService
from bot.service.settings import KUSH_LIMIT
from bot.texts import grouped, tr
from tests.bot.fakes import FakePresenter
from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, say

NBSP = "\u00a0"


def _presenter(service: TableService) -> FakePresenter:
    presenter = service.rt.presenters["telegram"]
    assert isinstance(presenter, FakePresenter)
    return presenter


# -- 1. the price of a point -------------------------------------------------------------------
async def test_r7_6_the_table_message_and_rules_say_what_a_point_costs() -> None:
    """``kush_per_point`` 5 made the next hand cost five times as much, with no sign of it: the
    table message said "Buy-in 200 kush · 2–3 players", /rules "1 point" a box."""
    service, _store = new_service()
    await service.new_table(GROUP, ALICE)
    table = _presenter(service).last_table(GROUP.chat_id).text
    assert "Buy-in 200 kush · 1 pt = 1 kush · 2–3 players" in table, table
    assert not (await say(service, "kush_per_point", "5")).alert
    table = _presenter(service).last_table(GROUP.chat_id).text
    assert "Buy-in 200 kush · 1 pt = 5 kush · 2–3 players" in table, table
    assert (await service.rules(GROUP, ALICE)).text.endswith("\nA point costs 5 kush.")
    chinese = (await service.rules(GROUP, ALICE, "chinese")).text
    assert chinese.startswith("Chinese Poker:") and chinese.endswith("\nA point costs 5 kush.")
    russian = (await service.rules(GROUP, BORIS)).text
    assert russian.startswith("Ананас:") and russian.endswith("\nОчко стоит 5 кушей.")
    assert (await service.rules(GROUP, BORIS, "chinese")).text.endswith("\nОчко стоит 5 кушей.")
    assert not (await say(service, "language", "ru")).alert
    table = _presenter(service).last_table(GROUP.chat_id).text
    assert "Взнос 200 кушей · 1 очко = 5 кушей · игроков: 2–3" in table, table
    assert not (await say(service, "kush_label", "abc")).alert
    table = _presenter(service).last_table(GROUP.chat_id).text
    assert "Взнос 200 abc · 1 очко = 5 abc · игроков: 2–3" in table, table
    assert (await service.rules(GROUP, BORIS)).text.endswith("\nОчко стоит 5 abc.")


# -- 2. big amounts grouped --------------------------------------------------------------------
def test_one_format_groups_amounts_from_ten_thousand() -> None:
    """Error ranges grouped digits ("1 000 000 000 000"), the amounts players read did not
    ("Взнос 1000000000000 abc"): one format, in Russian from 10 000 up (a smaller one as it
    was); in English from 1,000 up (fix39c)."""
    assert grouped(9999, "ru") == "9999" and grouped(1000, "en") == "1,000"
    assert grouped(999, "en") == "999"
    assert grouped(10_000, "ru") == f"10{NBSP}000" and grouped(-12_345, "en") == "-12,345"
    said = tr("ru", "showdown.kush", delta=-22_000, stack=999_978_000_300, label="abc")
    assert said == f"−22{NBSP}000 abc → 999{NBSP}978{NBSP}000{NBSP}300"
    said = tr("en", "showdown.kush", delta=1_500_000, stack=5000, label="kush")
    assert said == "+1,500,000 kush → 5,000"
    assert tr("ru", "showdown.kush", delta=12_000, stack=0, label="kush") == (
        f"+12{NBSP}000 кушей → 0"
    )
    assert tr("en", "lobby.ready", stack=25_000) == "ready ✅ 25,000"
    assert tr("en", "lobby.ready", stack=2500) == "ready ✅ 2,500"
    assert tr("ru", "lobby.ready", stack=2500) == "✅ 2500"


def test_an_amount_before_the_default_russian_label_is_grouped_too() -> None:
    """/top and /stats' group line in Russian: "Alice — 123456 кушей", "проиграли 15594
    куша" beside a grouped "выиграли 12 375": the label's agreement rewrote "{total}
    {label}" before the amounts were picked out, so an amount named only by the label
    after it was left as it was (English and a custom label grouped it)."""
    assert tr("ru", "reply.top_line", n=1, name="Alice", total=123_456, label="kush") == (
        f"1. Alice — 123{NBSP}456 кушей"
    )
    said = tr("ru", "stats.group_moved", won=12_375, lost=15_594, label="kush")
    assert said == f"Участники выиграли 12{NBSP}375 кушей, проиграли 15{NBSP}594 куша"
    assert tr("en", "reply.top_line", n=1, name="Alice", total=123_456, label="kush") == (
        "1. Alice — 123,456 kush"
    )


async def test_big_buy_ins_stacks_and_balances_are_grouped() -> None:
    """``/settings min_buy_in 1000000000000``: the table message showed "Buy-in
    1000000000000", the stack "1000000000000", /balance "2000000000091"."""
    service, _store = new_service()
    await service.new_table(GROUP, ALICE)
    assert not (await say(service, "min_buy_in", str(KUSH_LIMIT))).alert
    await service.balance(GROUP, ALICE)
    for key in ("g1", "g2"):
        assert not (await service.grant(GROUP, ALICE, True, "1", str(KUSH_LIMIT), key)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    table = _presenter(service).last_table(GROUP.chat_id).text
    assert "Buy-in 1,000,000,000,000 kush · 1 pt = 1 kush" in table, table
    assert "Alice — ready ✅ 1,000,000,000,000" in table, table
    balance = (await service.balance(GROUP, ALICE)).text
    assert balance == "Alice: 1,000,000,001,000 kush on balance, 1,000,000,000,000 at the table."
    ru = dataclasses.replace(ALICE, language="ru")
    balance = (await service.balance(GROUP, ru)).text
    n = f"1{NBSP}000{NBSP}000{NBSP}000{NBSP}000"
    total = f"1{NBSP}000{NBSP}000{NBSP}001{NBSP}000"
    assert balance == f"Alice: {total} кушей на балансе, {n} на столе."
    listed = (await say(service, "all", actor=BORIS)).screen
    assert listed is not None and f"Взнос: {n}\n" in listed.text
    assert f"(макс_стек): авто — 5 × взнос = 5{NBSP}000{NBSP}000{NBSP}000{NBSP}000" in listed.text


# -- 3. /settings shows names and defaults -----------------------------------------------------
async def test_settings_list_names_choices_and_the_detail_says_the_default() -> None:
    """A Russian /settings listed ``pineapple`` and ``one_six``; ``/settings target_points``
    said "Сейчас: 1" with no word of the default 51; "Макс. стек: 0 (5 × min_buy_in = 1000)"
    left the 0 unexplained."""
    service, _store = new_service()
    listed = (await say(service, "all", actor=BORIS)).screen
    assert listed is not None
    assert "Игра: Ананас (OFC)\n" in listed.text
    assert "Язык: авто\n" in listed.text
    assert "Подсчёт очков: 1 за бокс, скуп 6\n" in listed.text
    assert "Макс. стек (макс_стек): авто — 5 × взнос = 1000\n" in listed.text
    english = (await say(service, "all")).screen
    assert english is not None and "Game: Pineapple OFC\n" in english.text
    assert "Scoring: 1 a box, scoop 6\n" in english.text
    assert "Max stack (max_buy_in): auto — 5 × buy-in = 1,000\n" in english.text
    assert (await say(service, "target_points", actor=BORIS)).text.endswith(
        "Сейчас: 51 (по умолчанию)."
    )
    assert not (await say(service, "target_points", "1")).alert
    assert (await say(service, "target_points", actor=BORIS)).text.endswith(
        "Сейчас: 1 (по умолчанию 51)."
        + "\n/settings очки_до_победы по умолчанию — вернуть значение по умолчанию."
    )
    assert (await say(service, "target_points")).text.endswith(
        "Now: 1 (default 51)." + "\n/settings target_points default gives it back its default."
    )
    assert not (await say(service, "scoring", "two_per_row")).alert
    assert (await say(service, "scoring")).text.endswith(
        "Now: 2 a box (default 1 a box, scoop 6)."
        + "\n/settings scoring default gives it back its default."
    )
    assert not (await say(service, "game", "chinese")).alert
    assert (await say(service, "game", actor=BORIS)).text.endswith(
        "Сейчас: Китайский покер (по умолчанию Ананас (OFC))."
        + "\n/settings игра по умолчанию — вернуть значение по умолчанию."
    )
    assert (await say(service, "max_buy_in")).text.endswith(
        "Now: auto — 5 × buy-in = 1,000 (default)."
    )
    assert not (await say(service, "max_buy_in", "3000")).alert
    assert (await say(service, "max_buy_in", actor=BORIS)).text.endswith(
        "Сейчас: 3000 (по умолчанию авто)."
        + "\n/settings макс_стек по умолчанию — вернуть значение по умолчанию."
    )
    # a change is still answered with the value as /settings takes it
    reply = await say(service, "scoring", "one_six")
    assert reply.text.startswith("Saved: scoring = one_six"), reply.text


# -- 4. a custom label reads right -------------------------------------------------------------
async def test_a_custom_label_is_never_pasted_in_as_a_russian_noun() -> None:
    """With ``kush_label`` abc: "Недостаточно abc: взнос 300" and "целое число abc от 1 до
    1 000 000": the label now stands after a number, as any amount reads."""
    service, _store = new_service()
    assert not (await say(service, "kush_label", "abc")).alert
    assert not (await say(service, "min_buy_in", "5000")).alert
    await service.new_table(GROUP, ALICE)
    reply = await service.join(GROUP, BORIS)
    assert reply.text.startswith("Недостаточно средств на балансе: взнос 5000 abc, у вас 1000.\n")
    reply = await say(service, "kush_per_point", "0", actor=BORIS)
    assert f"куш_за_очко: целое число от 1 до 1{NBSP}000{NBSP}000 abc" in reply.text
    for key in ("reply.no_money", "reply.topup_no_money", "reply.topup_no_balance",
                "showdown.busted", "replay.kush_game", "reply.history_line_game",
                "stats.tournament_hands", "settings.range.whole_kush"):  # fmt: skip
        ru = tr("ru", key, label="abc", name="Bob", need=300, have=5, total=1, target=5,
                table=1, hand=1, points=1, foul="", hands=1, low=1, high=9)  # fmt: skip
        assert "abc" not in ru or any(f"{n} abc" in ru for n in ("0", "300", "9")), (key, ru)
