"""Break-it round 22 on Discord, end to end through discord.py's real client and the fake
Discord: forged components and interactions every press must still get an answer for."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, world
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import EPHEMERAL, FakeInteraction, FakeUser


async def forged_press(
    w: World, user: FakeUser, component: dict[str, Any], values: list[str] | None = None
) -> FakeInteraction:
    """``user`` presses ``component``, put on a copy of the table message (a forged
    component: Discord delivers it as it is), and waits for the answer."""
    msg = dict(w.table_message())
    msg["components"] = [{"type": 1, "components": [component]}]
    record = await w.fake.press(user, msg, component["custom_id"], values)
    return await w.settle(record)


@pytest.mark.parametrize("kind", ["sel", "pick"])
async def test_a_button_carrying_a_select_s_custom_id_is_answered_unknown(
    tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A forged button whose ``custom_id`` is a box select's (``sel:…``) or a settings
    select's (``pick:…``): the select's item could not be rebuilt from a button, discord.py
    logged an error with its traceback and nobody answered ("This interaction failed"). It
    is answered "Unknown button." ephemerally, and nothing changes."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        before = t.hand.to_json()
        cid = f"sel:{t.id}:1.0:t" if kind == "sel" else "pick:0"
        button = {"type": 2, "style": 2, "label": "x", "custom_id": cid}
        with caplog.at_level(logging.ERROR, logger="discord"):
            record = await forged_press(w, CAROL, button)
        notice = w.notice(record)
        assert record.callback_type == 4 and notice is not None
        assert notice["flags"] & EPHEMERAL and notice["content"] == "Unknown button."
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
        assert t.hand.to_json() == before and t.seat_of(str(CAROL.id)) is None


async def test_a_form_submitted_that_the_bot_never_opened_is_answered_unknown(
    tmp_path: Path,
) -> None:
    """A MODAL_SUBMIT (the bot opens no form: forged, say with a Join payload as its
    ``custom_id``) went unanswered; it is answered "Unknown button." and joins nobody."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        t = w.table()
        join = f"{t.id}:L{t.version}:j"
        record = await w.settle(await w.fake.submit_form(BOB, join, {"name": "Bob"}))
        notice = w.notice(record)
        assert record.callback_type == 4 and notice is not None
        assert notice["flags"] & EPHEMERAL
        assert notice["content"] == "Unknown button."  # (the table's language)
        assert t.seat_of(str(BOB.id)) is None


async def test_a_command_answer_discord_refuses_is_logged_with_the_command_s_name(
    tmp_path: Path,
) -> None:
    """Discord refuses the answer to ``/ofc new`` (404 Unknown interaction, 10062: answered
    too late, or lost): the warning names the command and the interaction (it read
    "could not answer command <discord.app_commands.commands.Command object at 0x…>"); the
    table is open all the same, its message posted in the channel."""
    async with world(tmp_path) as w:
        w.fake.fail_next["callback"] = [(404, {"message": "Unknown interaction", "code": 10062})]
        record = await w.fake.slash(ALICE, "new")
        await w.fake.wait_for(lambda: w.logged)
        await w.adapter.idle()
        await w.adapter.presenter.flush()
        assert w.logged == [
            f"bot.discord.adapter: could not answer /ofc new (interaction {record.id}): "
            "404 Not Found (error code: 10062): Unknown interaction"
        ]
        w.logged.clear()
        assert record.callback_type is None and len(w.service.tables) == 1
        assert w.table_message()["content"].startswith("🃏 Pineapple OFC · table #1")


@pytest.mark.parametrize("done", [False, True], ids=["lost", "taken-then-lost"])
async def test_a_dm_hand_press_whose_answer_is_lost_in_the_network_shows_the_card_placed(
    tmp_path: Path, done: bool
) -> None:
    """R3.4: the first player places a card on their DM hand, and the connection carrying the
    interaction's answer closes (before Discord took it, or after): the card is placed, but
    the DM hand kept showing the screen from before the press (the card not placed) and an
    error was logged with its traceback. The DM hand is written as any other write, one
    warning is logged, and the next press on it places the next card."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        seat = t.hand.to_act[0]
        first = ALICE if t.seats[seat].user_id == str(ALICE.id) else BOB
        dm = w.dm(first)
        assert dm is not None
        (card, box), (card2, box2) = w.plan_street(first)[:2]
        assert box is not None and box2 is not None
        dropped: list[str] = []

        def once(route: str, call: object) -> bool:
            if route == "callback" and not dropped:
                dropped.append(route)
                return True
            return False

        w.fake.drop(once, done=done)
        cid = w.buttons(dm)[("p", card.text + box.value[0])]
        record = await w.fake.press(first, dm, cid)
        await w.fake.wait_for(lambda: w.logged)
        await w.adapter.idle()
        await w.adapter.presenter.flush()
        w.fake.recover()
        assert dropped and (record.callback_type == 7) is done
        assert [m.split(": ", 1)[1] for m in w.logged] == [
            f"answer to interaction {record.id} lost: "
            "ServerDisconnectedError('Server disconnected'); the DM hand is written"
        ]
        w.logged.clear()
        assert dict(t.hand.pending(seat)) == {card: box}
        shown = w.dm(first)
        assert shown is not None and int(shown["id"]) == int(dm["id"])
        placed = w.buttons(shown)[("p", card.text + box.value[0])]
        label = next(c["label"] for c in w.fake.components(shown) if c.get("custom_id") == placed)
        assert label == f"{card.face} • {box.value.capitalize()}", label
        record = await w.press(first, shown, w.buttons(shown)[("p", card2.text + box2.value[0])])
        assert record.callback_type == 7
        assert dict(t.hand.pending(seat)) == {card: box, card2: box2}


async def test_a_dm_hand_press_whose_deferral_is_lost_in_the_network_shows_the_card_placed(
    tmp_path: Path,
) -> None:
    """R3.4: a slow press on the DM hand is deferred, and the connection carrying the
    deferral closes before Discord takes it; the answer (an edit of the never acknowledged
    interaction's message) is refused. The deferral's error was raised into the answer: the
    DM hand kept the screen from before the press, and an error was logged with its
    traceback. Now the DM hand is written by REST, with two warnings."""
    from tests.bot.discord.test_discord_e2e import SlowService

    async with world(tmp_path, service_class=SlowService, answer_within=0.01) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        seat = t.hand.to_act[0]
        first = ALICE if t.seats[seat].user_id == str(ALICE.id) else BOB
        dm = w.dm(first)
        assert dm is not None
        card, box = w.plan_street(first)[0]
        assert box is not None
        dropped: list[str] = []

        def once(route: str, call: object) -> bool:
            if route == "callback" and not dropped:
                dropped.append(route)
                return True
            return False

        w.fake.drop(once)
        unknown = {"message": "Unknown Message", "code": 10008}
        w.fake.fail_next["edit_webhook_message"] = [(404, unknown)]
        record = await w.fake.press(first, dm, w.buttons(dm)[("p", card.text + box.value[0])])
        await w.fake.wait_for(lambda: len(w.logged) == 2)
        await w.adapter.idle()
        await w.adapter.presenter.flush()
        w.fake.recover()
        assert record.callback_type is None
        assert [m.split(": ", 1)[1] for m in w.logged] == [
            f"deferral of interaction {record.id} lost: "
            "ServerDisconnectedError('Server disconnected')",
            f"could not answer interaction {record.id}: "
            "404 Not Found (error code: 10008): Unknown Message",
        ]
        w.logged.clear()
        assert dict(t.hand.pending(seat)) == {card: box}
        shown = w.dm(first)
        assert shown is not None and int(shown["id"]) == int(dm["id"])
        placed = w.buttons(shown)[("p", card.text + box.value[0])]
        label = next(c["label"] for c in w.fake.components(shown) if c.get("custom_id") == placed)
        assert label == f"{card.face} • {box.value.capitalize()}", label


async def test_dms_closed_before_a_player_s_turn_tell_them_to_press_my_cards_at_once(
    tmp_path: Path,
) -> None:
    """R8.5: the second player to act closes their DMs during the first one's street; when
    the first confirms, the edit of their DM hand (now their turn) is refused (403 50007).
    Nothing told them: the table message read as before, their DM hand kept "waiting for…"
    without buttons, and the clock would play their street for them. The table message now
    tells them to press 🂠 My cards (as when their DMs were closed at the deal, and as on
    Telegram), and they play their street there."""
    async with world(tmp_path) as w:
        await seat_everyone(w, [ALICE, BOB])
        t = w.table()
        assert t.hand is not None
        first = ALICE if t.seats[t.hand.to_act[0]].user_id == str(ALICE.id) else BOB
        second = BOB if first is ALICE else ALICE
        hint = f"⚠ {second.name}: press 🂠 My cards below to see your cards."
        assert hint not in w.table_message()["content"]
        w.fake.closed_dms.add(second.id)
        await w.play_street(first, "dm")
        await w.adapter.presenter.flush()
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        assert t.hand is not None and t.seats[t.hand.to_act[0]].user_id == str(second.id)
        seat = t.seat_of(str(second.id))
        assert seat is not None and not seat.reachable
        assert hint in w.table_message()["content"], w.table_message()["content"]
        assert w.table_message()["content"].count(hint) == 1
        await w.play_street(second, "ephemeral")
        assert t.hand is not None and t.hand.to_act[0] == t.seat_of(str(first.id)).seat  # type: ignore[union-attr]
