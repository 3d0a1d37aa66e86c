"""Writes to one Discord message keep their order (fix39e): the answers to quick presses of
one player on their DM hand, and an edit of a hand held by a 429. And the fake's control
route refuses a press of a button the message does not carry (it answered a bare 500), while
a table restored anew shows every player the buttons it has."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import aiohttp

from bot import render
from storage.api import StorageError
from tests.bot.discord.dc_world import ALICE, BOB, World, cards_in, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import FakeUser, MessageWrite

SERVER_ERROR = {"message": "500: Internal Server Error", "code": 0}
LIMITED = {"message": "You are being rate limited.", "retry_after": 1.0, "global": False}


async def acting_dm(w: World) -> tuple[FakeUser, dict[str, Any], list[tuple[str, str]]]:
    """Deal a hand of Alice and Bob; the player to act, their DM hand and its placing
    buttons, one per card (the top box's: ``(card, custom_id)``)."""
    await seat_everyone(w, [ALICE, BOB])
    t = w.table()
    assert t.hand is not None
    user = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
    dm = w.dm(user)
    assert dm is not None
    places = sorted(
        (arg[:-1], cid) for (action, arg), cid in w.buttons(dm).items()
        if action == "p" and arg.endswith("t")
    )  # fmt: skip
    assert len(places) == 5, places
    return user, dm, places


def writes_of(w: World, message_id: int) -> list[str]:
    """The content of every write of message ``message_id`` from now on, in the order the
    fake applied them."""
    seen: list[str] = []

    def grab(write: MessageWrite) -> None:
        if int(write.message["id"]) == message_id:
            seen.append(str(write.message.get("content", "")))

    w.fake.listeners.append(grab)
    return seen


def placed_on_top(content: str) -> set[str]:
    """The cards a hand's text shows in its top box (its first box line)."""
    line = next(line for line in content.splitlines() if line.startswith("  "))
    return {c.text for c in cards_in(line)}


async def test_two_quick_presses_leave_the_second_screen_on_the_dm_hand(
    tmp_path: Path,
) -> None:
    """A player taps two cards to the top box in quick succession on their DM hand; the
    answer to the first is refused once with a 500, which discord.py sends again a second
    later. The second answer waits for it and is written after it: the hand ends showing
    both cards placed, as the table has them. The first answer's retry landed after the
    second, and the hand showed one card placed (its buttons the first press's) though
    two were."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        (a, first), (b, second) = places[0], places[1]
        seen = writes_of(w, int(dm["id"]))
        w.fake.fail_next["callback"] = [(500, SERVER_ERROR)]
        r1 = await w.fake.press(user, dict(dm), first)
        r2 = await w.fake.press(user, dict(dm), second)
        await w.settle(r1)
        await w.settle(r2)
        assert (r1.callback_type, r2.callback_type) == (7, 7)
        hand = w.table().hand
        assert hand is not None
        seat = w.table().seat_of(str(user.id))
        assert seat is not None
        assert {c.text for c in hand.board_of(seat.seat, with_pending=True).top} == {a, b}
        assert [placed_on_top(text) for text in seen] == [{a}, {a, b}]
        now = w.dm(user)
        assert now is not None and placed_on_top(now["content"]) == {a, b}


async def test_an_answer_overtaken_by_a_newer_one_is_only_acknowledged(tmp_path: Path) -> None:
    """Three quick taps; the first answer is refused once with a 500 (sent again a second
    later). By the time the second answer's turn comes the third is queued with a newer
    screen: the second is only acknowledged (a deferred update, nothing written) and the
    third writes the hand, after the first. Every press is answered."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        seen = writes_of(w, int(dm["id"]))
        w.fake.fail_next["callback"] = [(500, SERVER_ERROR)]
        records = [await w.fake.press(user, dict(dm), cid) for _, cid in places[:3]]
        for record in records:
            await w.settle(record)
        assert [r.callback_type for r in records] == [7, 6, 7]
        three = {card for card, _ in places[:3]}
        assert [placed_on_top(text) for text in seen] == [{places[0][0]}, three]
        now = w.dm(user)
        assert now is not None and placed_on_top(now["content"]) == three


async def test_a_dm_edit_held_by_a_429_does_not_overwrite_a_newer_answer(
    tmp_path: Path,
) -> None:
    """The answer to a press on the DM hand is refused (404 Unknown interaction: too late),
    so the hand is written by a REST edit instead; Discord answers that edit with a 429 (1 s)
    and discord.py waits it out inside the request. Meanwhile a second press is answered
    with a newer screen. The edit sent again after the pause carries that newer screen:
    the hand ends showing both cards. It carried the first press's screen, written over
    the second's, which stayed until the hand changed again."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        (a, first), (b, second) = places[0], places[1]
        seen = writes_of(w, int(dm["id"]))
        unknown = {"message": "Unknown interaction", "code": 10062}
        w.fake.fail_next["callback"] = [(404, unknown)]
        w.fake.fail_next["edit_message"] = [(429, LIMITED)]
        r1 = await w.fake.press(user, dict(dm), first)
        await w.fake.wait_for(
            lambda: any(c.status == 429 for c in w.fake.calls_to("PATCH", "/channels/"))
        )
        r2 = await w.fake.press(user, dict(dm), second)
        await w.settle(r2)
        await w.adapter.idle()
        await w.adapter.presenter.flush()
        assert r1.callback_type is None and r2.callback_type == 7
        tops = [placed_on_top(text) for text in seen]
        assert {a, b} in tops, seen
        assert all(top == {a, b} for top in tops[tops.index({a, b}) :]), seen  # none older after
        now = w.dm(user)
        assert now is not None and placed_on_top(now["content"]) == {a, b}
        assert len(w.logged) == 1 and "could not answer interaction" in w.logged[0], w.logged
        w.logged.clear()


async def test_an_ephemeral_hand_refresh_held_by_a_429_does_not_overwrite_its_answer(
    tmp_path: Path,
) -> None:
    """The player has their hand open under "My cards" too. A press on the DM hand refreshes
    that ephemeral hand through its interaction's webhook; Discord answers the refresh with a
    429 (1 s), which discord.py waits out inside the request. Meanwhile the player presses
    the next card on the ephemeral hand itself, answered with the newer screen. The refresh
    sent again after the pause carried the first press's screen (discord.py built its body
    once) and landed over the answer: it was then followed by the newer screen (fix39e; since
    fix40a it carries the newer screen itself), which the ephemeral hand ends showing. It
    stayed showing the first press's screen."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        (a, first), (b, _) = places[0], places[1]
        mine = await w.my_cards(user)
        seen = writes_of(w, int(mine["id"]))
        w.fake.fail_next["edit_webhook_message"] = [(429, LIMITED)]
        r1 = await w.fake.press(user, dict(dm), first)
        await w.fake.wait_for(
            lambda: any(c.status == 429 for c in w.fake.calls_to("PATCH", "/webhooks/"))
        )
        second = w.buttons(mine)[("p", b + "t")]
        r2 = await w.fake.press(user, dict(mine), second)
        await w.settle(r1)
        await w.settle(r2)
        assert (r1.callback_type, r2.callback_type) == (7, 7)
        # (the refresh sent again carries the newer screen since fix40a, its body built anew
        # for each try: tests/bot/discord/test_fix40a_ephemeral_429.py)
        assert placed_on_top(seen[-1]) == {a, b}, seen
        now = w.ephemeral(user)
        assert now is not None and placed_on_top(now["content"]) == {a, b}


async def test_the_fakes_control_route_refuses_a_button_the_message_does_not_carry(
    tmp_path: Path,
) -> None:
    """A benchmark's press (``POST /_press``) of a button its DM does not show (yet, or any
    more), or on a message that does not exist, is refused with a JSON 409 / 404, nothing
    sent to the bot (no user could press it); the fake's ``KeyError`` was aiohttp's bare
    500, which read as the fake (or the bot) failing. A button the DM shows is pressed."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        lobby = next(c["custom_id"] for c in w.fake.components(w.table_message()))
        base = f"http://127.0.0.1:{w.fake.port}/_press"
        sent = len(w.fake.interactions)
        async with aiohttp.ClientSession() as http:
            for message, custom_id, status in (
                (int(dm["id"]), lobby, 409),
                (12345, places[0][1], 404),
            ):
                body = {"user": user.id, "message": message, "custom_id": custom_id}
                async with http.post(base, json=body) as r:
                    assert r.status == status and r.content_type == "application/json"
                    assert "message" in await r.json(), await r.text()
            assert len(w.fake.interactions) == sent
            body = {"user": user.id, "message": int(dm["id"]), "custom_id": places[0][1]}
            async with http.post(base, json=dict(body, wait=True)) as r:
                assert r.status == 200 and (await r.json())["callback_type"] == 7


async def test_a_table_restored_anew_shows_each_player_its_buttons(tmp_path: Path) -> None:
    """The commit of a Confirm applies but its answer is lost, and storage cannot be read
    back at once (answered "nothing changed"); the player's Confirm again reads the step
    back as saved and the table is restored anew from storage (a new table object). Once
    its messages are written, each player's DM hand carries every button the restored table
    shows them: what a benchmark's driver pressed too early (the button rendered from the
    restored table, its DM not written yet) is no bot's fault."""
    async with world(tmp_path) as w:
        user, _, _ = await acting_dm(w)
        store: Any = w.store
        commit, table_state = store.commit, store.table_state
        lose, blind = [0], [0]

        async def losing_commit(*args: Any, **kwargs: Any) -> Any:
            out = await commit(*args, **kwargs)
            if lose[0]:
                lose[0] -= 1
                raise StorageError("connection was closed in the middle of operation")
            return out

        async def blind_state(*args: Any, **kwargs: Any) -> Any:
            if blind[0]:
                blind[0] -= 1
                raise StorageError("connection was closed")
            return await table_state(*args, **kwargs)

        store.commit, store.table_state = losing_commit, blind_state
        for card, box in w.plan_street(user):
            msg = w.dm(user)
            assert msg is not None
            want = ("d", card.text) if box is None else ("p", card.text + box.value[0])
            await w.press(user, msg, w.buttons(msg)[want])
        old = w.table()
        msg = w.dm(user)
        assert msg is not None
        lose[0], blind[0] = 1, 1
        for _ in range(2):  # lost, then read back as saved
            record = await w.press(user, msg, w.buttons(msg)[("c", "")])
            notice = w.notice(record)
            assert notice is not None and "nothing changed" in notice["content"], notice
        await w.fake.wait_for(lambda: w.service.tables and w.table() is not old)
        now = w.table()
        assert now.hand is not None and now.hand.to_act != old.hand.to_act

        def shown() -> bool:
            for u in (ALICE, BOB):
                seat = now.seat_of(str(u.id))
                dm = w.dm(u)
                if seat is None or dm is None:
                    return False
                screen = render.private_screen(now, seat, time.time())
                wanted = {b.data for b in screen.all_buttons() if b.data}
                if not wanted <= {c.get("custom_id") for c in w.fake.components(dm)}:
                    return False
            return True

        await w.fake.wait_for(shown)
