"""fix39g: Chinese Poker (R7.1, R7.5, R7.6) when an admin changes ``target_points`` during a hand:
its reveal showed "(target 200)" in its first frames and "(target 20)" in its last, the new
target applying to the game as the hand closes (as the admin is told: from the next hand, the
game ending with this one if a player has reached it). Every frame of the hand's reveal shows
the target it was played to; the last says the new one."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot import pictures
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service_classic import ALICE, GROUP, chinese_hand_arranged


def _frames(presenter: object, hand: int) -> list[str]:
    """The group's reveal frames of hand ``hand``, in order, each once."""
    frames: list[str] = []
    for screen in presenter.tables[GROUP.chat_id]:  # type: ignore[attr-defined]
        text = screen.text
        if text.startswith(tr("en", "reveal.title", table=1, hand=hand)) and (
            not frames or frames[-1] != text
        ):
            frames.append(text)
    return frames


@pytest.mark.parametrize(("new", "over"), [(30, False), (20, True), (500, False)])
async def test_r7_1_one_reveal_shows_one_target_and_says_the_new_one_last(
    new: int, over: bool
) -> None:
    """Chinese Poker to 200; during the hand's reveal an admin sets ``target_points`` to 30, 20
    or 500, and the hand gives Alice 22 points. Each frame reads "(target 200)"; the last one
    says the new target: reached (20), the game ends with the hand; not (30, 500), it plays
    on to it from the next hand."""
    service, presenter, store, _clock, t = await chinese_hand_arranged()
    assert not (await service.settings(GROUP, ALICE, True, ["target_points", str(new)])).alert
    for _ in range(4):
        await service.run_due()
    frames = _frames(presenter, 1)
    assert len(frames) >= 3, frames
    targets = [set(re.findall(r"pts \(target (\d+)\)", f)) for f in frames]
    assert targets == [{"200"}] * len(frames), frames
    last = frames[-1]
    if over:
        reached = tr("en", "reveal.game_over_new_target", names="Alice", target=new)
        assert (
            reached
            == f"🏆 Alice reached the game's new target, {new} points, so the game ends here."
        )
        assert reached in last.splitlines(), last
        assert t.chinese is None
    else:
        said = tr("en", "reveal.new_target", target=new)
        assert said == f"🎯 From the next hand the game plays to {new} points."
        assert last.splitlines()[-1] == said, last
        assert t.chinese is not None and t.chinese.target == new and not t.chinese.over
        # between hands the table shows the new target (tests/bot/test_chinese_target.py)
        score = tr("en", "chinese.score", target=new, scores="Alice 22 · Bob 0")
        assert score in presenter.last_table(GROUP.chat_id).text.splitlines()
    assert await check_store(store) == []


def test_the_new_target_is_said_in_russian_with_its_agreeing_noun() -> None:
    assert (
        tr("ru", "reveal.new_target", target=30) == "🎯 Со следующей раздачи игра идёт до 30 очков."
    )
    assert (
        tr("ru", "reveal.new_target", target=21) == "🎯 Со следующей раздачи игра идёт до 21 очка."
    )
    assert tr("ru", "reveal.game_over_new_target", names="Alice", target=20) == (
        "🏆 Alice: новая цель игры, 20 очков, достигнута, игра окончена."
    )


async def test_the_showdown_picture_draws_the_target_the_hand_was_played_to() -> None:
    """The picture of the hand's last frame is drawn at its close: it drew the new target
    ("22/20 pts") where the text reads "(target 200)"."""
    _service, _presenter, _store, _clock, t = await chinese_hand_arranged(reveal_pause="3")
    assert t.reveal is not None and t.chinese is not None  # (its reveal under way)
    assert t.reveal["target"] == 200
    t.chinese = dataclasses.replace(t.chinese, target=30)  # as a change applies at the close
    picture = pictures.showdown_picture(t, "en", {}, (), None)
    assert picture.target == 200
