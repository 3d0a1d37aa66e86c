"""fix41b: Chinese Poker's end-of-hand screens say whose time ran out (R7.7): the player's
own private screen that it was theirs, the others' whose it was, as the group's reveal does."""

from __future__ import annotations

import pytest

from bot.model import Actor, ChatRef
from tests.bot.conftest import service_env
from tests.bot.test_service_classic import auto_street, configure, start

GROUP = ChatRef("telegram", "-200", "-200", "Classic")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r7_7_the_end_screens_say_whose_time_ran_out(lang: str) -> None:
    """Alice never arranges her 13 cards: her board counts as fouled and the game ends
    (R7.7). Her private screen said only "hand 1 is over" (and that she sits out), the others'
    only "hand 1 is over", beside a dead hand and a game over: now hers says it was her time,
    the others' whose it was, as the group's reveal names them."""
    alice = Actor("telegram", "1", "Alice", lang)
    bob = Actor("telegram", "2", "Bob", lang)
    service, presenter, _store, clock = service_env()
    await configure(service, game="chinese", reveal_pause_seconds="0")
    assert not (await service.settings(GROUP, alice, True, ["language", lang])).alert
    assert not (await service.new_table(GROUP, alice, "chinese")).alert
    for a in (alice, bob):
        assert not (await service.join(GROUP, a)).alert
    for a in (alice, bob):
        assert not (await service.ready(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    await auto_street(service, presenter, bob)
    clock.now += 181  # budget and bank run out (R8.5)
    for _ in range(5):
        await service.run_due()
    assert t.chinese is None  # the game is over and settled (R7.6)
    mine = presenter.last_private("1").text
    theirs = presenter.last_private("2").text
    expected = {
        "en": (
            "🃏 Table #1 · hand 1 is over. Result in the group.\n"
            "⌛ Your time ran out: your hand is dead and the game is over. "
            "You sit out from the next hand on. /back to play again.",
            "🃏 Table #1 · hand 1 is over. Result in the group.\n"
            "⌛ Alice: time ran out, so the game ends here.",
        ),
        "ru": (
            "🃏 Стол #1 · раздача 1 окончена. Итоги в группе.\n"
            "⌛ Ваше время вышло: ваша рука мёртвая, игра окончена. "
            "Со следующей раздачи вы пропускаете игру. /back — вернуться в игру.",
            "🃏 Стол #1 · раздача 1 окончена. Итоги в группе.\n"
            "⌛ Alice: время вышло, поэтому игра на этом окончена.",
        ),
    }[lang]
    assert (mine, theirs) == expected
    # the group's last reveal frame names her too (as it did)
    reveal = next(s.text for s in reversed(presenter.tables[GROUP.chat_id]) if "🀄" in s.text)
    assert expected[1].splitlines()[1] in reveal.splitlines(), reveal


async def test_r7_7_a_game_over_at_the_target_says_no_timeout_on_the_private_screens() -> None:
    """Nobody's time ran out: the private screens say only that the hand is over (the
    reason lines are for a timeout alone)."""
    alice = Actor("telegram", "1", "Alice", "en")
    bob = Actor("telegram", "2", "Bob", "en")
    service, presenter, _store, clock = service_env(next_hand_delay=60)
    await configure(service, game="chinese", reveal_pause_seconds="0", target_points="1")
    await start(service, [alice, bob], "chinese")
    await auto_street(service, presenter, bob)
    await auto_street(service, presenter, alice)
    for _ in range(5):  # (the claim offered at the target goes by, R7.5)
        clock.now += 31
        await service.run_due()
    t = service.table_in(GROUP)
    assert t is not None and t.chinese is None and t.hand is None  # settled (R7.6)
    over = "🃏 Table #1 · hand 1 is over. Result in the group."
    assert presenter.last_private("1").text == over
    assert presenter.last_private("2").text == over
