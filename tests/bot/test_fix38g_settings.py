"""Settings items fix38g mended: the help for one rule option the group's game has not
("Now" and "default" were Pineapple's), the time bank's line under an answer that changed
nothing, and every reset word named in docs/settings.md."""

from __future__ import annotations

from bot.service.settings import DEFAULT_WORDS
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service as new_table_service
from tests.bot.test_service import ALICE as PLAYER_A
from tests.bot.test_service import BOB as PLAYER_B
from tests.bot.test_service import GROUP as TABLE_GROUP
from tests.bot.test_settings import BORIS, new_service, say
from tools.settings_doc import reference


def _now(text: str | None) -> str:
    """The "Now: …" of a one-setting help (the rest of its third line)."""
    assert text is not None
    line = text.splitlines()[2]
    word = "Now: " if "Now: " in line else "Сейчас: "
    return line.split(word, 1)[1]


# -- 1. the help of a rule option the group's game has not -------------------------------------
async def test_the_help_of_an_option_of_other_games_says_what_each_of_them_plays() -> None:
    """A Chinese Poker group's ``/settings scoring`` said "Now: 1 a box, scoop 6 (default)",
    and after ``scoring two_per_row`` "Now: 2 a box (default 1 a box, scoop 6)": Pineapple's
    value and default, though its Classic OFC tables score 2 a box by default (R5.3)."""
    service, _ = new_service()
    await say(service, "language", "en")
    await say(service, "game", "chinese")
    each = "Pineapple OFC: 1 a box, scoop 6, Classic OFC: 2 a box"
    reply = await say(service, "scoring")
    assert _now(reply.text) == f"{each} (each game's default).", reply.text
    assert "default gives it back" not in (reply.text or "")  # (nothing stored to drop)
    await say(service, "scoring", "two_per_row")
    reply = await say(service, "scoring")
    assert _now(reply.text) == f"2 a box (saved for every game; defaults: {each}).", reply.text
    assert "/settings scoring default" in (reply.text or ""), reply.text
    await say(service, "scoring", "one_six")
    reply = await say(service, "scoring")
    assert _now(reply.text) == f"1 a box, scoop 6 (saved for every game; defaults: {each}).", (
        reply.text
    )
    # a switch whose default differs by game (R6.4), in Russian
    await say(service, "language", "ru")
    ru = await say(service, "stay_on_full_house_middle", actor=BORIS)
    assert _now(ru.text) == (
        "Ананас (OFC): выкл, Классический OFC: вкл (у каждой игры своё по умолчанию)."
    ), ru.text


async def test_the_help_of_an_option_of_other_games_with_one_default_shows_what_is_saved() -> None:
    """One default in every game it applies to (``fantasyland``): a Chinese Poker group's
    saved "off" is shown with that default, and the way back (as before the fix: a guard)."""
    service, _ = new_service()
    await say(service, "language", "en")
    await say(service, "game", "chinese")
    await say(service, "fantasyland", "off")
    reply = await say(service, "fantasyland")
    assert _now(reply.text) == "off (default on).", reply.text
    assert "/settings fantasyland default" in (reply.text or ""), reply.text


async def test_the_help_follows_the_open_table_s_game_over_the_group_s() -> None:
    """An open Pineapple table in a Chinese Poker group: its own value and default."""
    service, _ = new_service()
    await say(service, "language", "en")
    assert not (await service.new_table(TABLE_GROUP, PLAYER_A, "pineapple")).alert
    await say(service, "game", "chinese")
    reply = await say(service, "scoring")
    assert _now(reply.text) == "1 a box, scoop 6 (default).", reply.text


# -- 2. "Already so" says nothing of the seated players' time banks ----------------------------
async def test_an_answer_that_changed_nothing_says_nothing_of_the_seated_banks() -> None:
    """``/settings time_bank_seconds 2`` said again ("Already so") still added "seated
    players keep the time bank they have", of a change there was not."""
    service, _ = new_table_service(MemoryStore(), Clock())
    await service.new_table(TABLE_GROUP, PLAYER_A)
    await service.join(TABLE_GROUP, PLAYER_A)
    await service.join(TABLE_GROUP, PLAYER_B)
    bank = tr("en", "settings.bank_new_seats")
    first = await service.settings(TABLE_GROUP, PLAYER_A, True, ["time_bank_seconds", "2"])
    assert bank in first.text, first.text  # a change: said
    for args in (["time_bank_seconds", "2"], ["time_bank_seconds", "default"]):
        reply = await service.settings(TABLE_GROUP, PLAYER_A, True, args)
        if args[1] == "default":  # (given back: a change, said)
            assert bank in reply.text, reply.text
            reply = await service.settings(TABLE_GROUP, PLAYER_A, True, args)
        assert reply.text.startswith("Already"), reply.text
        assert bank not in reply.text, reply.text
        assert len(reply.text.splitlines()) == 2, reply.text  # (and the list's hint)


# -- 3. the reset words of docs/settings.md --------------------------------------------------------
def test_the_settings_reference_names_every_reset_word() -> None:
    """The reference's heading named "default", «по умолчанию» and «сброс» alone; "reset",
    "defaults", «умолчанию» and «умолчание» reset too (:data:`DEFAULT_WORDS`)."""
    head = reference().split("\n| setting |", 1)[0]
    assert "`/settings <name> default`" in head, head
    for word in DEFAULT_WORDS - {"default"}:
        assert f"`{word}`" in head, word
