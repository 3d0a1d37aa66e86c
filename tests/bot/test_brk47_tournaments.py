"""Break-it session brk47: tournaments (R8.7) whose chat changes under them, and their payouts.
Checks that held (no fix was needed), kept as tests:

- the group upgraded to a supergroup mid-hand (both service messages, and the bot's own
  ``my_chat_member`` "joined" of the supergroup that Telegram sends with an upgrade, first),
  then a player removed from the supergroup: knocked out at once, the tournament played to
  its end in the supergroup, the pool paid once into the moved wallets;
- the bot removed from the group mid-hand and added back before the hand ends: the
  tournament goes on to its payout, nothing cancelled or refunded;
- a hand that knocks three of four players out with equal chips: they share place 2 and the
  prizes of places 2–4 (R8.7), the winner gets the rest, and each player's ledger over the
  table is their prize less the buy-in;
- random walks through tournaments with the chat changing under them (removed and added
  back, upgraded, players blocking the bot or leaving the group, settings changed, closes,
  restarts): after each, every finished or cancelled tournament's payout record agrees with
  each player's ledger over its table, the prizes add up to the pool, and the ledger
  balances (every row balanced; balances and stacks equal to the ledger's sums)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from bot.model import Actor
from bot.service import TableService
from bot.texts import tr
from storage.api import Store
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot import test_chaos as chaos
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_chaos import TournamentWalk
from tests.bot.test_chaos_chats import ChatWalk
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm
from tests.bot.test_tournament_e2e import (
    BUY_IN,
    PLAYERS,
    START,
    configure,
    open_and_register,
    play_to_the_end,
    watch_leaks,
)
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import CAROL as TG_CAROL
from tests.bot.tg_world import GROUP_ID, World, world

SUPERGROUP_ID = -100779  # what GROUP_ID becomes
DAVE = Actor("telegram", "4", "Dave", "en")


async def ledger_by_player(store: Store, table_id: int) -> dict[int, int]:
    """Player id → the kush their balance gained (or lost) through table ``table_id``'s rows."""
    net: dict[int, int] = {}
    for e in (await store.audit_data()).ledger:  # type: ignore[attr-defined]
        if e.table_id == table_id:
            net[e.player_id] = net.get(e.player_id, 0) + e.balance_delta
    return net


async def balances_in(w: World, chat_id: int) -> dict[str, int]:
    community = await w.store.community("telegram", str(chat_id))
    out = {}
    for u in PLAYERS:
        player = await w.store.find_player(community.id, str(u.id))
        assert player is not None
        out[u.first_name] = player.balance
    return out


def standings(w: World, chat_id: int) -> list[str]:
    """The texts of the chat's messages that show a tournament's final standings."""
    return [
        str(m["text"])
        for m in w.fake.chat_messages(chat_id)
        if str(m.get("text", "")).startswith("🏆 Tournament #1 is over.")
    ]


async def test_r8_7_a_group_upgraded_mid_tournament_then_a_player_removed_there(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        w.fake.started_users.update(u.id for u in PLAYERS)
        leaks = watch_leaks(w)
        await configure(w, tournament_chips="30")
        t = await open_and_register(w)
        assert t.hand is not None and t.tournament is not None
        # Telegram tells the bot it joined the supergroup (no "left" of the old group), then
        # the two service messages of the upgrade
        await w.fake.add_bot(SUPERGROUP_ID, by=TG_ALICE)
        await w.fake.migrate_group(GROUP_ID, SUPERGROUP_ID)
        await w.fake.wait_for(lambda: t.chat_id == str(SUPERGROUP_ID) or None)
        await w.settle()
        assert not t.closing
        carol = t.seat_of(str(TG_CAROL.id))
        assert carol is not None
        await w.fake.remove_member(SUPERGROUP_ID, TG_CAROL)
        await w.fake.wait_for(lambda: (carol.seat not in t.tournament.chips) or None)  # type: ignore[union-attr]
        await w.settle()
        out = tr("en", "tour.knocked_out", name="Carol", place=3, prize=0, label="kush")
        assert out in [str(m["text"]) for m in w.fake.chat_messages(SUPERGROUP_ID)]
        await play_to_the_end(w)
        await w.settle()
        tour = t.tournament
        assert tour.finished is not None and tour.places[carol.seat] == 3
        final = standings(w, SUPERGROUP_ID)
        assert len(final) == 1 and final[0].endswith("3. Carol — 0 kush"), final
        pool = 3 * BUY_IN
        balances = await balances_in(w, SUPERGROUP_ID)  # the wallets moved with the group
        winner = t.names[tour.players[tour.winner]]  # type: ignore[index]
        assert balances == {
            u.first_name: START - BUY_IN + (pool if u.first_name == winner else 0) for u in PLAYERS
        }
        net = await ledger_by_player(w.store, t.id)
        assert net == {pid: tour.prizes[s] - BUY_IN for s, pid in enumerate(tour.players)}
        await assert_conserved(w.store)
        assert leaks == []


async def test_r8_7_the_bot_removed_and_added_back_mid_hand_plays_the_tournament_on(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        w.fake.started_users.update(u.id for u in PLAYERS)
        await configure(w, tournament_chips="30")
        t = await open_and_register(w)
        assert t.hand is not None and t.tournament is not None
        await w.fake.remove_bot(GROUP_ID, by=TG_ALICE)
        await w.fake.wait_for(lambda: t.closing or None)
        await w.fake.add_bot(GROUP_ID, by=TG_ALICE)
        await w.fake.wait_for(lambda: (not t.closing) or None)
        await w.settle()
        back = tr("en", "lobby.close_cancelled", table=t.id)
        assert back in w.group_texts()
        await play_to_the_end(w)
        await w.settle()
        tour = t.tournament
        assert tour.finished is not None  # won, not cancelled: nothing refunded
        assert len(standings(w, GROUP_ID)) == 1
        net = await ledger_by_player(w.store, t.id)
        assert net == {pid: tour.prizes[s] - BUY_IN for s, pid in enumerate(tour.players)}
        assert sorted(net.values()) == [-BUY_IN, -BUY_IN, 2 * BUY_IN]
        await assert_conserved(w.store)


async def _four_player_tournament(seed: int) -> tuple[TableService, FakePresenter, Store, int]:
    """A classic OFC tournament of four (buy-in 33, pool 132, payouts 50/30/20), 10 chips
    each at 10 chips a point: any point lost knocks a player out. Played to its end with
    Arrange + Confirm; returns the service, presenter, store and the table's number."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, rng=random.Random(seed), next_hand_delay=0, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    settings = {
        "tournament_buy_in": "33",
        "tournament_chips": "10",
        "chips_schedule": "10",
        "payouts": "50,30,20",
    }
    for name, value in settings.items():
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    reply = await service.new_tournament(GROUP, ALICE, "ofc")
    assert not reply.alert, reply.text
    for a in (ALICE, BOB, CAROL, DAVE):
        reply = await service.join(GROUP, a)
        assert not reply.alert, reply.text
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    people = {a.user_id: a for a in (ALICE, BOB, CAROL, DAVE)}
    for _ in range(2000):
        if service.table_in(GROUP) is None:
            break
        if t.hand is not None and t.hand.to_act:
            seat = t.seats[t.owner(t.hand.to_act[0])]
            await press_auto_and_confirm(service, presenter, people[seat.user_id])
        else:
            clock.now += 5
            await service.run_due()
    assert service.table_in(GROUP) is None
    return service, presenter, store, t.id


async def test_r8_7_players_knocked_out_together_with_equal_chips_share_the_places_prizes() -> None:
    """Found by seed: a hand that knocks several players out with the same chips before it
    (all of them 10). Each tournament played is checked against R8.7's payout: a group of
    ``k`` sharing place ``p`` gets ``⌊(prize p + … + prize p+k-1) / k⌋`` each (prize ``q``:
    ``⌊132 × payouts[q] / 100⌋``), the winner the rest, and each player's ledger over the
    table is their prize less the buy-in."""
    table = (66, 39, 26, 0)  # places 1–4 by the payouts, rounded down
    shared = None
    for seed in range(1, 9):
        service, presenter, store, table_id = await _four_player_tournament(seed)
        records = [
            h["result"]
            for h in await store.export_hands(table_id)
            if h["result"].get("tournament_end")
        ]
        assert len(records) == 1
        record = records[0]
        places = {int(s): p for s, p in record["places"].items()}
        prizes = {int(s): v for s, v in record["prizes"].items()}
        counts = Counter(places.values())
        for s, p in places.items():
            if p != 1:
                k = counts[p]
                assert prizes[s] == sum(table[p - 1 : p - 1 + k]) // k, (places, prizes)
        assert sum(prizes.values()) == record["pool"] == 132
        net = await ledger_by_player(store, table_id)
        players = (await store.export_hands(table_id))[-1]["players"]
        assert net == {int(pid): prizes[int(s)] - 33 for s, pid in players.items()}
        await assert_conserved(store)
        await service.stop()
        if max(counts.values()) > 1 and any(prizes[s] for s, p in places.items() if p > 1):
            shared = (places, prizes, presenter.last_table(GROUP.chat_id).text)
            break
    assert shared is not None, "no seed knocked out two players with equal chips"
    places, prizes, final = shared
    lines = final.splitlines()
    assert lines[0] == tr("en", "tour.final", table=1, pool=132, label="kush")
    # one line a player, best place first, a shared place by seat, each with its own share
    assert len(lines) == 5
    assert [int(line.split(".", 1)[0]) for line in lines[1:]] == sorted(places.values())


class TournamentChatWalk(ChatWalk, TournamentWalk):
    """A :class:`TournamentWalk` (tournaments only) whose commands include the chat changing
    under the table (:class:`ChatWalk`)."""


@pytest.mark.parametrize("seed", [0, 3, 5])
async def test_r8_7_random_tournaments_with_the_chat_changing_pay_each_player_their_record(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chaos, "GROUP", chaos.GROUP)  # (a migration moves it: put back after)
    walk = TournamentChatWalk(seed)
    with walk.shown_on_failure():
        await walk.steps(400, press=0.45, restart=0.47, tick=0.6)
        for _ in range(3000):  # nobody but the clock and one press a tick: it ends
            if walk.service.table_in(chaos.GROUP) is None:
                break
            await walk.press()
            walk.now += 50
            await walk.service.run_due()
        assert walk.service.table_in(chaos.GROUP) is None
        assert await check_store(walk.store) == []
        ledger = (await walk.store.audit_data()).ledger
        ended = 0
        for table_id in sorted({e.table_id for e in ledger if e.table_id is not None}):
            net = await ledger_by_player(walk.store, table_id)
            hands = await walk.store.export_hands(table_id)
            ends = [h for h in hands if h["result"].get("tournament_end")]
            assert len(ends) <= 1, ends  # the pool is paid out once
            if ends:
                ended += 1
                record = ends[0]["result"]
                assert sum(record["prizes"].values()) == record["pool"]
                for s, pid in ends[0]["players"].items():
                    assert net.get(int(pid), 0) == record["kush"][str(s)], (record, net)
            else:  # refunded (cancelled before anyone was out) or never started
                assert all(v == 0 for v in net.values()), (table_id, net)
        assert ended, "no tournament of the walk was paid out"
