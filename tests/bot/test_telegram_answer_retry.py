"""A press's ``answerCallbackQuery`` that Telegram refuses (a 5xx) or that never reaches it
(the network): the press's step stands, the answer is tried once more at once (Telegram takes
an answer only for a short while), the failure is logged, and nothing else breaks."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.telegram.fake_api import ApiCall
from tests.bot.tg_world import ALICE, GROUP_ID, world

BAD_GATEWAY = {"ok": False, "error_code": 502, "description": "Bad Gateway"}


def answers(c: ApiCall) -> bool:
    return c.method == "answerCallbackQuery"


async def test_a_refused_answer_is_tried_once_more_and_the_press_stands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Alice's Join is answered with a 502 the first time: she is seated all the same, the
    answer is sent once more right away (that one succeeds), and the first failure is
    logged."""
    caplog.set_level(logging.INFO, logger="bot.telegram.adapter")
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        w.fake.fail_when(answers, 502, BAD_GATEWAY)
        await w.press_lobby(ALICE, "j")
        # (the press returns on its first answer, the refused one: the second follows it)
        await w.fake.wait_for(lambda: len(w.fake.calls_of("answerCallbackQuery")) >= 2)
        await w.settle()
        t = next(iter(w.service.tables.values()))
        assert t.seat_of(str(ALICE.id)) is not None  # the press's step stands
        tries = w.fake.calls_of("answerCallbackQuery")
        assert len(tries) == 2
        assert tries[0].params["callback_query_id"] == tries[1].params["callback_query_id"]
        assert tries[0].params.get("text") == tries[1].params.get("text")
        assert any(
            "answer a press" in r.getMessage() and "Bad Gateway" in r.getMessage()
            for r in caplog.records
        )
        # nothing else broke: no "something went wrong" popup, the group shows her seated
        assert not any(c.params.get("show_alert") for c in tries)
        assert "Alice" in str(w.table_message().get("text"))


async def test_an_answer_refused_twice_is_given_up_and_the_press_stands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram refuses every answer (an outage): the press is answered twice (no more),
    the failure is logged once as a warning, Alice is seated, and her next press works
    once Telegram answers again."""
    caplog.set_level(logging.INFO, logger="bot.telegram.adapter")
    async with world(tmp_path) as w:
        await w.say(ALICE, "/newtable")
        w.fake.outage(answers)
        start = len(w.fake.calls)
        qid = await w.fake.press(ALICE, GROUP_ID, w.table_message()["message_id"], _button(w, "j"))
        await w.fake.wait_for(lambda: len([c for c in w.fake.calls[start:] if answers(c)]) == 2)
        await w.settle()
        t = next(iter(w.service.tables.values()))
        assert t.seat_of(str(ALICE.id)) is not None
        tries = [c for c in w.fake.calls[start:] if answers(c)]
        assert [c.params["callback_query_id"] for c in tries] == [qid, qid]
        warned = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len([r for r in warned if "answer" in r.getMessage()]) == 1
        w.fake.recover()
        answer = await w.press_lobby(ALICE, "r")
        assert not answer.get("show_alert"), answer


def _button(w, action: str) -> str:  # type: ignore[no-untyped-def]
    from bot.screens import Payload

    return next(
        b["callback_data"]
        for b in w.fake.buttons(w.table_message())
        if b.get("callback_data") and Payload.decode(b["callback_data"]).action == action  # type: ignore[union-attr]
    )
