"""Telegram's error shapes on the writes of a whole hand, through the real adapter and the
fake Bot API: the ``k``-th write the bot makes after the deal (a group edit, a private edit
or send, a photo) is refused once with a 429 (``retry_after``), a 500, a 400 "message to
edit not found" or a 403 "bot was blocked by the user", and the hand must still be played
to its showdown by the players' presses alone. A player shown an older screen (an edit of
it was lost) presses once, is told it is out of date and sees the hand as it is now; one
who "blocked" the bot sends /start (as unblocking does) and gets the hand again.

The default run takes a sample of (shape, k); ``OFC_SLOW=1`` runs every shape at every
third write of the first 60 (about a minute)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bot.telegram.fake_api import ApiCall, FakeUser, too_many
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, GROUP_ID, World, world

SLOW = os.environ.get("OFC_SLOW") == "1"


def _refusal(code: int, description: str) -> tuple[int, dict[str, Any]]:
    return code, {"ok": False, "error_code": code, "description": description}


SHAPES = {
    "429": too_many(1),
    "500": _refusal(500, "Internal Server Error"),
    "not_found": _refusal(400, "Bad Request: message to edit not found"),
    "403": _refusal(403, "Forbidden: bot was blocked by the user"),
}
CASES = (
    [(shape, k) for shape in SHAPES for k in range(0, 60, 3)]
    if SLOW
    else [("500", 12), ("500", 36), ("403", 18), ("not_found", 24), ("429", 6)]
)
STALE = ("out of date", "устарела")


async def _play_street(w: World, user: FakeUser) -> None:
    """``user`` plays their street; after a refused write they recover as a person would."""
    try:
        await w.play_street(user)
        return
    except KeyError:  # no hand message (blocked, 403): unblocking sends /start
        await w.settle()
        await w.say(user, "/start", chat_id=user.id)
    except AssertionError as exc:  # an older screen: the refusal showed the hand as it is
        assert any(word in str(exc) for word in STALE), exc
    await w.settle()
    await w.play_street(user)


@pytest.mark.parametrize(("shape", "k"), CASES)
async def test_a_hand_ends_whichever_write_telegram_refuses(
    tmp_path: Path, shape: str, k: int
) -> None:
    async with world(tmp_path) as w:
        # the refused write is lost for good: an edit refused with a 5xx is written again a
        # second later (TelegramPresenter.edit_retries), which would hide what is tested here
        w.adapter.presenter.edit_retries = ()
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        writes = 0

        def kth_write(call: ApiCall) -> bool:
            nonlocal writes
            if call.method in ("answerCallbackQuery", "getUpdates"):
                return False
            writes += 1
            return writes == k + 1

        w.fake.fail_when(kth_write, *SHAPES[shape])
        users = {str(u.id): u for u in (ALICE, BOB)}
        for _ in range(12):
            if t.hand is None or t.hand_no != 1:
                break
            await _play_street(w, users[t.seats[t.hand.to_act[0]].user_id])
        await w.settle()
        assert t.hand_no == 2 or t.hand is None, (shape, k)
        texts = [m["text"] for m in w.fake.chat_messages(GROUP_ID)]
        assert any("Showdown" in text for text in texts), (shape, k)
