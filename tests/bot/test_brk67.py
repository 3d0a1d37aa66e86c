"""brk67: attacks on the changes merged on fix39b/c/d.

1. ``WORKER_ADDRESS=http://w1:8600/`` (a trailing slash, as URLs are often copied) was taken
   as is: the router and the other workers posted to ``http://w1:8600//telegram``, which the
   worker's endpoint answers 404, so every forwarded update and press was lost; one without
   its scheme (``w1:8600``) failed every forward with aiohttp's NonHttpUrlClientError. The
   address is now an http(s) URL with a host, its trailing slashes dropped (the one spelling
   the requests are signed for, :func:`bot.cluster.signed_headers`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings


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
