"""Puts the repository's root on ``sys.path`` so that a benchmark run as ``python bench/X.py``
imports the test doubles under ``tests/`` (e.g. ``tests.fakes.discord_api``), which are not
part of the installed package. Import it before them."""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["ROOT"]

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
