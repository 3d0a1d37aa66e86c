"""brk56, bad input through the real Telegram adapter and the fake Bot API: a button payload
that is no text (unpaired UTF-16 surrogates, what a JSON ``\\udXXX`` escape decodes to, as a
forged or mangled ``callback_data`` may carry) is an unknown button like any other forged
one: answered at once, nothing changed."""

from __future__ import annotations

from pathlib import Path

from bot.presses import decode, loggable
from bot.screens import Payload
from bot.service.settings import table_options
from bot.texts import tr
from game.options import Scoring
from tests.bot.test_settings import ALICE as ADMIN
from tests.bot.test_settings import GROUP, new_service, say, stored
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


async def test_r5_3_r6_4_an_already_so_value_is_not_pinned_for_another_games_tables() -> None:
    """R5.3, R6.4: ``scoring`` and ``stay_on_full_house_middle`` default otherwise in
    Pineapple (one_six, off) than in classic OFC (two_per_row, on). An admin of a Pineapple
    group typing Pineapple's values was answered "Already so" (nothing changed), yet they
    were saved: once the group played classic OFC its tables scored one_six and left
    Fantasyland on a full house in the middle, defaults nobody had changed. "Already so"
    saves nothing; the other way round too (a classic OFC table open in a Pineapple group,
    classic OFC's value typed there)."""
    service, store = new_service()
    for name, value in (("scoring", "one_six"), ("stay_on_full_house_middle", "off")):
        reply = await say(service, name, value)
        assert reply.text.startswith(f"Already so: {name} = {value}."), reply.text
    assert (await stored(store)).options == {}
    reply = await say(service, "game", "ofc")
    assert reply.text.startswith("Saved: game = ofc"), reply.text
    classic = table_options(await stored(store), "ofc")
    assert classic.scoring is Scoring.TWO_PER_ROW and classic.stay_on_full_house_middle
    reply = await say(service, "scoring")
    assert reply.text.endswith("Now: 2 a box (default)."), reply.text

    service, store = new_service()  # a Pineapple group with a classic OFC table open
    assert service.table_in(GROUP) is None
    await service.new_table(GROUP, ADMIN, "ofc")
    assert service.table_in(GROUP) is not None
    reply = await say(service, "scoring", "two_per_row")
    assert reply.text.startswith("Already so: scoring = two_per_row."), reply.text
    assert (await stored(store)).options == {}
    assert table_options(await stored(store), "pineapple").scoring is Scoring.ONE_SIX
    # a value another than the shown game's is saved, as before
    reply = await say(service, "scoring", "one_six")
    assert reply.text.startswith("Saved: scoring = one_six"), reply.text
    assert (await stored(store)).options == {"scoring": "one_six"}
