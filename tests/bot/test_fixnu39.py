"""New users' points left alone by earlier sessions (fixnu39): each test fails without its fix."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

from bot import render
from bot.discord.components import view_of
from bot.presses import PlaceCard, decode, encode
from bot.sandbox import GROUP_ID
from bot.screens import Screen
from bot.telegram.adapter import keyboard
from bot.texts import tr
from game.board import Box
from storage.sqlite import SqliteStore
from tests.bot.conftest import service_env
from tests.bot.discord.test_components import rows
from tests.bot.discord.test_components import table as discord_table
from tests.bot.test_sandbox import CARD_ROW, ROOT, _sandbox_session
from tests.bot.test_service import ALICE, BOB, seated
from tests.bot.test_service_classic import GROUP as C_GROUP

# -- a full box's buttons go (R3.5) -----------------------------------------------------------


def _boxes_by_card(screen: Screen) -> dict[str, list[str]]:
    """Each card's placement buttons on ``screen``: card code → the boxes offered, in order."""
    offered: dict[str, list[str]] = {}
    for b in screen.all_buttons():
        p = decode(b.data or "")
        if isinstance(p, PlaceCard):
            offered.setdefault(p.card.code_str(), []).append(p.box.value)
    return offered


async def test_r3_5_a_full_box_offers_no_button_and_a_stale_press_on_one_is_refused() -> None:
    """Three cards of street 1 in the top box (full, R3.5): the two cards left were still
    offered Top, which only answered "That box is full.". Now their rows offer Middle and
    Bottom, the three in the top keep their "• Top"; the buttons still shown carry the same
    payloads as before; the Top of the fourth card pressed on the screen from before (an
    older message) is refused "That box is full." and changes nothing."""
    service, presenter, _store, _clock = service_env()
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    acting = t.hand.to_act[0]
    actor = next(a for a in (ALICE, BOB) if a.user_id == t.seats[t.owner(acting)].user_id)
    lang = t.seats[t.owner(acting)].lang
    cards = list(t.hand.current_cards(acting))
    first = presenter.last_private(actor.user_id)
    assert _boxes_by_card(first) == {c.code_str(): ["top", "middle", "bottom"] for c in cards}
    for card in cards[:3]:
        top = next(
            b.data
            for b in presenter.last_private(actor.user_id).all_buttons()
            if isinstance(p := decode(b.data or ""), PlaceCard)
            and p.card == card
            and p.box is Box.TOP
        )
        reply = await service.press(actor, top)
        assert not reply.alert, reply.text
    screen = presenter.last_private(actor.user_id)
    offered = _boxes_by_card(screen)
    assert offered == {
        **{c.code_str(): ["top", "middle", "bottom"] for c in cards[:3]},
        **{c.code_str(): ["middle", "bottom"] for c in cards[3:]},
    }
    me = t.hand.view(acting).me
    assert me is not None
    version = f"{t.hand_no}.{acting}.{me.version}"
    fourth = [b for b in screen.all_buttons() if (p := decode(b.data or "")) and
              isinstance(p, PlaceCard) and p.card == cards[3]]  # fmt: skip
    assert [b.data for b in fourth] == [
        encode(PlaceCard(t.id, version, cards[3], box)) for box in (Box.MIDDLE, Box.BOTTOM)
    ]
    # the row's first button names the card; the cards in the top say so
    assert fourth[0].label == f"{cards[3].face} {tr(lang, 'btn.middle')}"
    marked = [b.label for b in screen.all_buttons() if b.label.endswith("• " + tr(lang, "btn.top"))]
    assert marked == [f"{c.face} • {tr(lang, 'btn.top')}" for c in cards[:3]]
    # a Top of the fourth card on the first screen (an older message): the clear refusal
    stale = next(
        b.data
        for b in first.all_buttons()
        if isinstance(p := decode(b.data or ""), PlaceCard)
        and p.card == cards[3]
        and p.box is Box.TOP
    )
    before = t.hand.board_of(acting, with_pending=True)
    reply = await service.press(actor, stale)
    assert reply.alert and reply.text == tr(lang, "err.box_full")
    assert t.hand.board_of(acting, with_pending=True) == before
    await service.stop()


def _later_street_with_full_top() -> tuple[Any, Screen]:
    """A Discord-platform table (tests/bot/discord/test_components.py) whose Alice put three
    cards of street 1 on top, on street 2 now: her private screen."""
    t = discord_table()
    hand = t.hand
    assert hand is not None
    for s in hand.order:
        boxes = [Box.TOP, Box.TOP, Box.TOP, Box.MIDDLE, Box.BOTTOM]
        for n, c in enumerate(hand.to_place(s)):
            hand.place(s, c, boxes[n] if s == 0 else Box.BOTTOM)
        hand.confirm(s)
    return t, render.private_screen(t, t.seats[0], time.time())


def test_r3_5_telegram_and_discord_show_no_button_of_a_full_box() -> None:
    """Both adapters render the one layout: on street 2 with the top full, Telegram's
    inline keyboard and Discord's components offer each card Middle, Bottom and Discard,
    no Top (before: a Top on every card, each answered "That box is full.")."""
    t, screen = _later_street_with_full_top()
    hand = t.hand
    cards = list(hand.current_cards(0))
    assert len(cards) == 3
    kb = keyboard(screen)
    assert kb is not None
    card_rows = kb["inline_keyboard"][:-1]
    assert [[b["text"] for b in row] for row in card_rows] == [
        [f"{c.face} Middle", "Bottom", "✖ Discard"] for c in cards
    ]
    assert [b["text"] for b in kb["inline_keyboard"][-1]] == [
        "↩ Undo", "🪄 Arrange for me", "✅ Confirm"
    ]  # fmt: skip
    view = view_of(screen)
    assert view is not None
    sent = [c for r in rows(view) for c in r]
    boxes = [p.box for c in sent if isinstance(p := decode(c["custom_id"]), PlaceCard)]
    assert sorted(b.value for b in boxes) == ["bottom"] * 3 + ["middle"] * 3
    assert {c["custom_id"] for c in sent} == {b.data for b in screen.all_buttons()}


def test_r3_5_a_full_box_select_on_discord_lists_only_the_cards_in_it() -> None:
    """A Fantasyland hand on Discord (14 cards: one select per box): with three cards in
    the top, the top's select listed all 14, the 11 others only answered "That box is
    full."; it lists the three, ticked (unticking one takes it back, R3.4)."""
    t = discord_table({0: 14})
    hand = t.hand
    assert hand is not None
    cards = sorted(hand.current_cards(0), key=lambda c: (-c.rank, c.index))
    for c in cards[:3]:
        hand.place(0, c, Box.TOP)
    screen = render.private_screen(t, t.seats[0], time.time())
    view = view_of(screen)
    assert view is not None
    selects = {r[0]["custom_id"][-1]: r[0] for r in rows(view) if r[0]["type"] == 3}
    top = selects["t"]
    assert [(o["label"], o["default"]) for o in top["options"]] == [
        (c.face, True) for c in cards[:3]
    ]
    assert top["max_values"] == 3
    assert len(selects["m"]["options"]) == len(selects["b"]["options"]) == 14


# -- Chinese Poker's private title (R4.5) --------------------------------------------------------


async def test_r4_5_a_chinese_poker_private_title_is_the_tables_header() -> None:
    """A Chinese Poker hand (one deal of 13, no street) titled the private hand "🃏 Table #1 ·
    hand 1 · Chinese Poker", the game's name where the other games put the street, beside the
    group's "🃏 Chinese Poker · table #1 · hand 1": two formats for one hand. The private title
    is now the table's header, in each player's language (Bob reads Russian); an open-face
    game's keeps its street."""
    service, presenter, _store, _clock = service_env()
    await service.new_table(C_GROUP, ALICE, "chinese")
    for a in (ALICE, BOB):
        assert not (await service.join(C_GROUP, a)).alert
    for a in (ALICE, BOB):
        assert not (await service.ready(C_GROUP, a)).alert
    t = service.table_in(C_GROUP)
    assert t is not None and t.hand is not None
    group = presenter.last_table(C_GROUP.chat_id).text.splitlines()[0]
    assert group == "🃏 Chinese Poker · table #1 · hand 1"
    assert presenter.last_private(ALICE.user_id).text.splitlines()[0] == group
    russian = presenter.last_private(BOB.user_id).text.splitlines()[0]
    assert russian == "🃏 Китайский покер · стол #1 · раздача 1"
    await service.stop()
    service, presenter, _store, _clock = service_env()
    await seated(service, ALICE, BOB)
    title = presenter.last_private(ALICE.user_id).text.splitlines()[0]
    assert title == "🃏 Table #1 · hand 1 · street 1/5"
    await service.stop()


# -- the sandbox: a plain start keeps the group's language ----------------------------------------


async def test_a_plain_sandbox_start_leaves_the_groups_language_as_set(tmp_path: Path) -> None:
    """``--lang ru``, then ``/settings language auto`` (the table stays Russian: its one
    person reads Russian), then a start without ``--lang``: that start set the group's
    language to Russian, undoing the admin's ``auto`` unasked. Now the setting stays
    ``auto``; you play in the table's language that start (the bot's replies and the
    sandbox's lines in Russian), said with how to switch."""
    first = await _sandbox_session(tmp_path, ["g1", "/settings language auto"], "--lang", "ru")
    assert any(x.startswith("» Сохранено") for x in first), first
    assert await _group_language(tmp_path) == "auto"
    again = await _sandbox_session(tmp_path, ["/rules"], "--fast")
    assert await _group_language(tmp_path) == "auto"
    assert tr("ru", "sandbox.table_lang_kept", flag="en") in again, again
    assert (
        "» Этот стол говорит по-русски, а язык группы — авто, поэтому вы играете по-русски; "
        "переключить: --lang en или /settings язык en"
    ) in again
    assert not any(x.startswith("» Язык этой группы") for x in again), again
    assert any(x.startswith("» Ананас: 13 карт") for x in again), again  # /rules in Russian
    assert any(x.startswith("» Пока (стол сохранён") for x in again), again
    # asked: --lang en switches the group as /settings language en would
    third = await _sandbox_session(tmp_path, [], "--lang", "en")
    assert await _group_language(tmp_path) == "en", third


async def _group_language(tmp_path: Path) -> str:
    """The sandbox group's ``language`` setting in the sandbox's file."""
    store = await SqliteStore.open(tmp_path / "sandbox.sqlite3")
    try:
        community = await store.community("telegram", str(GROUP_ID))
        return community.settings.language or "auto"  # (None: never set, auto)
    finally:
        await store.close()


# -- the sandbox takes piped input -------------------------------------------------------------


async def _piped(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    """``printf TEXT | python -m bot --sandbox`` (computer players at their own pace, not
    ``--fast``) on its own file, as user "tester": the exit status and every line printed."""
    tmp_path.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    env["USER"] = "tester"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), env.get("PYTHONPATH"))))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--sandbox",  # (no .env in tmp_path)
        "--sandbox-db", str(tmp_path / "sandbox.sqlite3"),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT, cwd=tmp_path, env=env,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(proc.communicate(text.encode()), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode().splitlines()


def _last_private(lines: list[str]) -> list[str]:
    """The last private screen printed: its lines up to the next heading."""
    start = max(i for i, x in enumerate(lines) if x.startswith("── private"))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("──")), len(lines))
    return lines[start + 1 : end]


async def test_piped_commands_wait_for_your_move_and_the_end_of_input_exits_cleanly(
    tmp_path: Path,
) -> None:
    """``printf 'g1\\ng2\\n17\\n' | python -m bot``: the lines were read at once, "17" while the
    computer player (first to act in the first hand) was still placing, answered "no such
    button: your hand has no buttons now"; and the end of the input quit at once, the moves
    it led to never printed. Now a number waits for your move, and the end of the input
    waits for it likewise, prints it and exits as /quit does (status 0, the bye line)."""
    status, lines = await _piped(tmp_path / "a", "g1\ng2\n17\n")
    assert status == 0, lines
    assert not any("no such button" in x or "Traceback" in x for x in lines), lines
    rows = [x for x in _last_private(lines) if CARD_ROW.search(x)]
    assert len(rows) == 5 and all("•" in x for x in rows), lines  # 🪄 placed all five
    assert lines[-1] == "» Bye (the table is saved; the next start resumes it)", lines
    # the input ends right after Ready: the hand's first screen of your move is printed
    status, lines = await _piped(tmp_path / "b", "g1\ng2\n")
    assert status == 0, lines
    mine = _last_private(lines)
    assert mine[1].startswith("Your move · ⏱"), lines
    assert sum(1 for x in mine if CARD_ROW.search(x)) == 5, lines
    assert lines[-1] == "» Bye (the table is saved; the next start resumes it)", lines
