"""A new user's findings: the table message during a hand shows only the lobby buttons that
do something (R8.2); a shorter turn line (R8.5); ``kush_label`` "chips" refused (R8.7); the
sandbox prints the answer to a command before the screens it caused."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import render
from bot.model import Actor
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE as T_ALICE  # (English, in the group -100)
from tests.bot.test_service import BOB as T_BOB  # (Russian)
from tests.bot.test_service import GROUP as T_GROUP
from tests.bot.test_service_classic import ALICE, BOB, CAROL, GROUP, configure, start

DAVE = Actor("telegram", "4", "Dave", "en")


def _labels(presenter: object) -> list[str]:
    screen = presenter.last_table(GROUP.chat_id)  # type: ignore[attr-defined]
    return [b.label for b in screen.all_buttons()]


async def test_r8_2_hand_buttons_only_join_while_free_and_ready_while_someone_needs_it() -> None:
    """Two players in a classic OFC hand (4 seats): the table message had Join and Ready,
    which the seated only got "You are already at the table" / "already ready" from. Join
    stays while a seat is free; Ready shows while someone seated during the hand has not
    bought in (R8.2); Leave, Top up and My cards always."""
    service, presenter, _, _ = service_env()
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    assert _labels(presenter) == ["Join", "Leave", "➕ Top up", "🂠 My cards"]
    assert not (await service.join(GROUP, CAROL)).alert  # seated mid-hand, not bought in
    assert _labels(presenter) == ["Join", "Ready", "Leave", "➕ Top up", "🂠 My cards"]
    assert not (await service.join(GROUP, DAVE)).alert  # the last seat
    assert _labels(presenter) == ["Ready", "Leave", "➕ Top up", "🂠 My cards"]
    assert not (await service.ready(GROUP, CAROL)).alert
    assert "Ready" in _labels(presenter)  # Dave still has to
    assert not (await service.ready(GROUP, DAVE)).alert
    assert t.hand is not None  # (still the first hand)
    assert _labels(presenter) == ["Leave", "➕ Top up", "🂠 My cards"]


async def test_r8_6_hand_buttons_ready_while_a_seated_player_sits_out() -> None:
    """Ready is also coming back from sit-out (R8.6): a player who sat out during the hand
    sees it on the table message (at its next write: a /sitout of one bought in writes no
    group message during a hand), and it brings them back."""
    service, _presenter, _, clock = service_env()
    await start(service, [ALICE, BOB], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    assert not (await service.sit_out(GROUP, BOB)).alert
    labels = [b.label for b in render.group_screen(t, "en", None, clock.now).all_buttons()]
    assert labels == ["Join", "Ready", "Leave", "➕ Top up", "🂠 My cards"]
    assert not (await service.ready(GROUP, BOB)).alert  # back (R8.6)
    labels = [b.label for b in render.group_screen(t, "en", None, clock.now).all_buttons()]
    assert labels == ["Join", "Leave", "➕ Top up", "🂠 My cards"]


async def test_r8_5_three_to_act_the_time_bank_is_spelled_out_once() -> None:
    """Three arranging at once (Chinese Poker) ran to 90 characters: «Ход: 🤖 Boris ⏱ 2:00 +
    тайм-банк 0:30 · Игрок ⏱ 3:00 · 🤖 Anna ⏱ 3:00 + тайм-банк 0:30». Each name still has
    its own clock (R8.5); the bank is spelled out at the first clock that has one, then
    "+0:53"; one ⏱ for the line."""
    service, _, _, clock = service_env()
    await configure(service, game="chinese")
    await start(service, [ALICE, BOB, CAROL], "chinese")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and len(t.hand.to_act) == 3
    owners = [t.owner(s.seat) for a in (ALICE, CAROL) if (s := t.seat_of(a.user_id))]
    t.clocks[owners[0]] = replace(t.clocks[owners[0]], bank=0.0)  # Alice: no bank left
    t.clocks[owners[1]] = replace(t.clocks[owners[1]], budget=0.0)  # Carol: in her bank
    clock.now += 7
    en = render.group_screen(t, "en", None, clock.now).text.splitlines()
    # (Alice's spent bank is left out, fix39g: the first bank left spelled out, Bob's)
    assert "▶ To act ⏱ Alice 1:53 · Bob 1:53 + time bank 1:00 · Carol 0:00+0:53" in en, en
    ru = render.group_screen(t, "ru", None, clock.now).text.splitlines()
    assert "▶ Ходят ⏱ Alice 1:53 · Bob 1:53 + тайм-банк 1:00 · Carol 0:00+0:53" in ru, ru


@pytest.mark.parametrize(("label", "lang"), [("chips", "en"), ("Chips", "en"), ("фишки", "ru"),
                                             ("фишек", "ru"), (" Фишки ", "en")])  # fmt: skip
async def test_r8_7_a_kush_label_of_chips_is_refused(label: str, lang: str) -> None:
    """docs/playing.md: the label is not "chips", since a tournament's chips are chips (R8.7):
    a tournament lobby read "Buy-in 500 chips · 1,000 chips each". It was saved; now it is
    refused with why, in the admin's language, and the label stays as it was."""
    service, _presenter, store, _clock = service_env()
    actor = T_ALICE if lang == "en" else T_BOB
    reply = await service.settings(T_GROUP, actor, True, ["kush_label", label])
    assert reply.alert, reply.text
    word = label.strip()
    said = {
        "en": f"Cannot set that — “{word}” would read as a tournament's chips: choose another "
        "unit, e.g. “coins” or “₽”.",
        "ru": f"Не удалось изменить настройку — «{word}» легко спутать с турнирными фишками: "
        "выберите другую единицу, например «монеты» или «₽».",
    }
    assert reply.text == said[lang]
    community = await store.community("telegram", "-100")
    assert community.settings.kush_label == "kush"  # the default, unchanged
    # another unit is saved
    reply = await service.settings(T_GROUP, actor, True, ["kush_label", "coins"])
    assert not reply.alert, reply.text
