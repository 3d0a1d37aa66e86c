"""Screens as Discord components, without a network: the real screens of a table (lobby,
street 1, a later street, 14- and 17-card Fantasyland) fit Discord's limits (5 rows of 5, 25
components, 80-character labels, 100-character custom ids) and keep every payload."""

from __future__ import annotations

import time
from typing import Any

import discord
from hypothesis import given
from hypothesis import strategies as st

from bot import render
from bot.discord.components import (
    MAX_BUTTONS,
    MAX_ROW_WIDTH,
    MAX_ROWS,
    BoxSelect,
    PayloadButton,
    PickSelect,
    content_of,
    is_routed,
    routed_table,
    rows_of,
    view_of,
)
from bot.model import LiveTable, SeatState
from bot.presses import decode
from bot.screens import Button, Payload, Screen
from bot.service.settings import settings_screen
from game.board import Box
from game.cards import parse_card
from game.hand import Hand, HandSetup
from game.match import MatchState
from game.options import RuleOptions
from game.strategy import complete_street
from storage.memory import MemoryStore


def table(fantasyland: dict[int, int] | None = None, **options: Any) -> LiveTable:
    opts = RuleOptions.preset("pineapple", **options)
    t = LiveTable(
        id=7,
        platform="discord",
        community_id=1,
        community_ext="g",
        chat_id="c",
        lang="en",
        options=opts,
        min_buy_in=200,
        label="kush",
        match=MatchState.new(opts),
    )
    for seat, name in ((0, "Alice"), (1, "Bob")):
        t.seats[seat] = SeatState(seat, seat + 1, str(100 + seat), name, "en", stack=200)
    t.hand = Hand(HandSetup.deal(opts, (0, 1), 1, fantasyland or {}, seed=5))
    t.hand_no = 3
    return t


def _action(data: str | None) -> str | None:
    p = Payload.decode(data)
    return p.action if p is not None else None


def rows(view: discord.ui.View) -> list[list[dict[str, Any]]]:
    return [row["components"] for row in view.to_components()]


def check_limits(view: discord.ui.View) -> None:
    layout = rows(view)
    assert 1 <= len(layout) <= MAX_ROWS
    assert sum(len(r) for r in layout) <= MAX_BUTTONS
    for row in layout:
        assert len(row) <= MAX_ROW_WIDTH
        for c in row:
            assert len(c["custom_id"]) <= 100 and is_routed(c["custom_id"])
            assert 1 <= len(c.get("label", "x")) <= 80
            if c["type"] == 3:
                assert len(row) == 1 and 1 <= len(c["options"]) <= 25


async def test_lobby_buttons_keep_their_payloads() -> None:
    t = table()
    t.hand = None
    screen = render.lobby_screen(t, "en", None, time.time())
    view = view_of(screen)
    assert view is not None
    check_limits(view)
    layout = rows(view)
    assert [[c["custom_id"] for c in r] for r in layout] == [
        [b.data for b in row] for row in screen.buttons
    ]
    assert [c["style"] for c in layout[0]] == [3, 1, 2, 2]  # join green, ready blurple
    # what a press rebuilds from the message renders the same component
    rebuilt = PayloadButton(layout[0][0]["custom_id"], layout[0][0]["label"])
    assert rebuilt.to_component_dict() | {"style": 3} == layout[0][0] | {"disabled": False}


async def test_first_street_fits_and_every_placement_names_its_card() -> None:
    t = table()
    seat = t.seats[0]
    screen = render.private_screen(t, seat, time.time())
    assert len(screen.buttons) == 6  # five cards and the Arrange row: one row too many
    view = view_of(screen)
    assert view is not None
    check_limits(view)
    placements = [c for r in rows(view) for c in r if Payload.decode(c["custom_id"])]
    assert {c["custom_id"] for c in placements} == {b.data for b in screen.all_buttons()}
    for c in placements:
        p = Payload.decode(c["custom_id"])
        assert p is not None
        if p.action == "p":
            assert parse_card(p.arg[:-1]).face in c["label"]


async def test_a_later_street_names_every_card_on_its_buttons() -> None:
    t = table()
    hand = t.hand
    assert hand is not None
    # street 1 for both seats, with Alice's top filled
    for s in hand.order:
        cards = hand.to_place(s)
        boxes = [Box.TOP, Box.TOP, Box.TOP, Box.MIDDLE, Box.BOTTOM] if s == 0 else None
        for n, c in enumerate(cards):
            hand.place(s, c, boxes[n] if boxes else Box.BOTTOM)
        hand.confirm(s)
    screen = render.private_screen(t, t.seats[0], time.time())
    view = view_of(screen)
    assert view is not None
    check_limits(view)
    wanted = [b for b in screen.all_buttons() if _action(b.data) in ("p", "d")]
    sent = [c for r in rows(view) for c in r if _action(c["custom_id"]) in ("p", "d")]
    assert [c["custom_id"] for c in sent] == [b.data for b in wanted]
    assert len(sent) >= 6  # two boxes at least for each of the three cards
    for c in sent:
        p = Payload.decode(c["custom_id"])
        assert p is not None
        card = parse_card(p.arg[:-1] if p.action == "p" else p.arg)
        assert card in hand.current_cards(0) and card.face in c["label"]


async def test_fantasyland_is_four_selects_and_the_buttons() -> None:
    t = table({0: 14})
    hand = t.hand
    assert hand is not None
    screen = render.private_screen(t, t.seats[0], time.time())
    assert len({b.data for b in screen.all_buttons()}) > MAX_BUTTONS
    view = view_of(screen)
    assert view is not None
    check_limits(view)
    layout = rows(view)
    selects = [r[0] for r in layout if r[0]["type"] == 3]
    some = Payload.decode(screen.buttons[0][0].data)
    assert some is not None
    assert [s["custom_id"] for s in selects] == [f"sel:7:{some.version}:{b}" for b in "tmbd"]
    cards = {c.face for c in hand.current_cards(0)}
    for s in selects:
        assert {o["label"] for o in s["options"]} == cards
        assert s["max_values"] == 14 and s["min_values"] == 0  # all may be unticked
        for o in s["options"]:
            p = Payload.decode(o["value"])
            assert p is not None and o["value"] in {b.data for b in screen.all_buttons()}
    assert [s["placeholder"] for s in selects] == ["Top", "Middle", "Bottom", "✖ Discard"]
    others = [b.label for b in screen.all_buttons() if _action(b.data) not in ("p", "d")]
    assert [c["label"] for c in layout[-1]] == others and "🪄 Arrange for me" in others
    for s in selects:
        assert BoxSelect.__discord_ui_compiled_template__.fullmatch(s["custom_id"])


async def test_fantasyland_selects_mark_what_is_placed() -> None:
    t = table({0: 17}, progressive_fantasyland=True)
    hand = t.hand
    assert hand is not None
    moves = complete_street(
        hand.board_of(0, with_pending=True),
        hand.to_place(0),
        hand.discards_needed(0),
        fantasyland_cards=13,
        options=hand.options,
    )
    for card, box in moves[:4]:
        if box is not None:
            hand.place(0, card, box)
        else:
            hand.discard(0, card)
    screen = render.private_screen(t, t.seats[0], time.time())
    view = view_of(screen)
    assert view is not None
    check_limits(view)
    layout = rows(view)
    by_box = {r[0]["custom_id"][-1]: r[0] for r in layout if r[0]["type"] == 3}
    for card, box in moves[:4]:
        code = "d" if box is None else box.value[0]
        chosen = [o for o in by_box[code]["options"] if o["label"] == card.face]
        assert chosen and chosen[0]["default"] is True
    assert len(by_box["t"]["options"]) == 17
    assert "↩ Undo" in [c["label"] for c in layout[-1]]  # something to undo now


@given(st.lists(st.integers(min_value=0, max_value=8), max_size=12))
def test_rows_of_fits_or_refuses(widths: list[int]) -> None:
    """Any rows of buttons: kept in order, at most 5 rows of 5, or ``None`` beyond 25."""
    layout = [[f"{r}.{i}" for i in range(w)] for r, w in enumerate(widths)]
    packed = rows_of(layout)
    flat = [b for r in layout for b in r]
    if len(flat) > MAX_BUTTONS:
        assert packed is None
        return
    assert packed is not None
    assert [b for r in packed for b in r] == flat
    assert len(packed) <= MAX_ROWS and all(1 <= len(r) <= MAX_ROW_WIDTH for r in packed)
    if len(layout) - widths.count(0) <= MAX_ROWS and max(widths, default=0) <= MAX_ROW_WIDTH:
        assert packed == [r for r in layout if r]  # rows that fit are kept as they are


async def test_links_labels_and_content_are_cut_to_discord_limits() -> None:
    long = "x" * 200
    screen = Screen(long * 20, ((Button(long, "1:L2:j"), Button("site", url="https://x.y")),))
    view = view_of(screen)
    assert view is not None
    layout = rows(view)
    assert len(layout[0][0]["label"]) == 80 and layout[0][1]["url"] == "https://x.y"
    assert len(content_of(screen.text)) == 2000
    assert view_of(Screen("no buttons")) is None


async def test_a_screen_of_more_than_25_buttons_becomes_single_choice_selects() -> None:
    """The settings (one or two buttons per setting): every button is an option, and an
    option that continues a row carries the row's name."""
    store = MemoryStore()
    community = await store.community("discord", "g")
    screen = settings_screen(community, "en", label="kush")
    payloads = [b.data for b in screen.all_buttons()]
    view = view_of(screen)
    assert view is not None
    check_limits(view)
    selects = [r[0] for r in rows(view)]
    assert all(s["type"] == 3 and s["max_values"] == 1 for s in selects)
    assert [s["custom_id"] for s in selects] == [f"pick:{n}" for n in range(len(selects))]
    assert [o["value"] for s in selects for o in s["options"]] == payloads
    labels = {o["value"]: o["label"] for s in selects for o in s["options"]}
    for row in screen.buttons:
        name = row[0].label.split()[0]
        assert all(labels[b.data].startswith(name) for b in row if b.data)
    assert all(
        PickSelect.__discord_ui_compiled_template__.fullmatch(s["custom_id"]) for s in selects
    )


async def test_every_setting_can_be_named_on_discord_by_autocomplete() -> None:
    """More settings than Discord's 25 choices: the name is suggested as the admin types."""
    from bot.discord.adapter import _setting_names
    from bot.service import SETTINGS

    assert len(SETTINGS) > 25
    for name in SETTINGS:
        suggested = [c.value for c in await _setting_names(None, name)]  # type: ignore[arg-type]
        assert name in suggested
    assert len(await _setting_names(None, "")) == 25  # type: ignore[arg-type]
    assert [c.value for c in await _setting_names(None, "idle")] == ["idle_close_seconds"]  # type: ignore[arg-type]


def test_only_ascii_digits_name_a_table_in_a_payload_or_a_select() -> None:
    """A forged custom_id or callback_data with other scripts' digits ("١", an Arabic-Indic
    one) acted as the real button of table 1 (``\\d`` and ``int`` take any Unicode digit);
    one with a line feed after it acted too. Both are unknown buttons now."""
    assert Payload.decode("1:L5:j") == Payload(1, "L5", "j")
    for forged in ("١:L5:j", "1:L5:j\n", "1:L5:p:A♠t", "²:L5:j"):
        assert Payload.decode(forged) is None, forged
        assert decode(forged) is None, forged
        assert routed_table(forged) is None, forged
    assert is_routed("sel:1:1.0:t")
    assert not is_routed("sel:١:1.0:t") and routed_table("sel:١:1.0:t") is None
