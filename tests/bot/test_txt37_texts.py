"""What a native Russian reader found in the bot's texts: jargon on a button («🏆 Доезд»),
two buttons a letter apart («Готов» and «Готово»), a clumsy /stats line, an unclear foul
rule, "/topup абв" told about separators, an English heading of the sandbox's /stats, a long
/top usage, "старшая карта дама", «Подпись куша», two words for one timeout, and
"/settings банк" with no suggestion."""

from __future__ import annotations

import io
from pathlib import Path

from bot.model import Actor
from bot.sandbox import GROUP_ID, Sandbox, SandboxOptions
from bot.service import stats as stats_mod
from bot.service.settings import close_settings, unknown_setting_text
from bot.texts import TEXTS, tr
from game.cards import parse_cards
from game.evaluator import evaluate
from game.names import hand_name
from storage.api import HandStats
from tests.bot.test_service import GROUP
from tests.bot.test_settings import BORIS, new_service, say
from tests.bot.test_tournament_service import new_service as table_service

RU = Actor("telegram", "9", "Вера", "ru")


def test_r7_5_the_claim_button_says_what_it_does_and_every_text_names_it_so() -> None:
    """«🏆 Доезд» is jargon a new player does not know: the button ends the game (R7.5), and
    the notices, the rules and the sandbox name it as it reads."""
    assert tr("ru", "btn.claim") == "🏆 Закончить игру"
    assert [key for key, entry in TEXTS.items() if "Доезд" in entry.get("ru", "")] == []
    claim = tr("ru", "reveal.claim", names="Вася", target=3)
    assert claim == (
        "🏆 Вася: цель в 3 очка достигнута. «Закончить игру» — конец игры сейчас, "
        "«Продолжить» — вскрывать дальше."
    )
    # (fixnu39: players say «забирает», not «заканчивает»)
    assert tr("ru", "reveal.claimed", name="Вася") == "🏆 Вася забирает игру."
    assert tr("ru", "reply.claimed") == "Вы забрали игру."
    assert tr("ru", "err.not_claimant") == (
        "Закончить игру может только тот, кто набрал нужные очки."
    )
    assert "«🏆 Закончить игру» / «▶ Продолжить»" in tr("ru", "sandbox.revealing")


def test_confirm_is_no_letter_away_from_ready() -> None:
    """«Готов» (the lobby's Ready) and «Готово» (the hand's Confirm) differed by one letter:
    Confirm reads «Подтвердить», and every text that names it says so."""
    assert tr("ru", "btn.confirm") == "✅ Подтвердить"
    assert tr("ru", "btn.ready") == "Готов"
    assert [key for key, entry in TEXTS.items() if "«Готово»" in entry.get("ru", "")] == []
    assert tr("ru", "err.confirm_fouled") == (
        "⚠ Рука мёртвая. Нажмите «Подтвердить» ещё раз, чтобы сыграть так."
    )
    assert tr("ru", "private.your_turn", time="30 с", discard="").endswith(
        "Разложите карты по боксам и нажмите «Подтвердить»."
    )


def test_r6_the_fantasyland_line_of_stats_reads_plainly() -> None:
    """«Фантазия: попадание 6% · удержание 0% из 1 раздачи в ней»: the share of hands that
    entered it (R6.1) and how many Fantasyland hands earned it again (R6.4), as counts. The
    English said "entered 6%" (6% of what?), the Russian "в 6% раздач": both say of hands."""
    s = HandStats(hands=17, players=1, boards=17, fl_chances=16, fl_entered=1, fl_played=1)
    assert stats_mod._stats_lines(s, "ru", "kush", group=False)[-1] == (
        "Фантазия: попадание в 6% раздач · повтор 0 из 1"
    )
    assert stats_mod._stats_lines(s, "en", "kush", group=False)[-1] == (
        "Fantasyland: entered in 6% of hands · stayed 0 of 1 time"
    )
    # no hand that could enter it: no "в — раздач"
    assert stats_mod._stats_lines(HandStats(), "ru", "kush", group=False)[-1] == (
        "Фантазия: попадание —"
    )


async def test_topup_of_a_word_is_told_it_is_no_number() -> None:
    """ "/topup абв" was told to write digits "without spaces or separators": it has none.
    A word is told it is no number; "1 00" is still told how to write it; nothing moves."""
    service, _presenter, _store, _clock = table_service(0.0)
    alice = Actor("telegram", "1", "Alice", "ru")
    await service.new_table(GROUP, alice)
    await service.join(GROUP, alice)
    await service.ready(GROUP, alice)
    t = service.table_in(GROUP)
    assert t is not None
    stack = t.seats[0].stack
    reply = await service.top_up(GROUP, alice, "абв")
    assert reply.alert
    assert reply.text.splitlines()[0] == "Это не число: напишите его цифрами.", reply.text
    reply = await service.top_up(GROUP, alice, "1 00")  # ("1 000" is a thousand, fix39g)
    assert reply.text.splitlines()[0] == tr("ru", "reply.number_grouped"), reply.text
    assert "тысячи можно отделить пробелом" in tr("ru", "reply.number_grouped")
    assert t.seats[0].stack == stack


async def test_a_whole_number_setting_given_a_word_is_told_it_is_no_number() -> None:
    service, _store = new_service()
    reply = await say(service, "min_buy_in", "много", actor=BORIS)
    assert reply.alert and reply.text.endswith("\nЭто не число: напишите его цифрами."), reply.text


def test_r5_4_the_foul_rule_says_whose_royalties_are_paid() -> None:
    assert tr("ru", "rules.foul") == (
        "Мёртвая рука проигрывает каждой живой руке все боксы (−6) и платит роялти той руки."
    )


async def test_the_sandbox_group_is_named_in_the_sandboxs_language(tmp_path: Path) -> None:
    """/stats heads the group's figures with the group's title: under ``--lang ru`` the
    sandbox's group read «📊 Sandbox · за всё время»; it is «Песочница», and follows the
    group's language when an admin sets it."""
    db = tmp_path / "s.sqlite3"
    box = Sandbox(SandboxOptions(db=db, bot_delay=0.0, lang="ru"), io.StringIO())
    try:
        await box.start()
        assert await box.handle("/balance")
        assert box.store is not None
        community = await box.store.community("telegram", str(GROUP_ID))
        assert community.title == "Песочница"
        assert await box.handle("/settings language en")
        assert await box.handle("/balance")
        community = await box.store.community("telegram", str(GROUP_ID))
        assert community.title == "Sandbox"
    finally:
        await box.stop()


def test_the_top_usage_is_short() -> None:
    assert tr("ru", "top.usage") == (
        "Формат: /top (по балансу со стеками за столами) или /top неделя | месяц | всё "
        "(по выигрышу)"
    )


def test_r1_3_a_high_card_is_named_as_one_phrase() -> None:
    assert hand_name(evaluate(parse_cards("Qs 5h 2d")), "ru") == "старшая дама"


def test_the_kush_label_setting_is_named_as_a_currency() -> None:
    assert tr("ru", "settings.name.kush_label") == "Название валюты"
    assert close_settings("валюты") == ["kush_label"]


def test_r8_5_a_timeout_says_sitting_out_in_one_way() -> None:
    """«Со следующей раздачи вы не играете» in one notice, «вы пропускаете игру» in the next,
    for the same timeout (R8.5)."""
    now = tr("ru", "private.timed_out_now")
    after = tr("ru", "private.sitting_out")
    assert "не играете" not in now
    for text in (now, after):
        assert "со следующей раздачи вы пропускаете игру" in text.lower(), text
        assert text.endswith("/back — вернуться в игру."), text


def test_a_russian_word_of_a_settings_name_is_suggested_like_an_english_one() -> None:
    """ "/settings bank" suggested time_bank_seconds, "/settings банк" (of «Тайм-банк») only
    said there is no such setting."""
    assert close_settings("bank")[0] == "time_bank_seconds"
    assert close_settings("банк") == ["time_bank_seconds"]
    assert close_settings("тайм-банк") == ["time_bank_seconds"]
    assert close_settings("стек") == ["max_buy_in"]
    assert unknown_setting_text("банк", "банк", "ru").splitlines()[0] == (
        "Настройки «банк» нет. Может быть, тайм-банк?"
    )
    assert close_settings("xyz") == []
