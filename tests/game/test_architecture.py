"""The core stays pure: ``game/`` imports no I/O, platform or storage module (STYLE.md 1)."""

from __future__ import annotations

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parents[2] / "game"
FORBIDDEN = {
    "bot", "storage", "telegram", "discord", "aiosqlite", "asyncio", "sqlite3", "aiohttp",
    "httpx", "socket", "requests", "subprocess", "threading", "time",
}  # fmt: skip


def test_game_imports_nothing_from_io_or_platforms() -> None:
    offenders = []
    for path in sorted(GAME.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN:
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []
    assert len(list(GAME.glob("*.py"))) >= 10
