"""fix40c: how ``/grant``'s words read as a name and an amount (``/grant Player 2 1 000``: the
longest tail that reads as one amount, and a second reading the service judges) was written in
the Telegram adapter; a platform taking the command as free text would have written it again.
It is the service's rule now, :func:`bot.service.wallet.read_grant`, which the Telegram adapter
calls (Discord's ``/ofcadmin grant`` takes a member and an integer as options: nothing to
read). Telegram's behaviour is unchanged: the grant tests driving it (test_fixgrant2,
test_telegram_e2e, test_name_args, ...) pass as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.wallet import GrantWords, read_grant
from bot.telegram import adapter as tg
from bot.telegram.fake_api import FakeUser
from bot.texts import tr
from tests.bot.tg_world import ALICE, GROUP_ID, world

PLAYER_2 = FakeUser(313, "Player 2", None, "en")


@pytest.mark.parametrize(
    ("typed", "name", "amount", "other"),
    [
        ("@bob 100", "@bob", "100", None),
        ("Anna Maria 100", "Anna Maria", "100", None),  # a name of several words is one
        ("@bob 5,000", "@bob", "5,000", None),  # grouped as the bot writes it: one word
        ("@bob −50", "@bob", "−50", None),  # a typographic minus starts a number
        ("me 100", "me", "100", None),
        ("1001 100", "1001", "100", None),  # a user id typed as the name
        ("@bob abc", "@bob", "abc", None),  # no number: the last word, refused as no number
        ("Anna Maria", "Anna", "Maria", None),
        # two readings: "Anna" and "2 100", or "Anna 2" and "100" (the service judges)
        ("Anna 2 100", "Anna", "2 100", ("Anna 2", "100")),
        # the other reading's amount is the longest tail that reads whole: "1 000"
        ("Player 2 1 000", "Player", "2 1 000", ("Player 2", "1 000")),
        ("Player 2 -1 000", "Player", "2 -1 000", ("Player 2", "-1 000")),
        # "000" and "050" are no amount (a thousands' group): the last word, which the
        # service never takes as the amount
        ("@bob 1 000", "@bob", "1 000", ("@bob 1", "000")),
        ("Anna 2 050", "Anna", "2 050", ("Anna 2", "050")),
        ("Anna 2 3 100", "Anna", "2 3 100", ("Anna 2", "3 100")),
    ],
)
def test_read_grant_splits_the_name_from_the_amount(
    typed: str, name: str, amount: str, other: tuple[str, str] | None
) -> None:
    assert read_grant(typed.split()) == GrantWords(name, amount, other)


@pytest.mark.parametrize("typed", ["", "abc", "@bob"])
def test_read_grant_of_too_few_words_is_no_name_and_no_amount(typed: str) -> None:
    """Nothing, or one word that is no number: no name and no amount (the usage is shown)."""
    assert read_grant(typed.split()) == GrantWords("", "", None)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("100", GrantWords("", "100")),
        ("1 000", GrantWords("", "1 000")),  # a thousand to the replied, never "1" of "000"
        ("1001 100", GrantWords("", "1001 100")),  # no user id read as the name
        ("-5", GrantWords("", "-5")),
        ("abc", GrantWords("", "abc")),  # refused as no number, not the usage alone
        ("", GrantWords("", "")),  # nothing typed: the usage
        ("Anna 100", GrantWords("Anna", "100")),  # a name typed still names the player
        ("Anna 2 100", GrantWords("Anna", "2 100", ("Anna 2", "100"))),
    ],
)
def test_read_grant_in_a_reply_reads_all_the_numbers_as_the_amount(
    typed: str, expected: GrantWords
) -> None:
    """``replied``: the platform names the player (a reply to their message); words that
    begin with a number are all the amount."""
    assert read_grant(typed.split(), replied=True) == expected


def test_read_grant_takes_any_sequence_and_changes_nothing() -> None:
    words = ("Player", "2", "1", "000")
    assert read_grant(words) == read_grant(list(words))
    assert words == ("Player", "2", "1", "000")


async def test_the_telegram_adapter_reads_grant_by_the_service_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The adapter holds no reading of its own: its /grant hands the words to
    :func:`read_grant` (a reply: ``replied``) and grants as it reads them; the helpers it
    read them with (``_numeric``, ``_amount``) are gone."""
    calls: list[tuple[list[str], bool]] = []

    def spy(words: list[str], *, replied: bool = False) -> GrantWords:
        calls.append((list(words), replied))
        return read_grant(words, replied=replied)

    monkeypatch.setattr(tg, "read_grant", spy)
    async with world(tmp_path) as w:
        w.fake.admins[GROUP_ID] = {ALICE.id}
        await w.say(PLAYER_2, "/balance")
        reply = await w.say(ALICE, "/grant Player 2 1 000")
        assert reply["text"] == tr("en", "reply.granted", name="Player 2", amount=1000,
                                   label="kush", balance=2000), reply  # fmt: skip
    assert calls == [(["Player", "2", "1", "000"], False)]
    assert not hasattr(tg, "_numeric") and not hasattr(tg, "_amount")
