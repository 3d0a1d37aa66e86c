"""What a new user met in the sandbox: the table message between hands showed the old stakes
while the next hand paid the new ones (R8.2, R6.6), /topup and /settings disagreed on the
stack limit, nonsense timers were saved (R8.2, R8.2a, R8.7), Classic OFC settings
contradicted themselves (R4, R5), /newtable and comma amounts answered the wrong thing, and a
kush label like "1 kush = 10 ₽" garbled every amount."""

from __future__ import annotations

from dataclasses import replace

from bot.model import Actor
from bot.service import TableService
from bot.service.settings import SETTINGS, table_options
from storage.api import CommunitySettings
from tests.bot.conftest import service_env
from tests.bot.test_service import GROUP, play_out

ALICE = Actor("telegram", "1", "Alice", "en")
BOB = Actor("telegram", "2", "Bob", "en")


async def _say(service: TableService, *args: str, actor: Actor = ALICE) -> str:
    reply = await service.settings(GROUP, actor, True, list(args))
    return reply.text


async def _hand_one(service: TableService) -> None:
    assert not (await service.new_table(GROUP, ALICE)).alert
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    for a in (ALICE, BOB):
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand_no == 1 and t.hand is not None


# -- 1. the stakes between hands ----------------------------------------------------------------
async def test_r8_2_between_hands_the_table_message_shows_the_next_hands_stakes() -> None:
    """``kush_per_point 10`` and ``min_buy_in 300`` during hand 1: the table message between
    hands said "Buy-in 200 kush · 1 pt = 1 kush" while hand 2 paid 10 a point; /topup said
    "a stack holds at most 1000" (5 × the old buy-in) while ``/settings max_buy_in 0``
    answered "Already so: … 5 × buy-in = 1500"."""
    service, presenter, _store, _clock = service_env(next_hand_delay=4.0)
    await _hand_one(service)
    assert "later" not in await _say(service, "kush_per_point", "10")
    await _say(service, "min_buy_in", "300")
    during = (await service.top_up(GROUP, ALICE, "99999")).text  # (queued for after the hand)
    assert "at most 1,500" in during, during
    t = service.table_in(GROUP)
    assert t is not None
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is None and t.next_hand_at is not None  # between hands
    table = presenter.last_table(GROUP.chat_id).text
    assert "Buy-in 300 kush · 1 pt = 10 kush" in table, table
    assert t.options.kush_per_point == 10 and t.min_buy_in == 300
    same = await _say(service, "max_buy_in", "0")
    assert "1,500" in same, same
    top_up = (await service.top_up(GROUP, ALICE, "99999")).text
    assert "at most 1,500" in top_up, top_up


# -- 2. timers that make no sense --------------------------------------------------------------
async def test_r8_2a_r8_7_nonsense_timers_are_refused_and_seconds_are_whole() -> None:
    """``idle_close_seconds 5`` closed every new table before friends pressed Ready,
    ``level_minutes 0.05`` made 3-second levels, ``ready_seconds 5.5`` was taken: each is
    refused with its range, nothing saved."""
    service, _presenter, store, _clock = service_env()
    said = await _say(service, "idle_close_seconds", "5")
    assert "idle_close_seconds takes a whole number of seconds from 300 to 604,800" in said, said
    said = await _say(service, "level_minutes", "0.05")
    assert "level_minutes takes a number of minutes from 1 to 240" in said, said
    said = await _say(service, "ready_seconds", "5.5")
    assert "ready_seconds takes a whole number of seconds from 5 to 600" in said, said
    assert "5 or 6, not 5.5" in said, said
    assert "Saved" in await _say(service, "ready_seconds", "600")
    said = await _say(service, "idle_close_seconds", "600")  # (not past the ready timer)
    assert "Keep idle_close_seconds > ready_seconds" in said, said
    russian = (await service.settings(GROUP, Actor("telegram", "3", "Boris", "ru"), True,
                                      ["idle_close_seconds", "600"])).text  # fmt: skip
    assert "Нужно закрытие_без_игры > таймер_готовности" in russian, russian
    community = await store.community("telegram", "-100")
    assert community.settings.options == {"ready_seconds": 600}
    assert community.settings.level_minutes == 5
    assert "Saved" in await _say(service, "idle_close_seconds", "601")
    assert "Saved" in await _say(service, "level_minutes", "2.5")


def test_a_stored_fraction_of_a_second_reads_as_the_nearest_whole_one() -> None:
    """A ``ready_seconds 5.5`` saved before seconds were whole reads as 6, not as the
    default 60 (and ``idle_close_seconds 5`` as the least now taken, 300)."""
    assert SETTINGS["ready_seconds"].stored(5.5) == 6
    s = CommunitySettings(options={"ready_seconds": 5.5, "idle_close_seconds": 5})
    opts = table_options(s)
    assert (opts.ready_seconds, opts.idle_close_seconds) == (6, 300)


# -- 3. Classic OFC settings in a Pineapple group ------------------------------------------------
async def test_r4_2_r5_3_a_classic_table_in_a_pineapple_group_takes_its_listed_options() -> None:
    """``/newtable ofc`` in a Pineapple group: /settings listed "Two boards heads-up" as what
    applies to Classic OFC, but ``/settings heads_up_double_boxes on`` was refused "these
    settings are for Pineapple OFC … whatever table is open". Saved, the classic table plays
    it (R4.2), a Pineapple table leaves it out; scoring's default is each game's (R5.2, R5.3)."""
    service, _presenter, store, _clock = service_env()
    assert not (await service.new_table(GROUP, ALICE, "ofc")).alert
    t = service.table_in(GROUP)
    assert t is not None and t.options.game.value == "ofc"
    listed = (await service.settings(GROUP, ALICE, True, ["all"])).screen
    assert listed is not None and "(heads_up_double_boxes): off" in listed.text
    # (a title that reads as its typed name is listed without it, fix43: "Scoring: 2 a box")
    assert "\nScoring: 2 a box" in listed.text
    reply = await service.settings(GROUP, ALICE, True, ["heads_up_double_boxes", "on"])
    assert not reply.alert and "Saved: heads_up_double_boxes = on" in reply.text, reply.text
    assert "applies to" not in reply.text  # (it applies to this table's game)
    assert t.options.heads_up_double_boxes
    reply = await service.settings(GROUP, ALICE, True, ["dummy_box", "on"])
    assert not reply.alert and t.options.dummy_box, reply.text
    community = await store.community(GROUP.platform, GROUP.community_id)
    assert community.settings.game == "pineapple"
    assert table_options(community.settings, "ofc").dummy_box
    pineapple = table_options(community.settings, "pineapple")
    assert not pineapple.dummy_box and not pineapple.heads_up_double_boxes
    assert "2 a box (default)" in await _say(service, "scoring")
    # the group's game may move on: its tables leave the classic options out
    assert "Saved: game = chinese" in await _say(service, "game", "chinese")


# -- 4. the argument first; a comma in a whole number -----------------------------------------
async def test_newtable_names_an_unknown_game_before_the_open_table() -> None:
    """``/newtable holdem`` at an open table answered "already has an open table"."""
    service, _presenter, _store, _clock = service_env()
    assert not (await service.new_table(GROUP, ALICE)).alert
    reply = await service.new_table(GROUP, ALICE, "holdem")
    assert reply.alert and reply.text.startswith("Unknown game “holdem”."), reply.text
    reply = await service.new_table(GROUP, ALICE, "ofc")  # a real game: the table is open
    assert reply.alert and "open table" in reply.text, reply.text


async def test_a_comma_in_a_whole_amount_is_refused_naming_the_comma() -> None:
    """``/settings min_buy_in 1.500`` was refused "digits 0–9 only", with no word of the point
    (docs/playing.md said it was asked again). ("1,500", grouped as the bot writes amounts,
    is 1500 since fix39g: tests/bot/test_fix39g_numbers.py.)"""
    service, _presenter, store, _clock = service_env()
    said = await _say(service, "min_buy_in", "1.500")
    assert said.endswith("\n“1.500”: write 1500, without the “.”."), said
    said = await _say(service, "hand_seconds", "1.200")
    assert said.endswith("\n“1.200”: write 1200, without the “.”."), said
    boris = Actor("telegram", "3", "Boris", "ru")
    russian = (await service.settings(GROUP, boris, True, ["min_buy_in", "1.500"])).text
    assert russian.endswith("\n«1.500»: напишите 1500, без «.»."), russian
    community = await store.community("telegram", "-100")
    assert community.settings.min_buy_in == 200 and community.settings.options == {}
    assert "Saved: hand_seconds = 30 (was 120)." in await _say(service, "hand_seconds", "30.0")


# -- 5. a kush label is a short unit -----------------------------------------------------------
async def test_r8_1_a_kush_label_must_read_as_a_unit_after_every_amount() -> None:
    """The example "1 kush = 10 ₽" (docs and the bot's own help) garbled every amount once
    set: "Buy-in 500 1 kush = 10 ₽". A label with a digit or "=", or longer than 12
    characters, is refused with why; short units are kept; the help gives short examples."""
    service, presenter, store, _clock = service_env()
    assert not (await service.new_table(GROUP, ALICE)).alert
    for label in ("1 kush = 10 ₽", "₽=kush", "x10", "kush kush kush"):
        said = await _say(service, "kush_label", *label.split())
        assert said.startswith("Cannot set that"), said
        if "kush kush" in label:
            assert "1 to 12 characters" in said, said
        else:
            assert "a short unit with no digits or “=”" in said, said
    boris = Actor("telegram", "3", "Boris", "ru")
    russian = (await service.settings(GROUP, boris, True, ["kush_label", "1", "куш"])).text
    assert "нужна короткая единица без цифр и «=»" in russian, russian
    community = await store.community("telegram", "-100")
    assert community.settings.kush_label == "kush"
    help_text = await _say(service, "kush_label")
    assert '"coins", "монеты" or "₽"' in help_text and "=" not in help_text, help_text
    assert "Saved: kush_label = ₽" in await _say(service, "kush_label", "₽")
    table = presenter.last_table(GROUP.chat_id).text
    assert "Buy-in 200 ₽ · 1 pt = 1 ₽" in table, table
    assert "Saved: kush_label = монеты" in await _say(service, "kush_label", "монеты")


async def test_r8_2a_an_older_idle_and_ready_pair_leaves_other_settings_changeable() -> None:
    """A group whose older version saved ``ready_seconds`` 600 and ``idle_close_seconds`` 5
    (read as 300): only a change of either timer is held to idle > ready; every other
    change is still saved (it was refused too, "Keep idle_close_seconds > ready_seconds")."""
    service, _presenter, store, _clock = service_env()
    community = await store.community(GROUP.platform, GROUP.community_id)
    options = {"ready_seconds": 600, "idle_close_seconds": 5}
    await store.change_settings(community.id, lambda s: replace(s, options=options))
    assert "Saved: hand_seconds = 90 (was 120)." in await _say(service, "hand_seconds", "90")
    said = await _say(service, "ready_seconds", "590")
    assert "Keep idle_close_seconds > ready_seconds" in said, said
    assert "Saved: ready_seconds = 240 (was 600)." in await _say(service, "ready_seconds", "240")
