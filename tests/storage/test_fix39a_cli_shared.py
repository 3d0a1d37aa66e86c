"""fix39a (a review twin): ``EX_TEMPFAIL`` (75) and the refusal of an ``--env-file`` that is
not there were written out in both ``bot/__main__.py`` and ``storage/__main__.py``. They are
one helper, :mod:`storage.cli`, both command lines use; behaviour unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.__main__ as bot_entry
import storage.__main__ as storage_entry
from storage import cli

LINE = "error: there is no typo.env (--env-file names the bot's settings file)\n"


def test_both_command_lines_share_the_exit_status() -> None:
    assert cli.EX_TEMPFAIL == 75
    assert bot_entry.EX_TEMPFAIL is cli.EX_TEMPFAIL
    assert storage_entry.EX_TEMPFAIL is cli.EX_TEMPFAIL


def test_the_refusal_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.refuse_missing_env_file("typo.env") is True
    assert capsys.readouterr() == ("", LINE)
    (tmp_path / "there.env").write_text("DATABASE_PATH=x.sqlite3\n", encoding="utf-8")
    assert cli.refuse_missing_env_file("there.env") is False
    assert cli.refuse_missing_env_file(None) is False  # (not given: .env stays optional)
    assert capsys.readouterr() == ("", "")


def test_both_command_lines_refuse_it_through_the_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each ``main`` asks the one helper (a stand-in refusing everything shows it), and says
    the same line (the real helper) with status 2."""
    monkeypatch.chdir(tmp_path)
    for name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert bot_entry.main(["--env-file", "typo.env"]) == 2
    assert capsys.readouterr() == ("", LINE)
    assert storage_entry.main(["check", "--env-file", "typo.env"]) == 2
    assert capsys.readouterr() == ("", LINE)
    asked: list[str | None] = []

    def refuse(env_file: str | None) -> bool:
        asked.append(env_file)
        return True

    monkeypatch.setattr(bot_entry, "refuse_missing_env_file", refuse)
    monkeypatch.setattr(storage_entry, "refuse_missing_env_file", refuse)
    assert bot_entry.main(["--env-file", "x.env"]) == 2
    assert storage_entry.main(["check", "--env-file", "y.env"]) == 2
    assert asked == ["x.env", "y.env"]
