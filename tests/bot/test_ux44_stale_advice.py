"""ux44: a press refused as out of date said only "This button is out of date." and not what
to do instead. Now each refusal says it, through the real adapters: on Telegram a Join of
the table message as it was before (use the newest table message) and a card of an earlier
street on the hand message (here are your cards as they are now: the message is written
as now); on Discord the same on the DM hand of an earlier hand, a Confirm gone from the
ephemeral hand (press one the message shows now) and an older Join (the newest table
message). A hand message superseded in the private chat: on Telegram "use your newest hand
message", on Discord "press 🂠 My cards again"."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.model import Actor, ChatRef
from bot.presses import PlaceCard, encode
from game.board import Box
from game.cards import Card
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.discord import dc_world
from tests.bot.discord.test_discord_e2e import seat_everyone as seat_on_discord
from tests.bot.fakes import FakePresenter
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world

#: the refusals' texts, as a player reads them (each well under Telegram's 200 for an alert)
TABLE_EN = "This button is out of date: use the newest table message."
SHOWN = {
    "en": "This button is out of date: here are your cards as they are now.",
    "ru": "Кнопка устарела: вот ваши карты сейчас.",
}
EDITED = {
    "en": "This button is out of date: press one the message shows now.",
    "ru": "Кнопка устарела: нажмите одну из тех, что в сообщении сейчас.",
}


async def test_telegram_out_of_date_presses_say_which_message_to_use(tmp_path: Path) -> None:
    """Telegram: Alice's Join of the table message as it was before the hand (she is seated
    now) is answered, as an alert, "use the newest table message"; a card of her first
    street pressed on her hand message once she confirmed it: "here are your cards as they
    are now", on the same message. Nothing changes either time."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await w.say(ALICE, "/newtable")
        lobby = dict(w.table_message())
        join = next(b["callback_data"] for b in w.fake.buttons(lobby) if ":j" in b["callback_data"])
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "j")).get("show_alert")
        for u in (ALICE, BOB):
            assert not (await w.press_lobby(u, "r")).get("show_alert")
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        before = t.hand.dumps()
        answer = await w.press(ALICE, GROUP_ID, lobby, join)
        assert answer.get("show_alert") and answer["text"] == TABLE_EN, answer
        assert t.hand.dumps() == before and len(t.seats) == 2
        # a card of Alice's first street pressed on her hand message once she confirmed it:
        # the alert, and the message shows her hand as it is now
        old = dict(w.private(ALICE) or {})
        card = next(b["callback_data"] for b in w.fake.buttons(old) if ":p:" in b["callback_data"])
        await w.play_street(ALICE)
        before = t.hand.dumps()
        answer = await w.press(ALICE, ALICE.id, old, card)
        assert answer.get("show_alert") and answer["text"] == SHOWN["en"], answer
        assert t.hand.dumps() == before
        assert (w.private(ALICE) or {})["message_id"] == old["message_id"]
        assert await check_store(w.store) == []


async def test_discord_out_of_date_presses_say_what_to_press(tmp_path: Path) -> None:
    """Discord (Bob reads Russian): the first player's card of hand 1 pressed on their DM
    hand once hand 2 is dealt: "here are your cards as they are now" above the hand written
    as now; the player to act's Confirm gone from their ephemeral hand (a card placed
    since): "press one the message shows now"; Alice's Join of the table message from
    before: "use the newest table message". Nothing changes."""
    async with dc_world.world(tmp_path) as w:
        await seat_on_discord(w, [dc_world.ALICE, dc_world.BOB])
        t = w.table()
        lobby = dict(w.table_message())
        assert t.hand is not None
        actor = (
            dc_world.ALICE
            if t.seats[t.hand.to_act[0]].user_id == str(dc_world.ALICE.id)
            else dc_world.BOB
        )
        old = dict(await w.hand_message(actor, "dm"))
        card = next(cid for (action, _), cid in w.buttons(old).items() if action == "p")
        await w.play_hand(
            [dc_world.ALICE, dc_world.BOB], {dc_world.ALICE.id: "dm", dc_world.BOB.id: "dm"}
        )
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        await w.adapter.presenter.flush()
        assert t.hand is not None
        before = t.hand.dumps()
        record = await w.press(actor, old, card)
        assert record.callback_type == 7, w.notice(record)  # the DM hand written as now
        lang = "en" if actor is dc_world.ALICE else "ru"
        shown = w.fake.messages[int(old["id"])]["content"]
        assert shown.startswith(SHOWN[lang] + "\n\n"), shown
        assert t.hand.dumps() == before
        # the player to act: a card placed on their ephemeral hand, then the Confirm of the
        # hand as it was before (gone from the message)
        user = (
            dc_world.ALICE
            if t.seats[t.hand.to_act[0]].user_id == str(dc_world.ALICE.id)
            else dc_world.BOB
        )
        hand = await w.my_cards(user)
        confirm = w.buttons(hand)[("c", "")]
        first = next(cid for (action, _), cid in w.buttons(hand).items() if action == "p")
        assert (await w.press(user, hand, first)).callback_type == 7
        now = w.fake.messages[int(hand["id"])]
        before = t.hand.dumps()
        record = await w.settle(await w.fake.press(user, now, confirm, gone=True))
        lang = "en" if user is dc_world.ALICE else "ru"
        assert (w.notice(record) or {}).get("content") == EDITED[lang], record
        assert t.hand.dumps() == before
        join = next(cid for (action, _), cid in w.buttons(lobby).items() if action == "j")
        record = await w.press(dc_world.ALICE, lobby, join)
        assert (w.notice(record) or {}).get("content") == TABLE_EN, record
        assert t.hand.dumps() == before
        assert await check_store(w.store) == []


@pytest.mark.parametrize("platform", ["telegram", "discord"])
async def test_a_superseded_private_hand_message_says_what_to_use(platform: str) -> None:
    """A hand's button pressed in the player's private chat on a message that is no longer
    their hand message (one posted anew since, say after a block): on Telegram "use your
    newest hand message", on Discord "press 🂠 My cards again" (it shows the hand as it is
    now); in the player's language, nothing placed."""
    service, _p, store, clock = service_env()
    service.register(FakePresenter(platform="discord", link=None))
    group = ChatRef(platform, "-300", "-300", "Friends")
    ann, ben = Actor(platform, "1", "Ann", "en"), Actor(platform, "2", "Ben", "ru")
    assert "open" in (await service.new_table(group, ann)).text
    for a in (ann, ben):
        assert not (await service.join(group, a)).alert
    for a in (ann, ben):
        assert not (await service.ready(group, a)).alert
    clock.now += 6
    await service.run_due()
    t = service.table_in(group)
    assert t is not None and t.hand is not None
    expected = {
        "telegram": {
            "en": "This button is out of date: use your newest hand message.",
            "ru": "Кнопка устарела: нажмите в последнем сообщении с вашими картами.",
        },
        "discord": {
            "en": "This button is out of date: press 🂠 My cards again.",
            "ru": "Кнопка устарела: нажмите «🂠 Мои карты» ещё раз.",
        },
    }[platform]
    for actor in (ann, ben):
        seat = t.seat_of(actor.user_id)
        assert seat is not None
        seat.private_ref = seat.private_ref or "7"  # (the newest hand message)
        version = f"{t.hand_no}.{seat.seat}.{t.hand.seat_version(seat.seat)}"
        data = encode(PlaceCard(t.id, version, Card.parse("Ah"), Box.BOTTOM))
        private = ChatRef(platform, actor.user_id, actor.user_id, actor.name, private=True)
        before = t.hand.dumps()
        reply = await service.press(actor, data, private, message_ref="older-message")
        assert reply.alert and reply.text == expected[actor.language or "en"], reply
        assert t.hand.dumps() == before
    assert await check_store(store) == []
