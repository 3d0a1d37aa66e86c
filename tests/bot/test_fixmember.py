"""A seated member who leaves the Telegram group is stood up from the ``chat_member`` update
too (R8.2, R8.5): a group may hide its join/leave service messages, and a supergroup does
not always send ``left_chat_member`` to bots; the seat stayed until the timeouts and the idle
close. Telegram sends ``chat_member`` only to an administrator bot that asks for it by name
(``allowed_updates``); a departure told both ways applies once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.model import Reply
from bot.telegram.adapter import ALLOWED_UPDATES
from bot.telegram.fake_api import BOT_ID
from bot.texts import on, tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, GROUP, dealt_at
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import CAROL as TG_CAROL
from tests.bot.tg_world import GROUP_ID, World, world

#: a ``restricted`` status (without ``is_member``) that may send nothing
MUTED: dict[str, Any] = {
    "status": "restricted",
    "until_date": 0,
    **dict.fromkeys(
        ("can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
         "can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
         "can_send_other_messages", "can_add_web_page_previews", "can_change_info",
         "can_invite_users", "can_pin_messages", "can_manage_topics", "can_edit_tag",
         "can_react_to_messages"),
        False,
    ),
}  # fmt: skip

ADMIN: dict[str, Any] = {
    "status": "administrator", "can_be_edited": False, "is_anonymous": False,
    "can_manage_chat": True, "can_delete_messages": False, "can_manage_video_chats": False,
    "can_restrict_members": False, "can_promote_members": False, "can_change_info": False,
    "can_invite_users": False, "can_post_stories": False, "can_edit_stories": False,
    "can_delete_stories": False,
}  # fmt: skip


def _count_member_left(w: World) -> list[Reply | None]:
    """Each ``member_left`` the adapter made, its answer appended once handled."""
    handled: list[Reply | None] = []
    member_left = w.service.member_left

    async def counted(*args: Any, **kwargs: Any) -> Reply | None:
        handled.append(await member_left(*args, **kwargs))
        return handled[-1]

    w.service.member_left = counted  # type: ignore[method-assign]
    return handled


async def _seated(w: World, *, deal: bool) -> None:
    """Alice, Bob and Carol sit down at a new table; with ``deal`` they press Ready (the
    hand is dealt)."""
    w.fake.started_users.update({TG_ALICE.id, TG_BOB.id, TG_CAROL.id})
    await w.say(TG_ALICE, "/newtable")
    for u in (TG_ALICE, TG_BOB, TG_CAROL):
        assert not (await w.press_lobby(u, "j")).get("show_alert")
    if deal:
        for u in (TG_ALICE, TG_BOB, TG_CAROL):
            assert not (await w.press_lobby(u, "r")).get("show_alert")


def test_the_bot_asks_for_chat_member_updates() -> None:
    """``chat_member`` comes only when asked for by name; reactions stay out."""
    assert "chat_member" in ALLOWED_UPDATES and "my_chat_member" in ALLOWED_UPDATES
    assert "message" in ALLOWED_UPDATES and "callback_query" in ALLOWED_UPDATES
    assert "message_reaction" not in ALLOWED_UPDATES


async def test_r8_2_chat_member_update_alone_stands_up_a_member_who_left_the_group(
    tmp_path: Path,
) -> None:
    """The group hides its service messages; the bot is an administrator. Carol leaves in the
    lobby and is stood up at once; Bob is removed mid-hand and leaves after it. Before, only
    ``left_chat_member`` stood anyone up, and the bot did not ask for ``chat_member``: both
    kept their seats."""
    async with world(tmp_path) as w:
        w.fake.admins.setdefault(GROUP_ID, set()).add(BOT_ID)
        await _seated(w, deal=False)
        # (polling asked for it: a getUpdates without allowed_updates keeps the last list)
        assert w.fake.allowed_updates is not None and "chat_member" in w.fake.allowed_updates
        t = next(iter(w.service.tables.values()))
        handled = _count_member_left(w)
        assert await w.fake.remove_member(GROUP_ID, TG_CAROL, service_message=False) is not None
        await w.fake.wait_for(lambda: handled or None)
        await w.settle()
        assert t.seat_of(str(TG_CAROL.id)) is None
        now = tr(t.lang, "notice.left_group", name="Carol")
        assert w.group_texts().count(now) == 1, w.group_texts()[-3:]
        for u in (TG_ALICE, TG_BOB):
            assert not (await w.press_lobby(u, "r")).get("show_alert")
        assert t.hand is not None
        bob = t.seat_of(str(TG_BOB.id))
        assert bob is not None and not bob.leaving
        removed = await w.fake.remove_member(GROUP_ID, TG_BOB, by=TG_ALICE, service_message=False)
        assert removed is not None
        assert w.fake.pushed[removed]["chat_member"]["new_chat_member"]["status"] == "kicked"
        await w.fake.wait_for(lambda: len(handled) == 2 or None)
        await w.settle()
        assert bob.leaving and bob.left_group
        later = tr(t.lang, "notice.left_group_later", name="Bob")
        assert w.group_texts().count(later) == 1, w.group_texts()[-3:]


async def test_r8_2_a_departure_told_by_both_updates_applies_once(tmp_path: Path) -> None:
    """The bot is an administrator and the group shows service messages: Telegram tells one
    departure twice (``left_chat_member`` and ``chat_member``, two update ids). Mid-hand,
    the second told the group again and ran the leave again."""
    async with world(tmp_path) as w:
        w.fake.admins.setdefault(GROUP_ID, set()).add(BOT_ID)
        await _seated(w, deal=True)
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        handled = _count_member_left(w)
        bob = t.seat_of(str(TG_BOB.id))
        assert bob is not None
        assert await w.fake.remove_member(GROUP_ID, TG_BOB) is not None
        await w.fake.wait_for(lambda: len(handled) == 2 or None)
        await w.settle()
        assert bob.leaving
        later = tr(t.lang, "notice.left_group_later", name="Bob")
        assert w.group_texts().count(later) == 1, w.group_texts()
        second = handled[1]
        assert second is not None and second.alert
        assert await check_store(w.store) == []


async def test_a_bot_that_is_no_administrator_gets_no_chat_member_and_works_as_before(
    tmp_path: Path,
) -> None:
    """No administrator rights: Telegram sends no ``chat_member``; the service message stands
    the member up as before, and without it the seat stays (the timeouts and the idle close
    apply, as before)."""
    async with world(tmp_path) as w:
        await _seated(w, deal=False)
        t = next(iter(w.service.tables.values()))
        handled = _count_member_left(w)
        assert await w.fake.remove_member(GROUP_ID, TG_CAROL, service_message=False) is None
        assert await w.fake.remove_member(GROUP_ID, TG_BOB) is None
        await w.fake.wait_for(lambda: handled or None)
        await w.settle()
        assert len(handled) == 1 and t.seat_of(str(TG_BOB.id)) is None
        assert t.seat_of(str(TG_CAROL.id)) is not None
        assert not [u for u in w.fake.pushed.values() if "chat_member" in u]


async def test_a_restricted_member_stays_seated_and_other_changes_are_no_departure(
    tmp_path: Path,
) -> None:
    """Carol is restricted so that she may not write (still a member: the table's buttons and
    her private chat work): she keeps her seat; promoted, she does too. Bob, restricted and
    no member any more (removed while restricted), is stood up."""
    async with world(tmp_path) as w:
        w.fake.admins.setdefault(GROUP_ID, set()).add(BOT_ID)
        await _seated(w, deal=False)
        t = next(iter(w.service.tables.values()))
        handled = _count_member_left(w)
        muted = {**MUTED, "is_member": True}
        assert await w.fake.member_status(GROUP_ID, TG_CAROL, muted, by=TG_ALICE) is not None
        assert await w.fake.member_status(GROUP_ID, TG_CAROL, ADMIN, by=TG_ALICE) is not None
        # updates are handled one at a time, in order: once Bob's is, Carol's were
        gone = {**MUTED, "is_member": False}
        await w.fake.member_status(GROUP_ID, TG_BOB, gone, old=muted, by=TG_ALICE)
        await w.fake.wait_for(lambda: handled or None)
        await w.settle()
        assert len(handled) == 1
        assert t.seat_of(str(TG_BOB.id)) is None
        assert t.seat_of(str(TG_CAROL.id)) is not None


async def test_r8_2_member_left_told_twice_mid_hand_leaves_once() -> None:
    """The service alone: two reports of Bob's departure with different keys (the service
    message and the ``chat_member`` update) during his hand: the group is told once, the
    second is "already leaving" and changes nothing."""
    service, presenter, store, _clock = service_env()
    t = await dealt_at(service, GROUP, (ALICE, BOB))
    first = await service.member_left(GROUP, BOB, request="tg:-100:7")
    assert first is not None and not first.alert
    again = await service.member_left(GROUP, BOB, request="tg:-100:8")
    assert again is not None and again.alert
    assert again.text == tr("ru", "reply.already_leaving"), again.text
    notice = tr("en", on("telegram", "notice.left_group_later"), name="Bob")
    assert [text for _, text in presenter.posts].count(notice) == 1, presenter.posts
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and bob.leaving and bob.left_group
    assert await check_store(store) == []
