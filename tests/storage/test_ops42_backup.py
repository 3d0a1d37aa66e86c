"""An operator's first deployment (ops42) on ``python -m storage backup``: a backup named
in a read-only folder (a read-only mount: the bot's data folder mounted read-only for the
backup user, a full backup disk remounted read-only) was a traceback ending in
``OSError: [Errno 30] Read-only file system`` and exit status 1, which the docs give to a
ledger difference (docs/operations.md: 2 "when nothing could be written or read")."""

from __future__ import annotations

import asyncio
import errno
from pathlib import Path

import pytest

from storage.__main__ import main
from storage.sqlite import SqliteStore
from tests.storage.helpers import seated


async def test_a_backup_that_cannot_be_written_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    live = tmp_path / "ofc.sqlite3"
    store = await SqliteStore.open(live)
    await seated(store)
    await store.close()
    dest = tmp_path / "mnt" / "ofc-copy.sqlite3"  # SQLite cannot make it there

    def read_only(self: Path, missing_ok: bool = False) -> None:
        # as on a read-only mount: even a file that is not there cannot be unlinked
        raise OSError(errno.EROFS, "Read-only file system", str(self))

    monkeypatch.setattr(Path, "unlink", read_only)
    assert await asyncio.to_thread(main, ["backup", "--db", str(live), str(dest)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"error: cannot write the backup {dest} (unable to open database file): name a file "
        "in a folder that exists and can be written\n"
    )
    assert not dest.exists()
