"""fix39j: a Discord press overtaken by a newer press of the same message
(:meth:`DiscordPresenter.answer_turn`) was only acknowledged, so a refusal's notice on it
(``Reply.alert``) was dropped unread. It now comes as an ephemeral message; a plain answer
(no alert) is still only acknowledged, the newer press's answer writing the message."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.adapter import DiscordAdapter
from bot.model import Reply
from bot.screens import Screen


class _Response:
    def __init__(self, calls: list[tuple[str, Any, Any]]) -> None:
        self.calls = calls

    async def defer(self) -> None:
        self.calls.append(("defer", None, None))

    async def send_message(self, content: str, *, ephemeral: bool = False) -> None:
        self.calls.append(("send_message", content, ephemeral))


class _Followup:
    def __init__(self, calls: list[tuple[str, Any, Any]]) -> None:
        self.calls = calls

    async def send(self, content: str, *, ephemeral: bool = False) -> None:
        self.calls.append(("followup", content, ephemeral))


class _Interaction:
    id = 1

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any, Any]] = []
        self.response = _Response(self.calls)
        self.followup = _Followup(self.calls)


class _Ack:
    def __init__(self, deferred: bool) -> None:
        self._deferred = deferred

    async def deferred(self) -> bool:
        return self._deferred


@pytest.mark.parametrize("deferred", [False, True])
async def test_an_overtaken_press_still_shows_its_refusal(deferred: bool) -> None:
    interaction = _Interaction()
    reply = Reply("That card is not yours to place.", alert=True, screen=Screen("hand"))
    answer = DiscordAdapter._answer_press
    await answer(None, interaction, reply, True, _Ack(deferred), newest=False)  # type: ignore[arg-type]
    way = "followup" if deferred else "send_message"
    assert interaction.calls == [(way, "That card is not yours to place.", True)]


@pytest.mark.parametrize("deferred", [False, True])
async def test_an_overtaken_plain_answer_is_only_acknowledged(deferred: bool) -> None:
    interaction = _Interaction()
    reply = Reply("Placed.", screen=Screen("hand"))
    answer = DiscordAdapter._answer_press
    await answer(None, interaction, reply, True, _Ack(deferred), newest=False)  # type: ignore[arg-type]
    assert interaction.calls == ([] if deferred else [("defer", None, None)])
