"""brk68: bugs found attacking the changes merged on day 39 (fix39e–fix39g)."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from bot import render
from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from bot.thinking import Thinker
from game.errors import OptionConflict
from game.options import RuleOptions
from tests.bot.conftest import service_env
from tests.bot.test_service_classic import ALICE as ALICE_S
from tests.bot.test_service_classic import BOB as BOB_S
from tests.bot.test_service_classic import GROUP, start
from tests.bot.tg_world import ALICE, GROUP_ID, world

PLAYER_2 = FakeUser(313, "Player 2", None, "en")
BOND = FakeUser(314, "Bond 007", None, "en")


async def test_a_grant_to_a_name_with_digits_reads_an_amount_grouped_by_spaces(
    tmp_path: Path,
) -> None:
    """``/grant Player 2 1 000`` (a name with a number, the amount grouped as Russian writes
    it, read since fix39g) took "Player" as the name and "2 1 000" as the amount: refused
    with the digits hint, though the one reading is "Player 2" gets 1 000. The second
    reading was only the last word ("Player 2 1" gets "000")."""
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        for who in (PLAYER_2, BOND):
            await w.say(who, "/balance")
        reply = await w.say(ALICE, "/grant Player 2 1 000")
        assert reply["text"] == tr("en", "reply.granted", name="Player 2", amount=1000,
                                   label="kush", balance=2000), reply  # fmt: skip
        reply = await w.say(ALICE, "/grant Bond 007 10 000")
        assert reply["text"] == tr("en", "reply.granted", name="Bond 007", amount=10000,
                                   label="kush", balance=11000), reply  # fmt: skip
        reply = await w.say(ALICE, "/grant Bond 007 -1 000")
        assert reply["text"] == tr("en", "reply.granted", name="Bond 007", amount=-1000,
                                   label="kush", balance=10000), reply  # fmt: skip


def _conflicting(opts: dict[str, object]) -> None:
    """Raise what a stored hand whose options no longer go together raises as it replays."""
    RuleOptions.from_json(opts)


def test_an_option_conflict_survives_pickling() -> None:
    """:class:`~game.errors.OptionConflict` crosses to and from the decision process as it is
    (its three fields): unpickled with its message alone, it raised TypeError."""
    exc = OptionConflict("dummy_box", "pineapple", ("ofc",))
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is OptionConflict and str(back) == str(exc)
    assert (back.option, back.game, back.games, back.code) == (
        "dummy_box",
        "pineapple",
        ("ofc",),
        "option_conflict",
    )


async def test_a_replay_whose_options_conflict_leaves_the_decision_process_alive() -> None:
    """/replay of a stored hand whose options conflict (R4.2, R4.3: a log from before the
    check) raised :class:`~game.errors.OptionConflict` in the decision process, which the bot
    could not unpickle: the pool broke ("the decision process died"), was started again and
    broke again, every other table's decision queued there lost with it, before the
    replay's "no cards" came from a thread. Now the refusal comes back from the worker, the
    same process still up."""
    thinker = Thinker(in_process=True)
    opts = {"game": "pineapple", "dummy_box": True}
    try:
        await thinker.compute(abs, -1)
        pool = thinker.worker._pool
        with pytest.raises(OptionConflict):
            await thinker.compute(_conflicting, opts)
        assert thinker.worker._pool is pool and await thinker.compute(abs, -2) == 2
    finally:
        await thinker.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r8_5_a_clock_run_out_with_its_bank_spent_says_no_bank(lang: str) -> None:
    """A turn's budget run out with its bank spent (or at a table without a bank), its
    timeout not taken yet (the table busy with another press's step): the clock read
    "⏱ time bank 0:00" and "time bank until 18:41:37", a bank the player did not have,
    where fix39g leaves a spent bank out. It reads "⏱ 0:00" and "until 18:41"."""
    service, _presenter, _store, clock = service_env()
    await start(service, [ALICE_S, BOB_S], "pineapple")
    assert not (await service.settings(GROUP, ALICE_S, True, ["language", lang])).alert
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    owner = t.owner(t.hand.to_act[0])
    t.clocks[owner] = dataclasses.replace(t.clocks[owner], bank=0.0)
    clock.now += t.clocks[owner].left(clock.now)[0] + 0.5
    assert t.clocks[owner].left(clock.now) == (0.0, 0.0)
    bank = {"en": "time bank", "ru": "тайм-банк"}[lang]
    group = render.group_screen(t, lang, None, clock.now).text
    assert "⏱ 0:00\n" in group and bank not in group, group
    private = service.rt.render_private(t, t.seats[owner]).text
    assert bank not in private, private
    zoned = render.group_screen(t, lang, None, clock.now, 3.0).text
    assert bank not in zoned, zoned
