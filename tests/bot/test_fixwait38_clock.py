"""fixwait38: a player's private screen names the turn's clock, theirs ("Your move · ⏱ …") or
whose they wait for ("Waiting for 🤖 Anna · ⏱ …", fix38e), as a duration computed when the
message was written; the private message is not rewritten while the clock runs (only on a
press, or the next step), so "1:52 + time bank 1:00" stood still for the whole turn. With the
group's time zone set (``/settings utc_offset``) it says when the turn ends there, as the
table message does ("until 18:41 (+1:00 time bank)", :func:`bot.render._until_text`); without
a zone the duration stays (R8.5)."""

from __future__ import annotations

from bot.render import clock_time
from bot.texts import tr
from tests.bot.test_bots import alice_and_a_bot
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated


async def test_r8_5_with_the_group_zone_set_the_private_turn_lines_say_when_the_turn_ends(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """The group's zone is UTC+3: Alice (English), to act, reads "Your move · ⏱ until 18:41
    (+1:00 time bank)"; Bob (Russian), waiting for her, «Ждём: Alice · ⏱ до 18:41 (+1:00
    тайм-банк)», the clock time her budget (2:00) ends in the group's zone, as the table
    message says it. The zone back to auto: the durations, as before."""
    service, presenter, _store, _clock = env
    reply = await service.settings(GROUP, ALICE, True, ["utc_offset", "3"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None and t.hand.to_act == (0,)
    now = service.rt.clock()
    assert t.clocks[t.owner(0)].left(now) == (120.0, 60.0)
    at = clock_time(now + 120, 3)
    mine = presenter.last_private(ALICE.user_id).text.splitlines()
    assert any(line.startswith(f"Your move · ⏱ until {at} (+1:00 time bank).") for line in mine), (
        mine
    )
    assert "⏱ 2:00" not in "\n".join(mine)
    theirs = presenter.last_private(BOB.user_id).text.splitlines()
    assert f"Ждём: Alice · ⏱ до {at} (+1:00 тайм-банк)" in theirs, theirs
    assert f"until {at} (+1:00 time bank)" in presenter.last_table(GROUP.chat_id).text
    reply = await service.settings(GROUP, ALICE, True, ["utc_offset", "auto"])
    assert not reply.alert, reply.text
    alice, bob = t.seat_of(ALICE.user_id), t.seat_of(BOB.user_id)
    assert alice is not None and bob is not None
    text = service.rt.render_private(t, bob).text
    assert "Ждём: Alice · ⏱ 2:00 + тайм-банк 1:00" in text.splitlines(), text
    text = service.rt.render_private(t, alice).text
    assert "Your move · ⏱ 2:00 + time bank 1:00." in text, text


async def test_r8_5_waiting_for_a_computer_player_with_the_zone_set_says_until_when() -> None:
    """Alice waits for 🤖 Anna with the group's zone UTC-5: "Waiting for 🤖 Anna · ⏱ until
    13:41 (+1:00 time bank)", not a duration that stands still; the Russian text likewise."""
    service, presenter, _store, _clock = await alice_and_a_bot()
    reply = await service.settings(GROUP, ALICE, True, ["utc_offset", "-5"])
    assert not reply.alert, reply.text
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    if not t.seats[t.owner(t.hand.to_act[0])].bot:
        await press_auto_and_confirm(service, presenter, ALICE)
    bot = t.seats[t.owner(t.hand.to_act[0])]
    assert bot.bot
    now = service.rt.clock()
    budget, bank = t.clocks[t.owner(t.hand.to_act[0])].left(now)
    assert (budget, bank) == (120.0, 60.0)
    at = clock_time(now + budget, -5)
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None
    text = service.rt.render_private(t, alice).text  # (her message was written before the zone)
    assert f"Waiting for {bot.name} · ⏱ until {at} (+1:00 time bank)" in text.splitlines(), text
    alice.lang = "ru"
    text = service.rt.render_private(t, alice).text
    names = f"{bot.name} · ⏱ до {at} (+1:00 тайм-банк)"
    assert tr("ru", "private.waiting", names=names) in text.splitlines(), text
