"""Chinese Poker (R7) break-it findings: the screens read the running game's own target, and
the game's points are shown between hands and during the arrangement."""

from __future__ import annotations

from dataclasses import replace

from bot import render
from bot.discord.components import content_of
from tests.bot.test_service_classic import (
    ALICE,
    BOB,
    GROUP,
    chinese_after_one_hand,
    chinese_hand_arranged,
)


async def test_r7_1_reveal_and_claim_show_the_games_target_not_the_option() -> None:
    """A game whose target (30) differs from the table's ``target_points`` (200), as a table
    saved before a mid-game change applied to the game: the reveal's totals and the claim
    read the game's 30 (they showed "6/200", and "reached 200 points" for a game to 30)."""
    _service, _presenter, _store, clock, t = await chinese_hand_arranged("3")
    assert t.options.target_points == 200 and t.chinese is not None
    assert t.reveal is not None and t.reveal["stage"] == 1
    t.chinese = replace(t.chinese, target=30)
    # (a reveal saved without the target it is played to, before fix39g: the game's; one
    # saved since keeps the target its game had as it began, tests/bot/test_fix39g_chinese.py)
    t.reveal = {k: v for k, v in t.reveal.items() if k != "target"}
    text = render.group_screen(t, "en", None, clock.now).text.splitlines()
    assert "Alice · 6 pts (target 30)" in text and "Bob · 0 pts (target 30)" in text
    assert not any("/200" in line for line in text)
    ru = render.group_screen(t, "ru", None, clock.now).text.splitlines()
    assert "Alice · 6 очков (цель 30)" in ru
    # Alice at a target of 6 may claim after the bottom (R7.5): the claim names the game's 6
    t.chinese = replace(t.chinese, target=6)
    t.reveal = {**t.reveal, "claim": {"seats": [0]}}
    screen = render.group_screen(t, "en", None, clock.now)
    assert "🏆 Alice reached 6 points: Claim to end the game now, or Continue the reveal." in (
        screen.text.splitlines()
    )
    assert "Alice · 6 pts (target 6)" in screen.text.splitlines()
    ru_claim = render.group_screen(t, "ru", None, clock.now).text
    assert "🏆 Alice: цель в 6 очков достигнута." in ru_claim
    # with no game running the option is the target (the next game's)
    t.chinese = None
    assert render.game_target(t) == 200


async def test_r7_1_the_games_points_are_shown_between_hands_and_while_arranging() -> None:
    """Chinese Poker to 200, after the first hand (Alice 22, Bob 0): the table message between
    hands, the table message during the next hand's arrangement and each player's private
    hand carry one short line of the game's points, leader first, in both languages (they
    showed only the stacks: the score was in the last reveal, far up the chat). Discord posts
    the same screen text (``content_of``)."""
    service, presenter, _store, clock, t = await chinese_after_one_hand()
    line_en = "🎯 Game to 200: Alice 22 · Bob 0"
    line_ru = "🎯 Игра до 200 очков: Alice 22 · Bob 0"
    lobby = render.group_screen(t, "en", None, clock.now).text.splitlines()
    assert lobby[2] == line_en  # under the title, above the seats
    assert render.group_screen(t, "ru", None, clock.now).text.splitlines()[2] == line_ru
    assert line_en in presenter.last_table(GROUP.chat_id).text.splitlines()
    assert line_en in content_of(render.lobby_screen(t, "en", None, clock.now).text)
    # the next hand: arranged in secret, the score above the (hidden) boards
    clock.now += 10
    for _ in range(3):
        await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and t.reveal is None
    board = render.group_screen(t, "en", None, clock.now).text.splitlines()
    assert board[1] == line_en
    assert line_en in presenter.last_table(GROUP.chat_id).text.splitlines()
    assert render.group_screen(t, "ru", None, clock.now).text.splitlines()[1] == line_ru
    for who in (ALICE, BOB):
        private = presenter.last_private(who.user_id).text.splitlines()
        assert private[1] == line_en
    seat = t.seats[0]
    seat.lang = "ru"
    assert render.private_screen(t, seat, clock.now).text.splitlines()[1] == line_ru


async def test_r7_1_no_score_line_before_the_games_first_points_or_after_it() -> None:
    """The first hand's arrangement has no points yet: no line; a game over (the next hand
    starts a new one) shows none either."""
    service, presenter, _store, clock, t = await chinese_hand_arranged("3")
    del service, presenter
    assert t.chinese is not None
    t.chinese = replace(t.chinese, totals={})
    t.reveal = None
    t.hand = None
    assert "🎯" not in render.lobby_screen(t, "en", None, clock.now).text
    t.chinese = replace(t.chinese, totals={0: 60, 1: 9}, over=True)
    assert "🎯" not in render.lobby_screen(t, "en", None, clock.now).text
    t.chinese = replace(t.chinese, over=False)
    assert "🎯 Game to 200: Alice 60 · Bob 9" in render.lobby_screen(t, "en", None, clock.now).text


async def test_r7_1_r8_7_a_chinese_tournaments_lobby_shows_the_games_points() -> None:
    """A Chinese Poker tournament to 200 between hands: its lobby (level, chips) carries the
    game's points too (they decide the chips the game moves, R7.6)."""
    from tests.bot import test_tournament_service as tours
    from tests.bot.test_service import press_auto_and_confirm

    service, presenter, _store, clock = tours.new_service(next_hand_delay=4)
    await tours.configure(service, game="chinese", target_points="200")
    await tours.a_chinese_tournament_started(service, presenter)
    t = service.table_in(tours.GROUP)
    assert t is not None and t.tournament is not None
    by_id = {a.user_id: a for a in tours.PLAYERS}
    for _ in range(200):
        if t.hand is None:
            break
        if t.hand.to_act:
            who = by_id[t.seats[t.hand.to_act[0]].user_id]
            await press_auto_and_confirm(service, presenter, who)
        else:
            clock.now += 5  # the reveal's pauses
            await service.run_due()
    assert t.hand is None and t.chinese is not None and not t.chinese.over
    lines = render.group_screen(t, "en", None, clock.now).text.splitlines()
    order = sorted(t.chinese.totals.items(), key=lambda sp: (-sp[1], sp[0]))
    scores = " · ".join(f"{t.board_label(s)} {p}" for s, p in order)
    assert f"🎯 Game to 200: {scores}" in lines
    assert len(order) == 3
