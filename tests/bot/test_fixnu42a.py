"""A new user's sandbox findings (fixnu42a): Chinese Poker's leave question said the hand "may
turn out dead" where it is dead and the game ends for everyone (R7.7, R7.6); ``/closetable``
during a hand threw an earned Fantasyland away unsaid (R6, R8.2a); the reveal's long "2 of 3
boxes" line; a spent time bank vanished from the clock (R8.5); ``/stats`` "bonus/hand" read as
the 2-of-3 bonus (R7.2, R7.3); ``/replay`` said «скрыто» and "table 1, hand 2"."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from bot import render
from bot.service import stats as stats_mod
from bot.texts import tr
from bot.thinking import Thinker
from storage.api import HandRecord, HandStats
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_break13 import grant_fantasyland
from tests.bot.test_service_classic import (
    ALICE,
    BOB,
    GROUP,
    auto_street,
    chinese_hand_arranged,
    configure,
    play_hand,
    start,
)
from tests.game.helpers import deal
from tests.game.test_history import stored

# -- 1. Chinese Poker: leaving during the hand (R7.7, R7.6) -----------------------------------


@pytest.mark.parametrize("safe", ["off", "on"])
async def test_r7_7_the_chinese_leave_question_says_the_hand_is_dead_and_the_game_ends(
    safe: str,
) -> None:
    """/leave during a Chinese Poker hand asked "…placed automatically and may foul" («рука
    может оказаться мёртвой»); at the reveal the leaver's legal board was dead (R7.7: cards
    placed for them count as fouled, safe_autoplay or not) and the game to 51 ended and was
    settled for everyone (R7.6). The question and the answer say exactly that."""
    service, presenter, store, clock = service_env()
    await configure(service, game="chinese", reveal_pause_seconds="0", safe_autoplay=safe)
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    asked = await service.leave(GROUP, ALICE)
    assert asked.alert and asked.text == (
        "Leave during the hand? Your hand will be dead, and the game to 51 ends with this "
        "hand, settled for everyone. Send /leave again to confirm."
    )
    assert tr("ru", "reply.leave_confirm_typed_chinese", target=51) == (
        "Встать во время раздачи? Рука будет мёртвой, а игра до 51 очка закончится этой "
        "раздачей с расчётом для всех. Отправьте /leave ещё раз, чтобы подтвердить."
    )
    assert tr("ru", "reply.leave_confirm_chinese", target=51).endswith(
        "с расчётом для всех. Нажмите «Встать» ещё раз, чтобы подтвердить."
    )
    left = await service.leave(GROUP, ALICE)
    assert not left.alert and left.text == (
        "You leave after this hand. Your hand is dead, and the game to 51 ends with it, "
        "settled for everyone; your stack comes back then."
    )
    assert tr("ru", "reply.leave_after_hand_chinese", target=51) == (
        "Вы встанете после этой раздачи. Ваша рука мёртвая, а игра до 51 очка закончится "
        "этой раздачей с расчётом для всех; тогда же вернётся стек."
    )
    # what it said happens: Alice's board is dead, the game over and settled
    hand = t.hand
    await auto_street(service, presenter, BOB)
    for _ in range(6):
        clock.now += 60
        await service.run_due()
    reveal = [s.text for s in presenter.tables[GROUP.chat_id] if "🚪 Alice" in s.text][-1]
    assert "🚪 Alice left the table, so the game ends here.\nThe game is settled." in reveal
    assert hand.result is not None and hand.result.seat(0).fouled
    assert t.seat_of(ALICE.user_id) is None and t.chinese is None
    assert await check_store(store) == []


async def test_r7_6_a_chinese_leave_with_the_cards_arranged_says_the_game_ends() -> None:
    """Arranged already, Alice's /leave does not ask (nothing is placed for her), but the game
    still ends with the hand for everyone (R7.6): "your board is complete" said nothing of
    it."""
    service, presenter, _store, _clock = service_env()
    await configure(service, game="chinese", reveal_pause_seconds="5")
    await start(service, [ALICE, BOB], "chinese")
    await auto_street(service, presenter, ALICE)
    left = await service.leave(GROUP, ALICE)
    assert not left.alert and left.text == (
        "You leave after this hand; your board is complete. The game to 51 ends with it, "
        "settled for everyone, and your stack comes back then."
    )
    assert tr("ru", "reply.leave_after_hand_done_chinese", target=51) == (
        "Вы встанете после этой раздачи; ваша рука уже разложена. Этой раздачей закончится "
        "игра до 51 очка с расчётом для всех, тогда же вернётся стек."
    )


async def test_r8_5_the_pineapple_leave_question_is_unchanged() -> None:
    """Pineapple: the rest of the hand is placed by the timeout rule and may foul (R8.5): a
    possibility, not a certainty; nothing is said of a game to a target."""
    service, _presenter, _store, _clock = service_env()
    await start(service, [ALICE, BOB], "pineapple")
    asked = await service.leave(GROUP, ALICE)
    assert asked.alert and asked.text == (
        "Leave during your hand? Your remaining cards are placed automatically and may foul. "
        "Send /leave again to confirm."
    )


# -- 2. /closetable during a hand that can earn Fantasyland (R6, R8.2a) ------------------------


async def test_r8_2a_closetable_during_a_hand_says_its_fantasyland_is_not_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An admin's /closetable during a Pineapple hand answered only "Table #1 closes at the end
    of this hand.", and the Fantasyland the hand earned was dropped without a word. The
    answer says it is not played; the closing message names who earned it."""
    grant_fantasyland(monkeypatch, itertools.repeat(True))
    service, presenter, store, _clock = service_env(next_hand_delay=5)
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == (
        "Table #1 closes at the end of this hand, stacks go back to balances; Fantasyland "
        "earned in it is not played."
    )
    assert tr("ru", "reply.closes_after_hand_fl", table=1) == (
        "Стол #1 закроется в конце этой раздачи, стеки вернутся на балансы; заработанная в "
        "ней Фантазия не будет сыграна."
    )
    assert presenter.last_table(GROUP.chat_id).text.endswith("\n\n" + reply.text)
    hand = t.hand
    await play_hand(service, presenter, [ALICE, BOB])
    assert service.table_in(GROUP) is None and hand.result is not None
    earned = [r.seat for r in hand.result.seats if r.fantasyland_cards]
    assert earned  # (an unfouled board: the strategy places so)
    names = ", ".join(["Alice", "Bob"][s] for s in sorted(earned))
    closed = presenter.last_table(GROUP.chat_id).text
    assert closed.startswith("Table #1 is closed; stacks returned to balances: ")
    assert closed.endswith(f"\n🌴 {names}: the Fantasyland earned is not played."), closed
    assert tr("ru", "close.fantasyland_forgone", names="Alice") == (
        "🌴 Alice: заработанная Фантазия не будет сыграна."
    )
    assert await check_store(store) == []


async def test_r8_2a_a_chinese_poker_close_says_no_word_of_fantasyland() -> None:
    """Chinese Poker has no Fantasyland (R7): its close during a hand answers as before."""
    service, _presenter, _store, _clock = service_env()
    await configure(service, game="chinese")
    await start(service, [ALICE, BOB], "chinese")
    reply = await service.close_table(GROUP, ALICE, True)
    assert reply.text == "Table #1 closes at the end of this hand; stacks go back to balances."


# -- 3. the reveal's point for 2 of 3 boxes, won with bottom and middle (R7.3) -----------------


async def test_r7_3_the_bottom_and_middle_line_is_short() -> None:
    """«Низ и середина выиграны: +1 (+1 с каждого такого соперника за 2 бокса из 3, каким бы
    ни был верх)» under each such player's middle, at every reveal: too long for a phone and
    the same explanation each time. It said «Низ и середина: +1 за 2 бокса из 3»; since
    fixnu47b it is the one wording the top and the picture use too (R7.3)."""
    service, presenter, _store, clock, t = await chinese_hand_arranged("3")
    clock.now += 3
    await service.run_due()  # the middle
    lines = presenter.last_table(GROUP.chat_id).text.splitlines()
    assert "  2+ of 3 boxes (+1 per opponent): +1" in lines, lines
    ru = render.reveal_screen(t, "ru").text.split("\n")
    assert "  2+ бокса из 3 (+1 с каждым соперником): +1" in ru, ru


# -- 4. a time bank spent at an earlier timeout (R8.5) ------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r8_5_a_spent_time_bank_is_left_out(lang: str) -> None:
    """After a timeout spent the bank (it does not refill at the table, R8.5), the clock read
    «⏱ 1:49 + тайм-банк 0:00» (fixnu42a), and «+0:00» where the bank was said before on the
    line, which nobody understood (fix39g): a spent bank is left out, «⏱ 1:49»."""
    service, _presenter, _store, clock = service_env()
    await start(service, [ALICE, BOB], "pineapple")
    assert not (await service.settings(GROUP, ALICE, True, ["language", lang])).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    seat = t.hand.to_act[0]
    owner = t.owner(seat)
    t.clocks[owner] = dataclasses.replace(t.clocks[owner], bank=0.0)
    budget = render.mmss(t.clocks[owner].left(clock.now)[0])
    bank = {"en": "time bank", "ru": "тайм-банк"}[lang]
    group = render.group_screen(t, lang, None, clock.now).text
    assert f"⏱ {budget}\n" in group and bank not in group, group
    player = t.seats[owner]
    private = service.rt.render_private(t, player).text
    turn = {"en": "Your move", "ru": "Ваш ход"}[lang]
    assert f"{turn} · ⏱ {budget}." in private and bank not in private, private
    # with the group's time zone: the clock time alone, no "(+0:00 time bank)"
    zoned = render.group_screen(t, lang, None, clock.now, 3.0).text
    assert "0:00" not in zoned and bank not in zoned, zoned


# -- 5. /stats: Chinese Poker's strength bonuses (R7.2) ----------------------------------------


def test_r7_2_stats_name_the_strength_bonus_apart_from_the_two_of_three_point() -> None:
    """A "bonus/hand 0.0" after the player won "Bonus for winning 2 or 3 of 3 boxes: +1" twice:
    the figure counts the strength bonuses (R7.2) only, and says so."""
    chinese = HandStats(hands=2, players=1, boards=2, points=12, bonuses=0, bonus_boards=2,
                        chinese_hands=2, chinese_points=12)  # fmt: skip
    en = stats_mod._stats_lines(chinese, "en", "kush", group=False)
    assert en[1:] == [
        "Fouls: 0% (0 of 2 boards)",
        "Strength bonus/hand 0.0",
        "Chinese Poker points/hand 6.0",
    ]
    ru = stats_mod._stats_lines(chinese, "ru", "kush", group=False)
    assert ru[2] == "Бонус за комбинации за раздачу: 0,0"
    # beside the open-face royalties, a line of its own
    mixed = HandStats(hands=3, players=1, boards=3, points=98, royalties=64, bonuses=15,
                      bonus_boards=1)  # fmt: skip
    lines = stats_mod._stats_lines(mixed, "en", "kush", group=False)
    assert lines[2:4] == ["Royalties/hand 32.0", "Strength bonus/hand 15.0"]


# -- 6. /replay: the table's wording ------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_replay_says_hidden_and_the_table_as_the_live_game_does(lang: str) -> None:
    """The live table says «🂠 закрыто до вскрытия: 13 карт»; /replay said «🂠 скрыто до
    вскрытия», and "table 1, hand 2" where everything else says "Table #1"."""
    hand = deal("", seats=(0, 1), button=1, fantasyland={0: 14})
    while not hand.is_over:
        hand.timeout(hand.to_act[0])
    record = HandRecord(7, 1, 3, stored(hand), hand.result.to_json() if hand.result else {},
                        {0: 10, 1: 11}, 0.0)  # fmt: skip
    frames = await stats_mod._frames(Thinker(False), record, 1)
    lines = stats_mod.replay_screen(record, frames, 1, 1, {0: "Alice", 1: "Bob"}, lang).text
    want = {
        "en": ("🎬 #7 · table #1 · hand 3", "  🂠 hidden until showdown"),
        "ru": ("🎬 #7 · стол #1 · раздача 3", "  🂠 закрыто до вскрытия"),
    }[lang]
    got = lines.splitlines()
    assert got[0] == want[0], got
    assert got[got.index("Alice 🌴:") + 1] == want[1], got
    live = tr(lang, "board.hidden_count", hidden=tr(lang, "board.hidden"), count=13)
    assert live == {"en": "🂠 hidden until showdown: 13 cards",
                    "ru": "🂠 закрыто до вскрытия: 13 карт"}[lang]  # fmt: skip
