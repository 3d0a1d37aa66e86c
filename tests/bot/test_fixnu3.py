"""A newcomer's reports from the sandbox, in Russian (fixnu3)."""

from __future__ import annotations

import dataclasses
import re

from tests.bot.test_bots import alice_and_a_bot, play_hand_with_bots
from tests.bot.test_service import ALICE, GROUP


async def test_group_stats_say_the_members_losses_that_make_their_net() -> None:
    """Alone with a computer player, a member read the group's "winnings of every hand, added
    up: 375" above their own "Net: -219" (after one hand: 0 against -12): the group line
    summed the winning hands only. It says the members' losses too, so that winnings less
    losses is the member's net (house kush, R8.1, being no member's)."""
    service, presenter, store, clock = await alice_and_a_bot("strong", point=3)
    for _ in range(5):
        t = service.table_in(GROUP)
        assert t is not None
        for _ in range(5):  # the next hand's deal, after its delay
            if t.hand is not None and not t.hand.is_over:
                break
            clock.now += 30
            await service.run_due()
        await play_hand_with_bots(service, presenter, clock)
    p = await store.find_player((await store.community("telegram", GROUP.community_id)).id,
                                ALICE.user_id)  # fmt: skip
    assert p is not None
    own = await store.player_stats(p.id)
    assert own.hands == 5 and own.kush_won > 0 and own.kush_won - own.kush > 0, own
    lines = (await service.stats(GROUP, ALICE, [])).text.splitlines()
    moved = [line for line in lines if line.startswith("Members in all hands: ")]
    lost = own.kush_won - own.kush
    assert moved == [f"Members in all hands: won {own.kush_won}, lost {lost} kush"], lines
    assert lines[-1] == f"Net: {own.kush:+d} kush"
    ru = dataclasses.replace(ALICE, language="ru")
    lines = (await service.stats(GROUP, ru, [])).text.splitlines()
    got = [line for line in lines if line.startswith("Участники во всех раздачах: ")]
    assert len(got) == 1 and re.fullmatch(
        rf"Участники во всех раздачах: выиграли {own.kush_won}, проиграли {lost} куш\w*", got[0]
    ), got
