"""Break session "brkleak": payloads crafted by hand (a Telegram ``callback_data``, a Discord
``custom_id``: ``table:version:action[:arg]``, bot/presses.py) for another player's card,
board, table, hand or street, a card discarded, a Fantasyland board, a button of another
chat. Each is refused with a short notice to the presser alone and changes nothing: no
ledger entry, no new table version or step, no write to the group, the hand as it was
(R3.3, R3.4, R6.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from bot.model import HAND_VIEW_PREFIX, Actor, ChatRef, LiveTable
from bot.presses import Claim, Continue, decode
from bot.screens import Payload
from bot.service import TableService
from bot.texts import tr
from tests.bot.conftest import Clock, service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service_classic import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    auto_street,
    configure,
    play_hand,
    start,
)

PLAYERS = {a.user_id: a for a in (ALICE, BOB, CAROL)}
GROUP2 = ChatRef("telegram", "-300", "-300", "Other")
DAVE = Actor("telegram", "4", "Dave", "en")
EVE = Actor("telegram", "5", "Eve", "en")


def dm(actor: Actor) -> ChatRef:
    return ChatRef(actor.platform, actor.user_id, actor.user_id, actor.name, private=True)


@dataclass
class Scene:
    service: TableService
    presenter: FakePresenter
    store: Any
    clock: Clock
    t: LiveTable
    t2: LiveTable
    actor: Actor  # to act at ``t``, on street 3 (two streets with a discard behind)
    other: Actor
    version: str  # the actor's current private hand version


async def scene() -> Scene:
    """Pineapple at two tables: Alice, Bob and Carol in GROUP, on their third street (each
    has discarded twice); Dave and Eve in GROUP2."""
    service, p, store, clock = service_env()
    await configure(service, game="pineapple")
    await start(service, [ALICE, BOB, CAROL], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    assert "open" in (await service.new_table(GROUP2, DAVE, "pineapple")).text
    for a in (DAVE, EVE):
        assert not (await service.join(GROUP2, a)).alert
        assert not (await service.ready(GROUP2, a)).alert
    clock.now += 6
    await service.run_due()
    t2 = service.table_in(GROUP2)
    assert t2 is not None and t2.hand is not None
    for _ in range(6):  # streets 1 and 2 of the three players
        player = t.player_of(t.hand.to_act[0])
        assert player is not None
        await auto_street(service, p, PLAYERS[player.user_id])
    player = t.player_of(t.hand.to_act[0])
    assert player is not None
    actor = PLAYERS[player.user_id]
    other = next(a for a in PLAYERS.values() if a is not actor)
    screen = p.last_private(actor.user_id)
    version = next(
        d.version for b in screen.all_buttons() if (d := Payload.decode(b.data)) and d.action == "p"
    )
    return Scene(service, p, store, clock, t, t2, actor, other, version)


async def state(s: Scene) -> tuple[Any, ...]:
    """Everything a press must not change: both tables' steps, versions and hands, the
    group writes, posts and pictures, and the ledger."""
    community = await s.store.community("telegram", GROUP.chat_id)
    ledger = len(await s.store.ledger(community.id))
    return (
        s.t.seq, s.t.version, s.t.hand.dumps() if s.t.hand else None,
        s.t2.seq, s.t2.version, s.t2.hand.dumps() if s.t2.hand else None,
        s.presenter.writes, len(s.presenter.posts), len(s.presenter.pictures), ledger,
    )  # fmt: skip


async def refused(
    s: Scene, data: str, chat: ChatRef, message_ref: str | None, key: str | None = None
) -> str:
    """Press ``data`` as the actor in ``chat`` on ``message_ref``: refused with a notice
    (``key``'s when given), nothing changed. Returns the notice."""
    before = await state(s)

    async def no() -> bool:
        return False

    reply = await s.service.press(s.actor, data, chat, no, message_ref=message_ref)
    assert reply.alert, (data, reply)
    assert reply.text and len(reply.text) <= 80
    assert not (reply.screen is not None and not reply.private)  # nothing for a group
    if key is not None:
        assert reply.text == tr("en", key), (data, reply.text)
    assert await state(s) == before, data
    return reply.text


CASES = (
    "another's board",
    "another's discard",
    "own earlier discard, taken back",
    "own earlier discard, placed",
    "another's placed card",
    "an older hand",
    "an older street",
    "a later version",
    "another table",
    "no such table",
    "a malformed box",
    "oversized",
)


@pytest.mark.parametrize("case", CASES)
async def test_r3_3_r3_4_forged_hand_presses_in_the_private_chat_change_nothing(case: str) -> None:
    """Each hand payload crafted by the player to act, pressed on their own private message:
    refused with a short notice, nothing changes; none says whether a card named is another
    player's or still in the deck (the same notice as any card not theirs)."""
    s = await scene()
    t, hand = s.t, s.t.hand
    assert hand is not None
    me = t.seat_of(s.actor.user_id)
    them = t.seat_of(s.other.user_id)
    assert me is not None and them is not None
    mine = hand.current_cards(me.seat)[0]
    hn, _, sv = s.version.split(".")
    theirs, gone = next(iter(hand.board_of(them.seat).cards())), hand.discards_of(me.seat)[0]
    data = {
        "another's board": f"{t.id}:{hn}.{them.seat}.{sv}:p:{mine.text}b",
        "another's discard": f"{t.id}:{s.version}:p:{hand.discards_of(them.seat)[0].text}b",
        "own earlier discard, taken back": f"{t.id}:{s.version}:w:{gone.text}",
        "own earlier discard, placed": f"{t.id}:{s.version}:p:{gone.text}b",
        "another's placed card": f"{t.id}:{s.version}:p:{theirs.text}t",
        "an older hand": f"{t.id}:{int(hn) - 1}.{me.seat}.{sv}:p:{mine.text}b",
        "an older street": f"{t.id}:{hn}.{me.seat}.{int(sv) - 1}:p:{mine.text}b",
        "a later version": f"{t.id}:{hn}.{me.seat}.{int(sv) + 5}:p:{mine.text}b",
        "another table": f"{s.t2.id}:{s.t2.hand_no}.0.0:p:{mine.text}b",
        "no such table": f"999:1.0.0:p:{mine.text}b",
        "a malformed box": f"{t.id}:{s.version}:p:{mine.text}q",
        "oversized": f"{t.id}:{s.version}:p:" + "A" * 60,
    }[case]  # fmt: skip
    key = {"another's board": "err.forged", "another table": "err.not_your_table"}.get(case)
    await refused(s, data, dm(s.actor), me.private_ref, key)


async def test_r3_3_a_hand_press_in_a_group_is_refused_and_changes_nothing() -> None:
    """The hand's buttons are on the player's private message (Telegram) or a message only
    they see (a Discord ephemeral hand). The same payload sent from a group message (the
    table message, or another group's) is forged: refused as an unknown button, the card not
    placed (it was placed: the hand changed from a group), nothing changes."""
    s = await scene()
    hand, me = s.t.hand, s.t.seat_of(s.actor.user_id)
    assert hand is not None and me is not None
    mine = hand.current_cards(me.seat)[0]
    place = f"{s.t.id}:{s.version}:p:{mine.text}b"
    for chat, ref in ((GROUP, s.t.group_ref), (GROUP2, s.t2.group_ref), (GROUP, "m999")):
        assert ref is not None
        for data in (place, f"{s.t.id}:{s.version}:a", f"{s.t.id}:{s.version}:u"):
            await refused(s, data, chat, ref, "err.forged")
    # the same press on the player's own ephemeral view (Discord's "My cards") still counts
    reply = await s.service.press(s.actor, place, GROUP, message_ref=HAND_VIEW_PREFIX + "77")
    assert not reply.alert and reply.private and reply.screen is not None
    assert mine in hand.board_of(me.seat, with_pending=True).bottom


async def test_r8_2_lobby_and_admin_payloads_from_the_wrong_chat_change_nothing() -> None:
    """A table message's payload from a private chat or another group, a tournament's
    button at a cash table, a setting's step by a non-admin or from a private chat: refused,
    nothing changes."""
    s = await scene()
    t = s.t
    lobby = f"L{t.version}"
    for action in ("j", "r", "l", "h", "t"):
        await refused(s, f"{t.id}:{lobby}:{action}", dm(s.actor), None, "err.forged")
        await refused(s, f"{t.id}:{lobby}:{action}", GROUP2, s.t2.group_ref, "err.forged")
    await refused(s, "0:S1:s:mb+", dm(s.actor), None, "err.forged")
    await refused(s, "0:S1:s:mb+", GROUP, "m999", "reply.admins_only")


async def test_r7_5_a_claim_payload_from_a_private_chat_or_another_group_changes_nothing() -> None:
    """R7.5: Claim and Continue are buttons of the table message. Alice, offered the claim,
    sends their payload from her private chat or from another group: refused as unknown
    buttons, the claim offer as it was (it ended the game: the ledger settled from a DM).
    From the table's own group the same payload claims."""
    service, presenter, store, _clock = service_env()
    await configure(service, target_points="1")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand(service, presenter, [ALICE, BOB])
    assert t.reveal is not None and t.reveal["claim"] is not None
    assert t.reveal["claim"]["seats"] == [0] and t.seats[0].user_id == ALICE.user_id
    buttons = {
        type(decode(b.data)): b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), Claim | Continue)
    }
    community = await store.community("telegram", GROUP.chat_id)
    before = (t.seq, t.version, len(await store.ledger(community.id)), presenter.writes)
    for data in buttons.values():
        for chat, ref in ((dm(ALICE), "p1"), (GROUP2, "m1")):
            reply = await service.press(ALICE, data, chat, message_ref=ref)
            assert reply.alert and reply.text == tr("en", "err.forged"), (chat, reply)
    assert (t.seq, t.version, len(await store.ledger(community.id)), presenter.writes) == before
    assert t.reveal is not None and t.reveal["claim"]["continued"] == []
    reply = await service.press(ALICE, buttons[Claim], GROUP, message_ref=t.group_ref)
    assert not reply.alert and reply.text == tr("en", "reply.claimed")


async def test_r8_2_forged_table_message_payloads_are_refused_without_writing_the_group() -> None:
    """A press on the table message with a version no table message carries (not ``L<n>``)
    or a tournament's button at a cash table: refused as an unknown button, and the table
    message is not written again for it (each such press was one more group edit: a
    stream of them spent the group's rate limit the table's own writes need)."""
    s = await scene()
    t = s.t
    assert t.group_ref is not None
    for data in (
        f"{t.id}:Zq:j",
        f"{t.id}:1.0.0:r",
        f"{t.id}:L{t.version}x:l",
        f"{t.id}:L{t.version}:g",
        f"{t.id}:L{t.version}:x",
        f"{t.id}:L{t.version}:o",
        f"{t.id}:L{t.version - 1}:o",
    ):
        await refused(s, data, GROUP, t.group_ref, "err.forged")
    # an older version of a real button is out of date: the message is written again at its
    # current version (an edit of it was lost, R8.2), as before
    writes = s.presenter.writes
    reply = await s.service.press(s.actor, f"{t.id}:L{t.version - 1}:j", GROUP,
                                  message_ref=t.group_ref)  # fmt: skip
    assert reply.alert and reply.text == tr("en", "err.stale")
    assert s.presenter.writes == writes + 1


def _seats_state(t: LiveTable) -> dict[int, tuple[Any, ...]]:
    """Each board's version, cards (with this street's placements) and discards."""
    hand = t.hand
    assert hand is not None
    return {
        s: (
            hand.seat_version(s),
            tuple(hand.board_of(s, with_pending=True).cards()),
            tuple(hand.discards_of(s)),
        )
        for s in hand.order
    }


async def test_r3_3_r3_4_mutated_payloads_move_nothing_but_the_pressers_own_board() -> None:
    """A seeded fuzz of payloads made from the buttons shown (their table, hand, board,
    street version, action and card swapped for another table's, an older one, another
    player's board, any card of the deck: another's hidden card, a discard), pressed by each
    player from their private chat, the table's group and another group. Whatever a press
    does: no ledger entry, the other table untouched, and a board changes only when its own
    player pressed from their private chat; no answer names a card its presser may not see
    (another's card of this street, anyone's discard but their own)."""
    import random

    from game.cards import DECK
    from tests.bot.test_break15 import faces

    s = await scene()
    t, t2, p = s.t, s.t2, s.presenter
    hand = t.hand
    assert hand is not None
    rng = random.Random(20261206)
    community = await s.store.community("telegram", GROUP.chat_id)
    ledger = len(await s.store.ledger(community.id))
    other_table = (t2.seq, t2.version, t2.hand.dumps() if t2.hand else None)
    actions = ["p", "d", "w", "u", "c", "a", "k", "n", "v", "s", "j", "r", "l", "h", "t", "o"]
    pressed = changed = 0
    for _ in range(400):
        if t.hand is not hand or hand.is_over:
            break
        actor = rng.choice(list(PLAYERS.values()))
        screens = [*p.privates.get(actor.user_id, [])[-5:], p.last_table(GROUP.chat_id)]
        base = Payload.decode(
            rng.choice([b.data for x in screens for b in x.all_buttons() if b.data])
        )
        assert base is not None
        table = rng.choice([t.id, t.id, t.id, t2.id, 999])
        parts = base.version.split(".")
        if len(parts) == 3 and rng.random() < 0.6:
            parts[rng.randrange(3)] = str(max(0, int(parts[rng.randrange(3)]) + rng.randint(-2, 2)))
        version = rng.choice([".".join(parts), base.version, f"L{t.version}", f"C{t.hand_no}.1"])
        action = rng.choice(actions)
        arg = ""
        if action in ("p", "d", "w"):
            arg = rng.choice(DECK).text + ("tmb"[rng.randrange(3)] if action == "p" else "")
        elif action == "v":
            arg = str(rng.randint(0, 9))
        elif action == "s":
            arg = "mb+"
        data = f"{table}:{version}:{action}" + (f":{arg}" if arg else "")
        if rng.random() < 0.3:  # a button as shown, pressed from wherever
            data, action = base.encode(), base.action
        lobby = action in ("j", "r", "l", "h", "t", "o")
        chats = [(dm(actor), None), (GROUP2, s.t2.group_ref)]
        if not lobby:
            chats.append((GROUP, t.group_ref))
        chat, ref = rng.choice(chats)
        seat = t.seat_of(actor.user_id)
        if chat.private and seat is not None:
            ref = seat.private_ref
        before = _seats_state(t)
        reply = await s.service.press(actor, data, chat, message_ref=ref)
        pressed += 1
        after = _seats_state(t) if t.hand is hand else before
        moved = {b for b in before if before[b] != after.get(b)}
        if moved:
            changed += 1
            assert chat.private and seat is not None, (data, chat)
            assert all(t.owner(b) == seat.seat for b in moved), (data, moved)
        mine: set[Any] = set(hand.public_cards())
        if seat is not None:
            for b in t.boards_of(seat):
                mine |= set(hand.board_of(b, with_pending=True).cards())
                mine |= set(hand.current_cards(b)) | set(hand.discards_of(b))
        shown = faces(reply.text) | (faces(reply.screen.text) if reply.screen else set())
        assert shown <= mine, (data, reply)
    assert pressed >= 200 and changed >= 1
    assert len(await s.store.ledger(community.id)) == ledger
    assert (t2.seq, t2.version, t2.hand.dumps() if t2.hand else None) == other_table


async def test_r3_3_a_replay_step_pressed_on_a_group_message_is_refused() -> None:
    """A replay's ◀ ▶ are on a message only its player sees (a private chat, a Discord
    ephemeral answer): the frame holds their discards (R3.3). The step's payload pressed on
    a group's message is refused with a notice (it was answered with nothing at all: the
    frame dropped silently); from the private chat, or an ephemeral view, it shows."""
    service, presenter, store, _clock = service_env()
    await configure(service, game="pineapple")
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand(service, presenter, [ALICE, BOB])
    record = (await store.hand_history(t.seats[0].player_id, 1))[0]
    reply = await service.replay(dm(ALICE), ALICE, str(record.id))
    assert reply.screen is not None and reply.private
    step = next(b.data for b in reply.screen.all_buttons() if b.data)
    for chat, ref in ((GROUP, t.group_ref), (GROUP2, "m1")):
        got = await service.press(ALICE, step, chat, message_ref=ref)
        assert got.alert and got.text == tr("en", "err.forged") and got.screen is None
    for chat, ref in ((dm(ALICE), "p1"), (GROUP, HAND_VIEW_PREFIX + "5")):
        got = await service.press(ALICE, step, chat, message_ref=ref)
        assert not got.alert and got.screen is not None and got.private


async def test_r3_3_a_hand_payload_pressed_on_another_tables_hand_message_is_not_adopted() -> None:
    """Alice plays at two tables. Her hand message of the first is not known (lost: her
    private ref is none until a hand message of hers is pressed, and that one is taken as
    the hand's). A payload of the first table's hand pressed on her hand message of the
    second table is out of date: that message stays the second table's (it was taken as
    the first's too, and both tables wrote their hands into one message), nothing placed."""
    service, p, _store, clock = service_env()
    await configure(service, game="pineapple")
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert "open" in (await service.new_table(GROUP2, DAVE, "pineapple")).text
    for a in (DAVE, ALICE):
        assert not (await service.join(GROUP2, a)).alert
        assert not (await service.ready(GROUP2, a)).alert
    clock.now += 6
    await service.run_due()
    t2 = service.table_in(GROUP2)
    assert t is not None and t2 is not None and t.hand is not None and t2.hand is not None
    mine, other = t.seat_of(ALICE.user_id), t2.seat_of(ALICE.user_id)
    assert mine is not None and other is not None and other.private_ref is not None
    screen = next(x for x in reversed(p.privates[ALICE.user_id]) if x.table == t.id)
    data = next(b.data for b in screen.all_buttons() if b.data and ":p:" in b.data)
    mine.private_ref = None  # (lost)
    before = t.hand.dumps()
    reply = await service.press(ALICE, data, dm(ALICE), message_ref=other.private_ref)
    assert reply.alert and reply.text == tr("en", "err.stale_hand"), reply
    assert mine.private_ref is None and t.hand.dumps() == before
