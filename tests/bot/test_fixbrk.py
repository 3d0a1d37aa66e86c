"""Replies a break-it session on Discord and Telegram found confusing (fixbrk)."""

from __future__ import annotations

from bot.texts import tr
from tests.bot.test_service import ALICE, BOB, GROUP, play_out, seated


async def test_r8_2a_a_second_close_mid_hand_answers_the_admin_alone(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2a: a second admin close while the table already closes at the end of the hand
    is answered to that admin alone (a refusal: ephemeral on Discord) and writes nothing to
    the group: the table message is not written again, no notice posted."""
    service, presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    first = await service.close_table(GROUP, ALICE, True)
    assert first.text == tr("en", "reply.closes_after_hand", table=t.id) and not first.alert
    writes, posts, version = presenter.writes, list(presenter.posts), t.version
    again = await service.close_table(GROUP, BOB, True)  # Bob reads Russian
    assert again.alert
    assert again.text == f"Стол #{t.id} уже закроется в конце этой раздачи."
    assert (presenter.writes, presenter.posts, t.version) == (writes, posts, version)
    assert t.closing and t.hand is not None
    await play_out(service, presenter, [ALICE, BOB])  # the hand's end still closes it
    assert service.table_in(GROUP) is None
