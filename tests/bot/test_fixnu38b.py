"""A new user's sandbox findings (fixnu38b): each test fails without its fix."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_sandbox import _sandbox_session


async def test_lang_ru_sets_the_groups_language_so_a_later_start_stays_russian(
    tmp_path: Path,
) -> None:
    """``--lang ru`` on a fresh file, then a start without the flag: the start said "» --lang
    en: this table was opened in Russian…" (never typed) and the replies came in English under
    the Russian table, the group's language left auto. Now the flag sets the group's language
    as ``/settings language ru`` would (docs/sandbox.md), and the later start keeps it."""
    first = await _sandbox_session(tmp_path, ["g1"], "--fast", "--lang", "ru")
    assert any("Вы сели на место" in x for x in first), first
    again = await _sandbox_session(tmp_path, ["/rules"], "--fast")
    assert not any(x.startswith("» --lang") for x in again), again
    assert any(x.startswith("» Язык этой группы — русский") for x in again), again
    assert any(x.startswith("» Ананас: 13 карт") for x in again), again  # /rules
    assert any(x.startswith("» Пока (стол сохранён") for x in again), again
