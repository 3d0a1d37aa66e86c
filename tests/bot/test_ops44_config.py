"""An operator newcomer's configuration edges (ops44): a number refused without the value
given, a switch's accepted words, platform settings set without their platform's token."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import _PLATFORM_ONLY, ConfigError, Settings, load_settings, platform_warning
from tests.bot.test_config import run_bot

TOKEN = "123456:" + "A" * 35
DISCORD_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("LEASE_SECONDS", "0.5", "LEASE_SECONDS must be between 1 and 300 (not 0.5)"),
        ("LEASE_SECONDS", "1000", "LEASE_SECONDS must be between 1 and 300 (not 1000)"),
        # (":g" would have said "(not 300)", a refusal of the bound itself)
        (
            "LEASE_SECONDS",
            "300.0000001",
            "LEASE_SECONDS must be between 1 and 300 (not 300.0000001)",
        ),
        ("LEASE_SECONDS", "nan", "LEASE_SECONDS must be between 1 and 300 (not nan)"),
        (
            "STORAGE_WAIT_SECONDS",
            "45",
            "STORAGE_WAIT_SECONDS must be a number of seconds above 0 and at most 30 (not 45; "
            "default 1: a press waits that long for the database)",
        ),
        (
            "STORAGE_WAIT_SECONDS",
            "-1",
            "STORAGE_WAIT_SECONDS must be a number of seconds above 0 and at most 30 (not -1; "
            "default 1: a press waits that long for the database)",
        ),
        (
            "DISCORD_SHARD_COUNT",
            "0",
            "DISCORD_SHARD_COUNT must be a number of shards from 1 to 100,000 (not 0; the "
            "shards in all: this process runs every one, or with DISCORD_SHARD_IDS those)",
        ),
    ],
)
def test_a_number_out_of_range_is_refused_with_the_value_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str, said: str
) -> None:
    """``LEASE_SECONDS=0.5`` said "LEASE_SECONDS must be between 1 and 300" and not what it
    was given, while ``LOG_LEVEL``'s refusal names it ("(not WARN)", opsnu43): every numeric
    setting's range refusal now ends its bound with ``(not X)``."""
    for other in ("LEASE_SECONDS", "STORAGE_WAIT_SECONDS", "DISCORD_SHARD_COUNT"):
        monkeypatch.delenv(other, raising=False)
    monkeypatch.delenv("DISCORD_SHARD_IDS", raising=False)
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as caught:
        load_settings(str(tmp_path / "none.env"), tokens=False)
    assert str(caught.value) == said


def test_a_shard_id_past_the_most_is_refused_with_the_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "0-99999999")
    with pytest.raises(ConfigError) as caught:
        load_settings(str(tmp_path / "none.env"), tokens=False)
    assert str(caught.value) == (
        "DISCORD_SHARD_IDS: shard ids are below DISCORD_SHARD_COUNT (at most 100,000; not 99999999)"
    )


@pytest.mark.parametrize(
    ("ids", "count", "said"),
    [
        (
            "0-x",
            "4",
            "DISCORD_SHARD_IDS is shard numbers and ranges, e.g. 0-1 or 2,3, or none (not '0-x')",
        ),
        ("3-1", "4", "DISCORD_SHARD_IDS is shard numbers and ranges, e.g. 0-1 or 2,3 (not '3-1')"),
        (
            "0-4",
            "4",
            "DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT greater than every shard id"
            " (DISCORD_SHARD_IDS=0-4 goes up to 4; DISCORD_SHARD_COUNT=4)",
        ),
        (
            "2,3",
            None,
            "DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT greater than every shard id"
            " (DISCORD_SHARD_IDS=2,3 goes up to 3; DISCORD_SHARD_COUNT not set)",
        ),
    ],
)
def test_shard_ids_refused_with_the_values_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ids: str, count: str | None, said: str
) -> None:
    """DISCORD_SHARD_IDS's refusals said what the setting is but not what it was given (nor
    the count it was checked against), where every numeric setting's refusal names it."""
    monkeypatch.setenv("DISCORD_SHARD_IDS", ids)
    if count is None:
        monkeypatch.delenv("DISCORD_SHARD_COUNT", raising=False)
    else:
        monkeypatch.setenv("DISCORD_SHARD_COUNT", count)
    monkeypatch.setenv("WORKER_ID", "w1")
    with pytest.raises(ConfigError) as caught:
        load_settings(str(tmp_path / "none.env"), tokens=False)
    assert str(caught.value) == said


ROOT = Path(__file__).resolve().parents[2]


def _example_comment(name: str) -> str:
    """The comment lines of .env.example just above ``NAME=``, joined into one text."""
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{name}="))
    above: list[str] = []
    for line in reversed(lines[:at]):
        if not line.startswith("# ") or line.startswith("# ---"):
            break
        above.insert(0, line[2:])
    return " ".join(above)


def _readme_row(name: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return next(line for line in readme.splitlines() if line.startswith(f"| `{name}` |"))


@pytest.mark.parametrize("name", ["DECISIONS_IN_PROCESS", "DISCORD_MEMBERS_INTENT"])
def test_a_switch_s_documented_words_are_the_words_it_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """``DECISIONS_IN_PROCESS=yes`` (``true``, ``on``, any case) was taken while .env.example
    and README said ``1``/``0`` only: the pages now name every word the switch takes, each
    taken as the page says, and the refusal of another names them and the value given."""
    from bot.config import SWITCH_OFF, SWITCH_ON

    field = name.lower()
    pages = {
        ".env.example": _example_comment(name),
        "README": _readme_row(name).replace("`", ""),
    }
    for page, text in pages.items():
        for digit, words, on in (("1", SWITCH_ON, True), ("0", SWITCH_OFF, False)):
            said = f"{digit} (or {', '.join(words[1:])}"
            assert said in text, (page, said, text)
            for word in words:
                for spelt in (word, word.upper(), f" {word.title()} "):
                    monkeypatch.setenv(name, spelt)
                    settings = load_settings(str(tmp_path / "none.env"), tokens=False)
                    assert getattr(settings, field) is on, (name, spelt)
    monkeypatch.setenv(name, "maybe")
    with pytest.raises(ConfigError) as caught:
        load_settings(str(tmp_path / "none.env"), tokens=False)
    message = str(caught.value)
    assert message.startswith(f"{name} must be 1 (or true, yes, on: "), message
    assert " or 0 (or false, no, off: " in message and message.endswith("; not maybe)"), message


def _settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **env: str) -> Settings:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return load_settings(str(tmp_path / "none.env"))


def test_a_platform_s_settings_without_its_token_are_one_warning_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``DISCORD_SHARD_COUNT`` (the members intent, a webhook URL) set with no token of its
    platform was dropped without a word: one line names them, both platforms' in it."""
    settings = _settings(
        monkeypatch,
        tmp_path,
        DISCORD_SHARD_COUNT="2",
        DISCORD_MEMBERS_INTENT="yes",
        TELEGRAM_WEBHOOK_URL="https://bot.example.com/telegram",
        TELEGRAM_WEBHOOK_SECRET="s3cret",
    )
    assert platform_warning(settings) == (
        "warning: DISCORD_SHARD_COUNT, DISCORD_MEMBERS_INTENT set but no DISCORD_BOT_TOKEN: "
        "ignored; TELEGRAM_WEBHOOK_URL, TELEGRAM_WEBHOOK_SECRET set but no TELEGRAM_BOT_TOKEN:"
        " ignored"
    )
    # with Discord's token, only Telegram's are ignored
    settings = _settings(
        monkeypatch,
        tmp_path,
        DISCORD_BOT_TOKEN=DISCORD_TOKEN,
        DISCORD_SHARD_COUNT="2",
        TELEGRAM_API_BASE_URL="http://127.0.0.1:8081/bot",
        TELEGRAM_WEBHOOK_LISTEN="127.0.0.1:8443",
    )
    assert platform_warning(settings) == (
        "warning: TELEGRAM_API_BASE_URL, TELEGRAM_WEBHOOK_LISTEN set but no TELEGRAM_BOT_TOKEN:"
        " ignored"
    )
    # each with its token, or at its default: nothing to say
    settings = _settings(
        monkeypatch,
        tmp_path,
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_WEBHOOK_URL="https://bot.example.com/telegram",
        TELEGRAM_WEBHOOK_SECRET="s3cret",
        DISCORD_MEMBERS_INTENT="0",
    )
    assert platform_warning(settings) is None


def test_env_example_as_it_is_gets_no_platform_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """.env.example copied untouched (no token; ``DISCORD_MEMBERS_INTENT=0``,
    ``TELEGRAM_WEBHOOK_LISTEN=0.0.0.0:8443``, the defaults) is not warned about."""
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    assert platform_warning(load_settings(str(ROOT / ".env.example"))) is None


def test_the_start_warns_of_a_shard_count_without_a_discord_token(tmp_path: Path) -> None:
    """The bot's start (not ``--sandbox``) prints the line beside the unread variables' one,
    before it goes on (here: no token, stdin empty, refused as before)."""
    proc = run_bot({"DISCORD_SHARD_COUNT": "2"}, tmp_path)
    lines = proc.stderr.strip().splitlines()
    assert lines[0] == "warning: DISCORD_SHARD_COUNT set but no DISCORD_BOT_TOKEN: ignored", lines
    assert [line for line in lines if line.startswith("warning:")] == lines[:1], lines
    assert proc.returncode == 2 and lines[1].startswith("error: no bot token set"), lines


def test_operations_md_names_the_settings_the_warning_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/operations.md's bullet on the start's warning lines names every setting the
    platform line may name, and quotes the line as the bot writes it."""
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    bullet = " ".join(text.split("- *The start's warning lines*", 1)[1].split("\n- ", 1)[0].split())
    for token, fields in _PLATFORM_ONLY.items():
        assert f"`{token}`" in bullet
        for name in fields:
            assert f"`{name.upper()}`" in bullet, name
    line = platform_warning(_settings(monkeypatch, tmp_path, DISCORD_SHARD_COUNT="2"))
    assert f'"{line}"' in bullet
