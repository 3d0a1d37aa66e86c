"""A native editor's pass over the Russian texts (ru44): ordinal places written as ordinals
(«3-е место», «на 3-м месте»), numbers agreeing with the nouns after them whatever the
number (1, 2, 5, 11, 21, 22, 25, 111), and no gendered word where a player is addressed."""

from __future__ import annotations

import re

import pytest

from bot.texts import DISCORD_DESCRIPTIONS_RU, TEXTS, tr


def test_a_place_in_a_tournament_is_written_as_an_ordinal() -> None:
    """«За ваше 3 место», «на 3 месте», «(вне игры, 3 место)» read a cardinal where Russian
    writes an ordinal with its ending, as ``tour.place_to_winner`` does («за 3-е место»)."""
    bare = [key for key, entry in TEXTS.items() if re.search(r"\{place\} мест", entry["ru"])]
    assert bare == []
    assert tr("ru", "private.pool_paid_none", place=3) == (
        "За ваше 3-е место из его фонда вам ничего не причитается."
    )
    assert tr("ru", "private.chat_gone_final_none", table=2, place=4).endswith(
        "Вы выбыли на 4-м месте без приза."
    )
    assert tr("ru", "tour.cancel_out", name="Анна", place=2, prize=5, label="kush") == (
        "Анна (вне игры, 2-е место) — 5 кушей"
    )


#: a word that agrees with the gender of the player it is said of («быть готовым», «сел»)
GENDERED = re.compile(
    r"\b(?:готов(?:ым|ой|а)?|выиграл|проиграл|сел|села|ушёл|ушла|вышел|вышла)\b", re.I
)


def test_no_russian_command_description_is_gendered() -> None:
    """The command menus (Telegram's ``COMMANDS``, Discord's descriptions) address every
    player: /ready read «внести взнос и быть готовым», a masculine form to a woman too. The
    button's name in quotes («Готов») is a label, not said of the reader."""
    from bot.telegram.adapter import COMMANDS

    described = [ru for _, _, ru in COMMANDS] + list(DISCORD_DESCRIPTIONS_RU.values())
    gendered = [d for d in described if GENDERED.search(re.sub(r"«[^»]*»", "", d))]
    assert gendered == []


@pytest.mark.parametrize(
    ("n", "form"),
    [(1, "символа"), (2, "символов"), (5, "символов"), (11, "символов"), (12, "символов"),
     (21, "символа"), (22, "символов"), (25, "символов"), (111, "символов")],
)  # fmt: skip
def test_a_length_in_characters_agrees_with_its_number(n: int, form: str) -> None:
    """«до 12 символов» was written for any bound: «до 21 символов», «не длиннее 21 знаков»
    where Russian reads «до 21 символа» (the genitive after «до», «не больше», «не длиннее»)."""
    text = tr("ru", "settings.range.text", name="валюта", low="1", high=str(n))
    assert f"до {n} {form} (" in text
    listed = tr("ru", "settings.range.list", name="призы", example="70,30", high=str(n))
    assert listed.endswith(f"всего не больше {n} {form}")
    named = tr("ru", "sandbox.bob_name_usage", most=n)
    assert f"(не длиннее {n} {form.replace('символ', 'знак')})" in named


#: what a phone shows of a button that shares its row with another (a setting's "−" and
#: "+"): the English labels' longest, «Стартовый баланс −500», "Tournament chips −500"
HALF_ROW = 21


async def test_russian_settings_step_buttons_fit_half_a_phone_row() -> None:
    """A setting's "−" button shares its row with "+": «Пополнение тайм-банка −15» (25) and
    «Закрытие без игры −300» (22) were cut on a phone, their step hidden, where English
    reads "Time bank refill −15", "Idle close −300"."""
    from tests.bot.test_settings import BORIS, new_service, say

    service, _store = new_service()
    long: list[str] = []
    for game in ("pineapple", "ofc", "chinese"):
        assert not (await say(service, "game", game, actor=BORIS)).alert
        screen = (await say(service, "all", actor=BORIS)).screen
        assert screen is not None
        halves = [b.label for row in screen.buttons if len(row) == 2 for b in row]
        assert "Пополнение банка −15" in halves
        long += [label for label in halves if len(label) > HALF_ROW]
    assert long == []


def test_the_russian_game_names_are_the_ones_help_names() -> None:
    """/help and the guide name the classic game «классический» (``/newtable классический``);
    the list of games a wrong or missing name is answered with said «ofc (классика)»."""
    newtable = next(line for line in tr("ru", "help").splitlines() if "ананас |" in line)
    words = re.findall(r"\(([а-яё]+)\)", tr("ru", "games.names"))
    assert words == ["ананас", "классический", "китайский"]
    assert all(word in newtable for word in words)


async def test_a_setting_of_two_games_names_both_games_in_russian() -> None:
    """A rule option of Pineapple and Classic OFC saved in a Chinese Poker group read
    «(действует в игре «Ананас (OFC), Классический OFC»; …)»: two games in one pair of quotes,
    after «в игре»; one game still reads «в игре «Классический OFC»», English as it was."""
    from bot.service.settings import in_games
    from tests.bot.test_settings import ALICE, BORIS, new_service, say

    service, _store = new_service()
    assert not (await say(service, "game", "chinese", actor=BORIS)).alert
    saved = (await say(service, "fantasyland", "выкл", actor=BORIS)).text
    assert "(действует в играх «Ананас (OFC)» и «Классический OFC»; игра группы — «Китайский" in (
        saved
    )
    dummy = (await say(service, "dummy_box", "вкл", actor=BORIS)).text
    assert "(действует в игре «Классический OFC»; " in dummy
    english = (await say(service, "fantasyland", "on", actor=ALICE)).text
    assert "(it applies to Pineapple OFC, Classic OFC; this group's game is " in english
    assert in_games(["pineapple", "ofc", "chinese"], "ru") == (
        "играх «Ананас (OFC)», «Классический OFC» и «Китайский покер»"
    )


def test_russian_choices_are_listed_by_the_words_russian_readers_type() -> None:
    """``/settings язык`` said «auto — у каждого игрока свой … одно из значений auto, en, ru»
    where every other Russian text (the list, the guide, the sandbox) says «авто», and
    ``/settings игра`` listed «pineapple, ofc, chinese» without «ананас», «классический»,
    «китайский», which /help names; English reads as it did."""
    from bot.service.settings import SETTINGS

    language, game = SETTINGS["language"], SETTINGS["game"]
    assert language.range_text("ru") == "язык: одно из значений авто, en, ru"
    assert "авто — у каждого игрока свой" in language.help_text("ru", "авто")
    assert game.range_text("ru") == (
        "игра: одно из значений pineapple (ананас), ofc (классический), chinese (китайский)"
    )
    assert language.range_text("en") == "language is one of: auto, en, ru"
    assert game.range_text("en") == "game is one of: pineapple, ofc, chinese"


#: (n, kush, points, seconds after «через», players after «при», hands as a duration)
FORMS = [
    (1, "куш", "очко", "секунду", "игроке", "раздачу"),
    (2, "куша", "очка", "секунды", "игроках", "раздачи"),
    (5, "кушей", "очков", "секунд", "игроках", "раздач"),
    (11, "кушей", "очков", "секунд", "игроках", "раздач"),
    (21, "куш", "очко", "секунду", "игроке", "раздачу"),
    (22, "куша", "очка", "секунды", "игроках", "раздачи"),
    (25, "кушей", "очков", "секунд", "игроках", "раздач"),
    (111, "кушей", "очков", "секунд", "игроках", "раздач"),
]


@pytest.mark.parametrize(("n", "kush", "points", "seconds", "players", "hands"), FORMS)
def test_russian_nouns_agree_with_their_numbers_in_real_texts(
    n: int, kush: str, points: str, seconds: str, players: str, hands: str
) -> None:
    """The catalogue's own templates (not :func:`plural` alone) with the numbers a native
    reader checks: 1, 2, 5, 11, 21, 22, 25, 111."""
    assert tr("ru", "reply.daily", amount=n, label="kush", balance=7).startswith(
        f"Ежедневный бонус: +{n} {kush}."
    )
    assert tr("ru", "showdown.points", points=n) == f"+{n} {points}"
    assert tr("ru", "showdown.points", points=-n) == f"−{n} {points}"
    assert tr("ru", "lobby.next_hand", seconds=n) == f"Следующая раздача через {n} {seconds}…"
    note = tr("ru", "tour.place_to_winner", n=n, percent=30, place=n + 1)
    assert note == f"(при {n} {players} 30% за {n + 1}-е место — победителю)"
    assert tr("ru", "tour.abandoned", table=3, hands=n) == (
        f"Турнир #3 остановлен: никто не играл {n} {hands} подряд."
    )
