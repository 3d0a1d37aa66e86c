"""What a new user and a group admin met trying the sandbox (the newuser helper's report).

The group's table message on a ``simultaneous_streets`` street (R3.6): the cards a player
has confirmed stay hidden until the street is complete, and then show. The message said
"🂠 hidden until showdown: 5 cards" for them, which a player reads as R6.3's closed board
(a Fantasyland hand); it says they show when the street ends. A board hidden until showdown
(R6.3, Chinese Poker) keeps its words. A classic-only option refused at a classic table says
which game the settings are for."""

from __future__ import annotations

from bot import render
from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.test_service_classic import ALICE, BOB, GROUP, auto_street, configure, start


async def test_r3_6_confirmed_cards_wait_for_the_street_not_the_showdown() -> None:
    service, presenter, _store, clock = service_env()
    await configure(service, simultaneous_streets="on")
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and set(t.hand.to_act) == {0, 1}
    await auto_street(service, presenter, ALICE)
    assert t.hand.view(None).seat(0).hidden == 5
    for lang in ("en", "ru"):
        lines = render.group_screen(t, lang, None, clock.now).text.splitlines()
        street = "  " + tr(lang, "board.hidden_street", count=5)
        showdown = "  " + tr(lang, "board.hidden")
        assert street in lines and showdown not in lines, lines
    assert tr("en", "board.hidden_street", count=5) == "🂠 hidden until the street ends: 5 cards"
    assert tr("ru", "board.hidden_street", count=2) == "🂠 закрыто до конца улицы: 2 карты"
    await auto_street(service, presenter, BOB)  # the street is complete: both boards show
    text = render.group_screen(t, "en", None, clock.now).text
    assert "🂠" not in text and t.hand.view(None).seat(0).board.count == 5


async def test_r4_5_a_chinese_poker_board_stays_hidden_until_showdown() -> None:
    service, presenter, _store, clock = service_env()
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    await auto_street(service, presenter, ALICE)
    lines = render.group_screen(t, "en", None, clock.now).text.splitlines()
    assert "  🂠 hidden until showdown: 13 cards" in lines, lines


async def test_a_classic_option_set_at_a_classic_table_is_played_there() -> None:
    """A Pineapple group opens a classic table (``/newtable ofc``) and its admin sets
    ``dummy_box``: it was refused "exists only in Classic OFC, not in Pineapple OFC" while the
    admin looked at a Classic OFC table; then "these settings are for Pineapple OFC
    (/settings game)". The classic table takes it (R4.3); Pineapple tables leave it out."""
    service, _presenter, store, _clock = service_env()
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.options.game.value == "ofc"
    reply = await service.settings(GROUP, ALICE, True, ["dummy_box", "on"])
    assert not reply.alert and "Saved: dummy_box = on" in reply.text, reply.text
    community = await store.community(GROUP.platform, GROUP.community_id)
    assert community.settings.options.get("dummy_box") is True
    assert community.settings.game == "pineapple"
    assert not community.settings.rule_options().dummy_box  # (a Pineapple table's)
