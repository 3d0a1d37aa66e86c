"""A new user's findings left open: /replay's boxes in placement order (play sorts and names
them), the high card's second dash «старшая карта — десятка», the sandbox's ``g join`` at a
full table answered "no such button", and a restored tournament table's turn shown as a
duration though the group set ``utc_offset``."""

from __future__ import annotations

import io
import random
from pathlib import Path

from bot.sandbox import Sandbox, SandboxOptions
from bot.service import TableService
from bot.service import stats as stats_mod
from bot.thinking import Thinker
from game.cards import parse_cards
from game.evaluator import evaluate
from game.names import hand_name
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import GROUP as TOUR_GROUP
from tests.bot.test_stats_service import _table, play_scripted
from tests.bot.test_tournament_service import (
    PLAYERS,
    configure,
    new_service,
    open_and_register,
    restarted,
)
from tests.game.helpers import stacked_deck
from tests.game.test_history import DECK


async def test_replay_frames_show_boxes_sorted_and_named_as_during_play() -> None:
    """The scripted hand's loser placed 2♣ 3♣ 4♣ 5♣ 7♦ at the bottom, then 3♦ 4♦ and 3♥ 4♥ in
    the middle: the table showed "7♦ 5♣ 4♣ 3♣ 2♣ — seven high" and the middle's two pair;
    /replay listed them as placed ("2♣ 3♣ 4♣ 5♣ 7♦", "3♦ 4♦ 3♥ 4♥ ·"), unnamed."""
    store = MemoryStore()
    service = TableService(
        store,
        clock=lambda: 1_000_000.0,
        rng=random.Random(5),
        next_hand_delay=0,
        timers=False,
        deck_source=lambda: stacked_deck(DECK),
    )
    presenter = FakePresenter()
    service.register(presenter)
    _winner, loser = await play_scripted(service, presenter)
    t = _table(service)
    me = t.seat_of(loser.user_id)
    assert me is not None
    hand = (await store.hand_history(me.player_id, 1))[0]
    seat = next(s for s, pid in hand.players.items() if pid == me.player_id)
    frames = await stats_mod._frames(Thinker(False), hand, seat)
    names = {0: "A", 1: "B"}
    en = stats_mod.replay_screen(hand, frames, 1, seat, names, "en").text.splitlines()
    own = en[en.index("You:") + 1 : en.index("You:") + 4]
    assert own == ["  · · ·", "  · · · · ·", "  7♦ 5♣ 4♣ 3♣ 2♣ — seven high"]
    third = stats_mod.replay_screen(hand, frames, 3, seat, names, "en").text.splitlines()
    assert third[third.index("You:") + 2] == "  4♥ 4♦ 3♥ 3♦ · — two pair, fours and threes"
    ru = stats_mod.replay_screen(hand, frames, 3, seat, names, "ru").text.splitlines()
    mine = ru.index("Вы:")
    assert ru[mine + 2] == "  4♥ 4♦ 3♥ 3♦ · — две пары, четвёрки и тройки"
    assert ru[mine + 3] == "  7♦ 5♣ 4♣ 3♣ 2♣ — старшая семёрка"


def test_r1_3_no_hand_name_carries_a_dash_of_its_own() -> None:
    """A box line is "cards — name": the high card's «старшая карта — десятка» read
    «10♠ 6♦ 4♥ — старшая карта — десятка». Every category, both languages, is one phrase;
    the Russian high card agrees with its card («старший туз», «старшая дама»)."""
    hands = [
        "Ts 6d 4h", "As 5h 2d", "Qs 5h 2d", "Js 5h 2d", "Ks 5h 2d", "Qs Qh 2d", "Qs Qh Qd",
        "9s 9h 4d 4c 2s", "9s 8h 7d 6c 5s", "Ks 9s 7s 4s 2s", "9s 9h 9d 4c 4s",
        "9s 9h 9d 9c 4s", "9s 8s 7s 6s 5s", "As Ks Qs Js Ts",
    ]  # fmt: skip
    for cards in hands:
        for lang in ("en", "ru"):
            name = hand_name(evaluate(parse_cards(cards)), lang)
            assert "—" not in name and "-" not in name.replace("-флеш", "").replace("-хаус", ""), (
                cards,
                name,
            )
    assert hand_name(evaluate(parse_cards("Ts 6d 4h")), "ru") == "старшая десятка"
    assert hand_name(evaluate(parse_cards("Ts 6d 4h")), "en") == "ten high"
    assert hand_name(evaluate(parse_cards("As 5h 2d")), "ru") == "старший туз"
    assert hand_name(evaluate(parse_cards("Js 5h 2d")), "ru") == "старший валет"
    assert hand_name(evaluate(parse_cards("Ks 5h 2d")), "ru") == "старший король"


async def _sandbox(tmp_path: Path, lang: str, *typed: str) -> list[str]:
    out = io.StringIO()
    box = Sandbox(
        SandboxOptions(db=tmp_path / f"{lang}.sqlite3", bot_delay=0.0, lang=lang, bots=2), out
    )
    try:
        await box.start()
        for text in typed:
            assert await box.handle(text)
    finally:
        await box.stop()
    return out.getvalue().splitlines()


async def test_sandbox_g_join_at_a_full_table_answers_as_the_bot_does(tmp_path: Path) -> None:
    """Seated at the sandbox's full table (two computer players and you), its message shows
    no Join: ``g join`` was answered "no such button: ... g1 Ready, g2 Leave, ..." where the
    bot answers a press of Join there "You are already seated." (R8.2)."""
    en = await _sandbox(tmp_path, "en", "g join", "g join")
    assert "  [g1] Ready  [g2] Leave  [g3] ➕ Top up" in en
    assert en[-1] == "» You are already seated."
    ru = await _sandbox(tmp_path, "ru", "g сесть", "g сесть")
    assert ru[-1] == "» Вы уже за столом."


async def test_r8_7_a_restored_tournament_table_shows_the_turns_clock_time() -> None:
    """With ``utc_offset`` set, a table's message says when a turn ends ("until 18:41"); a
    tournament table restored after a restart said how long it lasts ("2:00"), its zone
    never read back (only ordinary tables read their group's settings on restore)."""
    service, _presenter, store, clock = new_service(next_hand_delay=0)
    await configure(service, utc_offset="3")
    await open_and_register(service, PLAYERS)
    t = service.table_in(TOUR_GROUP)
    assert t is not None and t.tournament is not None and t.hand is not None
    before = service.rt._group_render(t).text
    assert "until " in before
    await service.stop()
    service2, _presenter2 = await restarted(store, clock)
    t2 = service2.table_in(TOUR_GROUP)
    assert t2 is not None and t2.tournament is not None and t2.hand is not None
    assert service2.rt.zones.get(t2.community_id) == 3.0
    after = service2.rt._group_render(t2).text
    assert "until " in after, after
