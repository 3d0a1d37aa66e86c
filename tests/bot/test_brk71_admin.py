"""Break-it session brk71: a careless or hostile group admin (Telegram and Discord).

Found and fixed: a ``/settings`` value longer than the settings pass on was cut at whole
grapheme clusters with "…", and a value of a few letters under a pile of combining marks
was cut to "coin…" or to "…" alone, which ``kush_label`` took and saved (the cut exists so
that a value too long is refused with its range, never saved shortened). And a ``min_buy_in``
saved during a hand ("It applies from the next hand") was not what a newcomer's Join, Ready
or an ``/addbot`` of that hand paid: they paid the old one for the next hand (R8.2).

Held (no fix needed), kept as regression tests: nonsense settings during a hand (unknown and
Russian names, several at once, ∞, NaN, 1e9, -0, 0x10, emoji, 4,000 characters) answered
in the admin's language, changing no setting, no seat and no kush; ``/addbot`` and
``/removebot`` sent six times at once; ``/kick`` and ``/closetable`` sent three times at
once in a tournament lobby (the buy-in back once); admin commands in a private chat and a
Discord DM; ``/ofcadmin`` with its options missing."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from bot.model import LiveTable
from bot.service.settings import LONGEST_ARG
from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from tests.bot.money import assert_conserved
from tests.bot.test_settings import BORIS, new_service, say, stored
from tests.bot.test_tournament_e2e import actions_of, balance, tournament_message
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, World, world

COMBINING = "\u0310"  # (a combining mark: any number of them make one grapheme cluster)


async def bob_and_carol_dealt(w: World, *admins: FakeUser) -> LiveTable:
    """``admins`` made the group's admins, Alice opens a table (``/newtable``), Bob and Carol
    join and get ready: their hand is dealt and every write done. The table."""
    w.fake.admins[GROUP_ID] = {user.id for user in admins}
    await w.say(ALICE, "/newtable")
    for user in (BOB, CAROL):
        await w.press_lobby(user, "j")
    for user in (BOB, CAROL):
        await w.press_lobby(user, "r")
    await w.settle()
    (t,) = w.service.tables.values()
    return t


@pytest.mark.parametrize(
    "typed",
    [
        "coins" + COMBINING * 300,  # was saved as "coin…"
        "a" + COMBINING * 500,  # was saved as "…"
        "💰" + COMBINING * 300,  # was saved as "…"
        "ab" + COMBINING * 254 + "c" * 10,
    ],
    ids=["coin-cut", "a-cut", "emoji-cut", "two-clusters"],
)
async def test_a_kush_label_too_long_in_one_cluster_is_refused_not_saved_cut(typed: str) -> None:
    """``/settings kush_label`` with a value past what ``/settings`` passes on (256 UTF-16
    units), most of it combining marks on its first letters: the cut kept the whole
    clusters that fit, none or a few letters, and added "…", and that short value was saved
    as the label of every amount ("200 coin…", "200 …"). It is refused with the setting's
    range, in English and Russian, and the label stays."""
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, "kush_label", typed)
    assert reply.alert, reply.text
    assert reply.text == (
        "Cannot set that — kush_label is text of 1 to 12 characters (at least one visible), "
        "without control characters."
    )
    reply = await say(service, "kush_label", typed, actor=BORIS)
    assert reply.alert and reply.text.startswith("Не удалось изменить валюта"), reply.text
    assert await stored(store) == before


async def test_a_long_value_of_short_clusters_is_still_refused_and_a_fitting_one_saved() -> None:
    """The other side of the cut: 4,000 letters are refused as they were, and a label that
    fits (12 characters, a combining mark among them) is saved as typed."""
    service, store = new_service()
    reply = await say(service, "kush_label", "x" * 4000)
    assert reply.alert and "1 to 12 characters" in reply.text, reply.text
    assert len("x" * 4000) > LONGEST_ARG
    reply = await say(service, "kush_label", "é" + "coins")
    assert not reply.alert, reply.text
    assert (await stored(store)).kush_label == "écoins"


#: /settings lines an admin may type by mistake or in spite: each is refused
NONSENSE = [
    "foo 1",
    "время_хода 30",
    "hand_seconds 30 ready_seconds 10",
    "hand_seconds ∞",
    "hand_seconds NaN",
    "hand_seconds 1e9",
    "hand_seconds -0",
    "hand_seconds 0x10",
    "hand_seconds 🂡",
    "hand_seconds 3601",
    "kush_label " + "x" * 4000,
    "kush_label coins" + COMBINING * 300,
    "payouts " + "1," * 2000,
    "y" * 4000,
    "min_buy_in -0",
    "min_buy_in ５",
    "max_buy_in ∞",
    "language ua",
    "game poker",
    "utc_offset 14.25",
    "utc_offset nan",
    "level_minutes 0.001",
    "reveal_pause_seconds nan",
    "kush_label \u200b",
    "hand_seconds=60",
    "время_на_раздачу 3601",
    "kush_per_point 100000000",
]


async def test_nonsense_settings_during_a_hand_are_refused_in_each_admins_language(
    tmp_path: Path,
) -> None:
    """Two admins (Alice reads English, Bob Russian and sits at the table) type each line of
    :data:`NONSENSE` during a hand: every answer is short, says it was refused (Bob's in
    Russian), and no setting, seat, stack, board or ledger row changes."""
    async with world(tmp_path) as w:
        t = await bob_and_carol_dealt(w, ALICE, BOB)
        assert t.hand is not None
        community = await w.store.community("telegram", str(GROUP_ID))

        async def state() -> tuple[object, ...]:
            c = await w.store.community("telegram", str(GROUP_ID))
            s = c.settings
            assert t.hand is not None
            boards = {n: list(t.hand.board_of(n, with_pending=True).cards()) for n in t.hand.order}
            return (
                (s.options, s.min_buy_in, s.max_buy_in, s.kush_label, s.language, s.game),
                (s.utc_offset, s.payouts, s.level_minutes),
                {n: (x.stack, x.ready) for n, x in t.seats.items()},
                t.pending_options,
                boards,
                len(await w.store.ledger(community.id)),
            )

        before = await state()
        for line in NONSENSE:
            english = (await w.say(ALICE, "/settings " + line))["text"]
            russian = (await w.say(BOB, "/settings " + line))["text"]
            assert 0 < len(english) <= 400 and 0 < len(russian) <= 400, line
            assert english.startswith(("Cannot set that — ", "“", "One setting at a time")), (
                line,
                english,
            )
            assert not english.startswith("Saved"), (line, english)
            assert any("а" <= c <= "я" for c in russian.lower()), (line, russian)
            assert not russian.startswith("Сохранено"), (line, russian)
        assert await state() == before
        await assert_conserved(w.store)


async def _replies(w: World, mids: list[int]) -> list[str]:
    """The bot's reply to each of the group messages ``mids``, waited for."""
    fake = w.fake
    out = []
    for mid in mids:
        reply = await fake.wait_for(functools.partial(fake.reply_to, GROUP_ID, mid))
        out.append(str(reply["text"]))
    return out


async def test_addbot_and_removebot_sent_six_times_at_once_seat_and_stand_each_once(
    tmp_path: Path,
) -> None:
    """Updates are handled concurrently: six /addbot at once seat two computer players (the
    last of Pineapple's three seats stays free for a person), the other four told so; six
    /removebot at once stand those two up and tell the rest that none is seated. The house's
    kush goes back: nothing minted or lost."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(ALICE, "/newtable")
        (t,) = w.service.tables.values()
        mids = [await w.fake.send_text(ALICE, GROUP_ID, "/addbot") for _ in range(6)]
        texts = await _replies(w, mids)
        await w.settle()
        assert len(t.seats) == 2 and all(s.bot is not None for s in t.seats.values())
        assert sum("sits down" in x for x in texts) == 2, texts
        last_seat = tr("en", "bot.last_seat")
        assert texts.count(last_seat) == 4, texts
        mids = [await w.fake.send_text(ALICE, GROUP_ID, "/removebot") for _ in range(6)]
        texts = await _replies(w, mids)
        await w.settle()
        assert not t.seats
        assert sum(x.endswith("stands up.") for x in texts) == 2, texts
        assert texts.count(tr("en", "bot.none")) == 4, texts
        await assert_conserved(w.store)


async def test_kick_and_closetable_sent_three_times_at_once_in_a_tournament_lobby(
    tmp_path: Path,
) -> None:
    """R8.7: Bob registers (Register pressed four times at once: one buy-in); the admin's
    /kick @bob and /closetable, each sent three times at once, withdraw him once (the buy-in
    back once) and cancel the tournament once; the rest are told there is nothing to do."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(ALICE, "/tournament")
        lobby = tournament_message(w)
        register = actions_of(w.fake, lobby)["g"]
        presses = [
            await w.fake.press(BOB, GROUP_ID, lobby["message_id"], register) for _ in range(4)
        ]
        for q in presses:
            await w.fake.wait_for(functools.partial(w.fake.answer_of, q))
        await w.settle()
        assert await balance(w, BOB) == 900
        mids = [await w.fake.send_text(ALICE, GROUP_ID, "/kick @bob") for _ in range(3)]
        mids += [await w.fake.send_text(ALICE, GROUP_ID, "/closetable") for _ in range(3)]
        texts = await _replies(w, mids)
        await w.settle()
        assert not w.service.tables
        assert await balance(w, BOB) == 1000
        withdrawn = [x for x in texts if "withdrew" in x]
        assert len(withdrawn) == 1, texts
        assert sum(x.startswith("Tournament #1 is cancelled") for x in texts) == 1, texts
        assert all(len(x) <= 300 for x in texts), texts
        await assert_conserved(w.store)


@pytest.mark.parametrize(
    "command",
    ["/settings", "/settings hand_seconds 30", "/grant @bob 100", "/closetable", "/addbot",
     "/removebot", "/tournament", "/kick @bob", "/newtable"],
)  # fmt: skip
async def test_group_commands_in_a_private_chat_say_so_and_change_nothing(
    tmp_path: Path, command: str
) -> None:
    """An admin sends a group's command to the bot's private chat during a hand: "This
    command works in a group chat." (in Russian to Bob, who is seated), the group's table,
    settings and ledger as they were."""
    async with world(tmp_path) as w:
        t = await bob_and_carol_dealt(w, ALICE, BOB)
        community = await w.store.community("telegram", str(GROUP_ID))
        # (not the table's version: a first message to the private chat writes the table
        # message anew, its "press Start" link for that player gone)
        before = (
            {n: (x.stack, x.ready) for n, x in t.seats.items()},
            len(await w.store.ledger(community.id)),
            community.settings.options,
        )
        reply = await w.say(ALICE, command, chat_id=ALICE.id)
        assert reply["text"] == "This command works in a group chat.", reply
        reply = await w.say(BOB, command, chat_id=BOB.id)
        # (Bob sits at the table: some answers add "send it in your table's group" and its link)
        assert reply["text"].startswith(tr("ru", "reply.group_only")[:-1]), reply
        await w.settle()
        community = await w.store.community("telegram", str(GROUP_ID))
        after = (
            {n: (x.stack, x.ready) for n, x in t.seats.items()},
            len(await w.store.ledger(community.id)),
            community.settings.options,
        )
        assert after == before
        assert t.id in w.service.tables and t.hand is not None and not t.closing


@pytest.mark.parametrize(("buy_in", "balance_before"), [(50, 100), (500, 1000)])
async def test_r8_2_ready_during_a_hand_pays_the_buy_in_of_the_next_hand(
    tmp_path: Path, buy_in: int, balance_before: int
) -> None:
    """R8.2: during a hand an admin sets ``min_buy_in`` (answered "It applies from the next
    hand"); Alice sits down then, to play from the next hand, and presses Ready. She paid
    the old buy-in, 200: lowered to 50 she was refused with a balance of 100 ("you need
    200") and charged 200 with more; raised to 500 she sat down with 200 at a table whose
    every newcomer from then on pays 500. She pays the next hand's buy-in, which the
    answer names, and the ledger balances."""
    async with world(tmp_path) as w:
        t = await bob_and_carol_dealt(w, ALICE)
        assert t.hand is not None and t.hand_no == 1
        if balance_before != 1000:  # (her wallet made, then brought down to 100)
            reply = await w.say(ALICE, "/balance")
            reply = await w.say(ALICE, f"/grant @alice {balance_before - 1000}")
            assert reply["text"] == f"Alice: −{1000 - balance_before} kush, balance 100.", reply
        reply = await w.say(ALICE, f"/settings min_buy_in {buy_in}")
        assert reply["text"].startswith(f"Saved: min_buy_in = {buy_in} (was 200).\nIt applies"), (
            reply
        )
        answer = await w.press_lobby(ALICE, "j")
        assert not answer.get("show_alert"), answer
        answer = await w.press_lobby(ALICE, "r")
        assert answer["text"] == f"Ready: {buy_in} kush moved to the table.", answer
        assert await balance(w, ALICE) == balance_before - buy_in
        seat = t.seat_of(str(ALICE.id))
        assert seat is not None and seat.stack == buy_in and seat.ready
        assert t.hand is not None and t.hand_no == 1  # (the hand goes on without her)
        await assert_conserved(w.store)


async def test_r8_2_a_computer_player_seated_during_a_hand_buys_in_at_the_next_hands_buy_in(
    tmp_path: Path,
) -> None:
    """R8.2, as a person's Ready: an admin raises ``min_buy_in`` to 500 during Bob's and
    Carol's hand, then seats a computer player, dealt in from the next hand; it sat down
    with the old buy-in, 200. It buys in at 500, staked by the house's grant."""
    async with world(tmp_path) as w:
        t = await bob_and_carol_dealt(w, ALICE)
        assert t.hand is not None
        reply = await w.say(ALICE, "/settings min_buy_in 500")
        assert reply["text"].startswith("Saved: min_buy_in = 500 (was 200)."), reply
        reply = await w.say(ALICE, "/addbot")
        assert "sits down" in reply["text"], reply
        (robot,) = (s for s in t.seats.values() if s.bot is not None)
        assert robot.stack == 500 and robot.ready
        community = await w.store.community("telegram", str(GROUP_ID))
        entries = [e for e in await w.store.ledger(community.id) if e.player_id == robot.player_id]
        assert [(e.kind.value, e.balance_delta, e.stack_delta) for e in entries][-1] == (
            "buy_in",
            -500,
            500,
        )
        await assert_conserved(w.store)
