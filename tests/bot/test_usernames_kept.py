"""Telegram: who a @username names is kept in the store, so that after a restart ``/grant
@annie 100`` (and ``/stats @annie``) finds Anna before she writes again; a username another
user takes names that user from then on, across restarts too."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.fake_api import FakeTelegram, FakeUser
from bot.texts import tr
from tests.bot.tg_world import ALICE, GROUP_ID, TOKEN, World, world

ANNA = FakeUser(104, "Anna", "annie", "en")  # (a username unlike her name)
DAN = FakeUser(105, "Dan", "dannyboy", "en")


async def wallet(w: World, user: FakeUser) -> int:
    c = await w.store.community("telegram", str(GROUP_ID))
    p = await w.store.find_player(c.id, str(user.id))
    assert p is not None
    return p.balance


async def test_a_grant_to_a_username_finds_the_member_after_a_restart(tmp_path: Path) -> None:
    """Anna and Dan join Alice's table (the bot learns their usernames), the bot restarts:
    ``/grant @annie 100`` grants Anna (it answered "No such player here: @annie" until she
    wrote again). Then Anna renames herself "@annie_k" and Dan takes "@annie": after another
    restart ``@annie`` is Dan, and ``@annie_k`` Anna."""
    fake = FakeTelegram(TOKEN)
    await fake.start()
    fake.admins[GROUP_ID] = {ALICE.id}
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.say(ALICE, "/newtable")
            for u in (ANNA, DAN):
                await w.press_lobby(u, "j")
            before = await wallet(w, ANNA)
        async with world(tmp_path, fake=fake, db=db) as w:
            reply = await w.say(ALICE, "/grant @annie 100")
            assert reply["text"] != tr("en", "reply.grant_unknown", name="@annie"), reply
            assert await wallet(w, ANNA) == before + 100
            reply = await w.say(ALICE, "/stats @ANNIE")
            assert "No such player" not in reply["text"], reply
            # Anna takes another username, Dan takes hers (each seen writing)
            await w.say(FakeUser(ANNA.id, "Anna", "annie_k"), "/start", chat_id=ANNA.id)
            await w.say(FakeUser(DAN.id, "Dan", "annie"), "/start", chat_id=DAN.id)
            dan = await wallet(w, DAN)
        async with world(tmp_path, fake=fake, db=db) as w:
            await w.say(ALICE, "/grant @annie 7")
            assert await wallet(w, DAN) == dan + 7
            assert await wallet(w, ANNA) == before + 100
            await w.say(ALICE, "/grant @Annie_K 5")
            assert await wallet(w, ANNA) == before + 105
    finally:
        await fake.stop()
