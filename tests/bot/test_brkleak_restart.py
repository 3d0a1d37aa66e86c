"""Break session "brkleak": presses and commands while a restart restores the tables. The
Discord gateway is connected before the service restores its tables (bot/app.py: the
restore sends through it), so interactions come in meanwhile: each is answered that the
bot is restarting and changes nothing, never "No open table here" (and a /newtable then
failed on the table storage still has open, "something went wrong")."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.service import TableService, recovery
from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.fakes import FakePresenter
from tests.bot.test_service_classic import ALICE, BOB, CAROL, GROUP, configure, start


async def test_r8_2_presses_and_commands_while_the_tables_are_restored_change_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    service, p, store, clock = service_env()
    await configure(service, game="pineapple")
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    mover = t.player_of(t.hand.to_act[0])
    assert mover is not None
    actor = ALICE if mover.user_id == ALICE.user_id else BOB
    place = next(
        b.data for b in p.last_private(actor.user_id).all_buttons() if b.data and ":p:" in b.data
    )
    lobby = next(b.data for b in p.last_table(GROUP.chat_id).all_buttons() if b.data)
    await service.stop()

    # a restart: the tables are being restored (held until released)
    go = asyncio.Event()
    real = recovery.restore

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await go.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(recovery, "restore", slow)
    again = TableService(store, clock=clock, rng=random.Random(5), next_hand_delay=0, timers=False)
    again.register(FakePresenter())
    starting = asyncio.create_task(again.start())
    await asyncio.sleep(0.05)
    assert not starting.done() and not again.tables
    community = await store.community("telegram", GROUP.chat_id)
    ledger = len(await store.ledger(community.id))
    restarting = tr("en", "err.restarting")
    assert (await again.press(actor, place)).text == restarting
    assert (await again.press(CAROL, lobby, GROUP)).text == restarting
    for reply in (
        await again.join(GROUP, CAROL),
        await again.ready(GROUP, CAROL),
        await again.leave(GROUP, actor),
        await again.new_table(GROUP, CAROL, "pineapple"),
    ):
        assert reply.alert and reply.text == restarting, reply
    assert len(await store.ledger(community.id)) == ledger and not again.tables
    go.set()
    await starting
    restored = again.table_in(GROUP)
    assert restored is not None and restored.id == t.id and restored.hand is not None
    assert not (await again.join(GROUP, CAROL)).alert  # served again
    await again.stop()
