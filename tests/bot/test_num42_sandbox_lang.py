"""num42: a resumed sandbox whose group was set to Russian, started without ``--lang``, said
its first lines ("No bot token set …", "Database: …") in English, the next one already
Russian; a second start on the file while the first runs was refused in English likewise.
They are said in the group's stored language now (:func:`bot.sandbox.stored_group_language`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.texts import tr
from tests.bot.test_sandbox import _sandbox_session, sandbox


async def test_a_resumed_russian_sandbox_says_its_first_lines_in_russian(tmp_path: Path) -> None:
    """``--lang ru`` sets the group's language; the next plain start (no token, no flag)
    prints why it starts and which file it plays on in Russian, as every line after them."""
    first = await _sandbox_session(tmp_path, ["g1"], "--lang", "ru")
    assert first[0] == tr("ru", "sandbox.db", path=tmp_path / "sandbox.sqlite3"), first
    async with sandbox(tmp_path) as term:  # (no --sandbox, no token: the no-token line too)
        await term.read_until(r"^(Sandbox|Песочница): ")
        await term.quit()
    lines = term.lines
    db = tmp_path / "sandbox.sqlite3"
    assert lines[:2] == [
        tr("ru", "sandbox.no_token_file", file=".env"),
        tr("ru", "sandbox.db", path=db),
    ], lines
    assert lines[0].startswith("Токен бота не задан"), lines
    assert not any(x.startswith(("No bot token", "Database: ")) for x in lines), lines
    # --lang still wins over the stored language (and switches the group, as before)
    english = await _sandbox_session(tmp_path, [], "--lang", "en")
    assert english[0] == tr("en", "sandbox.db", path=db), english


async def test_a_second_start_on_a_russian_sandbox_is_refused_in_russian(tmp_path: Path) -> None:
    """The file held by a running sandbox whose group speaks Russian: a second start without
    ``--lang`` says the file it was to play on and why it is refused in Russian."""
    await _sandbox_session(tmp_path, [], "--lang", "ru")
    async with sandbox(tmp_path) as first:
        await first.read_until(r"^Песочница: ")
        async with sandbox(tmp_path) as second:
            assert second.proc.stdin is not None and second.proc.stdout is not None
            second.proc.stdin.close()
            out = (await asyncio.wait_for(second.proc.stdout.read(), 60)).decode().splitlines()
            status = await asyncio.wait_for(second.proc.wait(), 30)
        db = tmp_path / "sandbox.sqlite3"
        assert (status, out) == (
            2,
            [
                tr("ru", "sandbox.no_token_file", file=".env"),
                tr("ru", "sandbox.db", path=db),
                tr("ru", "sandbox.db_busy", path=db),
            ],
        ), out
        await first.quit()
