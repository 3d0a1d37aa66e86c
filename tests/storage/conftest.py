from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.storage.helpers import STORE_KINDS, make_store


@pytest.fixture(params=STORE_KINDS)
async def store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[SqliteStore | MemoryStore]:
    """Every store kind (see helpers.STORE_KINDS), closed after the test."""
    s = await make_store(request.param, tmp_path)
    try:
        yield s
    finally:
        await s.close()
