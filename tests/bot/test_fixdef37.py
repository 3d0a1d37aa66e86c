"""fixdef37: a stored setting is given back to its default with ``/settings <name> default``
(``по умолчанию``, ``сброс``): a rule option (R5.3 ``scoring``, R6.4
``stay_on_full_house_middle``) saved once is one group-wide value for every game it applies
to, and setting it back to one game's default pinned that value for the others."""

from __future__ import annotations

import pytest

from bot.model import Actor
from bot.service import TableService
from bot.service.settings import SETTINGS, table_options
from game.options import GameKind, Scoring
from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, say, stored


async def shown(service: TableService, actor: Actor = ALICE) -> str:
    """The short settings list (``/settings`` alone) as ``actor`` reads it."""
    screen = (await say(service, actor=actor)).screen
    assert screen is not None
    return screen.text


@pytest.mark.parametrize("typed", [["default"], ["по", "умолчанию"], ["сброс"], ["DEFAULT"]])
async def test_r5_3_a_stored_option_goes_back_to_each_games_default(typed: list[str]) -> None:
    """R5.3: a Pineapple group saves ``scoring two_per_row`` (Classic OFC's default), then
    ``/settings scoring default`` (Russian ``по умолчанию`` / ``сброс``, or the words typed
    in Discord's ``value`` option, split as the adapter splits them): nothing of it is stored,
    Pineapple scores one_six and Classic OFC two_per_row again, and the answer says so for
    each game. It was refused (``default`` is no choice), and ``scoring one_six`` pinned
    one_six for Classic OFC's tables too."""
    service, store = new_service()
    assert not (await say(service, "scoring", "two_per_row")).alert
    assert (await stored(store)).options == {"scoring": "two_per_row"}
    reply = await say(service, "scoring", *typed)
    assert not reply.alert, reply.text
    s = await stored(store)
    assert "scoring" not in s.options
    assert table_options(s, GameKind.PINEAPPLE).scoring is Scoring.ONE_SIX
    assert table_options(s, GameKind.OFC).scoring is Scoring.TWO_PER_ROW
    assert reply.text.startswith(
        "Back to default: scoring (was two_per_row) — Pineapple OFC: one_six,"
        " Classic OFC: two_per_row."
    ), reply.text
    again = await say(service, "scoring", *typed)
    assert not again.alert and again.text.startswith(
        "Already default: scoring — Pineapple OFC: one_six, Classic OFC: two_per_row."
    ), again.text
    assert await stored(store) == s


async def test_a_reset_is_answered_in_russian_and_a_group_setting_gets_its_default() -> None:
    """A group setting (``min_buy_in``) goes back to the default a new group has; the answer
    is in the admin's language, "Already default" when nothing was stored."""
    service, store = new_service()
    assert not (await say(service, "min_buy_in", "500")).alert
    reply = await say(service, "min_buy_in", "по", "умолчанию", actor=BORIS)
    assert not reply.alert, reply.text
    assert (await stored(store)).min_buy_in == 200
    assert reply.text.startswith("Снова по умолчанию: взнос = 200 (было 500)."), reply.text
    reply = await say(service, "min_buy_in", "сброс", actor=BORIS)
    assert reply.text.startswith("Уже по умолчанию: взнос = 200."), reply.text
    assert not (await say(service, "stay_on_full_house_middle", "on")).alert
    reply = await say(service, "stay_on_full_house_middle", "сброс", actor=BORIS)
    assert reply.text.startswith(
        "Снова по умолчанию: фулл_в_середине (было вкл) — Ананас (OFC): выкл,"
        " Классический OFC: вкл."
    ), reply.text
    assert "stay_on_full_house_middle" not in (await stored(store)).options


async def test_r6_6_a_reset_during_a_hand_reaches_the_table_as_a_change_does() -> None:
    """A reset is a change like any other (R6.6): the table playing a hand keeps its options
    until the match is over, its next ones are the defaults, and the answer says it waits."""
    service, store = new_service()
    assert not (await say(service, "scoring", "two_per_row")).alert
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BORIS):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    assert t.options.scoring is Scoring.TWO_PER_ROW
    changed = await say(service, "scoring", "one_six")
    reply = await say(service, "scoring", "default")
    assert not reply.alert, reply.text
    assert t.options.scoring is Scoring.TWO_PER_ROW  # (the hand keeps its rules)
    assert t.pending_options is not None and t.pending_options.scoring is Scoring.ONE_SIX
    # the note of when it applies, as a change's
    assert reply.text.split("\n")[1] == changed.text.split("\n")[1], (reply.text, changed.text)
    assert "scoring" not in (await stored(store)).options


async def test_r5_3_the_short_list_shows_an_option_pinned_at_this_games_default() -> None:
    """R5.3: a Pineapple group's ``scoring two_per_row`` then ``scoring one_six`` stores
    one_six for every game (Classic OFC's tables score one_six, not their two_per_row), but
    the short list (``/settings``: what differs from the defaults) hid it, as Pineapple's
    default, and ``/settings scoring`` said "1 a box, scoop 6 (default)": the admin could not
    see what was pinned. Shown while it is stored, with each game's default; gone once reset."""
    service, store = new_service()
    for value in ("two_per_row", "one_six"):
        assert not (await say(service, "scoring", value)).alert
    s = await stored(store)
    assert s.options == {"scoring": "one_six"}
    assert table_options(s, GameKind.OFC).scoring is Scoring.ONE_SIX
    line = (
        "Scoring: 1 a box, scoop 6 (saved for every game; defaults: Pineapple OFC:"
        " 1 a box, scoop 6, Classic OFC: 2 a box)"
    )
    listed = await shown(service)
    assert line in listed.split("\n"), listed
    about = (await say(service, "scoring")).text
    assert about.endswith(
        line.split(": ", 1)[1] + "." + "\n/settings scoring default gives it back its default."
    ), about
    ru = await shown(service, BORIS)
    assert "сохранено для всех игр; по умолчанию: Ананас (OFC): " in ru, ru
    assert not (await say(service, "scoring", "default")).alert
    assert "(scoring)" not in await shown(service)


async def test_an_option_stored_at_a_default_every_game_shares_is_not_listed() -> None:
    """brk60: ``hand_seconds 150`` then ``120`` stores 120, every game's default: the short
    list said "120 (saved; the default)", a line for a value that plays as the default does
    everywhere. Only an option whose defaults differ by game (R5.3 ``scoring``) is pinned."""
    service, store = new_service()
    before = await shown(service)
    for value in ("150", "120"):
        assert not (await say(service, "hand_seconds", value)).alert
    assert (await stored(store)).options == {"hand_seconds": 120}
    assert await shown(service) == before
    assert "(hand_seconds)" not in before


@pytest.mark.parametrize(
    ("name", "typed", "was"),
    [
        ("scoring", "one_six", "Pineapple OFC: one_six, Classic OFC: two_per_row"),
        ("stay_on_full_house_middle", "off", "Pineapple OFC: off, Classic OFC: on"),
    ],
)
async def test_r5_3_a_chinese_groups_option_saved_for_one_game_says_so(
    name: str, typed: str, was: str
) -> None:
    """R5.3, R6.4: a Chinese Poker group's ``scoring one_six`` is saved (brk58: Classic OFC's
    tables score one_six from now on, Pineapple's already did), but the answer was "Already
    so: scoring = one_six …", as if nothing had changed. It says it was saved and what each
    game had; said again, it is "Already so"."""
    service, store = new_service()
    assert not (await say(service, "game", "chinese")).alert
    reply = await say(service, name, typed)
    assert (await stored(store)).options == {name: SETTINGS[name].parse(typed)}
    assert reply.text.startswith(f"Saved: {name} = {typed} (was {was}) (it applies to"), reply.text
    again = await say(service, name, typed)
    assert again.text.startswith(f"Already so: {name} = {typed} (it applies to"), again.text
