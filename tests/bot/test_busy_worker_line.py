"""A worker's start line on PostgreSQL said "database DATABASE_URL (PostgreSQL)" (busy, an
operator trial): which database and server it took was nowhere in the log. It now names them
as the "bot running" line does, ``ofc on db.example.com:5432 (PostgreSQL)``, never the user or
the password. PostgreSQL is the session's pgserver (tests/pg.py; skipped where it cannot
start)."""

from __future__ import annotations

import logging
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.telegram.fake_api import FakeTelegram
from tests.bot.test_fixlock import running, telegram
from tests.bot.test_fixpg_lock import settings_for
from tests.pg import fresh_database

__all__ = ["telegram"]  # (the fixture, imported)


async def test_a_worker_on_postgresql_names_its_database_and_server(
    telegram: FakeTelegram, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.app")
    async with fresh_database() as url:
        settings = settings_for(telegram, url, "w1")
        async with running(settings):
            pass
    parts = urlsplit(url)  # (the tests' server: a unix socket folder, user postgres)
    name, socket = parts.path.lstrip("/"), parse_qs(parts.query)["host"][0]
    lines = [r.getMessage() for r in caplog.records if "internal endpoint" in r.getMessage()]
    assert lines == [
        f"worker w1: internal endpoint {settings.worker_url}, database {name} on {socket} "
        "(PostgreSQL)"
    ]
    assert "postgres:" not in lines[0] and "DATABASE_URL" not in lines[0]
