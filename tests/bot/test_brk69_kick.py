"""brk69: attacks on fix39h's ``/kick`` (``SeatState.kicked``: Join refused during the hand).

A player kicked mid-hand who then left the group (Telegram's ``left_chat_member``, a
Discord removal: :meth:`TableService.member_left`) went through ``leave`` a second time,
which set ``kicked`` from that call (no kick in it): ``False``. Back in the group during
the same hand, their Join took the admin's kick back, and the showdown no longer told them
in private that they stood up (the kick's notice had said it would)."""

from __future__ import annotations

import pytest

from bot.model import Actor
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_fix38a import TG, _service
from tests.bot.test_fix38f_kick_notice import _seated
from tests.bot.test_fix39h_kick import _play_on


@pytest.mark.parametrize("gone", ["member_left", "member_gone"])
async def test_r8_2_a_kicked_player_who_leaves_the_group_cannot_join_back_in_the_hand(
    gone: str,
) -> None:
    """Bob, kicked mid-hand, leaves the group (or the community), comes back and presses
    Join during the same hand: refused, still kicked; as the hand ends he stands up and is
    told in private that he did. Without the fix his Join seated him again."""
    service = _service(MemoryStore(), TG.platform)
    presenter = service.rt.presenters[TG.platform]
    assert isinstance(presenter, FakePresenter)
    alice = Actor(TG.platform, "11", "Alice", "en")
    bob = Actor(TG.platform, "12", "Bob", "en")
    try:
        t = await _seated(service, TG, alice, bob, "mid_hand")
        assert not (await service.kick(TG, alice, True, "Bob")).alert
        if gone == "member_left":
            await service.member_left(TG, bob)
        else:
            await service.member_gone(TG.platform, t.community_ext, bob.user_id)
        seat = t.seat_of(bob.user_id)
        assert seat is not None and seat.leaving and seat.kicked
        reply = await service.join(TG, bob)  # (back in the group)
        assert reply.alert and reply.text == tr("en", "reply.join_kicked")
        seat = t.seat_of(bob.user_id)
        assert seat is not None and seat.leaving and seat.kicked
        await _play_on(service, presenter, t, alice)
        assert t.seat_of(bob.user_id) is None
        told = [s.text for s in presenter.privates.get(bob.user_id, [])]
        stood = tr("en", "private.kicked_stood_up_nothing", table=t.id)[:-1]  # (+ "; N kush")
        assert sum(text.startswith(stood) for text in told) == 1, told
    finally:
        await service.stop()
