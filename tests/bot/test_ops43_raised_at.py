"""``bot.logs.raised_at`` (the "at …" of the log lines that must not quote an error's text:
a timer step, a hand-over's save) named the innermost frame of the traceback, which for a
library's error is the library's own code (``aiosqlite.core:…``, ``telegram._bot:…``):
nothing said which line of ours called it. It now names the innermost frame in our own
packages (``game``, ``storage``, ``bot``, ``tools``), the innermost frame when none is
ours, still as ``module:line`` (ops43).

The library and our modules here are code compiled under those modules' names (a frame is
placed by its module's ``__name__``), with their lines known."""

from __future__ import annotations

import inspect
import json
import logging
import random
from typing import Any

import pytest

from bot.logs import OWN_PACKAGES, raised_at
from bot.service import TableService, timers
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, seated
from tests.waiting import until

CARD = "A♠"

LIBRARY = """\
def query(sql):
    raise OSError(sql)


def call(fn, *args):
    try:
        fn(*args)
    except OSError as exc:
        return exc
"""
#: ``LIBRARY``'s lines: the raise in ``query``, the call of ``fn`` in ``call``
RAISE, CALL = 2, 7

OURS = """\
def read(sql):
    return query(sql)


def step(sql):
    read(sql)
"""
#: ``OURS``'s lines: the library's ``query`` called in ``read``, ``read`` in ``step``
QUERY, READ = 2, 6


def _module(source: str, name: str, **names: Any) -> dict[str, Any]:
    """``source`` run as the module ``name`` (its frames say that ``__name__``)."""
    space: dict[str, Any] = {"__name__": name, **names}
    exec(compile(source, f"<{name}>", "exec"), space)
    return space


@pytest.mark.parametrize(
    "ours", ["game.engine", "storage.sqlite", "bot.service.play", "tools.soak", "bot"]
)
@pytest.mark.parametrize("library", ["aiosqlite.core", "telegram._bot", "discord.http"])
def test_a_librarys_error_is_placed_at_our_innermost_line_else_at_its_own(
    ours: str, library: str
) -> None:
    lib = _module(LIBRARY, library)
    own = _module(OURS, ours, query=lib["query"])
    # the library calls ours (a callback, as aiosqlite's thread or telegram's handlers do),
    # ours calls the library, which raises: ours' innermost line, not the library's raise
    exc = lib["call"](own["step"], f"SELECT {CARD}")
    assert raised_at(exc) == f"{ours}:{QUERY}"
    # no frame of ours at all: the innermost frame, as before
    assert raised_at(lib["call"](lib["query"], "x")) == f"{library}:{RAISE}"


@pytest.mark.parametrize("look_alike", ["botocore.client", "gamepad", "storage_lib.io", "toolsy"])
def test_a_package_whose_name_only_begins_like_ours_is_not_ours(look_alike: str) -> None:
    lib = _module(LIBRARY, "aiosqlite.core")
    other = _module(OURS, look_alike, query=lib["query"])
    mine = _module(OURS, "bot.service.recovery", query=other["read"])
    # bot.service.recovery.read → look_alike.read → aiosqlite.core.query
    exc = lib["call"](mine["step"], "x")
    assert raised_at(exc) == f"bot.service.recovery:{QUERY}"
    assert look_alike.partition(".")[0] not in OWN_PACKAGES
    # the look-alike alone: it is no more ours than the library
    exc = lib["call"](other["step"], "x")
    assert raised_at(exc) == f"aiosqlite.core:{RAISE}"


def test_no_traceback_is_a_question_mark_and_a_postgres_error_is_placed_in_storage() -> None:
    """(The first as before.)"""
    assert raised_at(OSError("never raised")) == "?"
    lib = _module(LIBRARY, "aiosqlite.core")
    own = _module(OURS, "storage.postgres", query=lib["query"])
    assert raised_at(lib["call"](own["step"], "x")) == f"storage.postgres:{QUERY}"


async def test_a_timer_step_failing_in_a_library_names_our_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The timer's log line end to end: a step whose library call (here json's, raising in
    ``json.decoder``) fails is placed at the innermost line of ours."""
    clock = Clock()
    service = TableService(MemoryStore(), clock=clock, rng=random.Random(5), timers=True)
    service.register(FakePresenter())
    monkeypatch.setattr(timers, "RETRY_SECONDS", 0.05)
    real = timers.advance
    calls: list[int] = []

    def flaky(*args: Any, **kwargs: Any) -> None:
        calls.append(1)
        if len(calls) == 1:
            json.loads('{"hidden": "' + CARD)  # (an unterminated string: JSONDecodeError)
        real(*args, **kwargs)

    monkeypatch.setattr(timers, "advance", flaky)
    try:
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None
        seq = t.seq
        clock.now += 181  # the player to act let budget and bank run out (R8.5)
        with caplog.at_level(logging.ERROR, logger="bot.service"):
            await service.run_due()
        [record] = [r for r in caplog.records if "timer step failed" in r.getMessage()]
        # (flaky stands in for bot.service.play.advance: the innermost line of ours is the
        # timer's call of it; before, json.decoder's own raise was named)
        source = inspect.getsource(timers).splitlines()
        [line] = [i + 1 for i, x in enumerate(source) if "advance(rt, t, tx, t.hand.to_act)" in x]
        assert record.getMessage() == (
            f"table {t.id}: timer step failed (JSONDecodeError at bot.service.timers:{line}), "
            "table rolled back; retrying"
        )
        assert CARD not in caplog.text
        await until(lambda: t.seq > seq, what="the retry makes the move for them")
    finally:
        await service.stop()
