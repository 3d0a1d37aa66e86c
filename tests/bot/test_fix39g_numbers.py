"""fix39g: amounts typed back as the bot writes them. English groups an amount's thousands from
four digits ("5,000"), Russian from five with a no-break space ("10 000"), in every answer of
``/settings`` too (its ranges, its echoes); typed back they were refused ("write 5000, without
the ‘,’", or the digits 0–9 "without spaces"). A whole number grouped so has one reading: a
whole-number setting, ``/grant`` and ``/topup`` take it; a setting that takes fractions still
asks "1500 or 1.5?"."""

from __future__ import annotations

import pytest

from bot.service.numbers import read_whole, ungrouped
from bot.service.settings import SETTINGS
from bot.texts import tr
from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, say, stored

NBSP, THIN, NARROW = "\u00a0", "\u2009", "\u202f"


@pytest.mark.parametrize(
    ("typed", "value"),
    [("5,000", 5000), ("10,000", 10000), ("1,000,000", 1_000_000), ("5 000", 5000),
     (f"10{NBSP}000", 10000), (f"1{THIN}000{THIN}000", 1_000_000), (f"2{NARROW}500", 2500),
     ("−5,000", -5000), ("+1,000", 1000), (" 12,345 ", 12345), ("5000", 5000)],
)  # fmt: skip
def test_a_whole_number_grouped_as_the_bot_writes_it_reads_as_that_number(
    typed: str, value: int
) -> None:
    assert read_whole(typed) == value


@pytest.mark.parametrize(
    "typed",
    ["1,5", "1,50", "10,00", "0,500", "05,000", "1.000", "1,000 000", "1,0000", "12345,000",
     "1 00", "1__000", "1_000", ",000", "1,", "１,０００", f"1,{NBSP}000", "1  000"],
)  # fmt: skip
def test_anything_else_with_a_comma_or_a_space_is_no_whole_number(typed: str) -> None:
    """Strictly grouped only: 1–3 digits, the first not 0, then groups of three after one
    mark, the same one throughout."""
    assert read_whole(typed) is None
    assert ungrouped(typed) == typed.strip()


@pytest.mark.parametrize(
    ("actor", "typed", "saved"),
    [
        (ALICE, ["5,000"], "Saved: min_buy_in = 5,000 (was 200)."),
        (ALICE, ["10,000"], "Saved: min_buy_in = 10,000 (was 200)."),
        (BORIS, ["5", "000"], "взнос = 5000"),  # (/settings min_buy_in 5 000: two words)
        (BORIS, ["10", "000"], "взнос = 10\u00a0000"),
        (BORIS, [f"10{NBSP}000"], "взнос = 10\u00a0000"),
        (BORIS, [f"10{THIN}000"], "взнос = 10\u00a0000"),
    ],
)
async def test_a_whole_number_setting_takes_its_thousands_grouped(
    actor: object, typed: list[str], saved: str
) -> None:
    service, store = new_service()
    reply = await say(service, "min_buy_in", *typed, actor=actor)  # type: ignore[arg-type]
    assert not reply.alert and saved in reply.text, reply.text
    digits = "".join(ch for ch in "".join(typed) if ch.isdigit())
    assert (await stored(store)).min_buy_in == int(digits)


@pytest.mark.parametrize("actor", [ALICE, BORIS], ids=["en", "ru"])
async def test_the_range_an_answer_gives_is_taken_typed_back(actor: object) -> None:
    """ "1 to 1,000,000,000,000" (Russian "от 1 до 1 000 000 000 000"): its bound copied back
    was refused; it is the highest buy-in. A time in seconds too: "3,600" is an hour."""
    service, store = new_service()
    lang = actor.language  # type: ignore[attr-defined]
    high = "1,000,000,000,000" if lang == "en" else NBSP.join(["1", *["000"] * 4])
    assert high in SETTINGS["min_buy_in"].range_text(lang)
    reply = await say(service, "min_buy_in", high, actor=actor)  # type: ignore[arg-type]
    assert not reply.alert, reply.text
    assert (await stored(store)).min_buy_in == 10**12
    reply = await say(service, "time_bank_seconds", "3,600", actor=actor)  # type: ignore[arg-type]
    assert not reply.alert, reply.text
    assert (await stored(store)).options["time_bank_seconds"] == 3600


@pytest.mark.parametrize(("actor", "lang"), [(ALICE, "en"), (BORIS, "ru")])
async def test_a_fraction_setting_still_asks_which_a_comma_means(actor: object, lang: str) -> None:
    """A setting that takes fractions (level_minutes): "1,500" is fifteen hundred or one and
    a half, asked again as before; nothing saved."""
    service, store = new_service()
    before = await stored(store)
    reply = await say(service, "level_minutes", "1,500", actor=actor)  # type: ignore[arg-type]
    fraction = "1,5" if lang == "ru" else "1.5"
    hint = tr(lang, "reply.number_comma", value="1,500", whole="1500", fraction=fraction)
    assert reply.alert and reply.text.endswith("\n" + hint), reply.text
    assert await stored(store) == before


async def test_grant_and_topup_take_an_amount_grouped_as_the_bot_writes_it() -> None:
    """``/grant @alice 5,000`` (and Russian "5 000", "10 000") and ``/topup 1,000`` were
    refused with the digits 0–9 "without spaces or separators"; they move the amount."""
    service, store = new_service()
    await service.balance(GROUP, ALICE)
    community = (await store.community("telegram", "-100")).id
    for typed, balance in (("5,000", 6000), ("5 000", 11000), (f"10{NBSP}000", 21000)):
        reply = await service.grant(GROUP, BORIS, True, "1", typed, f"k{balance}")
        assert not reply.alert, reply.text
        player = await store.find_player(community, "1")
        assert player is not None and player.balance == balance, (typed, reply.text)
    assert not (await say(service, "max_buy_in", "5,000")).alert
    assert not (await service.new_table(GROUP, ALICE)).alert
    assert not (await service.join(GROUP, ALICE)).alert
    assert not (await service.ready(GROUP, ALICE)).alert
    t = service.table_in(GROUP)
    assert t is not None and [s.stack for s in t.seats.values()] == [200]
    reply = await service.top_up(GROUP, ALICE, "1,000")
    assert not reply.alert, reply.text
    assert [s.stack for s in t.seats.values()] == [1200]
    reply = await service.top_up(GROUP, ALICE, "1 000")
    assert not reply.alert, reply.text
    assert [s.stack for s in t.seats.values()] == [2200]
