"""A new user's points (fixnu40a): each test fails without its fix."""

from __future__ import annotations

import io
from pathlib import Path

from bot.model import Actor
from bot.sandbox import GROUP, GROUP_ID, Sandbox, SandboxOptions
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE, BOB, CAROL, seated
from tests.bot.test_service import GROUP as T_GROUP
from tests.bot.test_settings import ALICE as S_ALICE
from tests.bot.test_settings import BORIS as S_BORIS
from tests.bot.test_settings import new_service as settings_service
from tests.bot.test_settings import say

# -- 1. the sandbox's group buttons: by label, and a numbered Leave asks first ---------------


async def _full_table(tmp_path: Path, name: str = "s.sqlite3") -> tuple[Sandbox, io.StringIO]:
    """A sandbox with two computer players seated and the player joined: the table is full,
    so the lobby has no Join ("[g1] Ready [g2] Leave [g3] ➕ Top up")."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / name, bots=2, bot_delay=0.0), out)
    await box.start()
    assert await box.handle("g1")  # Join (a free seat: Join is g1)
    return box, out


def _seated(box: Sandbox) -> bool:
    assert box.service is not None
    t = box.service.table_in(GROUP)
    return t is not None and t.seat_of(str(box.human.id)) is not None


async def test_g2_typed_as_readme_s_ready_on_a_full_table_asks_before_leaving(
    tmp_path: Path,
) -> None:
    """README's ``g2`` (Ready) on a full table is Leave: it stood the player up at once. Now
    it asks, naming the button and where Ready is; the player stays seated; the same ``g2``
    again leaves."""
    box, out = await _full_table(tmp_path)
    try:
        shown = box.screen(GROUP_ID)
        assert shown is not None
        assert [label for label, _ in shown.buttons] == ["Ready", "Leave", "➕ Top up"]
        start = len(out.getvalue().splitlines())
        assert await box.handle("g2")
        lines = out.getvalue().splitlines()[start:]
        assert lines[0] == (
            "» g2 is Leave now: type g2 again to leave the table (or g leave). Ready is g1."
        )
        assert _seated(box)
        assert await box.handle("g2")
        assert "» You left the table." in out.getvalue().splitlines()[start:]
        assert not _seated(box)
    finally:
        await box.stop()


async def test_a_leave_question_lapses_with_any_other_line(tmp_path: Path) -> None:
    """``g2`` asked; a line in between (``/balance``) drops the question: the next ``g2`` asks
    again and the player stays seated."""
    box, out = await _full_table(tmp_path)
    try:
        assert await box.handle("g2")
        assert await box.handle("/balance")
        start = len(out.getvalue().splitlines())
        assert await box.handle("g2")
        assert out.getvalue().splitlines()[start].startswith("» g2 is Leave now")
        assert _seated(box)
    finally:
        await box.stop()


async def test_g_and_a_label_presses_that_button_in_either_language_and_case(
    tmp_path: Path,
) -> None:
    """``g READY`` presses Ready whatever its number (g1 on a full table), ``g Встать`` the
    Leave at once (named, not a number: no question); a label the message lacks is answered
    with the buttons it has."""
    box, out = await _full_table(tmp_path)
    try:
        start = len(out.getvalue().splitlines())
        assert await box.handle("g join")
        assert out.getvalue().splitlines()[start] == (
            '» no button "join" on the group message now; its buttons: g1 Ready, g2 Leave, '
            "g3 ➕ Top up"
        )
        assert await box.handle("g READY")
        assert "» Ready: 200 kush moved to the table." in out.getvalue().splitlines()[start:]
        assert box.service is not None
        t = box.service.table_in(GROUP)
        assert t is not None and t.hand is not None  # everyone ready: dealt
    finally:
        await box.stop()
    box2, out2 = await _full_table(tmp_path, "b.sqlite3")
    try:
        start = len(out2.getvalue().splitlines())
        assert await box2.handle("g Встать")
        assert "» You left the table." in out2.getvalue().splitlines()[start:]
        assert not _seated(box2)
    finally:
        await box2.stop()


async def test_the_first_hint_names_the_buttons_by_label_not_fixed_numbers(tmp_path: Path) -> None:
    """The start's hint said "Type g1 to Join and g2 for Ready": on a full table g2 is Leave."""
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bots=2, bot_delay=0.0), out)
    await box.start()
    try:
        text = out.getvalue()
        assert "Type g join, then g ready" in text
        assert "g2 for Ready" not in text
    finally:
        await box.stop()


# -- 4. Ready before Join --------------------------------------------------------------------


async def test_r8_2_ready_before_join_says_press_join_first_in_either_language() -> None:
    """Ready typed (or its button pressed) by a member with no seat answered only "You are
    not at this table.": now it says Join comes first, in the member's language; nothing
    changes. A full table (no seat to join) keeps the old answer."""
    service, presenter, _store, _clock = service_env()
    await service.new_table(T_GROUP, ALICE)
    reply = await service.ready(T_GROUP, ALICE)
    assert reply.alert and reply.text == "You are not at this table: press Join first."
    reply = await service.ready(T_GROUP, BOB)  # (Bob reads Russian)
    assert reply.text == "Вы не сидите за этим столом: сначала нажмите «Сесть»."
    ready = next(
        b.data for b in presenter.last_table(T_GROUP.chat_id).all_buttons() if b.label == "Ready"
    )
    reply = await service.press(ALICE, ready)
    assert reply.alert and reply.text == "You are not at this table: press Join first."
    t = service.table_in(T_GROUP)
    assert t is not None and not t.seats
    for a in (BOB, CAROL, ALICE):  # (three seats in Pineapple: full)
        assert not (await service.join(T_GROUP, a)).alert
    outsider = Actor("telegram", "4", "Dave", "en")
    assert (await service.ready(T_GROUP, outsider)).text == "You are not at this table."


# -- 5. a refused setting's bounds grouped as every amount ------------------------------------


async def test_a_refused_settings_value_groups_its_bounds_as_grant_does() -> None:
    """``/settings min_buy_in`` refused: the bounds came as «от 1 до 1000000000000 кушей»
    when the number was not typed as one ("- 5", "5k", "1 000"), while /grant writes
    «1 000 000 000 000» and English "1,000,000,000,000". Now every refusal groups them (a
    no-break space in Russian), the hint under it saying how to type a number."""
    service, _store = settings_service()
    nb = "\u00a0"
    for typed in ("-5", "- 5", "5k", "1 000"):
        reply = await say(service, "min_buy_in", typed, actor=S_ALICE)
        assert reply.alert
        assert reply.text.split("\n")[0] == (
            "Cannot set that — min_buy_in takes a whole number from 1 to 1,000,000,000,000 kush."
        ), typed
        reply = await say(service, "min_buy_in", typed, actor=S_BORIS)
        assert reply.text.split("\n")[0] == (
            f"Не удалось изменить min_buy_in: целое число от 1 до 1{nb}000{nb}000{nb}000{nb}000 "
            "кушей."
        ), typed
    reply = await say(service, "min_buy_in", "5k", actor=S_BORIS)
    assert reply.text.split("\n")[1] == (
        "Набирайте число только цифрами 0–9, без пробелов и разделителей (1000, а не 1 000 "
        "или 1_000)."
    )


# -- 6. /addbot's level checked before the table's state ---------------------------------------


async def test_addbot_with_a_bad_level_at_a_closing_table_is_refused_as_a_bad_level() -> None:
    """``/addbot godlike`` while the table closes after its hand answered only "closes at
    the end of this hand": the level is checked first (en and ru); a good level there is
    still told the table closes; nobody is seated."""
    service, _presenter, _store, _clock = service_env()
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    assert not (await service.close_table(T_GROUP, ALICE, True)).alert
    assert t.closing
    reply = await service.add_bot(T_GROUP, ALICE, True, "godlike")
    assert reply.alert and reply.text == "Levels: easy, normal, strong. Usage: /addbot [level]"
    reply = await service.add_bot(T_GROUP, BOB, True, "божественный")
    assert reply.text == (
        "Уровни: лёгкий (easy), средний (normal), сильный (strong). Формат: /addbot [уровень]"
    )
    reply = await service.add_bot(T_GROUP, ALICE, True, "strong")
    assert reply.alert and reply.text == (
        f"This chat's table #{t.id} closes at the end of this hand; then /newtable opens another."
    )
    assert sorted(s.user_id for s in t.seats.values()) == [ALICE.user_id, BOB.user_id]
