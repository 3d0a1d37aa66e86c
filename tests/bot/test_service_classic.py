"""The table service with classic OFC options and Chinese Poker (issue 6), on an in-memory
store with a recording presenter."""

from __future__ import annotations

import pytest

from bot.model import Actor, ChatRef
from bot.presses import PlaceCard, decode
from bot.screens import Payload
from bot.service import TableService
from tests.bot.fakes import FakePresenter

GROUP = ChatRef("telegram", "-200", "-200", "Classic")
ALICE = Actor("telegram", "1", "Alice", "en")
BOB = Actor("telegram", "2", "Bob", "en")
CAROL = Actor("telegram", "3", "Carol", "en")


async def configure(service: TableService, **options: str) -> None:
    for name, value in options.items():
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert "Saved" in reply.text, reply.text


async def start(service: TableService, players: list[Actor], game: str) -> None:
    assert "open" in (await service.new_table(GROUP, players[0], game)).text
    for a in players:
        assert not (await service.join(GROUP, a)).alert
    for a in players:
        assert not (await service.ready(GROUP, a)).alert


async def auto_street(service: TableService, presenter: FakePresenter, actor: Actor) -> None:
    for action in ("a", "c"):
        screen = presenter.last_private(actor.user_id)
        data = next(
            b.data
            for b in screen.all_buttons()
            if b.data and (p := Payload.decode(b.data)) is not None and p.action == action
        )
        reply = await service.press(actor, data)
        assert not reply.alert, reply.text


async def play_hand(service: TableService, presenter: FakePresenter, players: list[Actor]) -> None:
    t = service.table_in(GROUP)
    assert t is not None
    by_id = {a.user_id: a for a in players}
    number = t.hand_no
    while t.hand is not None and t.hand_no == number and not t.hand.is_over:
        player = t.player_of(t.hand.to_act[0])
        assert player is not None
        await auto_street(service, presenter, by_id[player.user_id])


async def test_r4_2_double_boxes_two_boards_each_settled_per_player(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, _ = env
    await configure(service, game="ofc", heads_up_double_boxes="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    assert t.hand.order == (0, 1, 10, 11) and t.owners == {0: 0, 1: 0, 10: 1, 11: 1}
    screen = presenter.last_private("1")
    assert "Alice ①" in screen.text
    await play_hand(service, presenter, [ALICE, BOB])
    history = await store.hand_history(t.seats[0].player_id, 1)
    result = history[0].result
    assert len(result["pairs"]) == 4
    alice_points = sum(r["points"] for r in result["seats"] if r["seat"] in (0, 1))
    stacks = await store.stacks(t.id)
    assert stacks[t.seats[0].player_id] == 200 + result["kush"]["0"]
    if abs(alice_points) < 200:
        assert result["kush"]["0"] == alice_points
    assert sum(stacks.values()) == 400
    showdown = presenter.tables[GROUP.chat_id][-2].text
    assert "Alice ②" in showdown and "Bob ①" in showdown


async def test_r4_3_dummy_board_shown_at_showdown_only(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, _store, _ = env
    await configure(service, game="ofc", dummy_box="on")
    await start(service, [ALICE, BOB, CAROL], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand.dummy is not None
    dummy_faces = {c.face for c in t.hand.dummy.cards()}
    await play_hand(service, presenter, [ALICE, BOB, CAROL])
    texts = [s.text for s in presenter.tables[GROUP.chat_id]]
    showdown = next(x for x in texts if x.startswith("🏁"))
    assert "Dummy board" in showdown
    for text in texts:
        if text is showdown:
            continue
        assert not any(f in text for f in dummy_faces) or "hand 2" in text


async def test_r8_3_settlement_per_round_moves_kush_only_after_the_round(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, _ = env
    await configure(service, game="ofc", settle_per_round="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand(service, presenter, [ALICE, BOB])
    first = await store.hand_history(t.seats[0].player_id, 1)
    assert first[0].result["kush"] == {}
    assert sum((await store.stacks(t.id)).values()) == 400
    if t.match is not None and t.match.in_match:
        pytest.skip("a Fantasyland hand continues the match")  # pragma: no cover
    await play_hand(service, presenter, [ALICE, BOB])
    second = await store.hand_history(t.seats[0].player_id, 1)
    points = sum(r["points"] for r in first[0].result["seats"] if r["seat"] == 0) + sum(
        r["points"] for r in second[0].result["seats"] if r["seat"] == 0
    )
    assert second[0].result["kush"]["0"] == points


async def test_r7_7_chinese_timeout_ends_the_game_and_settles(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, clock = env
    await configure(service, game="chinese", reveal_pause_seconds="0")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    await auto_street(service, presenter, BOB)
    clock.now += 181  # Alice never arranges: budget and bank run out (R8.5, R7.7)
    await service.run_due()
    for _ in range(4):
        await service.run_due()
    history = await store.hand_history(t.seats[1].player_id, 1)
    result = history[0].result
    alice = next(r for r in result["seats"] if r["seat"] == 0)
    assert alice["fouled"] and alice["timed_out"] and alice["points"] == 0
    assert result["chinese"]["over"] is True
    bob_points = result["chinese"]["totals"]["1"]
    assert result["kush"] == {"0": -bob_points, "1": bob_points}
    assert t.chinese is None  # a new game starts with the next hand


async def test_chinese_leaving_between_hands_ends_and_settles_the_game(env) -> None:  # type: ignore[no-untyped-def]
    service, presenter, store, _ = env
    await configure(service, game="chinese", reveal_pause_seconds="0", target_points="200")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None
    await auto_street(service, presenter, ALICE)
    await auto_street(service, presenter, BOB)
    for _ in range(4):
        await service.run_due()
    assert t.chinese is not None and t.chinese.totals and not t.chinese.over
    totals = dict(t.chinese.totals)
    # the next hand started at once; let it finish, then Bob leaves between hands
    await auto_street(service, presenter, ALICE)
    await auto_street(service, presenter, BOB)
    for _ in range(4):
        await service.run_due()
    totals = dict(t.chinese.totals)  # type: ignore[union-attr]
    await service.sit_out(GROUP, ALICE)
    await service.sit_out(GROUP, BOB)
    if t.hand is not None:  # the third hand already dealt: finish it first
        await auto_street(service, presenter, ALICE)
        await auto_street(service, presenter, BOB)
        for _ in range(4):
            await service.run_due()
        totals = dict(t.chinese.totals) if t.chinese else totals
    before = await store.stacks(t.id)
    reply = await service.leave(GROUP, BOB)
    assert "left" in reply.text
    community = await store.community("telegram", "-200")
    bob = await store.find_player(community.id, "2")
    alice_stack = (await store.stacks(t.id))[t.seats[0].player_id]
    diff = totals[0] - totals[1]
    assert alice_stack == before[t.seats[0].player_id] + diff
    assert bob is not None and bob.balance == 800 + before[bob.id] - diff


async def test_r4_2_double_boxes_one_budget_and_one_bank_per_player(env) -> None:  # type: ignore[no-untyped-def]
    """R4.2/R8.5: a player with two boards has one time budget and one time bank for both:
    120 s + 60 s run out once for the player, not once per board."""
    service, presenter, _store, clock = env
    await configure(service, game="ofc", heads_up_double_boxes="on")
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    assert set(t.clocks) == {0, 1}  # table seats, not the four boards
    first = t.owner(t.hand.to_act[0])
    assert t.clocks[first].running and not t.clocks[1 - first].running
    assert t.clocks[first].left(clock.now) == (120.0, 60.0)
    sleeper = t.seats[first]
    clock.now += 180  # the whole budget and the whole bank: every board of the player times out
    await service.run_due()
    assert t.hand is not None
    assert not any(t.owner(s) == first for s in t.hand.to_act)
    assert t.clocks[first].left(clock.now) == (0.0, 0.0)
    # the other player finishes the hand; the sleeper's boards are auto-placed (R8.5)
    other = ALICE if sleeper.user_id == BOB.user_id else BOB
    while t.hand is not None and t.hand_no == 1:
        if any(t.owner(s) == first for s in t.hand.to_act):
            await service.run_due()
        else:
            board = t.hand.to_act[0]
            assert t.player_of(board) is t.seats[1 - first]
            await auto_street(service, presenter, other)
    assert sleeper.bank == 0.0 and t.seats[1 - first].bank == 60.0  # one bank each, carried


async def test_r4_5_chinese_keyboard_by_rank_and_reveal_lines_name_their_box(env) -> None:  # type: ignore[no-untyped-def]
    """Thirteen cards at once (R4.5) are listed highest rank first, one row each; the reveal,
    bottom box first, names every box it shows (R7.1)."""
    service, presenter, _store, _ = env
    await configure(service, game="chinese", reveal_pause_seconds="0")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    screen = presenter.last_private(ALICE.user_id)
    rows = [
        press.card
        for row in screen.buttons
        if isinstance(press := decode(row[0].data or ""), PlaceCard)
    ]
    me = t.hand.view(0).me
    assert me is not None and len(me.cards) == 13
    assert sorted(rows, key=lambda c: c.index) == sorted(me.cards, key=lambda c: c.index)
    assert [(c.rank, -c.index) for c in rows] == sorted(
        ((c.rank, -c.index) for c in rows), reverse=True
    )
    assert rows != list(me.cards)  # (the deal, seed 5, is not in rank order by itself)
    await auto_street(service, presenter, ALICE)
    await auto_street(service, presenter, BOB)
    await service.run_due()  # the bottom boxes
    reveal = presenter.tables[GROUP.chat_id][-1].text
    assert "  Bottom: " in reveal and "  Top: " not in reveal
    for _ in range(3):
        await service.run_due()
    assert any(
        "  Top: " in s.text and "  Middle: " in s.text for s in presenter.tables[GROUP.chat_id]
    )
