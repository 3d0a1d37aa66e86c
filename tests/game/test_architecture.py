"""The layers stay apart, checked on the import statements (every one, including those inside
functions and under ``TYPE_CHECKING``):

* the core stays pure: ``game/`` imports no I/O, platform or storage module (STYLE.md 1);
* the adapters (``bot/telegram/``, ``bot/discord/``) never import storage or each other;
* the service (``bot.service`` and, once it is a package, every ``bot.service.*``) and the
  platform-free modules around it (model, render, screens, texts, and any other module of
  ``bot/`` that is neither an adapter nor the composition root) import no platform library and
  no adapter;
* only the composition root (``bot/app.py``, ``bot/sandbox.py``, ``bot/__main__.py``,
  ``bot/config.py``) wires adapters, service and storage together.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "game"
BOT = ROOT / "bot"
FORBIDDEN = {
    "bot", "storage", "telegram", "discord", "aiosqlite", "asyncio", "sqlite3", "aiohttp",
    "httpx", "socket", "requests", "subprocess", "threading", "time",
}  # fmt: skip

ADAPTERS = ("bot.telegram", "bot.discord")
# bot.cluster wires processes together (the webhook router, forwarded updates): composition
COMPOSITION_ROOT = ("bot.app", "bot.sandbox", "bot.__main__", "bot.config", "bot.cluster")
PLATFORM_LIBRARIES = ("telegram", "discord", "aiohttp", "httpx")
STORAGE = ("storage", "aiosqlite", "sqlite3")
# the service's modules as the issue names them; more of bot/ falls under the same rule
SERVICE_SIDE = ("bot.service", "bot.model", "bot.render", "bot.screens", "bot.texts")


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


def module_name(path: Path) -> str:
    """``bot/service/play.py`` → ``bot.service.play``; ``bot/service/__init__.py`` →
    ``bot.service``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` may import, absolute: ``from bot import render`` yields ``bot`` and
    ``bot.render`` (the name may be a submodule); relative imports are resolved."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{a.name}" for a in node.names if a.name != "*")
    return out


def within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def bot_modules() -> list[tuple[str, Path]]:
    """(name, path) of every module under ``bot/`` (a list: ``bot/service.py`` and a package
    ``bot/service/`` may both exist while one becomes the other)."""
    return [(module_name(p), p) for p in sorted(BOT.rglob("*.py"))]


def offences(modules: list[tuple[str, Path]], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{path.relative_to(ROOT)} imports {imported}"
        for _, path in modules
        for imported in imports_of(path)
        if within(imported, forbidden)
    )


def test_adapters_import_neither_storage_nor_each_other() -> None:
    modules = bot_modules()
    found = []
    for adapter in ADAPTERS:
        mine = [(n, p) for n, p in modules if within(n, (adapter,))]
        assert mine, f"no modules in {adapter}"
        others = tuple(a for a in ADAPTERS if a != adapter)
        found += offences(mine, (*STORAGE, *others, *COMPOSITION_ROOT))
    assert found == []


def test_service_imports_no_platform_library_and_no_adapter() -> None:
    modules = bot_modules()
    service_side = [
        (n, p) for n, p in modules if not within(n, ADAPTERS) and not within(n, COMPOSITION_ROOT)
    ]
    for name in SERVICE_SIDE:
        assert name in {n for n, _ in service_side}, f"{name} is missing"
    found = offences(service_side, (*PLATFORM_LIBRARIES, *ADAPTERS, *COMPOSITION_ROOT))
    assert found == []


def test_the_only_platform_fake_in_the_package_is_the_sandboxs() -> None:
    """Test doubles live under ``tests/``; the fake Bot API stays: the sandbox runs on it."""
    fakes = sorted(n for n, _ in bot_modules() if "fake" in n.rpartition(".")[2])
    assert fakes == ["bot.telegram.fake_api"]
    assert "bot.telegram.fake_api" in imports_of(BOT / "sandbox.py")
