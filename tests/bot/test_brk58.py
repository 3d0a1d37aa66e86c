"""brk58: break-it round on fixset37 / brk56's settings changes (``utc_offset`` in H:MM and
quarter hours, "Already so" that pins no rule option for other games), through the service
as both platforms' adapters call it."""

from __future__ import annotations

import pytest

from bot.service.settings import SETTINGS, refusal_text, table_options
from bot.texts import tr
from game.options import GameKind, Scoring
from tests.bot.test_settings import ALICE, BORIS, new_service, say, stored


@pytest.mark.parametrize(
    ("name", "typed", "game", "played"),
    [
        ("scoring", "one_six", GameKind.OFC, Scoring.ONE_SIX),
        ("stay_on_full_house_middle", "off", GameKind.OFC, False),
    ],
)
async def test_an_option_a_chinese_group_lacks_set_for_the_games_it_applies_to(
    name: str, typed: str, game: GameKind, played: object
) -> None:
    """R5.3, R6.4: a Chinese Poker group (no ``scoring`` nor ``stay_on_full_house_middle``
    at its tables) sets ``scoring one_six``: the answer says it applies to Pineapple OFC and
    Classic OFC and that it is so ("Already so: scoring = one_six (it applies to Pineapple
    OFC, Classic OFC; …)"), but it was not saved, since Pineapple's default is one_six: once
    the group played Classic OFC its tables scored two_per_row (brk56's fix compared only
    the first game the option applies to). The value is so for every game it applies to,
    whatever the answer's wording; the group's own game keeps its rules."""
    service, store = new_service()
    assert not (await say(service, "game", "chinese")).alert
    for actor in (ALICE, BORIS):
        reply = await say(service, name, typed, actor=actor)
        assert not reply.alert, reply.text
        s = await stored(store)
        for kind in (GameKind.PINEAPPLE, game):
            assert getattr(table_options(s, kind), name) == played, (kind, reply.text)
    assert (await say(service, "game", "ofc")).text.startswith("Saved: game = ofc")
    assert getattr(table_options(await stored(store)), name) == played
    reply = await say(service, name, typed)
    assert reply.text.startswith(f"Already so: {name} = {typed}."), reply.text


@pytest.mark.parametrize(
    ("typed", "told"),
    [
        ("99999999999m", ""),  # 1,666,666,666.65 hours: too big to be told (fixset37)
        ("1210m", "\n“1210m” is 20.16666667 hours."),  # beyond the range: the number alone
        ("-800m", "\n“-800m” is -13.33333333 hours."),
    ],
)
async def test_a_zone_with_its_unit_beyond_the_range_is_told_as_other_times(
    typed: str, told: str
) -> None:
    """``/settings utc_offset 99999999999m`` was told "Time zones go by quarter hours: 5.75
    or 5:45 is 5 h 45 min." (the hours it is are no whole quarter), though a time with its
    unit too big to be told is refused with the range alone (fixset37), and "1210m", 20.2
    hours, beyond the range, was told of quarter hours instead of the number it is (as
    "100000h" for hand_seconds is). Only a zone inside the range is told of quarter hours
    ("20m"); nothing is saved."""
    service, store = new_service()
    before = await stored(store)
    spec = SETTINGS["utc_offset"]
    reply = await say(service, "utc_offset", typed)
    assert reply.alert
    assert reply.text == refusal_text("en", spec.range_text("en") + "." + told), reply.text
    reply = await say(service, "utc_offset", typed, actor=BORIS)
    assert reply.alert and tr("ru", "settings.zone_quarters") not in reply.text, reply.text
    assert reply.text.startswith(refusal_text("ru", spec.range_text("ru") + ".")), reply.text
    assert await stored(store) == before
