"""The showdown picture's way out, shared by both presenters (issue 12): tried as a notice is,
then, still refused, posted later in the background under a pending ref the service keeps with
its table (:attr:`bot.model.LiveTable.late_pictures`) until told it was posted or given up,
so a restart posts it again, once. Each presenter supplies only its platform's tries
(``_send_picture``)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from bot.logs import failure_logged
from bot.model import PENDING_PREFIX
from bot.retries import pending_ref

__all__ = ["LatePictures"]

log = logging.getLogger(__name__)


class LatePictures:
    """Mixin of :class:`bot.telegram.adapter.TelegramPresenter` and
    :class:`bot.discord.presenter.DiscordPresenter`: :meth:`send_picture`,
    :meth:`stop_pictures` and telling the service what became of a message posted later.
    A subclass sets ``_late_pictures`` (an empty dict), :attr:`on_posted`,
    :attr:`on_picture_given_up` and :attr:`PICTURE_TASK`, and implements
    ``_send_picture``."""

    #: the name of a background task posting a picture later (``<name>-<chat>``)
    PICTURE_TASK = "picture"
    #: pending ref → the background task posting that picture later
    _late_pictures: dict[str, asyncio.Task[None]]
    #: told ``(chat, pending ref, ref)`` when a message posted later is posted
    on_posted: Callable[[str, str, str], Awaitable[object]] | None
    #: told ``(chat, pending ref)`` when a showdown picture posted later (:meth:`send_picture`)
    #: is given up (refused for good, its answer lost, past the give-up): the service forgets
    #: it, a restart does not post it
    on_picture_given_up: Callable[[str, str], Awaitable[object]] | None

    async def _send_picture(
        self, chat_id: str, png: bytes, caption: str, ref: str, began: float, *, later: bool
    ) -> bool:
        """The platform's tries of the picture under the pending ref ``ref``, failing since
        ``began`` (``later``: the background ones). ``False``: still refused past the notice
        tries (not ``later``): to be posted later. In the background the service is told
        the picture was posted (:attr:`on_posted`) or given up (:attr:`on_picture_given_up`),
        unless the adapter stops (kept for a restart)."""
        raise NotImplementedError

    async def send_picture(
        self, chat_id: str, png: bytes, caption: str, ref: str | None = None, *, later: bool = False
    ) -> str | None:
        """The showdown picture (PNG bytes) with its caption in chat ``chat_id`` (issue 12),
        tried as the platform's ``_send_picture`` says (a notice's tries, awaited, so the
        table's later messages keep their order). Still refused, it is posted later in the
        background as an edit is tried, and its pending ref ``ref`` (a new one if ``None``)
        is returned: the service keeps the picture until :attr:`on_posted` tells it posted
        or :attr:`on_picture_given_up` given up (not told at the adapter's stop: a restart
        posts it; ``later``: straight to the background tries). ``None``: sent, or not to be
        sent. Never raises a write's error."""
        ref = ref or pending_ref(PENDING_PREFIX)
        if later:
            self._post_picture_later(chat_id, png, caption, ref, time.monotonic())
            return ref
        began = time.monotonic()
        if await self._send_picture(chat_id, png, caption, ref, began, later=False):
            return None
        self._post_picture_later(chat_id, png, caption, ref, began)
        return ref

    def _post_picture_later(
        self, chat_id: str, png: bytes, caption: str, ref: str, began: float
    ) -> None:
        """:meth:`send_picture`'s background tries, failing since ``began``; none when the
        picture ``ref`` is being posted later already (a closed table's record delivered
        again while its tries go on: Telegram would show it twice)."""
        running = self._late_pictures.get(ref)
        if running is not None and not running.done():
            return

        async def tries() -> None:
            await self._send_picture(chat_id, png, caption, ref, began, later=True)

        task = asyncio.create_task(tries(), name=f"{self.PICTURE_TASK}-{chat_id}")
        failure_logged(task, f"posting a picture later in {chat_id}")
        self._late_pictures[ref] = task

        def done(ended: asyncio.Task[None]) -> None:
            if self._late_pictures.get(ref) is ended:
                del self._late_pictures[ref]

        task.add_done_callback(done)

    def drop_picture(self, ref: str) -> None:
        """Stop posting the picture ``ref`` later, telling the service nothing: another
        worker serves its table now (its lease was lost, issue 14) and posts it itself
        (a try on its way may still be posted: Discord's nonce makes that one message,
        Telegram may show it twice). Nothing happens if no such picture is being posted."""
        task = self._late_pictures.pop(ref, None)
        if task is not None:
            task.cancel()

    async def stop_pictures(self) -> None:
        """After the presenter's ``stop_retries``: wait for the pictures being posted later to
        end. One waiting for its next try makes none (logged): the service, stopped first,
        saved it with its table (:attr:`bot.model.LiveTable.late_pictures`) and the
        restarted bot posts it; a try after the service's stop, taken, could not be
        recorded, and the restart posted it a second time."""
        if self._late_pictures:
            await asyncio.gather(*self._late_pictures.values(), return_exceptions=True)

    async def _tell_service(
        self, hook: Callable[..., Awaitable[object]] | None, chat_id: str, *args: str
    ) -> None:
        """Tell the service what became of a message posted later (``hook``: a picture, or a
        table message posted again after someone deleted it); its failure is logged."""
        if hook is None:
            return
        try:
            await hook(chat_id, *args)
        except Exception:
            log.exception("could not tell the service about the message %s", args[0])
