"""fixbounds: the leftovers of ``STORAGE_WAIT_SECONDS`` (:attr:`Runtime.storage_wait`): a
timer's step bounds every storage read it makes (and is tried again, never dropped), the
closed tables this process forgot are not remembered for good, a background snapshot save
that gave up is tried again, and the sandbox waits for storage as the bot does. The store
is the in-memory one whose named calls never answer (:class:`SilentStore`)."""

from __future__ import annotations

import asyncio
import io
import logging
from pathlib import Path

import pytest

from bot.sandbox import Sandbox, SandboxOptions
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm, seated
from tests.bot.test_storage_wait import HUNG, SilentStore, new_service


async def test_r8_2_a_timer_step_reading_a_balance_gives_up_on_a_silent_database() -> None:
    """The timer's step after a hand adds the top-up queued during it (R8.2); the balance
    no longer covers it (spent meanwhile), so the step reads the balance to say what the
    player has: on a database that does not answer that read gives up after the bound, the
    step changes nothing more, the top-up stays queued and the table is free (it held the
    table, and every press there, for good); once the database answers, the step is made:
    the group is told the top-up failed, and it is no longer queued."""
    store = SilentStore()
    service = new_service(store)
    presenter = service.rt.presenters["telegram"]
    assert isinstance(presenter, FakePresenter)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    alice = t.seats[0]
    reply = await service.top_up(GROUP, ALICE, "50")
    assert not reply.alert, reply.text
    while t.hand is not None and t.hand_no == 1:
        to_act = t.seats[t.hand.to_act[0]]
        await press_auto_and_confirm(service, presenter, ALICE if to_act is alice else BOB)
    player = await store.get_player(alice.player_id)
    assert player is not None
    await store.grant(t.community_id, alice.player_id, -player.balance, actor="test",
                      reason="spent", key="spent")  # fmt: skip
    after_hand, seq = alice.stack, t.seq
    store.silent.add("get_player")
    await asyncio.wait_for(service.run_due(), HUNG)
    assert store.asked == {"get_player": 1}
    seat = t.seats[0]  # (a rolled-back step puts new seat objects in place)
    assert (seat.stack, seat.top_up, t.seq) == (after_hand, 50, seq)
    assert not t.lock.locked()
    store.silent.clear()
    await service.run_due()
    assert (t.seats[0].stack, t.seats[0].top_up) == (after_hand, 0)
    await service.rt.settled(t)
    told = tr("en", "lobby.topup_failed", name=alice.name, amount=50, label=t.label, have=0)
    assert [text for _, text in presenter.posts if text.startswith(told)] != [], presenter.posts
    assert await check_store(store) == []


def test_the_sandbox_is_given_storage_wait_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``STORAGE_WAIT_SECONDS`` reaches the sandbox (``python -m bot --sandbox``) as it
    reaches the bot: it waited the default second for its SQLite file whatever the
    setting."""
    import bot.__main__ as entry
    import bot.sandbox

    given: list[SandboxOptions] = []

    async def run(opts: SandboxOptions) -> None:
        given.append(opts)

    monkeypatch.setattr(bot.sandbox, "run_sandbox", run)
    monkeypatch.setattr(entry, "configure_logging", lambda *args, **kwargs: None)
    monkeypatch.setattr(logging.getLogger(), "level", logging.getLogger().level)
    monkeypatch.setenv("STORAGE_WAIT_SECONDS", "2.5")
    env = tmp_path / "none.env"
    db = tmp_path / "s.sqlite3"
    assert entry.main(["--sandbox", "--env-file", str(env), "--sandbox-db", str(db)]) == 0
    assert [opts.storage_wait for opts in given] == [2.5]
    capsys.readouterr()


async def test_the_sandboxs_service_waits_for_storage_as_long_as_it_is_told(
    tmp_path: Path,
) -> None:
    """The sandbox's presses and commands wait for its SQLite file as long as its options
    say (``STORAGE_WAIT_SECONDS``), not the service's default."""
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bot_delay=0.0, storage_wait=2.5),
                  io.StringIO())  # fmt: skip
    try:
        await box.start()
        assert box.service.rt.storage_wait == 2.5
    finally:
        await box.stop()
