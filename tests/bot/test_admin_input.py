"""Admins and bad input, a break-it round: what is sent on behalf of a channel, and other
refusals that must be clear and change nothing (Telegram through the real adapter and the
fake Bot API)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.model import ChatRef
from bot.screens import Payload, Screen
from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.test_service_classic import ALICE as ANNA_TG
from tests.bot.test_service_classic import BOB as BEN_TG
from tests.bot.test_service_classic import CAROL as CORA_TG
from tests.bot.test_service_classic import GROUP, auto_street, configure, start
from tests.bot.test_settings import BORIS, new_service, say, stored
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world

#: Channel_Bot, the one Telegram user every message sent on behalf of a channel comes from
CHANNEL_BOT = "136817688"


async def test_a_member_posting_as_a_channel_opens_no_table_and_runs_none(
    tmp_path: Path,
) -> None:
    """A member writes on behalf of their channel (``sender_chat`` a channel, ``from``
    Channel_Bot, which every channel shares): /newtable opened a table whose opener was
    Channel_Bot, and then anyone posting as any other channel was that table's opener,
    seating and standing up computer players on house kush. A channel opens nothing, and
    every command that needs a person (a player's, an opener's, an admin's) is answered that
    it was sent on behalf of a channel (it said "Sent as the group (an anonymous admin)" to
    /join, and "Only group admins" to an admin posting as their channel)."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}

        async def as_channel(channel: int, text: str) -> str:
            mid = await w.fake.send_as_channel(GROUP_ID, channel, text)
            reply = await w.fake.wait_for(lambda: w.fake.reply_to(GROUP_ID, mid))
            return str(reply["text"])

        refused = tr("en", "reply.as_channel")
        assert refused == (
            "Sent on behalf of a channel: a channel does not play or run tables here. "
            "Send it as yourself."
        )
        assert await as_channel(-100900, "/newtable") == refused
        assert await as_channel(-100900, "/tournament") == refused
        assert not w.service.tables
        reply = await w.say(BOB, "/newtable")
        assert reply["text"] == "Стол #1 открыт.", reply
        t = next(iter(w.service.tables.values()))
        assert t.opener == str(BOB.id)
        # (a channel has no language: under auto it reads the group's, the open table's)
        refused = tr("ru", "reply.as_channel")
        for command in ("/addbot", "/removebot", "/join", "/balance", "/settings hand_seconds 30",
                        "/grant @bob 100", "/closetable"):  # fmt: skip
            assert await as_channel(-100800, command) == refused, command
        assert t.id in w.service.tables and not t.seats
        community = await w.store.community("telegram", str(GROUP_ID))
        assert "hand_seconds" not in community.settings.options
        assert await w.store.find_player(community.id, CHANNEL_BOT) is None
        reply = await w.say(BOB, "/balance")
        assert reply["text"] == "Bob: 1000 кушей на балансе, 0 на столе.", reply


async def test_a_channels_refusal_is_in_the_groups_language(tmp_path: Path) -> None:
    """A group whose admins chose Russian (``/settings language ru``) answers in Russian
    whoever writes; a command sent on behalf of a channel comes from Channel_Bot, who has no
    language of its own, and its refusal (and an anonymous admin's player command's) was in
    English there."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        reply = await w.say(ALICE, "/settings language ru")
        community = await w.store.community("telegram", str(GROUP_ID))
        assert community.settings.language == "ru", reply

        async def sent_as(sender: int, text: str) -> str:
            mid = await w.fake.send_as_channel(GROUP_ID, sender, text)
            answer = await w.fake.wait_for(lambda: w.fake.reply_to(GROUP_ID, mid))
            return str(answer["text"])

        assert await sent_as(-100900, "/join") == tr("ru", "reply.as_channel")
        assert await sent_as(-100900, "/newtable") == tr("ru", "reply.as_channel")
        assert await sent_as(GROUP_ID, "/join") == tr("ru", "reply.anonymous")  # (as the group)
        assert not w.service.tables


@pytest.mark.parametrize(
    ("name", "value", "english", "russian"),
    [
        ("payouts", "50,40", "payouts: the percentages must add up to 100; these add up to 90",
         "призы: проценты должны давать в сумме 100, а эти дают 90"),
        ("payouts", "30,70", "payouts: best place first; a worse place cannot get more than a "
         "better one", "призы: сначала первое место; худшее место не может получать больше "
         "лучшего"),
        ("payouts", "60,40,-0", "payouts: whole numbers (digits 0–9, at most 9 each) separated by "
         "commas, spaces or semicolons, e.g. “70,30”, or “default”", "призы: целые числа "
         "(цифры 0–9, до 9 в каждом) через запятую, пробел или точку с запятой, например "
         "«70,30», или «по умолчанию»"),
        ("chips_schedule", "20,10", "chips_schedule: chips per point cannot fall from one level "
         "to the next", "цена_по_уровням: цена очка в фишках не может падать от уровня к уровню"),
        ("chips_schedule", "0,10", "chips_schedule: every level's chips per point is at least 1",
         "цена_по_уровням: цена очка на каждом уровне — не меньше 1 фишки"),
        # ten digits: whole numbers all the same, too long (it said "whole numbers separated
        # by commas", which they were)
        ("chips_schedule", "10,1000000000", "chips_schedule: whole numbers (digits 0–9, at most 9 "
         "each) separated by commas, spaces or semicolons, e.g. “10,15,20,30”, or “default”",
         "цена_по_уровням: целые числа (цифры 0–9, до 9 в каждом) через запятую, пробел "
         "или точку с запятой, например «10,15,20,30», или «по умолчанию»"),
    ],
    ids=["sum", "order", "negative-zero", "schedule-falls", "schedule-zero", "ten-digits"],
)  # fmt: skip
async def test_a_refused_tournament_list_is_explained_in_the_admins_language(
    name: str, value: str, english: str, russian: str
) -> None:
    """``payouts`` and ``chips_schedule`` refused by the tournament they would make were
    answered with the core's English ("payouts must add up to 100 %, got [50, 40]"), to a
    Russian admin too. Each refusal says what is wrong in the admin's language; nothing is
    saved."""
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, name, value)
    assert reply.alert and reply.text == "Cannot set that — " + english + ".", reply.text
    reply = await say(service, name, value, actor=BORIS)
    assert reply.alert and reply.text == "Не удалось изменить " + russian + ".", reply.text
    assert await stored(store) == before


async def test_a_double_box_button_of_an_earlier_hand_is_out_of_date_not_someone_elses() -> None:
    """R4.2: heads-up with double boxes Alice plays boards 0 and 1; once Carol sits down the
    next hand is single boards, and board 1 is Bob's. A button of Alice's second board kept
    from the first hand (an older hand message, a double click racing the new hand's edit)
    was answered "This is not your table." while she sat and played there: the board was
    judged before the hand. It is out of date, and nothing changes."""
    service, presenter, _store, clock = service_env(next_hand_delay=5)
    await configure(service, game="ofc", heads_up_double_boxes="on")
    await start(service, [ANNA_TG, BEN_TG], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.owners == {0: 0, 1: 0, 10: 1, 11: 1}

    def second_board(screen: Screen) -> str | None:
        for b in screen.all_buttons():
            p = Payload.decode(b.data) if b.data else None
            if p is not None and p.action == "p" and p.version.split(".")[1] == "1":
                return b.data
        return None

    kept: str | None = None
    number = t.hand_no
    while t.hand is not None and t.hand_no == number and not t.hand.is_over:
        kept = kept or next(filter(None, map(second_board, presenter.privates["1"])), None)
        player = t.player_of(t.hand.to_act[0])
        assert player is not None
        await auto_street(service, presenter, {"1": ANNA_TG, "2": BEN_TG}[player.user_id])
    assert kept is not None
    assert not (await service.join(GROUP, CORA_TG)).alert
    assert not (await service.ready(GROUP, CORA_TG)).alert
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == number + 1 and sorted(t.hand.order) == [0, 1, 2]
    assert t.owner(1) == 1  # Bob's board now
    version, boards = t.version, {s: list(t.hand.board_of(s).cards()) for s in t.hand.order}
    # (pressed where the hand message is: her private chat; from a group it is forged)
    private = ChatRef("telegram", ANNA_TG.user_id, ANNA_TG.user_id, "Anna", private=True)
    reply = await service.press(ANNA_TG, kept, private)
    assert reply.alert and reply.text == tr("en", "err.stale_hand"), reply.text
    assert t.version == version
    assert {s: list(t.hand.board_of(s).cards()) for s in t.hand.order} == boards


async def test_a_top_up_above_a_lowered_maximum_says_the_stack_is_above_it(
    tmp_path: Path,
) -> None:
    """R8.2: Bob's stack is 1000 when an admin lowers max_buy_in to 300. His /topup was told
    "Ваш стек уже максимальный: 300 кушей" (your stack is at the maximum: 300), while it held
    1000: it says the stack is above the maximum, with both, and nothing moves."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(ALICE, "/newtable")
        await w.press_lobby(BOB, "j")
        await w.press_lobby(BOB, "r")
        reply = await w.say(BOB, "/topup 800")
        assert reply["text"] == "Докуплено: +800 кушей, стек 1000.", reply
        reply = await w.say(ALICE, "/settings max_buy_in 300")
        assert reply["text"].startswith(
            "Saved: max_buy_in = 300 (was auto — 5 × buy-in = 1,000)."
        ), reply
        community = await w.store.community("telegram", str(GROUP_ID))
        before = await w.store.ledger(community.id)
        for typed in ("/topup 5", "/topup"):
            reply = await w.say(BOB, typed)
            assert reply["text"] == (
                "Ваш стек (1000 кушей) больше максимума стола (300 кушей): докупать нечего."
            ), reply
        reply = await w.say(ALICE, "/topup")  # not seated
        assert reply["text"] == tr("en", "reply.not_seated"), reply
        t = next(iter(w.service.tables.values()))
        assert [s.stack for s in t.seats.values()] == [1000]
        assert await w.store.ledger(community.id) == before
        assert tr("en", "reply.topup_above", stack=1000, max=300, label="kush") == (
            "Your stack (1,000 kush) is above the table's maximum (300 kush): nothing to top up."
        )
