"""The showdown picture through a Telegram outage (issue 12): ``sendPhoto`` refused with a
5xx was logged and left out; now it is sent again as a notice is (after each of the notice
waits, awaited: the table's later messages keep their order), and shows once."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, world

BAD_GATEWAY = {"ok": False, "error_code": 502, "description": "Bad Gateway"}


async def test_a_picture_telegram_refuses_for_a_while_is_posted_once_it_answers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram answers 502 to the picture twice: the third try posts it, once, after the
    text showdown and before the next hand's table message; nothing is logged as lost."""
    async with world(tmp_path, rng_seed=5) as w:
        w.adapter.presenter.notice_retries = (0.05, 0.1, 0.2)
        w.fake.started_users.update({ALICE.id, BOB.id})
        for _ in range(2):
            w.fake.fail_when(lambda c: c.method == "sendPhoto", 502, BAD_GATEWAY)
        await seat_everyone(w, [ALICE, BOB])
        with caplog.at_level(logging.INFO, logger="bot"):
            await play_hand(w, [ALICE, BOB])
            await w.settle()
            await w.fake.wait_for(lambda: w.fake.photos_in(GROUP_ID) or None)
            await w.settle()
        assert len(w.fake.calls_of("sendPhoto")) == 3
        assert len(w.fake.photos_in(GROUP_ID)) == 1
        assert [r for r in caplog.records if "cannot send the picture" in r.getMessage()] == []
        assert [r for r in caplog.records if "not posted" in r.getMessage()]
        calls = [c.method for c in w.fake.calls if int(c.params.get("chat_id", 0)) == GROUP_ID]
        photo = calls.index("sendPhoto")  # (the refused tries, then the one that was taken)
        assert calls[photo : photo + 3] == ["sendPhoto"] * 3
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 2  # the next hand was dealt


async def test_a_picture_refused_for_good_is_not_tried_again(tmp_path: Path) -> None:
    """A 400 (photos forbidden) is no outage: one try."""
    async with world(tmp_path, rng_seed=5) as w:
        w.adapter.presenter.notice_retries = (0.05, 0.1, 0.2)
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.outage(
            lambda c: c.method == "sendPhoto",
            400,
            {"ok": False, "error_code": 400, "description": "Bad Request: not enough rights"},
        )
        await seat_everyone(w, [ALICE, BOB])
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        await w.fake.wait_for(lambda: w.fake.calls_of("sendPhoto") or None)
        await w.settle()
        assert len(w.fake.calls_of("sendPhoto")) == 1


async def test_a_picture_refused_past_the_notice_tries_is_posted_later_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram refuses every picture longer than the notice tries: the table does not wait
    for it (the next hand is dealt, its table message posted), and the picture is posted
    once Telegram takes photos again, once."""
    async with world(tmp_path, rng_seed=5) as w:
        presenter = w.adapter.presenter
        presenter.notice_retries = (0.05, 0.1)
        presenter.edit_retries = (0.05, 0.1, 0.2)
        w.fake.started_users.update({ALICE.id, BOB.id})
        w.fake.outage(lambda c: c.method == "sendPhoto")
        await seat_everyone(w, [ALICE, BOB])
        with caplog.at_level(logging.INFO, logger="bot"):
            await play_hand(w, [ALICE, BOB])
            await w.settle()
            await w.fake.wait_for(lambda: len(w.fake.calls_of("sendPhoto")) >= 5)
            t = next(iter(w.service.tables.values()))
            assert t.hand is not None and t.hand_no == 2  # the table did not wait
            assert w.fake.photos_in(GROUP_ID) == []
            w.fake.recover()
            await w.fake.wait_for(lambda: w.fake.photos_in(GROUP_ID) or None)
            await asyncio.sleep(0.5)  # (no second one comes)
        assert len(w.fake.photos_in(GROUP_ID)) == 1
        assert [r for r in caplog.records if "posted later" in r.getMessage()]
        assert [r for r in caplog.records if "cannot send the picture" in r.getMessage()] == []
