from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.storage.helpers import STORE_KINDS, AnyStore, open_store


@pytest.fixture(params=STORE_KINDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[AnyStore]:
    """Every store kind (see helpers.STORE_KINDS), closed after the test."""
    async with open_store(request.param, tmp_path) as s:
        yield s
