"""Settings and /grant amounts are checked where they enter (issue 16 items 1 and 2): every
setting is described once, a refused value gets a message naming the allowed range (English
and Russian) and saves nothing, option combinations are refused when set (R4.2, R4.3, R6.2),
and random input always gets a reply and never an exception (hypothesis)."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.model import Actor, ChatRef, Reply
from bot.presses import SettingStep, decode
from bot.screens import Screen
from bot.service import TableService
from bot.service.settings import (
    KUSH_LIMIT,
    SETTING_NAMES,
    SETTING_WORDS,
    SETTINGS,
    Kind,
    SettingRefused,
    table_options,
)
from bot.service.wallet import BALANCE_LIMIT
from bot.texts import grouped, tr
from game.options import GameKind, RuleOptions
from storage.api import CommunitySettings, Store
from storage.check import check_store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.fakes import FakePresenter

GROUP = ChatRef("telegram", "-100", "-100", "Friends")
ALICE = Actor("telegram", "1", "Alice", "en")
BORIS = Actor("telegram", "2", "Boris", "ru")


def new_service(store: Store | None = None) -> tuple[TableService, Store]:
    store = store or MemoryStore()
    service = TableService(
        store, clock=lambda: 1_000_000.0, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    return service, store


async def stored(store: Store) -> CommunitySettings:
    return (await store.community("telegram", "-100")).settings


async def say(service: TableService, *args: str, actor: Actor = ALICE) -> Reply:
    return await service.settings(GROUP, actor, True, list(args))


# -- the description -------------------------------------------------------------------------
def test_every_option_and_community_field_is_described_once_with_texts() -> None:
    options = {f.name for f in dataclasses.fields(RuleOptions)} - {"game"}
    # (requests, table_requests: the keys of the changes applied and of closed tables'
    # commands, bookkeeping saved with them, no setting)
    community = {f.name for f in dataclasses.fields(CommunitySettings)} - {
        "options",
        "requests",
        "table_requests",
    }
    assert set(SETTINGS) == options | community
    assert {n for n, s in SETTINGS.items() if s.community} == community
    assert len({s.code for s in SETTINGS.values()}) == len(SETTINGS)
    defaults = RuleOptions.preset("pineapple")
    for spec in SETTINGS.values():
        assert spec.en and spec.ru and spec.range_text("en") != spec.range_text("ru")
        if spec.kind in (Kind.WHOLE, Kind.NUMBER):
            assert math.isfinite(spec.high) and spec.high <= KUSH_LIMIT
        if not spec.community and spec.kind is not Kind.CHOICE:  # each default is allowed
            default = getattr(RuleOptions.preset(next(iter(spec.games))), spec.name)
            assert spec.parse(default) == default
    assert SETTINGS["ready_seconds"].parse("5") == 5 and SETTINGS["idle_close_seconds"].parse(
        "604800"
    )
    assert defaults.ready_seconds == 60 and defaults.idle_close_seconds == 1800


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("time_bank_seconds", "nan", ["seconds from ", "0", "3,600"]),
        ("hand_seconds", "inf", ["seconds from ", "30", "3,600"]),
        ("hand_seconds", "0", ["seconds from 30 to 3,600"]),
        ("ready_seconds", "4", ["from 5 to 600"]),
        ("ready_seconds", "601", ["from 5 to 600"]),
        ("idle_close_seconds", "604801", ["from 300 to 604,800"]),
        ("idle_close_seconds", "1e400", ["whole number of seconds from 300"]),
        ("fantasyland_seconds", "-1", ["from 10 to 3,600"]),
        ("reveal_pause_seconds", "61", ["from 0 to 60"]),
        ("min_buy_in", "0", ["from 1 to 1,000,000,000,000 kush"]),
        ("min_buy_in", "1000000000001", ["1,000,000,000,000"]),
        ("starting_balance", "100000000000000000000", ["1,000,000,000,000"]),
        ("daily_bonus", "2.5", ["whole number"]),
        ("max_buy_in", "-5", ["from 0 to"]),
        ("max_buy_in", "100", ["cannot be below min_buy_in (200)"]),
        ("kush_per_point", "0", ["from 1 to 1,000,000"]),
        # Python reads "1_0" as ten; an admin did not mean it (the range's bounds grouped as
        # every amount, fixnu40a)
        pytest.param("kush_per_point", "1_0", ["from 1 to 1,000,000"], id="underscore-whole"),
        pytest.param("hand_seconds", "1_20", ["seconds from"], id="underscore-number"),
        # nor "1e3" a thousand, nor "0x10" sixteen, nor full-width digits a number
        pytest.param("kush_per_point", "1e3", ["from 1 to 1,000,000"], id="exponent-whole"),
        pytest.param("idle_close_seconds", "1e3", ["seconds from"], id="exponent-number"),
        pytest.param("min_buy_in", "0x10", ["from 1 to 1,000,000,000,000 kush"], id="hex-whole"),
        pytest.param("hand_seconds", "１２", ["seconds from"], id="fullwidth-number"),
        pytest.param("payouts", "５０,５０", ["payouts: whole numbers"], id="fullwidth-payouts"),
        ("target_points", "10001", ["points from 1 to 10,000"]),
        ("fantasyland", "maybe", ["on or off"]),
        ("scoring", "two", ["one_six, two_per_row"]),
        ("language", "de", ["auto, en, ru"]),
        ("game", "poker", ["pineapple, ofc, chinese"]),
        ("kush_label", "x" * 13, ["1 to 12 characters"]),
        # refused, not cut to fit
        pytest.param("kush_label", "💰" * 13, ["1 to 12 characters"], id="kush_label-13-emoji"),
        pytest.param(
            "chips_schedule",
            "10," * 40 + "500",
            ["at most 120 characters"],
            id="chips_schedule-long",
        ),
        ("chips_schedule", "abc", ["chips_schedule: whole numbers (digits 0–9", "semicolons"]),
        ("payouts", "1,x", ["payouts: whole numbers (digits 0–9, at most 9 each) separated"]),
    ],
)
async def test_a_refused_value_names_the_range_and_saves_nothing(
    name: str, value: str, words: list[str]
) -> None:
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, name, value)
    assert reply.alert and reply.text.startswith("Cannot set that — " + name)
    assert all(w in reply.text for w in words), reply.text
    assert f"{name}: {name}:" not in reply.text  # named once
    assert await stored(store) == before
    russian = await say(service, name, value, actor=BORIS)
    assert russian.alert and russian.text.startswith("Не удалось изменить ")
    said = russian.text.removeprefix("Не удалось изменить ").removeprefix("настройку — ")
    assert said.startswith(SETTINGS[name].ru_name), russian.text  # (by its Russian name)


async def test_accepted_values_are_saved_typed_and_shown() -> None:
    service, store = new_service()
    for name, value, shown in [
        ("ready_seconds", "5", "5"),
        ("idle_close_seconds", "604800", "604800"),
        ("hand_seconds", "45", "45"),
        ("max_buy_in", "0", "auto — 5 × buy-in = 1,000"),
        ("max_buy_in", "5000", "5,000"),
        ("min_buy_in", "1000000000000", None),  # refused: above max_buy_in
        ("fantasyland", "выкл", "off"),
        ("language", "RU", "ru"),
        ("kush_label", "₽", "₽"),
        ("kush_label", "💰" * 12, "💰" * 12),  # 12 characters, 24 UTF-16 units: whole
        ("chips_schedule", ",".join(str(n) for n in range(10, 34)), "10,11,12"),
    ]:
        reply = await say(service, name, *value.split())
        if shown is None:
            assert reply.alert and "max_buy_in" in reply.text
            continue
        # (by its Russian name once the group reads Russian)
        said = (f"{w} = {shown}" for w in (name, SETTINGS[name].ru_name))
        assert not reply.alert and any(w in reply.text for w in said), reply.text
    s = await stored(store)
    assert s.options["ready_seconds"] == 5.0 and s.options["fantasyland"] is False
    assert s.max_buy_in == 5000 and s.top_up_limit == 5000 and s.language == "ru"
    opts = s.rule_options()
    assert (opts.ready_seconds, opts.idle_close_seconds, opts.hand_seconds) == (5, 604800, 45)


async def test_a_value_already_set_is_answered_as_already_so_not_saved() -> None:
    """``/settings hand_seconds 30`` when it is 30 already answered "Saved", as if something
    had changed; it says "Already so" (in Russian "Уже так"), and a real change still says
    "Saved", the stored value the one typed."""
    service, store = new_service()
    first = await say(service, "hand_seconds", "30")
    assert first.text.startswith("Saved: hand_seconds = 30 (was 120)."), first.text
    again = await say(service, "hand_seconds", "30.0")
    assert again.text.startswith("Already so: hand_seconds = 30."), again.text
    assert not again.alert
    other = await say(service, "hand_seconds", "31")
    assert other.text.startswith("Saved: hand_seconds = 31 (was 30)."), other.text
    assert (await stored(store)).options["hand_seconds"] == 31.0
    russian = await say(service, "language", "ru")
    assert russian.text.startswith("Сохранено: язык = ru (было авто)."), russian.text
    same = await say(service, "hand_seconds", "31")
    assert same.text.startswith("Уже так: время_на_раздачу = 31."), same.text
    # a default saved as what it stands for changes nothing either; a new label does
    default = await say(service, "ready_seconds", f"{RuleOptions().ready_seconds:g}")
    assert default.text.startswith("Уже так: таймер_готовности = "), default.text
    label = await say(service, "kush_label", "монеты")
    assert label.text.startswith("Сохранено: валюта = монеты (было куш)."), label.text
    label = await say(service, "kush_label", "монеты")
    assert label.text.startswith("Уже так: валюта = монеты."), label.text


async def test_settings_name_alone_explains_it_and_unknown_names_list_them() -> None:
    service, _store = new_service()
    reply = await say(service, "ready_seconds")
    assert not reply.alert
    assert "from 5 to 600" in reply.text and "Now: 60" in reply.text
    assert reply.text.startswith("Ready timer (ready_seconds): ")  # named as the list names it
    assert "Pineapple OFC, Classic OFC, Chinese Poker" in reply.text
    reply = await say(service, "target_points", actor=BORIS)
    assert reply.text.startswith("Очки до победы (target_points): ")
    assert "Китайский покер" in reply.text and "от 1 до 10" in reply.text
    reply = await say(service, "nonsense", "1")  # nothing close: the short usage, no list
    assert reply.alert and reply.text == (
        "“nonsense” is not a setting.\n" + tr("en", "reply.settings_usage_short")
    )


# -- option combinations (R4.2, R4.3, R6.2) ----------------------------------------------------
async def test_options_of_another_game_are_kept_for_that_games_tables() -> None:
    """An option of one game (R4.2, R4.3, R6.2) is saved whatever the group's game, with a
    note of the game it applies to; each table takes only the options its game has, so every
    combination deals from one deck. (It was refused "for Pineapple OFC whatever table is
    open" at a classic table whose /settings listed it: fixnu6a.)"""
    service, store = new_service()
    for option in ("heads_up_double_boxes", "dummy_box"):
        reply = await say(service, option, "on")  # the group's game is Pineapple
        assert not reply.alert, reply.text
        assert "(it applies to Classic OFC; this group's game is Pineapple OFC)" in reply.text
    s = await stored(store)
    assert s.options == {"heads_up_double_boxes": True, "dummy_box": True}
    assert not table_options(s).dummy_box and table_options(s, "ofc").dummy_box
    assert not (await say(service, "progressive_fantasyland", "on")).alert
    assert not table_options(await stored(store), "ofc").progressive_fantasyland
    for game in ("ofc", "chinese", "pineapple"):  # the game may move on: nothing to turn off
        assert not (await say(service, "game", game)).alert
    # a table of another game opened with /newtable takes only the options that game has
    reply = await service.new_table(GROUP, ALICE, "chinese")
    t = service.table_in(GROUP)
    assert t is not None and t.options.game is GameKind.CHINESE, reply.text
    assert not t.options.heads_up_double_boxes
    # and a later change of the group's settings leaves that table's game alone
    assert not (await say(service, "hand_seconds", "90")).alert
    assert t.options.game is GameKind.CHINESE and t.options.hand_seconds == 90


async def test_an_option_for_another_game_is_saved_with_a_note() -> None:
    service, store = new_service()
    reply = await say(service, "target_points", "5")
    assert not reply.alert and "applies to Chinese Poker" in reply.text
    s = await stored(store)
    assert table_options(s).target_points == 51  # Pineapple: not used
    assert table_options(s, "chinese").target_points == 5


def test_a_label_takes_emoji_sequences_but_no_controls() -> None:
    label = SETTINGS["kush_label"]
    assert label.parse(" 👨\u200d👩\u200d👧 ₽ ") == "👨\u200d👩\u200d👧 ₽"
    for bad in ("a\u202eb", "a\x07b", "a\ud800b", ""):
        with pytest.raises(SettingRefused) as info:
            label.parse(bad)
        assert "1 to 12 characters" in info.value.text("en")
        assert "от 1 до 12 символов" in info.value.text("ru")


def test_stored_values_of_an_older_version_fall_back_to_defaults() -> None:
    s = CommunitySettings(
        game="pineapple",
        options={"time_bank_seconds": "nan", "heads_up_double_boxes": True, "unknown": 1},
    )
    opts = table_options(s)
    assert opts.time_bank_seconds == 60 and not opts.heads_up_double_boxes


async def test_the_list_and_buttons_name_settings_by_title_in_both_languages() -> None:
    """The list gives each setting a title with the name ``/settings <name> <value>`` takes,
    the buttons carry the title: in Russian and, the same shape, in English (it showed the
    bare names, "kush_per_point: 1" and "kush_per_point −1", where Russian showed titles).
    Every setting has a title in both languages."""
    for name in SETTINGS:
        titles = {lang: tr(lang, f"settings.name.{name}") for lang in ("en", "ru")}
        assert all(titles.values()) and titles["en"] != name, (name, titles)
    service, _store = new_service()
    russian = await say(service, "all", actor=dataclasses.replace(ALICE, language="ru"))
    assert russian.screen is not None
    assert "Куш за очко: 1" in russian.screen.text.splitlines()
    # the default label as a Russian reader sees it everywhere else (it read "kush")
    assert "Название валюты (валюта): куш" in russian.screen.text.splitlines()
    assert {"Куш за очко −1", "Взнос −50", "Фантазия ⟳"} <= set(payloads(russian.screen))
    english = await say(service, "all")
    assert english.screen is not None
    assert "Kush per point: 1" in english.screen.text.splitlines()
    assert "Kush label: kush" in english.screen.text.splitlines()
    assert {"Kush per point −1", "Buy-in −50", "Fantasyland ⟳"} <= set(payloads(english.screen))
    # every line: "title (name): value"; in Russian by the Russian name, the title alone
    # where it is that name in either language («Куш за очко: 1», "Kush per point: 1";
    # «Язык (язык)» said it twice, and a long list on Discord passed its 2,000 characters)
    for screen, line_re in (
        (russian.screen, r"[^()]+( \([а-яё_-]+\))?: .+"),
        (english.screen, r"[^()]+( \([a-z_]+\))?: .+"),
    ):
        lines = screen.text.splitlines()[1:-1]
        assert lines and all(re.fullmatch(line_re, line) for line in lines), lines


async def test_r6_4_the_middle_full_house_option_is_titled_as_staying_in_fantasyland() -> None:
    """R6.4: ``stay_on_full_house_middle`` keeps a player in Fantasyland; it does not let one
    in (entry is QQ+ on top, R6.1). Its title read "Fantasyland on a middle full house"
    ("Фантазия с фуллом в середине"), as if a middle full house earned Fantasyland: the list
    and its button say staying, in both languages."""
    service, _store = new_service()
    for actor, line, button in (
        (ALICE, "Stay in Fantasyland: middle full house (stay_on_full_house_middle): off",
         "Stay in Fantasyland: middle full house ⟳"),
        (BORIS, "Остаться в Фантазии: фулл в середине (фулл_в_середине): выкл",
         "Остаться в Фантазии: фулл в середине ⟳"),
    ):  # fmt: skip
        reply = await say(service, "all", actor=actor)
        assert reply.screen is not None
        assert line in reply.screen.text.splitlines() and button in payloads(reply.screen)
        about = await say(service, "stay_on_full_house_middle", actor=actor)
        assert line.split(" (")[0] in about.text


async def test_switching_the_language_answers_in_the_new_language() -> None:
    """``/settings language ru`` from an English-speaking admin: the confirmation comes in
    Russian at once (the group just asked for it), and so does the list, and back to
    English with ``language en``; ``auto`` answers in the admin's own language."""
    service, _store = new_service()
    russian = await say(service, "language", "ru")
    assert russian.text.startswith("Сохранено: язык = ru"), russian.text
    assert russian.text.endswith(tr("ru", "settings.list_hint")) and russian.screen is None
    listed = (await say(service, "all")).screen
    assert listed is not None and listed.text.startswith("⚙ Настройки группы")
    english = await say(service, "language", "en", actor=BORIS)
    assert english.text.startswith("Saved: language = en"), english.text
    listed = (await say(service, "all", actor=BORIS)).screen
    assert listed is not None and listed.text.startswith("⚙ Settings")
    auto = await say(service, "language", "auto", actor=BORIS)
    assert auto.text.startswith("Сохранено: язык = "), auto.text


# -- the buttons -------------------------------------------------------------------------------
def payloads(screen: Screen | None) -> dict[str, str]:
    assert screen is not None
    return {b.label: b.data for b in screen.all_buttons() if b.data}


async def test_buttons_fit_telegram_and_step_within_the_range() -> None:
    service, store = new_service()
    for game in ("pineapple", "ofc", "chinese"):
        assert not (await say(service, "game", game)).alert
        screen = (await say(service, "all")).screen
        buttons = payloads(screen)
        assert all(len(d.encode()) <= 64 for d in buttons.values())
        codes = {p.code for d in buttons.values() if isinstance(p := decode(d), SettingStep)}
        shown = {s.code for s in SETTINGS.values() if GameKind(game) in s.games}
        texts = {s.code for s in SETTINGS.values() if s.kind is Kind.TEXT}  # typed, no button
        assert codes == shown - texts
        assert screen is not None and "(ready_seconds): 60" in screen.text
    # + on ready_seconds up to the top of the range, then a refusal naming it

    async def yes() -> bool:
        return True

    value = 60.0
    while True:
        screen = (await say(service, "all")).screen
        data = next(
            d
            for d in payloads(screen).values()
            if isinstance(p := decode(d), SettingStep) and p.code == "rs" and p.op == "+"
        )
        reply = await service.press(ALICE, data, GROUP, yes)
        if reply.alert:
            assert "from 5 to 600" in reply.text
            break
        value += 15
        assert f"ready_seconds = {min(value, 600):g}" in reply.text
    community = await store.community("telegram", "-100")
    assert community.settings.rule_options().ready_seconds == 600


# -- /grant ------------------------------------------------------------------------------------
@pytest.mark.parametrize("sqlite", [False, True])
async def test_grant_amounts_are_bounded_with_a_clear_refusal(sqlite: bool, tmp_path: Path) -> None:
    store: Store = await SqliteStore.open(tmp_path / "g.sqlite3") if sqlite else MemoryStore()
    try:
        service, _ = new_service(store)
        await service.balance(GROUP, ALICE)
        for amount in ("100000000000000000000", "1000000000001", "-1000000000001", "9" * 5000):
            reply = await service.grant(GROUP, ALICE, True, "1", amount, f"k{amount[:8]}")
            assert reply.alert and "1,000,000,000,000" in reply.text, reply.text
        reply = await service.grant(GROUP, BORIS, True, "1", "1e20", "k2")
        assert reply.alert and "/grant" in reply.text
        reply = await service.grant(GROUP, ALICE, True, "1", str(KUSH_LIMIT), "k3")
        assert not reply.alert and "1,000,000,001,000" in reply.text  # (grouped, as every amount)
        for n in range(BALANCE_LIMIT // KUSH_LIMIT):
            await service.grant(GROUP, ALICE, True, "1", str(KUSH_LIMIT), f"more{n}")
        reply = await service.grant(GROUP, ALICE, True, "1", str(KUSH_LIMIT), "k4")
        assert reply.alert and "1,000,000,000,000,000" in reply.text
        assert await check_store(store) == []
    finally:
        if isinstance(store, SqliteStore):
            await store.close()


async def test_grant_bounds_in_russian_group_thousands_with_spaces() -> None:
    """In Russian a comma is the decimal sign: the /grant refusals group thousands with a
    no-break space, as the settings' ranges do ("1,000" would read as one)."""
    service, _ = new_service(MemoryStore())
    await service.balance(GROUP, BORIS)
    reply = await service.grant(GROUP, BORIS, True, "2", "1000000000001", "r1")
    assert reply.alert and "1\u00a0000\u00a0000\u00a0000\u00a0000" in reply.text, reply.text
    assert re.search(r"\d,\d", reply.text) is None, reply.text
    for n in range(BALANCE_LIMIT // KUSH_LIMIT):
        await service.grant(GROUP, BORIS, True, "2", str(KUSH_LIMIT), f"more{n}")
    reply = await service.grant(GROUP, BORIS, True, "2", str(KUSH_LIMIT), "r2")
    assert reply.alert and "1\u00a0000\u00a0000\u00a0000\u00a0000\u00a0000" in reply.text
    assert re.search(r"\d,\d", reply.text) is None, reply.text


@pytest.mark.parametrize("typed", ["١٠٠", "１００", "1_000", "+ 100", "100.0", "1e3", "१००"])
async def test_grant_takes_ascii_digits_only_as_settings_and_topup_do(typed: str) -> None:
    """``/grant @alice ١٠٠``, ``/grant @alice １００`` and ``/grant @alice 1_000`` moved kush
    (``int()`` reads them) where ``/settings`` refuses the same text: one reading of an
    amount (ASCII digits 0–9, a sign) for all three, the refusal saying how to write one, in
    English and Russian, and nothing granted; the setting refuses the same text with the same
    words."""
    service, store = new_service()
    await service.balance(GROUP, ALICE)
    reply = await service.grant(GROUP, ALICE, True, "1", typed, "k1")
    assert reply.alert and reply.text == (
        "Type the number with the digits 0–9, its thousands grouped or not"
        " (5000, 5,000 or 5 000; not 5_000).\nUsage: /grant @user N"
    )
    reply = await service.grant(GROUP, BORIS, True, "1", typed, "k2")
    assert reply.alert and reply.text == (
        "Набирайте число цифрами 0–9, тысячи можно отделить пробелом"
        " (5000 или 5 000; не 5_000).\nФормат: /grant @игрок N"
    )
    player = await store.find_player((await store.community("telegram", "-100")).id, "1")
    assert player is not None and player.balance == 1000
    setting = await say(service, "min_buy_in", *typed.split())
    assert setting.alert and setting.text.endswith(
        "\nType the number with the digits 0–9, its thousands grouped or not"
        " (5000, 5,000 or 5 000; not 5_000)."
    ), setting.text
    assert not (await service.grant(GROUP, ALICE, True, "1", " +100 ", "k3")).alert
    player = await store.find_player((await store.community("telegram", "-100")).id, "1")
    assert player is not None and player.balance == 1100
    assert await check_store(store) == []


# -- random input (hypothesis) -----------------------------------------------------------------
numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["nan", "-inf", "1e999", "0x10", "1_000", "٣", "½", "+5", "05", "1e3", ""]),
)
values = st.one_of(numbers, st.text(max_size=60), st.sampled_from(["on", "off", "вкл", "auto"]))


def run(coro_fn):  # type: ignore[no-untyped-def]
    return asyncio.run(coro_fn())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from([*SETTINGS, "nope"]), value=values, russian=st.booleans())
def test_random_settings_always_get_a_reply_and_save_nothing_when_refused(
    name: str, value: str, russian: bool
) -> None:
    async def body() -> None:
        service, store = new_service()
        before = await stored(store)
        reply = await say(service, name, *value.split(), actor=BORIS if russian else ALICE)
        assert reply.text or reply.screen is not None
        after = await stored(store)
        if reply.alert:
            assert after == before
        else:
            if reply.text.startswith(("Already so: ", "Уже так: ")):
                # nothing changed: at most a default saved as the value it stands for
                assert after.rule_options() == before.rule_options()
                empty = dataclasses.replace(after, options={})
                assert empty == dataclasses.replace(before, options={})
            else:
                assert after == before or reply.text.startswith(("Saved: ", "Сохранено: "))
            for game in GameKind:
                table_options(after, game)  # whatever was saved deals
            after.rule_options()

    run(body)


@settings(max_examples=150, deadline=None)
@given(amount=values)
def test_random_grant_amounts_always_get_a_reply(amount: str) -> None:
    async def body() -> None:
        service, store = new_service()
        await service.balance(GROUP, ALICE)
        reply = await service.grant(GROUP, ALICE, True, "1", amount, "key")
        assert reply.text
        player = await store.find_player((await store.community("telegram", "-100")).id, "1")
        assert player is not None
        if reply.alert:
            assert player.balance == 1000
        else:
            change = player.balance - 1000
            said = ("+" if change > 0 else "−") + grouped(abs(change), "en")  # (+10,000)
            assert 0 < abs(change) <= KUSH_LIMIT and said in reply.text
        assert await check_store(store) == []

    run(body)


async def test_an_option_of_another_game_shows_the_value_saved_and_unknown_names_are_named() -> (
    None
):
    """What a new user met: /settings target_points 5 on a Pineapple group answered 51."""
    service, _store = new_service()
    reply = await say(service, "target_points", "5")
    assert not reply.alert and reply.text.startswith(
        tr("en", "reply.settings_saved", what="target_points = 5").rstrip(".")
    )
    assert "5" in (await say(service, "target_points")).text.split(":")[-1]
    reply = await say(service, "foo", "1")
    assert reply.alert and reply.text.startswith(tr("en", "reply.settings_unknown", name="foo"))
    shown = (await say(service, "payouts")).text
    assert tr("en", "settings.default_payouts") in shown


@pytest.mark.parametrize(
    ("value", "saved"),
    [("50 30;20", "50,30,20"), (" 70 ,30 ", "70,30"), ("default", "")],
)
async def test_r8_7_a_list_setting_is_saved_as_read(value: str, saved: str) -> None:
    """Payouts typed with spaces or semicolons are saved with commas; the default is shown as
    the default. (A list of nothing, "," or " ; ", was the default too; it is refused since
    fix38c as an empty place: tests/bot/test_fix38c_settings.py.)"""
    service, store = new_service()
    reply = await say(service, "payouts", value)
    assert not reply.alert, reply.text
    assert (await stored(store)).payouts == saved
    shown = (await say(service, "payouts")).text
    if saved:
        assert saved in shown
    else:
        assert tr("en", "settings.default_payouts") in shown


# -- a setting changed during a hand -----------------------------------------------------------
@pytest.mark.parametrize("next_hand_delay", [0.0, 5.0])
async def test_r8_2_a_point_raised_mid_hand_past_the_stacks_still_ends_the_hand(
    next_hand_delay: float,
) -> None:
    """An admin raises kush_per_point during a hand to more than either stack holds (R8.2:
    the new value waits for the next hand). The hand still ends and is settled; the next deal
    finds nobody who can pay a point and the table goes back to the lobby, offering the
    top-up. (The new point used to apply between the check of who can play and the deal,
    whose GameError rolled the last Confirm back: the hand could never end, and with a delay
    the timer died on it.)"""
    from tests.bot.test_service import press_auto_and_confirm

    clock = [1_000_000.0]
    store = MemoryStore()
    service = TableService(
        store, clock=lambda: clock[0], rng=random.Random(5), next_hand_delay=next_hand_delay,
        timers=False,
    )  # fmt: skip
    presenter = FakePresenter()
    service.register(presenter)
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BORIS):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand_no == 1
    for name in ("min_buy_in", "kush_per_point"):  # (a point may not cost above the buy-in)
        reply = await service.settings(GROUP, ALICE, True, [name, "1000"])
        assert not reply.alert, reply.text
    by_id = {a.user_id: a for a in (ALICE, BORIS)}
    while t.hand is not None and t.hand_no == 1:
        seat = t.hand.to_act[0]
        await press_auto_and_confirm(service, presenter, by_id[t.seats[seat].user_id])
    clock[0] += next_hand_delay
    await service.run_due()
    assert t.hand is None and t.hand_no == 1 and t.phase.value == "lobby"
    assert t.options.kush_per_point == 1000
    assert sum(s.stack for s in t.seats.values()) == 400  # settled at 1 kush a point
    community = await store.community("telegram", "-100")
    assert len(await store.hand_history(t.seats[0].player_id, 5)) == 1
    assert await check_store(store) == [], community


async def test_r8_2_a_point_dearer_than_the_buy_in_is_refused_either_way() -> None:
    """kush_per_point above min_buy_in, set either way round, is refused with both values
    named, nothing saved: every stack would start below one point, and a table whose
    players were all ready sat in the lobby ("The hand starts when everyone seated is
    ready") with no word of why. Equal is fine."""
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, "kush_per_point", "300")
    assert reply.alert and reply.text == tr("en", "reply.settings_bad", error=tr(
        "en", "settings.point_over_buy_in", point=300, min_buy_in=200) + ".")  # fmt: skip
    assert await stored(store) == before
    assert not (await say(service, "kush_per_point", "200")).alert
    reply = await say(service, "min_buy_in", "199", actor=BORIS)
    assert reply.alert and tr("ru", "settings.point_over_buy_in", point=200, min_buy_in=199) in (
        reply.text
    )
    s = await stored(store)
    assert (s.min_buy_in, s.rule_options().kush_per_point) == (200, 200)


# -- the group's time zone ---------------------------------------------------------------------
async def test_the_daily_bonus_turns_with_the_groups_day() -> None:
    """``/daily`` is once a day of the group's time zone (``utc_offset``, Moscow's by default
    for a group of Russian readers): a Moscow group's day turns at 21:00 UTC, not at 03:00
    its time."""
    store = MemoryStore()
    now = [1_700_000_000.0 - 1_700_000_000.0 % 86400 + 20 * 3600]  # 20:00 UTC
    service = TableService(store, clock=lambda: now[0], next_hand_delay=0, timers=False)
    service.register(FakePresenter())
    assert (await stored(store)).day_zone() == 3  # (never set, language auto)
    assert not (await service.daily(GROUP, BORIS)).alert  # 23:00 in Moscow
    now[0] += 1.5 * 3600  # 21:30 UTC: 00:30 the next day in Moscow
    assert not (await service.daily(GROUP, BORIS)).alert
    assert not (await say(service, "utc_offset", "-5")).alert  # 16:30 the day before
    now[0] += 3600
    reply = await service.daily(GROUP, BORIS)  # 17:30 there: its next day, in 6 h 30 min,
    # is the one taken at 00:30 in Moscow (it said 6 h 30 min, then refused again): the day
    # after it begins in 30 h 30 min (R8.1)
    assert reply.alert and reply.text == tr("ru", "reply.daily_taken", hours=30, minutes=30)
    assert (await stored(store)).utc_offset == -5


@pytest.mark.parametrize(
    ("value", "saved"), [("0", 0.0), ("-12", -12.0), ("5.5", 5.5), ("+14", 14.0)]
)
async def test_the_time_zone_setting_takes_hours_from_utc(value: str, saved: float) -> None:
    service, store = new_service()
    assert not (await say(service, "utc_offset", value)).alert
    assert (await stored(store)).utc_offset == saved


@pytest.mark.parametrize("value", ["15", "-13", "UTC+3", "Europe/Moscow", "3h"])
async def test_a_time_zone_out_of_range_is_refused(value: str) -> None:
    service, store = new_service()
    reply = await say(service, "utc_offset", value)
    assert reply.alert and "from -12 to 14" in reply.text and "hours" in reply.text
    assert (await stored(store)).utc_offset is None  # (unchanged: never set)


async def test_settings_at_an_open_table_show_the_table_s_game_not_the_group_s() -> None:
    """A group whose game is Pineapple with a classic OFC (or Chinese Poker) table open:
    /settings showed Pineapple's settings and values (scoring one_six, no target_points)."""
    service, _store = new_service()

    async def yes() -> bool:
        return True

    reply = await service.new_table(GROUP, ALICE, "ofc")
    assert service.table_in(GROUP) is not None, reply.text
    screen = (await say(service, "all")).screen
    assert screen is not None
    assert "Scoring: 2 a box" in screen.text  # classic OFC's default (R5.3), by its name
    assert "\nDummy box: off\n" in screen.text and "Progressive Fantasyland" not in screen.text
    assert tr("en", "settings.footer", game=tr("en", "game.ofc")) in screen.text
    russian = (await say(service, "all", actor=BORIS)).screen
    assert russian is not None
    assert tr("ru", "settings.footer", game=tr("ru", "game.ofc")) in russian.text
    assert "2 a box (default)" in (await say(service, "scoring")).text.split(":")[-1]
    # ⟳ on scoring moves on from the table's value: to one_six
    data = payloads(screen)["Scoring ⟳"]
    reply = await service.press(ALICE, data, GROUP, yes)
    assert not reply.alert and "scoring = one_six" in reply.text, reply.text
    # an option of another game is saved with a note naming the table's game
    reply = await say(service, "target_points", "5")
    note = tr("en", "settings.elsewhere_table", games="Chinese Poker", game="Classic OFC")
    assert not reply.alert and note in reply.text, reply.text
    listed = (await say(service, "all")).screen
    assert listed is not None and "target_points" not in listed.text
    # with the table closed, the group's game again
    assert not (await service.close_table(GROUP, ALICE, True)).alert
    screen = (await say(service, "all")).screen
    assert screen is not None and "Scoring: 1 a box, scoop 6" in screen.text
    assert tr("en", "settings.footer", game=tr("en", "game.pineapple")) in screen.text


async def test_settings_at_a_chinese_poker_table_show_its_options() -> None:
    service, _store = new_service()
    await service.new_table(GROUP, ALICE, "chinese")
    screen = (await say(service, "all")).screen
    assert screen is not None and "(target_points): 51" in screen.text
    assert "fantasyland" not in screen.text.replace("fantasyland_seconds", "")
    assert tr("en", "settings.footer", game=tr("en", "game.chinese")) in screen.text


async def test_setting_the_game_while_another_games_table_is_open_says_the_table_stays() -> None:
    """``/settings game ofc`` with a Pineapple table open answered only "Saved: game = ofc."
    and the table went on as Pineapple: the answer says the open table stays Pineapple and
    the new game comes with the next /newtable, after /closetable (in Russian too); with no
    table open, or the table's own game, no such note."""
    service, store = new_service()
    assert (await say(service, "game", "chinese")).text == tr(
        "en", "reply.settings_saved", what="game = chinese (was pineapple)"
    ) + "\n" + tr("en", "settings.list_hint")
    assert not (await say(service, "game", "pineapple")).alert
    await service.new_table(GROUP, ALICE)
    assert service.table_in(GROUP) is not None
    reply = await say(service, "game", "ofc")
    assert not reply.alert and (await stored(store)).game == "ofc"
    note = tr("en", "settings.game_next_table", table="Pineapple OFC", game="Classic OFC")
    hint = tr("en", "settings.list_hint")
    assert (
        reply.text
        == tr("en", "reply.settings_saved", what="game = ofc (was pineapple)") + f"\n{note}\n{hint}"
    )
    assert "/closetable" in note and "/newtable" in note
    russian = await say(service, "game", "chinese", actor=BORIS)
    assert russian.text.endswith(
        tr("ru", "settings.game_next_table", table="Ананас (OFC)", game="Китайский покер")
        + "\n"
        + tr("ru", "settings.list_hint")
    )
    # the table's own game again: nothing to add
    back = await say(service, "game", "pineapple")
    assert (
        back.text
        == tr("en", "reply.settings_saved", what="game = pineapple (was chinese)") + f"\n{hint}"
    )


async def test_a_fraction_with_a_comma_is_saved_as_russian_writes_it() -> None:
    """``/settings level_minutes 7,5`` (a comma, as Russian writes fractions) was refused
    with the range and "a fraction is written with a point": the comma is the point, in
    either language, and the range says so in Russian. (Times in seconds are whole.)"""
    service, store = new_service()
    assert not (await say(service, "level_minutes", "7,5")).alert
    assert (await stored(store)).level_minutes == 7.5
    assert not (await say(service, "level_minutes", "12,25", actor=BORIS)).alert
    assert (await stored(store)).level_minutes == 12.25
    russian = await say(service, "level_minutes", "7,5,5", actor=BORIS)
    assert russian.alert and russian.text.endswith("(дробное — через запятую или точку: 7,5).")


async def test_the_fraction_a_range_shows_is_one_the_setting_takes() -> None:
    """``/settings hand_seconds 7,5`` was refused "from 30 to 3600 (7.5 for a fraction)":
    the example given was the very value refused. A range whose low end is above 7.5 shows
    a fraction inside it (8.5 for level_minutes 8 to 240, say); the others keep 7.5. (Times
    in seconds are whole now: no fraction is offered.)"""
    spec = SETTINGS["level_minutes"].model_copy(update={"low": 8.0})
    assert spec.range_text("en").endswith("from 8 to 240 (a fraction like 8.5 is fine)")
    assert spec.range_text("ru").endswith("(дробное — через запятую или точку: 8,5)")
    assert SETTINGS["level_minutes"].range_text("en").endswith("(a fraction like 7.5 is fine)")
    english = await say(service := new_service()[0], "hand_seconds", "7,5")
    assert english.alert and english.text == (
        "Cannot set that — hand_seconds takes a whole number of seconds from 30 to 3,600.\n"
        "Whole numbers only, not 7.5."
    )
    assert (await say(service, "ready_seconds", "1")).text.endswith(
        "takes a whole number of seconds from 5 to 600."
    )


async def test_a_mistyped_setting_name_suggests_the_closest_not_the_whole_list() -> None:
    """A new user typed /settings handseconds 45: the answer listed all 34 names."""
    service, _store = new_service()
    reply = await say(service, "handseconds", "45")
    assert reply.alert
    assert reply.text == (
        "“handseconds” is not a setting. Did you mean hand_seconds?\n"
        + tr("en", "reply.settings_usage_short")
    )
    assert "idle_close_seconds" not in reply.text
    reply = await say(service, "HandSeconds", "45", actor=BORIS)
    assert reply.text.startswith("Настройки «handseconds» нет. Может быть, время_на_раздачу?\n")
    assert reply.text.endswith(tr("ru", "reply.settings_usage_short"))
    # equally close names: all of them (at most three), in one line before the usage
    reply = await say(service, "buy_in", "100")
    assert reply.text == (
        "“buy_in” is not a setting. Did you mean min_buy_in or max_buy_in?\n"
        + tr("en", "reply.settings_usage_short")
    )
    reply = await say(service, "time_bank_second")
    assert "Did you mean time_bank_seconds" in reply.text
    # nothing close: the short usage too (every name on one line was too long for a phone)
    reply = await say(service, "zzz", "1")
    assert reply.text == "“zzz” is not a setting.\n" + tr("en", "reply.settings_usage_short")


async def test_the_words_a_group_tries_for_the_stakes_suggest_the_settings_that_set_them() -> None:
    """A new user typed /settings stakes 5 and /settings stake 2: "“stakes” is not a setting."
    and nothing else (no name is spelled like it), while a typo such as buyin got "Did you
    mean". The words a group tries for what a hand costs (stakes, ставка, blinds, points…)
    suggest kush_per_point and min_buy_in; a few other common words their settings."""
    service, _store = new_service()
    usage = "\n" + tr("en", "reply.settings_usage_short")
    for word in ("stakes", "stake", "Stakes", "blinds", "point", "points"):
        reply = await say(service, word, "5")
        assert reply.alert
        assert reply.text == (
            f"“{word.lower()}” is not a setting. Did you mean kush_per_point or min_buy_in?" + usage
        ), word
    for word in ("ставка", "Ставки", "блайнды"):
        reply = await say(service, word, "2", actor=BORIS)
        assert reply.text == (
            f"Настройки «{word.lower()}» нет. Может быть, куш_за_очко или взнос?\n"
            + tr("ru", "reply.settings_usage_short")
        ), word
    for word, names in (
        ("timer", "hand_seconds, time_bank_seconds or ready_seconds"),
        ("time", "hand_seconds or time_bank_seconds"),
        ("взносы", "min_buy_in or tournament_buy_in"),
        ("buy-in", "min_buy_in, max_buy_in or tournament_buy_in"),
        ("bonus", "daily_bonus"),
        ("lang", "language"),
        ("currency", "kush_label"),
    ):
        reply = await say(service, word, "1")
        assert reply.text == f"“{word}” is not a setting. Did you mean {names}?" + usage, word
    for names in SETTING_WORDS.values():  # every word names settings, and none is one
        assert set(names) <= set(SETTINGS)
    assert not set(SETTING_WORDS) & set(SETTING_NAMES)  # (nor any Russian name: «язык»)
    # what difflib finds is unchanged
    assert "Did you mean hand_seconds?" in (await say(service, "handseconds", "45")).text


async def test_kush_ranges_name_the_groups_own_label() -> None:
    """With kush_label 🍩 the range and help texts said "a whole number of kush"."""
    service, _store = new_service()
    assert not (await say(service, "kush_label", "🍩")).alert
    reply = await say(service, "min_buy_in", "-5")
    assert reply.alert
    assert reply.text == (
        f"Cannot set that — min_buy_in takes a whole number from 1 to {KUSH_LIMIT:,} 🍩."
    )
    assert "kush" not in (await say(service, "daily_bonus")).text.split("\n")[1]
    assert f"from 0 to {KUSH_LIMIT:,} 🍩" in (await say(service, "daily_bonus")).text
    reply = await say(service, "kush_per_point", "x", actor=BORIS)
    # the label after the number, as an amount reads: "целое число 🍩 от" read it as a noun
    said = "куш_за_очко: целое число от 1 до 1\u00a0000\u00a0000 🍩"
    assert said in reply.text and "куш" not in reply.text.replace("куш_за_очко", "")
    # the default label as before: kush in English, кушей in Russian
    assert not (await say(service, "kush_label", "kush")).alert
    said = f"whole number from 1 to {KUSH_LIMIT:,} kush"
    assert said in (await say(service, "min_buy_in", "0")).text
    said = "целое число от 1 до 1\u00a0000\u00a0000\u00a0000\u00a0000 кушей"
    assert said in (await say(service, "min_buy_in", "0", actor=BORIS)).text


# -- a decimal comma -------------------------------------------------------------------------
@pytest.mark.parametrize("actor", [ALICE, BORIS], ids=["en", "ru"])
@pytest.mark.parametrize(
    ("name", "value", "saved"),
    [("utc_offset", "5,5", 5.5), ("level_minutes", "1,5", 1.5), ("level_minutes", "37,5", 37.5),
     ("utc_offset", "-0,0", 0.0), ("level_minutes", "+90,25", 90.25),
     ("utc_offset", "0,750", 0.75), ("utc_offset", "0,500", 0.5),
     ("utc_offset", "-0,500", -0.5), ("utc_offset", "00,250", 0.25)],
)  # fmt: skip
async def test_a_fractional_setting_takes_a_decimal_comma(
    actor: Actor, name: str, value: str, saved: float
) -> None:
    """Russian writes 7,5 for seven and a half: ``/settings utc_offset 5,5`` was refused with
    the range alone ("7.5 for a fraction"). A fractional setting takes the comma as the
    point, whoever types it (an English admin's "7,5" means the same). A comma before three
    digits after a whole part that begins with 0 ("0,500", "0,125") is the fraction too: no
    thousands-grouped number begins with 0 (it was asked again, "500 or 0.5?")."""
    service, store = new_service()
    reply = await say(service, name, value, actor=actor)
    assert not reply.alert, reply.text
    s = await stored(store)
    value_now = getattr(s, name) if name in ("utc_offset", "level_minutes") else None
    if value_now is None:
        value_now = getattr(table_options(s), name)
    assert value_now == saved


@pytest.mark.parametrize("actor", [ALICE, BORIS], ids=["en", "ru"])
@pytest.mark.parametrize(
    ("name", "value"),
    [("utc_offset", "1,500"), ("level_minutes", "2,125")],
)
async def test_a_comma_before_three_digits_is_asked_again(
    actor: Actor, name: str, value: str
) -> None:
    """Written "1,500" is fifteen hundred to an English reader and one and a half to a Russian one:
    a fractional setting reads it as neither; the refusal says so in the admin's language,
    after the range, and nothing is saved."""
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, name, value, actor=actor)
    lang = actor.language or "en"
    assert reply.alert
    whole, fraction = value.replace(",", ""), value.replace(",", ".")
    fraction = f"{float(fraction):g}".replace(".", "," if lang == "ru" else ".")
    hint = tr(lang, "reply.number_comma", value=value, whole=int(whole), fraction=fraction)
    assert reply.text.endswith("\n" + hint)
    assert SETTINGS[name].range_text(lang) in reply.text
    assert await stored(store) == before


@pytest.mark.parametrize("actor", [ALICE, BORIS], ids=["en", "ru"])
@pytest.mark.parametrize(
    ("name", "value"),
    [("daily_bonus", "2,5"), ("kush_per_point", "10,0"), ("min_buy_in", "1.000")],
)
async def test_a_whole_number_setting_takes_no_comma(actor: Actor, name: str, value: str) -> None:
    """Whole-number settings and kush amounts stay whole: "2,5" is refused with their range
    and that they take whole numbers (2 or 3); "10,0" and "1.000" with how to write a number
    (the digits, grouped or not), in the admin's language. ("1,000", grouped as the bot
    writes it, is 1000: tests/bot/test_fix39g_numbers.py.)"""
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, name, value, actor=actor)
    lang = actor.language or "en"
    if value == "2,5":
        hint = {"en": "Whole numbers only: 2 or 3, not 2.5.",
                "ru": "Только целые числа: 2 или 3, а не 2,5."}[lang]  # fmt: skip
        assert reply.alert and reply.text.endswith(hint), reply.text
    elif value == "1.000":  # (a whole number: the point named, fixnu6a)
        hint = tr(lang, "reply.number_thousands", value=value, whole="1000", mark=".")
        assert reply.alert and reply.text.endswith(hint), reply.text
    else:
        assert reply.alert and reply.text.endswith(tr(lang, "reply.number_grouped"))
    assert await stored(store) == before


@pytest.mark.parametrize(
    ("actor", "saved", "low"),
    [
        (ALICE, "utc_offset = 7.5 (was auto — 3).", "from -12"),
        (BORIS, "часовой_пояс = 7,5 (было авто — 3).", "от -12"),
    ],
    ids=["en", "ru"],
)
async def test_a_fraction_is_shown_with_the_readers_decimal_sign(
    actor: Actor, saved: str, low: str
) -> None:
    """Russian admins now type 7,5 and the bot answered "= 7.5": a fraction is shown with the
    reader's decimal sign, in the saved reply and the settings' ranges (level_minutes takes
    1 to 240; utc_offset -12 to 14)."""
    service, _store = new_service()
    reply = await say(service, "utc_offset", "7,5", actor=actor)
    hint = tr(actor.language, "settings.list_hint")
    assert not reply.alert and reply.text.endswith(f"{saved}\n{hint}"), reply.text
    reply = await say(service, "utc_offset", "15", actor=actor)
    assert reply.alert and low in reply.text, reply.text


async def test_a_settings_press_from_a_group_upgraded_to_a_supergroup_saves_nothing() -> None:
    """A Telegram group upgraded to a supergroup moves its community to the new chat id
    (wallets, settings, table). Android clients still send presses from the old group's
    messages with the old chat id, and after a restart the adapter no longer knows the move:
    a "+" on the old settings message created a new, empty community under the dead id,
    saved the setting there and said "Saved", while the group's settings stayed as they were.
    The settings message's version now names its community, so that press is out of date."""
    service, store = new_service()
    screen = (await say(service, "all")).screen
    data = next(
        d
        for d in payloads(screen).values()
        if isinstance(p := decode(d), SettingStep) and p.code == "rs" and p.op == "+"
    )
    before = (await store.community("telegram", "-100")).settings
    assert await service.migrate_chat("telegram", "-100", "-200")
    moved = await store.community("telegram", "-200")
    assert moved.settings == before

    async def yes() -> bool:
        return True

    restarted, _ = new_service(store)  # (the adapter's map of moved chats is gone)
    for svc in (service, restarted):
        reply = await svc.press(ALICE, data, GROUP, yes)
        assert reply.alert and reply.text == tr("en", "err.stale_settings"), reply
    assert (await store.community("telegram", "-200")).settings == before
    assert (await store.community("telegram", "-100")).settings == CommunitySettings()
    # in the supergroup the settings message works as before
    new_group = dataclasses.replace(GROUP, chat_id="-200", community_id="-200")
    screen = (await restarted.settings(new_group, ALICE, True, ["all"])).screen
    data = next(
        d
        for d in payloads(screen).values()
        if isinstance(p := decode(d), SettingStep) and p.code == "rs" and p.op == "+"
    )
    reply = await restarted.press(ALICE, data, new_group, yes)
    assert not reply.alert and "ready_seconds = " in reply.text, reply
    assert (await store.community("telegram", "-200")).settings != before
