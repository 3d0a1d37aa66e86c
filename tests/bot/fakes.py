"""A recording presenter for service tests (no platform), and a recorder of what the
service's drawing process draws."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest

from bot.drawing import Drawer
from bot.screens import Screen
from bot.texts import tr

#: the answer to a Confirm that leaves the board fouled, which asks first (R2.3): a test
#: that plays whatever the strategy places presses again
FOULED_NOTICES = frozenset(tr(lang, "err.confirm_fouled") for lang in ("en", "ru"))

T = TypeVar("T")


def _drawn_by(fn: Callable[..., Any], *args: Any) -> tuple[int, Any]:
    """Runs in the drawing process: its pid and ``fn(*args)``."""
    return os.getpid(), fn(*args)


def record_drawings(
    monkeypatch: pytest.MonkeyPatch,
    fn: Callable[..., Any],
    keep: Callable[[tuple[Any, ...], int], T],
) -> list[T]:
    """Every drawing of ``fn`` (``pictures.draw_json``, ``charts.draw_kush``) by any
    :class:`~bot.drawing.Drawer`, still drawn in its worker process: ``keep(args, pid of the
    process that drew it)`` of each, once drawn (one worker: in the order asked)."""
    seen: list[T] = []
    real = Drawer.draw

    async def draw(self: Drawer, f: Callable[..., Any], *args: Any) -> Any:
        if f is not fn:
            return await real(self, f, *args)
        pid, out = await real(self, _drawn_by, f, *args)
        seen.append(keep(args, pid))
        return out

    monkeypatch.setattr(Drawer, "draw", draw)
    return seen


@dataclass
class FakePresenter:
    """Records every table/private message; ``blocked`` users cannot be reached."""

    platform: str = "telegram"
    link: str | None = "https://t.me/ofc_test_bot?start=t{table}"
    tables: dict[str, list[Screen]] = field(default_factory=dict)
    privates: dict[str, list[Screen]] = field(default_factory=dict)
    posts: list[tuple[str, str]] = field(default_factory=list)
    #: (chat, PNG bytes, caption) of every picture sent
    pictures: list[tuple[str, bytes, str]] = field(default_factory=list)
    blocked: set[str] = field(default_factory=set)
    writes: int = 0
    _n: int = 0

    async def show_table(self, chat_id: str, screen: Screen, ref: str | None) -> str | None:
        self.writes += 1
        self.tables.setdefault(chat_id, []).append(screen)
        if ref is None:
            self._n += 1
            return f"m{self._n}"
        return ref

    async def show_private(
        self, user_id: str, screen: Screen, ref: str | None, answered: str | None = None
    ) -> str | None:
        if user_id in self.blocked:
            return None
        self.privates.setdefault(user_id, []).append(screen)
        if ref is None:
            self._n += 1
            return f"p{self._n}"
        return ref

    async def edit_written(self, chat_id: str, ref: str) -> bool:
        return True

    async def post(self, chat_id: str, text: str, ref: str | None = None) -> bool:
        self.posts.append((chat_id, text))
        return True

    async def send_picture(
        self, chat_id: str, png: bytes, caption: str, ref: str | None = None, *, later: bool = False
    ) -> str | None:
        self.pictures.append((chat_id, png, caption))
        return None

    def drop_picture(self, ref: str) -> None:
        return None

    def stop_retries(self) -> None:
        return None

    def private_link(self, table_id: int) -> str | None:
        return self.link.format(table=table_id) if self.link else None

    def message_link(self, community: str, chat_id: str, ref: str) -> str | None:
        return None

    def plain_text(self, text: str) -> str:
        return text

    def typed_text(self, text: str) -> str:
        return text

    def last_private(self, user_id: str) -> Screen:
        return self.privates[user_id][-1]

    def last_table(self, chat_id: str) -> Screen:
        return self.tables[chat_id][-1]
