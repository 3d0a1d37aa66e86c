"""What a new user met in the sandbox: a showdown listing a box's cards as placed, not as the
hand reads; Claim / Continue and the two-of-three bonus unexplained; /rules' foul line read as
the fouled board's own royalties; terms never introduced; small slips in both languages."""

from __future__ import annotations

import io
from pathlib import Path

from bot.model import Actor, LiveTable
from bot.presses import Payload
from bot.sandbox import Sandbox, SandboxOptions
from bot.service import stats as stats_mod
from bot.texts import tr
from bot.thinking import Thinker
from game.board import Box
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, GROUP, press_auto_and_confirm
from tests.bot.test_settings import BORIS, new_service, say
from tests.bot.test_transitions import play_street_by_plan, stacked_table

# the streets of :func:`stacked_decks`: the middle gets Q♠ Q♥ then K♠ K♥ then 9♠, the top
# 7♥ then 5♣ 6♦ (placed out of the order the hand reads in)
PLACED_OUT_OF_ORDER: dict[str, Box | None] = {
    "Qs": Box.MIDDLE, "Qh": Box.MIDDLE, "As": Box.BOTTOM, "Ad": Box.BOTTOM, "Ac": Box.BOTTOM,
    "Ks": Box.MIDDLE, "Kh": Box.MIDDLE, "2c": None, "Kd": Box.BOTTOM, "9s": Box.MIDDLE,
    "3c": None, "9h": Box.BOTTOM, "7h": Box.TOP, "4d": None, "5c": Box.TOP,
    "6d": Box.TOP, "8s": None,
}  # fmt: skip


async def _showdown() -> tuple[MemoryStore, LiveTable, FakePresenter, str]:
    store, _clock, service, presenter, t = await stacked_table()
    hand = t.hand
    assert hand is not None
    while t.hand is hand:
        seat = hand.to_act[0]
        if t.seats[seat].user_id == ALICE.user_id:
            await play_street_by_plan(service, presenter, seat, ALICE, PLACED_OUT_OF_ORDER)
        else:
            await press_auto_and_confirm(service, presenter, BOB)
    shown = [s.text for s in presenter.tables[GROUP.chat_id] if "Showdown" in s.text]
    assert shown, presenter.tables[GROUP.chat_id][-1].text
    return store, t, presenter, shown[-1]


async def test_r1_2_the_showdown_lists_a_box_as_the_hand_reads() -> None:
    """ "K♣ 2♣ K♥ 2♦ 8♥ — two pair": the cards as placed. The pairs come first by rank, then
    the kickers (R1.2)."""
    store, t, _presenter, text = await _showdown()
    assert "  K♠ K♥ Q♠ Q♥ 9♠ — " in text, text
    assert "  7♥ 6♦ 5♣ — " in text, text
    assert "  A♠ A♦ A♣ K♦ 9♥ — " in text, text
    assert "Q♠ Q♥ K♠ K♥ 9♠" not in text
    # the last frame of the hand's /replay is the showdown: listed the same way
    alice = t.seats[0].player_id
    record = (await store.hand_history(alice, 1))[0]
    frames = await stats_mod._frames(Thinker(False), record, 0)
    text = stats_mod.replay_screen(record, frames, len(frames), 0, {0: "A", 1: "B"}, "en").text
    assert frames[-1].final and "  K♠ K♥ Q♠ Q♥ 9♠ — two pair, kings and queens\n" in text, text
    assert "  7♥ 6♦ 5♣ — seven high\n" in text, text


async def test_r7_5_rules_chinese_say_what_claim_and_continue_do() -> None:
    """/rules chinese said only "a Claim may end it early": a player whose unrevealed boxes
    never counted did not know why (R7.5). The two-of-three bonus reads as the reveal says it
    (R7.3: any two of the three, so three as well)."""
    service, _store = new_service()
    await service.new_table(GROUP, ALICE)
    text = (await service.rules(GROUP, ALICE, "chinese")).text
    assert "a Claim may end it early" not in text
    assert (
        "\nReached the target after the bottom or middle boxes are shown? Claim ends the game "
        "(boxes not yet shown don't count); Continue shows the rest.\n"
    ) in text, text
    assert "+1 for winning 2 or 3 of 3 boxes;" in text
    assert "2+ of 3 boxes (+1 per opponent)" in tr("en", "reveal.two_of_three", points="+1")
    russian = (await service.rules(GROUP, BORIS, "chinese")).text
    assert "«Закончить игру» — конец игры (невскрытые боксы не в счёт)" in russian, russian
    assert "«Продолжить» — вскрытие дальше." in russian
    assert "+1 за 2 или 3 выигранных бокса из 3;" in russian
    assert "2+ бокса из 3 (+1 с каждым соперником)" in tr("ru", "reveal.two_of_three", points="+1")


async def test_r5_4_a_foul_pays_the_live_boards_royalties() -> None:
    """ "...and pays its royalties" read as the fouled board's own (R5.4: the live one's)."""
    service, _store = new_service()
    await service.new_table(GROUP, ALICE)
    text = (await service.rules(GROUP, ALICE)).text
    assert (
        "\nA foul loses every box to each live board (−6) and pays that board's royalties.\n"
        in (text)
    ), text
    russian = (await service.rules(GROUP, BORIS)).text
    assert (
        "\nМёртвая рука проигрывает каждой живой руке все боксы (−6) и платит роялти той руки.\n"
    ) in russian, russian


async def test_r3_3_rules_say_what_the_button_is() -> None:
    """ "Button: Player" on the table message, explained nowhere (R3.3)."""
    service, _store = new_service()
    await service.new_table(GROUP, ALICE)
    for game in ("pineapple", "ofc"):
        text = (await service.rules(GROUP, ALICE, game)).text
        assert (
            "\nThe button acts last on each street and passes to the next seat each hand.\n" in text
        ), text
        russian = (await service.rules(GROUP, BORIS, game)).text
        assert "\nБаттон ходит последним на каждой улице и с каждой раздачей переходит к" in russian


async def test_r5_6_the_top_royalties_are_spelled_out_in_short_lines() -> None:
    """ "top: 66–AA 1–9, 222–AAA 10–22" was terse: each run is named, in lines of 40."""
    service, _store = new_service()
    await service.new_table(GROUP, ALICE)
    text = (await service.rules(GROUP, ALICE)).text
    assert "\ntop: pairs 66–AA pay 1 to 9,\n  trips 222–AAA pay 10 to 22\n" in text, text
    russian = (await service.rules(GROUP, BORIS)).text
    assert "\nверх: пары 66–AA — от 1 до 9,\n  сеты 222–AAA — от 10 до 22\n" in russian, russian
    chinese = (await service.rules(GROUP, ALICE, "chinese")).text
    assert "\ntop: trips 222–KKK pay 2,\n  trips AAA pays 10\n" in chinese, chinese
    russian = (await service.rules(GROUP, BORIS, "chinese")).text
    assert "\nверх: сеты 222–KKK — по 2, сет AAA — 10\n" in russian, russian


async def test_help_introduces_kush_and_splits_the_stats_line() -> None:
    """ "kush" was never introduced; /stats' line crammed /top and /replay (~170 chars)."""
    service, _store = new_service()
    for actor, kush in (
        (ALICE, "Kush — this group's play money (not real money): /balance shows yours."),
        (BORIS, "Куш — игровая валюта этой группы (не настоящие деньги): ваш баланс — /balance."),
    ):
        lines = (await service.help(GROUP, actor)).text.split("\n")
        assert kush in lines, lines
        top = "/top [week|month|all] — " if actor is ALICE else "/top [неделя|месяц|всё] — "
        assert any(x.startswith(top) for x in lines), lines
        assert any(x.startswith("/replay N — ") for x in lines), lines
        assert not any("/stats" in x and "/top" in x for x in lines), lines
    for lang in ("en", "ru"):
        lines = tr(lang, "help.discord").split("\n")
        assert any(x.startswith("/ofc replay number — ") for x in lines)
    # the group's own label (R8.1)
    assert not (await say(service, "kush_label", "coins")).alert
    lines = (await service.help(GROUP, ALICE)).text.split("\n")
    assert lines[-1] == "Coins — this group's play money (not real money): /balance shows yours."


def test_terms_a_new_player_met_are_self_explanatory() -> None:
    """ "⌛ auto", and the Russian /hand labelling the cards to place «Разложить:», the
    Arrange button's word."""
    for lang, said in (
        ("en", "⌛ auto: a player's cards were placed for them (time ran out, or they left)."),
        (
            "ru",
            "⌛ авто: карты игрока разложены автоматически (когда время вышло или после ухода).",
        ),
    ):
        assert tr(lang, "board.timed_out") in said  # /help says what the mark means
        for key in ("help", "help.discord"):
            assert said in tr(lang, key).split("\n"), (lang, key)
    assert tr("ru", "picture.to_place", cards="A♠") == "Выложить: A♠"
    assert "Разложить" in tr("ru", "btn.arrange")


def test_sandbox_slips_are_mended() -> None:
    """ "that message's are 1–15", a lowercase "bye" and tournament refusal."""
    assert tr("en", "sandbox.no_button", first="1", last="15") == (
        "no such button: that message's buttons are 1–15"
    )
    assert (
        tr("en", "sandbox.one_button", only="g1")
        == "no such button: that message's only button is g1"
    )
    for key in ("sandbox.bye", "sandbox.bye_no_table", "sandbox.tournament_bob"):
        for lang in ("en", "ru"):
            said = tr(lang, key, bob=tr(lang, "sandbox.bob"))
            assert said.startswith("» ") and said[2].isupper(), said


async def test_a_russian_group_reads_the_game_saved_in_russian() -> None:
    """`/settings game ананас` answered "игра = pineapple" in a Russian group."""
    service, _store = new_service()
    reply = await say(service, "game", "классика", actor=BORIS)
    assert reply.text.startswith("Сохранено: игра = ofc — Классический OFC (было pineapple)."), (
        reply.text
    )
    reply = await say(service, "game", "ананас", actor=BORIS)
    assert reply.text.startswith("Сохранено: игра = pineapple — Ананас (OFC) (было ofc)."), (
        reply.text
    )
    reply = await say(service, "game", "ofc", actor=ALICE)
    assert reply.text.startswith("Saved: game = ofc (was pineapple)."), reply.text


def _arrange(presenter: FakePresenter, actor: Actor) -> str:
    screen = presenter.last_private(actor.user_id)
    return next(
        b.data for b in screen.all_buttons() if b.data and Payload.decode(b.data).action == "a"
    )


async def test_r3_2_every_street_that_discards_keeps_its_reminder() -> None:
    """Street 5's screen lacked "(the card left over is discarded)" where streets 2–4 had it:
    the reminder counted the discards still to make, so it went once the street was
    arranged (🪄) or its card discarded. It now stays on every street that discards (R3.2)."""
    _store, _clock, service, presenter, t = await stacked_table()
    hand = t.hand
    assert hand is not None
    seen: dict[int, str] = {}
    while t.hand is hand:
        seat = hand.to_act[0]
        if t.seats[seat].user_id == ALICE.user_id:
            street = hand.view(seat).seat(seat).street
            reply = await service.press(ALICE, _arrange(presenter, ALICE))
            assert not reply.alert, reply.text
            screen = presenter.last_private(ALICE.user_id)
            seen[street] = screen.text.split("\n")[1]
            confirm = next(
                b.data
                for b in screen.all_buttons()
                if b.data and Payload.decode(b.data).action == "c"
            )
            reply = await service.press(ALICE, confirm)
            if reply.alert:  # a fouled board asks first (R2.3)
                reply = await service.press(ALICE, confirm)
            assert not reply.alert, reply.text
        else:
            await press_auto_and_confirm(service, presenter, BOB)
    assert sorted(seen) == [1, 2, 3, 4, 5]
    assert "discarded" not in seen[1]
    for street in (2, 3, 4, 5):
        assert (
            "Put each card in a box (the card left over is discarded), then Confirm."
            in (seen[street])
        ), (street, seen[street])


async def test_an_opponents_face_down_cards_are_said_in_words() -> None:
    """ "🂠13" after the opponent's row on a private screen read as a code."""
    service, _store = new_service()
    presenter = service.rt.presenters["telegram"]
    assert isinstance(presenter, FakePresenter)
    assert not (await service.new_table(GROUP, ALICE, "chinese")).alert
    for a in (ALICE, BORIS):
        assert not (await service.join(GROUP, a)).alert
    for a in (ALICE, BORIS):
        assert not (await service.ready(GROUP, a)).alert
    await press_auto_and_confirm(service, presenter, BORIS)  # his 13 set face down (R4.5)
    assert not (await service.press(ALICE, _arrange(presenter, ALICE))).alert
    english = presenter.last_private(ALICE.user_id).text
    # (said as the group says it since fixnu38b: the empty rows read as 13 more cards)
    assert "Boris: 🂠 hidden until showdown: 13 cards" in english, english
    assert "🂠13" not in english
    ru = tr("ru", "board.hidden_count", hidden=tr("ru", "board.hidden"), count=13)
    assert ru == "🂠 закрыто до вскрытия: 13 карт"


async def test_a_plain_start_in_a_group_set_to_another_language_says_so(tmp_path: Path) -> None:
    """``/settings language ru``, ``/quit``, a plain ``python -m bot``: everything came back
    in Russian without a note (one came only with ``--lang``). The start says which language
    and how to switch; a start in the group's own language says nothing."""
    db = tmp_path / "s.sqlite3"
    box = Sandbox(SandboxOptions(db=db, bot_delay=0.0), io.StringIO())
    try:
        await box.start()
        assert await box.handle("/settings language ru")
    finally:
        await box.stop()
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=db, bot_delay=0.0), out)
    try:
        await box.start()
        assert box.lang == "ru"
    finally:
        await box.stop()
    assert out.getvalue().splitlines()[0] == (
        "» Язык этой группы — русский, поэтому бот и песочница говорят по-русски; "
        "переключить: /settings язык авто (или en)"
    )
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=db, bot_delay=0.0, lang="ru"), out)  # (a Russian terminal)
    try:
        await box.start()
    finally:
        await box.stop()
    assert "Язык этой группы" not in out.getvalue()
