"""nu52: with a bot token set, ``python -m bot --fast`` (or ``--sandbox-db x``, ``--bots 0``,
any flag of the sandbox alone) started the real bot, the flag unused: an operator trying
README's sandbox flags on the server ran the production bot instead. And ``--router
--sandbox`` ran the router. Both are refused in one line, exit status 2, nothing started;
without a token the sandbox flags need no ``--sandbox`` (the sandbox is what starts)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import bot.__main__ as entry
import bot.app
import bot.sandbox
from bot.config import Settings
from bot.sandbox import SandboxOptions

TOKEN = "123456:" + "A" * 35


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """What ``main`` started ("sandbox", "bot", "router"), none run for real; run in
    ``tmp_path`` (no ``.env`` there) with a Telegram token in the environment."""
    runs: list[str] = []

    async def sandbox(opts: SandboxOptions) -> None:
        runs.append(f"sandbox {opts.db} bots={opts.bots}")

    async def run(settings: Settings) -> None:
        runs.append("bot")

    async def router(settings: Settings) -> None:
        runs.append("router")

    monkeypatch.setattr(bot.sandbox, "run_sandbox", sandbox)
    monkeypatch.setattr(bot.app, "run", run)
    monkeypatch.setattr(bot.app, "run_router", router)
    monkeypatch.setattr(entry, "configure_logging", lambda *args, **kwargs: None)
    monkeypatch.setattr(logging.getLogger(), "level", logging.getLogger().level)
    for name in ("DISCORD_BOT_TOKEN", "DATABASE_URL", "TELEGRAM_WEBHOOK_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "ofc.sqlite3"))
    monkeypatch.chdir(tmp_path)
    return runs


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--fast"], "--fast"),
        (["--sandbox-db", "s.sqlite3"], "--sandbox-db"),
        (["--bots", "0"], "--bots"),  # (0: given all the same)
        (["--bot-level", "strong"], "--bot-level"),
        (["--hand-seconds", "30"], "--hand-seconds"),
        (["--lang", "ru"], "--lang"),
        (["--fantasyland"], "--fantasyland"),
    ],
)
def test_a_sandbox_flag_with_a_token_and_no_sandbox_is_refused(
    started: list[str], capsys: pytest.CaptureFixture[str], flags: list[str], named: str
) -> None:
    assert entry.main(flags) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"error: {named} is a sandbox flag and a bot token is set (.env or the environment), "
        "so this would start the real bot: add --sandbox to play the sandbox, or leave the "
        "flag out to run the bot\n"
    )
    assert started == []  # (it ran the real bot)
    assert entry.main(["--sandbox", *flags]) == 0  # with --sandbox: the sandbox
    assert started == [f"sandbox {'s.sqlite3' if named == '--sandbox-db' else 'sandbox.sqlite3'}"
                       f" bots={0 if named == '--bots' else 1}"]  # fmt: skip


def test_without_a_token_the_flags_start_the_sandbox(
    started: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "")
    assert entry.main(["--bots", "0", "--sandbox-db", "s.sqlite3"]) == 0
    assert entry.main([]) == 0
    assert started == ["sandbox s.sqlite3 bots=0", "sandbox sandbox.sqlite3 bots=1"]


def test_the_bot_alone_still_runs(started: list[str]) -> None:
    assert entry.main([]) == 0
    assert started == ["bot"]


@pytest.mark.parametrize(("flags", "named"), [(["--sandbox"], "--sandbox"), (["--fast"], "--fast")])
def test_the_router_with_the_sandbox_is_refused(
    started: list[str], capsys: pytest.CaptureFixture[str], flags: list[str], named: str
) -> None:
    assert entry.main(["--router", *flags]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"error: {named} is for the local sandbox, --router runs the workers' router: give one\n"
    )
    assert started == []  # (--router --sandbox ran the router)
