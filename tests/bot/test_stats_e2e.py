"""/stats, /top week and /replay with ◀ ▶ end to end: the real python-telegram-bot against
the local fake Bot API (issue 12), on the scripted hand of tests/bot/test_stats_service.py
(the first to act wins 38: royal flush, QQ top; the other fouls); and the kush chart that
follows a player's /stats from their second hand on (one ``sendPhoto``)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from PIL import Image

from bot.presses import ReplayStep, decode
from bot.texts import minus, plural
from tests.bot.test_stats_service import LAYOUT, LOSER_DISCARDS, WINNER_DISCARDS
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.tg_world import ALICE, BOB, CAROL, GROUP_ID, World, world
from tests.game.helpers import stacked_deck
from tests.game.test_history import DECK

_BOX = {"b": "bottom", "m": "middle", "t": "top", "x": None}
PLAN: dict[str, str | None] = {c.text: _BOX[x] for c, x in LAYOUT.items()}


def _replay_button(message: dict[str, Any], label: str, fake: Any) -> str | None:
    for b in fake.buttons(message):
        if b.get("text") == label:
            data = b.get("callback_data")
            assert isinstance(decode(data), ReplayStep)
            return str(data)
    return None


async def test_stats_top_and_a_replay_stepped_with_buttons_in_private(tmp_path: Path) -> None:
    async with world(tmp_path, deck_source=lambda: stacked_deck(DECK)) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None
        winner = ALICE if t.seats[t.hand.order[0]].user_id == str(ALICE.id) else BOB
        loser = BOB if winner is ALICE else ALICE
        await play_hand(w, [ALICE, BOB], {ALICE.id: PLAN, BOB.id: PLAN})
        await w.settle()

        reply = await w.say(CAROL, f"/stats @{winner.username}")
        assert reply["text"].splitlines() == [
            f"📊 {winner.first_name} · all time",
            "Hands: 1 · points/hand +38.0 · kush/hand +38.0",
            "Fouls: 0% (0 of 1 board)",
            "Royalties/hand 32.0",
            "Fantasyland: entered in 100% of hands",
            "Scoops (all three boxes): 1 · biggest win: +38 kush",
            "Net: +38 kush",
        ]
        group = (await w.say(CAROL, "/stats")).get("text", "").splitlines()
        assert group[:2] == ["📊 Friends · all time", "Hands: 1 · players: 2"]
        top = (await w.say(CAROL, "/top week")).get("text", "").splitlines()
        assert top[1:] == [
            f"1. {winner.first_name} — +38 kush · hands: 1",
            f"2. {loser.first_name} — −38 kush · hands: 1",
        ]
        history = (await w.say(winner, "/history"))["text"]
        hand_id = int(history.splitlines()[1].split()[0].lstrip("#"))

        # /replay in the group: the group hears where it went, the frames go privately
        before = len(w.fake.chat_messages(winner.id))
        reply = await w.say(winner, f"/replay {hand_id}")
        assert f"#{hand_id}" in reply["text"] and "♠" not in reply["text"]
        await w.settle()
        sent = w.fake.chat_messages(winner.id)[before:]
        assert len(sent) == 1 and "Street 1 of 5" in sent[0]["text"]
        frame = sent[0]
        texts = [frame["text"]]
        for street in range(2, 6):
            data = _replay_button(frame, "▶", w.fake)
            assert data is not None
            answer = await w.press(winner, winner.id, frame, data)
            assert not answer.get("show_alert"), answer
            frame = w.fake.messages[(winner.id, frame["message_id"])]
            texts.append(frame["text"])
            assert (f"Street {street} of 5" if street < 5 else "Showdown") in frame["text"]
        assert _replay_button(frame, "▶", w.fake) is None
        back = _replay_button(frame, "◀", w.fake)
        assert back is not None
        await w.press(winner, winner.id, frame, back)
        texts.append(w.fake.messages[(winner.id, frame["message_id"])]["text"])
        assert "Street 4 of 5" in texts[-1]
        for k, text in enumerate(texts):  # R3.3: own discards only, never the other's
            assert not [c for c in LOSER_DISCARDS if c.face in text], k
        assert [c for c in WINNER_DISCARDS if c.face in texts[4]] == list(WINNER_DISCARDS)
        # nothing of the replay reached the group
        for text in w.group_texts():
            assert "Street" not in text and "discards" not in text

        # a player of another hand (Carol) pressing the winner's button sees nothing
        data = _replay_button(frame, "▶", w.fake) or back
        w.fake.started_users.add(CAROL.id)
        qid = await w.fake.press(CAROL, winner.id, frame["message_id"], data)
        answer = await w.fake.wait_for(lambda: w.fake.answer_of(qid))
        assert answer.params.get("show_alert") and "Only the players" in answer.params["text"]
        assert w.fake.messages[(winner.id, frame["message_id"])]["text"] == texts[-1]


def _kush_charts(w: World) -> list[Any]:
    return [p for p in w.fake.photos_in(GROUP_ID) if p.caption.startswith("📈")]


def _net(text: str) -> int:
    m = re.search(r"^(?:Net|Итого): ([+−-]?\d+) (?:kush|кушей|куша|куш)$", text, re.MULTILINE)
    assert m is not None, text
    return int(m.group(1).replace("−", "-"))  # (the minus sign U+2212 the texts print)


async def test_stats_sends_the_kush_chart_after_the_text_from_the_second_hand(
    tmp_path: Path,
) -> None:
    """After one hand /stats is text only; after two, /stats @alice and Bob's group /stats
    each send one photo after their text: a 640 × 360 PNG of at most 100 KB, its caption the
    player's net (Bob's in Russian, his language); Carol, who played nothing, gets none."""
    async with world(tmp_path, rng_seed=5) as w:
        w.fake.started_users.update({ALICE.id, BOB.id})
        await seat_everyone(w, [ALICE, BOB])
        await play_hand(w, [ALICE, BOB])
        await w.settle()
        one = await w.say(ALICE, "/stats me")
        assert "Hands: 1 " in one["text"]
        await play_hand(w, [ALICE, BOB])  # a chart of the first /stats would be here by now
        await w.settle()
        assert _kush_charts(w) == []
        photos = len(w.fake.calls_of("sendPhoto"))  # the two showdown pictures

        carol = (await w.say(CAROL, "/stats"))["text"]
        assert "Hands: 2 · players: 2" in carol and f"📊 {CAROL.first_name}" not in carol
        reply = await w.say(CAROL, f"/stats @{ALICE.username}")
        assert "Hands: 2 " in reply["text"]
        (chart,) = await w.fake.wait_for(lambda: _kush_charts(w))
        net = _net(reply["text"])
        assert (
            chart.caption
            == f"📈 {ALICE.first_name}: kush over time (all time), net {minus(f'{net:+d}')} kush"
        )
        assert len(chart.data) <= 100 * 1024
        img = Image.open(io.BytesIO(chart.data))
        assert img.format == "PNG" and img.size == (640, 360)
        text = next(
            m
            for m in w.fake.chat_messages(GROUP_ID)
            if m["text"].startswith("📊 " + ALICE.first_name)
        )
        assert text["message_id"] < chart.message_id  # the text first, then the chart

        group = await w.say(BOB, "/stats")
        charts = await w.fake.wait_for(lambda: _kush_charts(w)[1:])
        assert _net(group["text"].split("\n\n")[-1]) == -net  # two players: zero-sum
        word = plural(net, "куш", "куша", "кушей")
        assert (
            charts[0].caption == f"📈 {BOB.first_name}: график за всё время, итог {-net:+d} {word}"
        )
        assert len(w.fake.calls_of("sendPhoto")) == photos + 2 and len(_kush_charts(w)) == 2
