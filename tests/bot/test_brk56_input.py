"""brk56, bad input through the real Telegram adapter and the fake Bot API: a button payload
that is no text (unpaired UTF-16 surrogates, what a JSON ``\\udXXX`` escape decodes to, as a
forged or mangled ``callback_data`` may carry) is an unknown button like any other forged
one: answered at once, nothing changed."""

from __future__ import annotations

from pathlib import Path

from bot.presses import decode, loggable
from bot.screens import Payload
from bot.texts import tr
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, world

#: payloads that are no text: a real button's with a surrogate after it, in place of its
#: action, alone; none can be written as UTF-8
NO_TEXT = ("{join}\ud800", "\udcff\udcfe", "{lobby}:\udcff", "1:L\ud800:j")


def test_every_press_is_answered_a_payload_that_is_no_text_decodes_to_none() -> None:
    """``Payload.decode`` (and the press and log readers on it) say ``None`` / ``"?"`` for
    a payload that is no text: it raised UnicodeEncodeError, so nothing answered the
    press (and Telegram's error handler failed too, logging the press)."""
    for data in ("1:L1:j\ud800", "\udcff\udcfe", "1:L1:\udcff"):
        assert Payload.decode(data) is None
        assert decode(data) is None
        assert loggable(data) == "?"
    assert Payload.decode("1:L1:j") == Payload(1, "L1", "j")


async def test_every_press_is_answered_a_forged_payload_that_is_no_text(tmp_path: Path) -> None:
    """Carol (not seated) and Bob (seated) press the table message with payloads that are no
    text: each is answered "Unknown button." in the presser's language (none went
    unanswered: the press spun until Telegram gave up), and the table, balances and ledger
    are as before."""
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        await w.press_lobby(BOB, "j")
        msg = w.table_message()
        join = next(
            b["callback_data"]
            for b in w.fake.buttons(msg)
            if (Payload.decode(b.get("callback_data")) or Payload(0, "", "")).action == "j"
        )
        lobby = join.rsplit(":", 1)[0]
        (t,) = w.service.tables.values()
        community = await w.store.community("telegram", str(GROUP_ID))
        before = (t.version, sorted(t.seats), len(await w.store.ledger(community.id)))
        for n, forged in enumerate(NO_TEXT):
            data = forged.format(join=join, lobby=lobby)
            for user, lang in ((CAROL, "en"), (BOB, "ru")):
                qid = f"brk56-{n}-{user.id}"
                query = {
                    "id": qid,
                    "from": user.to_json(),
                    "chat_instance": "ci",
                    "message": msg,
                    "data": data,
                }
                await w.fake.push({"callback_query": query})
                answer = await w.fake.wait_for(lambda q=qid: w.fake.answer_of(q), timeout=10)
                assert answer.params.get("text") == tr(lang, "err.forged"), (data, answer)
        await w.settle()
        after = (t.version, sorted(t.seats), len(await w.store.ledger(community.id)))
        assert after == before
        assert t.seat_of(str(CAROL.id)) is None
