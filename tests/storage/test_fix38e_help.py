"""``python -m storage --help`` (a new operator's first look, fix38e): its text is the module's
docstring, which printed its reST markup as it is ("````python -m storage check````",
"(see :mod:`storage.check`)"); it reads as plain text."""

from __future__ import annotations

import pytest

from storage.__main__ import main


def test_storage_help_is_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "`" not in out and ":mod:" not in out, out
    assert "python -m storage check [--db PATH_OR_URL]: the ledger consistency check (see\n" in out
    assert "storage.check) of a SQLite file or a PostgreSQL database (postgresql://…)." in out
    # (each paragraph wrapped at 88 columns, nu55: the same lines whatever the terminal)
    assert (
        "Without --db both read the database the bot uses: DATABASE_URL, else DATABASE_PATH\n"
        in out
    )
