"""rev40: a player who leaves the group during the hand while the last to act. The cards
placed for them (R8.5) end the hand in that very step, which stands them up at once, their
stack back (R8.2; the showdown's notice says so). The group's notice of their leaving then
said "… leaves the table after this hand (their moves are made for them)", after the
showdown that had already stood them up: it says they left the group and the table."""

from __future__ import annotations

from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.money import assert_conserved
from tests.bot.test_fix39j_leave import _bob_last_to_act
from tests.bot.test_service_classic import BOB, GROUP


async def test_r8_5_the_last_to_act_leaving_the_group_is_not_told_as_leaving_later() -> None:
    service, presenter, store, _clock = service_env(next_hand_delay=5)
    try:
        t = await _bob_last_to_act(service, presenter)
        posted = len(presenter.posts)
        reply = await service.member_left(GROUP, BOB)
        assert reply is not None
        await service.rt.settled(t)
        assert t.seat_of(BOB.user_id) is None and t.hand is None  # (stood up with the hand)
        posts = [text for _chat, text in presenter.posts[posted:]]
        later = tr("en", "notice.left_group_later", name="Bob")
        assert later not in posts, posts
        assert tr("en", "notice.left_group", name="Bob") in posts, posts
        await assert_conserved(store)
    finally:
        await service.stop()
