"""fix39h: ``DISCORD_SHARD_COUNT`` up to 100,000 alone ran every shard in the one process (and
``DISCORD_SHARD_IDS`` any number of them): discord.py connects a process's shards one after
another, 5 s apart, on the one event loop that answers every press, so 1,000 shards took 83
minutes to come up. One process runs at most 16 of its own; more is refused at the start in
one line pointing to workers with ``DISCORD_SHARD_IDS``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import MAX_SHARDS_PER_PROCESS, ConfigError, load_settings

ALL = ("DISCORD_SHARD_COUNT", "DISCORD_SHARD_IDS", "WORKER_ID", "DISCORD_BOT_TOKEN")


def _load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **env: str):  # type: ignore[no-untyped-def]
    for name in ALL:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return load_settings(str(tmp_path / "none.env"), tokens=False)


@pytest.mark.parametrize("count", ["17", "100000"])
def test_a_shard_count_alone_past_16_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, monkeypatch, DISCORD_SHARD_COUNT=count)
    shown = f"{int(count):,}"
    assert str(caught.value) == (
        f"DISCORD_SHARD_COUNT={count} alone runs all {shown} shards here: one process runs at "
        "most 16 (discord.py connects them 5 s apart on one event loop); run workers, each with "
        "WORKER_ID and DISCORD_SHARD_IDS of at most 16 (e.g. 0-15, 16-31): docs/operations.md"
    )


def test_shard_ids_past_16_in_one_process_or_a_worker_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for worker in ({}, {"WORKER_ID": "w1"}):
        with pytest.raises(ConfigError) as caught:
            _load(
                tmp_path, monkeypatch, DISCORD_SHARD_COUNT="64", DISCORD_SHARD_IDS="0-16", **worker
            )
        assert str(caught.value).startswith(
            "DISCORD_SHARD_IDS=0-16 names 17 shards: one process runs at most 16 "
        ), caught.value


def test_16_shards_in_one_process_and_a_worker_s_16_of_many_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert MAX_SHARDS_PER_PROCESS == 16
    one = _load(tmp_path, monkeypatch, DISCORD_SHARD_COUNT="16")
    assert one.shard_ids == list(range(16))
    worker = _load(
        tmp_path,
        monkeypatch,
        DISCORD_SHARD_COUNT="100000",
        DISCORD_SHARD_IDS="99984-99999",
        WORKER_ID="w9",
    )
    assert worker.shard_ids == list(range(99_984, 100_000))
    spare = _load(
        tmp_path, monkeypatch, DISCORD_SHARD_COUNT="100000", DISCORD_SHARD_IDS="none", WORKER_ID="s"
    )
    assert spare.shard_ids == []
