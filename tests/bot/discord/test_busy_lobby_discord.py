"""A busy lobby on Discord, through discord.py's real client and the fake Discord: two
members press Join on the same version of the table message. The first press edits the
message (its buttons get a new version); the second arrives with the message as it is now,
its ``custom_id`` no longer on it, and discord.py drops it (no dynamic item matches). The
adapter passes such a Join / Ready / Leave / Register / Unregister on to the service
(:meth:`~bot.discord.adapter.DiscordAdapter.on_unrouted`), which counts it when its meaning
for the presser cannot have changed (tests/bot/test_busy_lobby.py), and otherwise answers
"out of date" without writing the table message again."""

from __future__ import annotations

from pathlib import Path

from tests.bot.discord.dc_world import ALICE, BOB, CAROL, action_of, components, world
from tests.fakes.discord_api import EPHEMERAL, MessageWrite


def _cid(message: dict[str, object], action: str) -> str:
    return next(
        str(c["custom_id"])
        for c in components(message)  # type: ignore[arg-type]
        if action_of(c) == action
    )


async def test_two_members_press_the_same_join_both_seat(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        table = w.table_message()
        join = _cid(table, "j")
        first = await w.press(ALICE, table, join)
        assert w.notice(first) is not None
        now = w.fake.messages[int(table["id"])]
        assert join not in {c["custom_id"] for c in components(now)}  # edited: a new version
        # Bob's press of the same Join arrives after the edit: dropped by discord.py, then
        # passed on to the service by the adapter; he sits down
        second = await w.settle(await w.fake.press(BOB, now, join, gone=True))
        notice = w.notice(second)
        assert notice is not None and notice["flags"] & EPHEMERAL
        assert "мест" in notice["content"], notice["content"]  # (Bob reads Russian)
        t = w.table()
        assert sorted(s.user_id for s in t.seats.values()) == [str(ALICE.id), str(BOB.id)]
        shown = w.fake.messages[int(table["id"])]["content"]
        assert "Alice" in shown and "Bob" in shown, shown
        # Alice's own second tap of that Join (she is seated): out of date, and the table
        # message is not written again for it (it shows a newer screen already)
        writes: list[MessageWrite] = []
        w.fake.listeners.append(writes.append)
        now = w.fake.messages[int(table["id"])]
        again = await w.settle(await w.fake.press(ALICE, now, join, gone=True))
        assert (w.notice(again) or {}).get(
            "content"
        ) == "This button is out of date: use the newest table message."
        assert [m for m in writes if int(m.message["id"]) == int(table["id"])] == []
        assert len(t.seats) == 2
        # a Leave of an older version in the lobby (it would leave, not ask): "out of date",
        # nothing pressed
        leave = _cid(table, "l")
        record = await w.settle(await w.fake.press(BOB, now, leave, gone=True))
        assert (w.notice(record) or {}).get(
            "content"
        ) == "Кнопка устарела: нажмите в последнем сообщении стола."  # (Bob's)
        bob = t.seat_of(str(BOB.id))
        assert bob is not None and not bob.leaving
        # Carol's Join of that first version counts too, and every press was answered
        record = await w.settle(await w.fake.press(CAROL, now, join, gone=True))
        assert t.seat_of(str(CAROL.id)) is not None
        assert all(r.answered for r in w.fake.interactions.values())


async def test_a_late_join_tap_after_leave_does_not_seat_again(tmp_path: Path) -> None:
    """Bob's Join tapped twice, Leave pressed between, the second tap arriving last (Discord
    delivers interactions concurrently): out of date, he stays up, and the table message is
    not written again for it."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        table = w.table_message()
        join = _cid(table, "j")
        await w.press(BOB, table, join)
        t = w.table()
        assert t.seat_of(str(BOB.id)) is not None
        record = await w.press_lobby(BOB, "l")
        assert t.seat_of(str(BOB.id)) is None, w.notice(record)
        writes: list[MessageWrite] = []
        w.fake.listeners.append(writes.append)
        now = w.fake.messages[int(table["id"])]
        late = await w.settle(await w.fake.press(BOB, now, join, gone=True))
        # (in the table's language: he has no seat there now)
        assert (w.notice(late) or {}).get(
            "content"
        ) == "This button is out of date: use the newest table message."
        assert t.seat_of(str(BOB.id)) is None
        assert [m for m in writes if int(m.message["id"]) == int(table["id"])] == []
        # Carol's tap of that same Join still seats her
        await w.settle(await w.fake.press(CAROL, now, join, gone=True))
        assert t.seat_of(str(CAROL.id)) is not None
