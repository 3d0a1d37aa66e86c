"""brk67: attacks on the changes merged on fix39b/c/d.

1. ``WORKER_ADDRESS=http://w1:8600/`` (a trailing slash, as URLs are often copied) was taken
   as is: the router and the other workers posted to ``http://w1:8600//telegram``, which the
   worker's endpoint answers 404, so every forwarded update and press was lost; one without
   its scheme (``w1:8600``) failed every forward with aiohttp's NonHttpUrlClientError. The
   address is now an http(s) URL with a host, its trailing slashes dropped (the one spelling
   the requests are signed for, :func:`bot.cluster.signed_headers`).
2. A sign of life told to the worker holding a table of the player's, which did not take it
   (503 while it stops and gives its tables up; its process dead, its lease not yet run
   out: connection refused), was dropped: "told once a worker holds it" covered only a
   table nobody held at the first look, and the most common takeover (a holder dying) lost
   the news. A table whose holder was not told is looked at again as one nobody holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from tests.bot.test_fixcl38_private_life import BOB_ID, two_workers
from tests.waiting import until


def _load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *lines: str):  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    for name in ("WORKER_ADDRESS", "WORKER_ID", "WORKER_LISTEN", "DISCORD_BOT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_settings(".env")


@pytest.mark.parametrize(
    ("given", "url"),
    [
        ("http://w1:8600/", "http://w1:8600"),
        ("http://w1:8600//", "http://w1:8600"),
        ("https://w1.example.com/ofc/", "https://w1.example.com/ofc"),
        ("http://[::1]:8600/", "http://[::1]:8600"),
        ("http://w1:8600", "http://w1:8600"),
    ],
)
def test_a_worker_address_is_one_spelling_without_a_trailing_slash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str, url: str
) -> None:
    settings = _load(tmp_path, monkeypatch, "WORKER_ID=w1", f"WORKER_ADDRESS={given}")
    assert settings.worker_url == url


@pytest.mark.parametrize("given", ["w1:8600", "ftp://w1:8600", "http://", "http://[::1"])
def test_a_worker_address_that_is_no_http_url_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, monkeypatch, "WORKER_ID=w1", f"WORKER_ADDRESS={given}")
    assert str(caught.value) == (
        "WORKER_ADDRESS must be the http:// URL the router and the other workers reach this "
        "worker's internal endpoint at (e.g. http://10.0.0.5:8600), or empty for "
        "http://WORKER_LISTEN"
    )


async def test_r14_a_sign_of_life_the_holder_did_not_take_is_told_again(tmp_path: Path) -> None:
    """Bob unblocks the bot; worker 2, which holds his other table, answers the first
    ``POST /private`` 503 (stopping: its table about to be taken over). The telling looks
    again and tells the table's holder once it takes it: Bob's hand is posted there. Without
    the fix the 503 was logged and the news lost (his seat quiet until his next sign of
    life)."""
    async with two_workers(tmp_path) as c:
        c.presenter2.blocked.discard(BOB_ID)
        seen: list[str] = []
        allowed = c.w2.signatures.allowed

        def refuse_first(route: str, header: str, body: bytes) -> bool:
            seen.append(route)
            c.w2.stopping = len(seen) == 1  # (the first one: 503, as while it stops)
            return allowed(route, header, body)

        c.w2.signatures.allowed = refuse_first  # type: ignore[method-assign]
        c.w1.private_life(BOB_ID, False, True)
        await until(lambda: not c.w1._telling, 15.0, "the telling done")
        assert seen == ["private", "private"]
        await c.service2.rt.drain()
        assert len(c.presenter2.privates.get(BOB_ID, [])) == 1
        bob = c.t2.seat_of(BOB_ID)
        assert bob is not None and bob.reachable
