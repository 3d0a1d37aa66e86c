"""brk52: attacks on fixmember (chat_member departures) and fixnu47 (/grant me, Russian
computer player names)."""

from __future__ import annotations

from pathlib import Path

from bot.model import ChatRef
from bot.telegram.fake_api import BOT_ID
from bot.texts import on, tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_fixmember import _count_member_left, _seated
from tests.bot.test_service import ALICE as S_ALICE
from tests.bot.test_service import BOB, GROUP, dealt_at
from tests.bot.test_tournament_service import (
    PLAYERS,
    open_and_register,
    open_and_register_rest,
    restarted,
)
from tests.bot.test_tournament_service import new_service as tour_service
from tests.bot.tg_world import ALICE, GROUP_ID, world
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import CAROL as TG_CAROL


async def test_an_anonymous_admins_grant_me_makes_no_wallet_for_the_group(
    tmp_path: Path,
) -> None:
    """An anonymous admin writes as the group (GroupAnonymousBot, a bot account): "me" names
    no member. ``/grant me 100`` made a wallet for GroupAnonymousBot ("Group", first on /top)
    with the grant in it; now it is answered as every player's command sent as the group is,
    nothing made."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        mid = await w.fake.send_anonymous(GROUP_ID, "/grant me 100")
        reply = await w.fake.wait_for(lambda: w.fake.reply_to(GROUP_ID, mid))
        assert reply["text"] == tr("en", "reply.anonymous"), reply
        top = await w.say(ALICE, "/top")
        assert "Group" not in top["text"], top["text"]
        assert (await w.say(ALICE, "/grant me 100"))["text"] == "Alice: +100 kush, balance 1,100."


# -- fixmember: a departure told twice, a rejoin, a restart, another group ----------------
async def test_r8_2_rejoin_join_then_leave_again_counts_and_touches_one_group() -> None:
    """Bob leaves the group mid-hand (leaving after it), comes back and presses Join (the
    leave taken back), then leaves again: the second departure counts (told again, leaving
    again); the same departure told twice after that changes nothing. His seat at another
    group's table is untouched throughout. A restart between two reports keeps the mark."""
    service, presenter, store, clock = service_env()
    other = ChatRef("telegram", "-200", "-200", "Other")
    t = await dealt_at(service, GROUP, (S_ALICE, BOB))
    u = await dealt_at(service, other, (S_ALICE, BOB))
    assert not (await service.member_left(GROUP, BOB, request="tg:-100:1")).alert  # type: ignore[union-attr]
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and bob.leaving and bob.left_group
    assert not (await service.join(GROUP, BOB)).alert
    assert not bob.leaving and not bob.left_group
    again = await service.member_left(GROUP, BOB, request="tg:-100:2")
    assert again is not None and not again.alert
    assert bob.leaving and bob.left_group
    notice = tr("en", on("telegram", "notice.left_group_later"), name="Bob")
    assert [text for _, text in presenter.posts].count(notice) == 2
    bob_there = u.seat_of(BOB.user_id)
    assert bob_there is not None and not bob_there.leaving and not bob_there.left_group
    # the bot restarts; the second report of the second departure comes after
    service2, presenter2 = await restarted(store, clock)
    t2 = service2.table_in(GROUP)
    assert t2 is not None
    bob2 = t2.seat_of(BOB.user_id)
    assert bob2 is not None and bob2.leaving and bob2.left_group
    third = await service2.member_left(GROUP, BOB, request="tg:-100:3")
    assert third is not None and third.alert
    assert notice not in [text for _, text in presenter2.posts]
    hand_no = t2.hand_no
    for _ in range(40):  # the clock plays the hand out: he stands up once, at its end
        if t2.hand_no != hand_no or t2.hand is None:
            break
        clock.now += 400
        await service2.run_due()
    assert t2.seat_of(BOB.user_id) is None
    assert await check_store(store) == []


async def test_r8_7_a_tournament_player_who_left_the_group_told_twice_is_out_once() -> None:
    """A running tournament: Bob leaves the group mid-hand, told by both updates (and the
    second after a restart): he is knocked out once, one notice, his chips out of play once,
    the ledger balanced."""
    service, presenter, store, clock = tour_service(next_hand_delay=0)
    await open_and_register(service, PLAYERS)
    t = service.table_in(GROUP)
    assert t is not None
    if t.hand is None:
        await open_and_register_rest(service)
    assert t.hand is not None and t.tournament is not None
    first = await service.member_left(GROUP, BOB, request="tg:-100:1")
    assert first is not None and not first.alert, first
    again = await service.member_left(GROUP, BOB, request="tg:-100:2")
    assert again is not None and again.alert
    out = [text for _, text in presenter.posts if text.startswith("❌ Bob is out")]
    assert len(out) == 1, presenter.posts
    service2, presenter2 = await restarted(store, clock)
    third = await service2.member_left(GROUP, BOB, request="tg:-100:3")
    assert third is None or third.alert
    assert not [text for _, text in presenter2.posts if "Bob" in text]
    assert await check_store(store) == []


async def test_r8_2_telegram_rejoin_and_leave_again_a_channel_and_another_group(
    tmp_path: Path,
) -> None:
    """Mid-hand Bob leaves the group (``chat_member`` only), comes back (left → member: no
    departure, the leave stands until he presses Join) and leaves again (told once: he is
    leaving already). Departures in a channel and in another group where the bot is an
    administrator touch nothing here."""
    async with world(tmp_path) as w:
        w.fake.admins.setdefault(GROUP_ID, set()).add(BOT_ID)
        channel, elsewhere = -100777, -100888
        w.fake.chats[channel] = {"id": channel, "type": "channel", "title": "News"}
        for chat in (channel, elsewhere):
            w.fake.admins.setdefault(chat, set()).add(BOT_ID)
        await _seated(w, deal=True)
        t = next(iter(w.service.tables.values()))
        handled = _count_member_left(w)
        for chat in (channel, elsewhere):
            assert await w.fake.remove_member(chat, TG_CAROL, service_message=False) is not None
        await w.fake.wait_for(lambda: len(handled) == 2 or None)
        carol = t.seat_of(str(TG_CAROL.id))
        assert handled == [None, None] and carol is not None and not carol.leaving
        assert await w.fake.remove_member(GROUP_ID, TG_BOB, service_message=False) is not None
        await w.fake.member_status(GROUP_ID, TG_BOB, {"status": "member"}, old={"status": "left"})
        assert await w.fake.remove_member(GROUP_ID, TG_BOB, service_message=False) is not None
        await w.fake.wait_for(lambda: len(handled) == 4 or None)
        await w.settle()
        bob = t.seat_of(str(TG_BOB.id))
        assert bob is not None and bob.leaving and bob.left_group
        later = tr(t.lang, "notice.left_group_later", name="Bob")
        assert w.group_texts().count(later) == 1, w.group_texts()
        assert await check_store(w.store) == []
