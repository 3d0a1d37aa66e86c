"""Operator points of the bot's settings (fixpg): ``DATABASE_PATH=:memory:`` was taken (a
database in memory: every table and balance gone at the next start), a ``~`` in
``DATABASE_PATH`` was a folder named ``~`` (not the home folder), and an empty ``LOG_LEVEL=``
was refused where every other empty variable is its default."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from storage.__main__ import _bot_database


def test_database_path_in_memory_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for value in (":memory:", " :memory: "):
        monkeypatch.setenv("DATABASE_PATH", value)
        with pytest.raises(ConfigError) as caught:
            load_settings(str(tmp_path / "none.env"), tokens=False)
        assert str(caught.value) == (
            "DATABASE_PATH=:memory: is no file: a bot's database must be a file that outlives "
            "a restart (e.g. ofc.sqlite3)"
        )


def test_a_tilde_in_database_path_is_the_home_folder_for_the_bot_and_the_storage_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("DATABASE_PATH", "~/ofc/ofc.sqlite3")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    env_file = str(tmp_path / "none.env")
    settings = load_settings(env_file, tokens=False)
    assert settings.database_path == str(tmp_path / "home" / "ofc" / "ofc.sqlite3")
    assert _bot_database(env_file) == settings.database_path  # `python -m storage check`
    monkeypatch.setenv("DATABASE_PATH", "data/~ofc.sqlite3")  # (not leading: as written)
    assert load_settings(env_file, tokens=False).database_path == "data/~ofc.sqlite3"


@pytest.mark.parametrize(("value", "level"), [("", "INFO"), ("  ", "INFO"), (" debug ", "DEBUG")])
def test_an_empty_log_level_is_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, level: str
) -> None:
    monkeypatch.setenv("LOG_LEVEL", value)
    assert load_settings(str(tmp_path / "none.env"), tokens=False).log_level == level
    monkeypatch.setenv("LOG_LEVEL", "LOUD")  # (a wrong one is still refused)
    with pytest.raises(ConfigError, match=r"^LOG_LEVEL must be one of DEBUG, INFO, WARNING"):
        load_settings(str(tmp_path / "none.env"), tokens=False)
    monkeypatch.setenv("LOG_LEVEL", "WARN")  # (opsnu43: the line names what was given)
    with pytest.raises(ConfigError) as caught:
        load_settings(str(tmp_path / "none.env"), tokens=False)
    assert str(caught.value) == "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR (not WARN)"
