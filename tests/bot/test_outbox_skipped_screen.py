"""outbox: a step's table message skipped for a later step's (brkh43,
:meth:`bot.service.runtime.Runtime.send`) when that later step's group messages then fail
before its table message is written (its notice's send raises, or the table message's
write itself): the group is shown the table as it is then, after the failure, not left
with neither step's table message (stale until the table's next write)."""

from __future__ import annotations

import asyncio

from bot.model import LiveTable
from bot.screens import Screen
from bot.service import TableService
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service_classic import ALICE, BOB, GROUP, start


class Failing(FakePresenter):
    """Records as :class:`FakePresenter`; the first table message write whose text holds
    :attr:`bad_table`, and the first :attr:`post_failures` sends of the notice whose text
    is :attr:`bad_post`, raise (a presenter's error past its own retries)."""

    bad_table: str | None = None
    bad_post: str | None = None
    post_failures = 0

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        if self.bad_table is not None and self.bad_table in screen.text:
            self.bad_table = None
            raise RuntimeError("table message refused")
        return await super().show_table(chat_id, screen, ref)

    async def post(self, chat_id: str, text: str, ref: str | None = None) -> bool:
        if self.post_failures and text == self.bad_post:
            self.post_failures -= 1
            raise RuntimeError("notice refused")
        return await super().post(chat_id, text, ref)


async def two_steps_held(
    p: Failing, *, notice: str | None = None
) -> tuple[TableService, LiveTable]:
    """Alice and Bob at a Pineapple table; the group's sender held (a platform's 429) while
    two steps commit, each re-rendering the table message: the first renames Alice to
    "Alicia", the second her again to "Alissa" (and owes the group ``notice``)."""
    service, _p, _store, _clock = service_env()
    service.register(p)
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None
    rt = service.rt
    await rt.settled(t)
    gate = asyncio.Event()
    rt.send_later(t, gate.wait)  # (the group's sender held)
    seat = t.seat_of(ALICE.user_id)
    assert seat is not None
    for name in ("Alicia", "Alissa"):
        async with t.lock, rt.transition(t) as tx:
            t.seats[seat.seat].name = name
            if name == "Alissa" and notice is not None:
                t.owe("post", Screen(notice))
            tx.group = True
    assert t.screen_seq >= 2
    gate.set()
    await rt.settled(t)
    await rt.settled(t)  # (a refresh queued by a failure: waited for too)
    return service, t


async def test_the_later_table_message_refused_writes_the_newest_after_it() -> None:
    """The later step's table message write raises: the group gets the table message as
    the table is (Alissa), written once after the failure; the old code wrote nothing, the
    group still showing Alice."""
    p = Failing()
    p.bad_table = "Alissa"
    service, t = await two_steps_held(p)
    shown = p.last_table(t.group_chat).text
    assert "Alissa" in shown and "Alicia" not in shown
    assert shown == service.rt.group_screen(t).text
    writes = sum(1 for s in p.tables[t.group_chat] if "Alissa" in s.text)
    assert writes == 1
    assert not t.screen_skipped


async def test_the_later_step_s_notice_refused_still_writes_the_newest_table_message() -> None:
    """The later step owes a notice, whose send raises twice: in the first step's messages
    (which send what the table owes by then) and in the later step's, whose table message
    is then not written. The notice is sent on the next try, then the table message as the
    table is (Alissa), once; the old code sent neither (nor the notice)."""
    p = Failing()
    p.bad_post, p.post_failures = "Alissa sits here now", 2
    _service, t = await two_steps_held(p, notice="Alissa sits here now")
    assert [text for _chat, text in p.posts].count("Alissa sits here now") == 1
    group = p.tables[t.group_chat]
    assert "Alissa" in group[-1].text
    assert sum(1 for s in group if "Alissa" in s.text or "Alicia" in s.text) == 1


async def test_coalesced_table_messages_with_no_failure_are_still_one_write() -> None:
    """No failure: the two steps' table messages are one write, the later one (brkh43)."""
    p = Failing()
    _service, t = await two_steps_held(p)
    group = p.tables[t.group_chat]
    assert sum(1 for s in group if "Alissa" in s.text or "Alicia" in s.text) == 1
    assert "Alissa" in group[-1].text
