"""The texts players read (bot/texts.py): both languages for every key with the same
placeholders, Russian numbers agreeing with their nouns (1 куш, 2 куша, 5 кушей), and the
Telegram command menu published in both languages."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from bot.discord.components import discord_commands
from bot.service.settings import SETTINGS
from bot.telegram.adapter import COMMANDS
from bot.texts import DISCORD_DESCRIPTIONS_RU, LANGS, RUSSIAN_READERS, TEXTS, plural, tr
from tests.bot.discord.dc_world import world as dc_world
from tests.bot.tg_world import world

RULE = re.compile(r"\bR\d+\.\d")
CYRILLIC = re.compile("[\u0400-\u04ff]")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_every_text_has_both_languages_with_the_same_placeholders() -> None:
    for key, entry in TEXTS.items():
        assert set(entry) == set(LANGS), key
        assert entry["en"].strip() and entry["ru"].strip(), key
        assert _fields(entry["en"]) == _fields(entry["ru"]), key


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_formats_with_numbers_and_the_default_label(lang: str) -> None:
    """Every template formats (its plural specs included) when each placeholder is a number."""
    for key, entry in TEXTS.items():
        values: dict[str, object] = {f: 21 for f in _fields(entry[lang])}
        if "label" in values:
            values["label"] = "kush"
        text = tr(lang, key, **values)
        literal = "".join(lit for lit, _, _, _ in string.Formatter().parse(entry[lang]))
        for mark in "{}|":  # a spec left unformatted, or plural forms printed as they are
            assert text.count(mark) == literal.count(mark), (key, text)


#: the texts meant to be long: the help and the rules summaries (sent as messages), and the
#: sandbox's help (printed in a terminal)
LONG = ("help", "help.discord", "rules.pineapple", "rules.ofc", "rules.chinese", "sandbox.help")


@pytest.mark.parametrize("lang", LANGS)
def test_every_notice_fits_a_phone_and_a_telegram_answer(lang: str) -> None:
    """A notice is a couple of lines on a phone and fits a Telegram press's answer (200
    characters, bot/telegram/adapter.py MAX_ANSWER) with 4-digit numbers and room to spare
    for names. A Discord wording is measured as Discord shows it (its commands renamed:
    ``/newtable`` → ``/ofc new``)."""
    for key, entry in TEXTS.items():
        if key in LONG:
            continue
        values: dict[str, object] = {f: 1000 for f in _fields(entry[lang])}
        if "label" in values:
            values["label"] = "kush"
        text = tr(lang, key, **values)
        shown = discord_commands(text) if key.endswith(".discord") else text
        assert len(shown) <= 160, key


def test_english_texts_have_no_russian_and_russian_quotes_are_guillemets() -> None:
    for key, entry in TEXTS.items():
        assert not CYRILLIC.search(entry["en"]), key
        assert not re.search('["“”„]', entry["ru"]), key


def _russian_texts() -> list[tuple[str, str]]:
    """Every Russian text a player or an admin reads: the texts, the settings' descriptions
    (``/settings <name>``, Discord's own too) and the Discord command descriptions."""
    described = [(f"{n} ru", s.ru) for n, s in SETTINGS.items()]
    described += [(f"{n} discord_ru", s.discord_ru) for n, s in SETTINGS.items() if s.discord_ru]
    return (
        [(key, entry["ru"]) for key, entry in TEXTS.items()]
        + described
        + [(en, ru) for en, ru in DISCORD_DESCRIPTIONS_RU.items()]
    )


def test_russian_texts_name_computer_players_as_a_russian_table_does() -> None:
    """A Russian text's example of a computer player is the name it has at a Russian table
    (RUSSIAN_BOT_NAMES: «Анна», not "Anna"): Discord's ``/ofc removebot`` name parameter read
    "например Anna" to a Russian server whose players sit with 🤖 Анна."""
    from bot.service.bots import BOT_NAMES, RUSSIAN_BOT_NAMES

    latin = re.compile(r"\b(?:" + "|".join(BOT_NAMES) + r")\b")
    assert [where for where, text in _russian_texts() if latin.search(text)] == []
    remove = "which one, e.g. Anna (default: the last one seated)"
    assert RUSSIAN_BOT_NAMES["Anna"] in DISCORD_DESCRIPTIONS_RU[remove]


def test_russian_discord_help_glosses_every_option_of_the_commands() -> None:
    """Discord shows the slash commands' options by their English names in every locale, so
    the Russian /help's second line glosses each one ("game — игра"): /ofcadmin settings'
    ``value`` was left out, an admin told only what ``name`` is."""
    from typing import cast

    from bot.discord.adapter import OfcAdminCommands, OfcCommands

    groups = (OfcCommands(cast(Any, None)), OfcAdminCommands(cast(Any, None)))  # (no adapter)
    options = {p.name for g in groups for c in g.commands for p in c.parameters}
    assert {"game", "name", "value", "amount"} <= options
    glossed = set(re.findall(r"(\w+) — ", tr("ru", "help.discord").split("\n")[1]))
    assert options - glossed == set()


def test_russian_discord_level_option_names_the_levels_as_its_choices_read() -> None:
    """/ofc addbot's ``level`` choices read «лёгкий», «средний», «сильный» in Discord's
    Russian locale (the translator names them as the seating notice does), so the option's
    Russian description names them so: it said "easy, normal или strong (по умолчанию
    normal)", words no choice showed."""
    from game.policy import Level

    about = DISCORD_DESCRIPTIONS_RU["easy, normal or strong (default normal)"]
    for level in Level:
        assert tr("ru", f"bot.level.{level.value}") in about
        assert not re.search(rf"\b{level.value}\b", about), level


def test_russian_typography_guillemets_dashes_and_ellipses() -> None:
    """Russian typography everywhere a Russian reader looks: «» quotes, a dash (—) between
    spaced words, not a hyphen or an en dash (– stays for ranges: 1–20), … not three dots."""
    wrong = [
        (where, text)
        for where, text in _russian_texts()
        if re.search(r'["“”„]| [-–] |\.\.\.', text)
    ]
    assert wrong == []


def test_no_text_cites_a_rule_number_to_players() -> None:
    """Rule numbers (R8.6 …) are for code and tests; a player reads the rule, not its number
    (one settings answer ended "(R8.6)")."""
    cited = [key for key, entry in TEXTS.items() for t in entry.values() if RULE.search(t)]
    assert cited == []


@pytest.mark.parametrize("platform", ["telegram", "discord"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_settings_help_cites_a_rule_number_to_admins(lang: str, platform: str) -> None:
    """``/settings <name>`` explains a setting to the admin who asked: 23 of them ended
    "(R8.5)" or the like, a number of a rule book players do not have."""
    cited = [
        name
        for name, spec in SETTINGS.items()
        if RULE.search(spec.help_text(lang, "1", platform=platform))
    ]
    assert cited == []


@pytest.mark.parametrize(
    ("n", "form"),
    [
        (1, "куш"), (2, "куша"), (4, "куша"), (5, "кушей"), (11, "кушей"), (12, "кушей"),
        (14, "кушей"), (21, "куш"), (22, "куша"), (25, "кушей"), (111, "кушей"),
        (101, "куш"), (0, "кушей"), (-3, "куша"), ("−1", "куш"), ("+2", "куша"),
        ("1\u00a0000", "кушей"), ("1,5", "куша"), ("2.5", "куша"),
    ],
)  # fmt: skip
def test_plural_russian_forms(n: object, form: str) -> None:
    assert plural(n, "куш", "куша", "кушей") == form


def test_plural_english_forms_and_bad_arity() -> None:
    assert plural(1, "card", "cards") == "card"
    assert [plural(n, "card", "cards") for n in (0, 2, 11, 21, "1.5")] == ["cards"] * 5
    with pytest.raises(ValueError):
        plural(1, "card")


@pytest.mark.parametrize(("amount", "word"), [(1, "куш"), (3, "куша"), (5, "кушей"), (21, "куш")])
def test_russian_kush_amounts_agree_with_their_number(amount: int, word: str) -> None:
    text = tr("ru", "reply.topped_up", amount=amount, label="kush", stack=100)
    assert text == f"Докуплено: +{amount} {word}, стек 100."
    shown = tr("ru", "showdown.kush", delta=-amount, label="kush", stack=7)
    assert shown == f"−{amount} {word} → 7"


def test_russian_kush_genitive_and_alone() -> None:
    """``{n} {label:gen}`` after «до» (до 21 куша, до 5 кушей); a label with no number is
    «кушей» (не хватает кушей)."""
    assert "от 1 до 21 куша (" in tr("ru", "reply.topup_range", room=21, label="kush", max=50)
    assert "от 1 до 5 кушей (" in tr("ru", "reply.topup_range", room=5, label="kush", max=50)
    assert tr("ru", "reply.no_money", label="kush", need=50, have=3).startswith(
        "Недостаточно средств на балансе: взнос 50 кушей, у вас 3."
    )


def test_a_custom_label_is_shown_as_written_in_both_languages() -> None:
    """R8.1: an admin's label (``/settings kush_label``) is never declined."""
    assert tr("ru", "reply.topped_up", amount=5, label="₽", stack=9) == "Докуплено: +5 ₽, стек 9."
    assert "от 1 до 2 ₽ (" in tr("ru", "reply.topup_range", room=2, label="₽", max=9)
    assert tr("en", "reply.topped_up", amount=1, label="kush", stack=9) == (
        "Topped up: +1 kush, stack 9."
    )


def test_seconds_minutes_and_cards_read_as_words() -> None:
    assert "через 1 секунду;" in tr("ru", "lobby.ready_timer", seconds=1)
    assert "через 3 секунды;" in tr("ru", "lobby.ready_timer", seconds=3)
    assert "через 30 секунд;" in tr("ru", "lobby.ready_timer", seconds=30)
    assert "in 1 second;" in tr("en", "lobby.ready_timer", seconds=1)
    assert "5 минут без раздач" in tr("ru", "table.idle_closed", table=1, minutes=5)
    ru = tr("ru", "board.hidden_count", hidden=tr("ru", "board.hidden"), count=2)
    assert ru == "🂠 закрыто до вскрытия: 2 карты"
    en = tr("en", "board.hidden_count", hidden=tr("en", "board.hidden"), count=1)
    assert en == "🂠 hidden until showdown: 1 card"
    assert tr("ru", "showdown.points", points=-1) == "−1 очко"
    assert tr("ru", "showdown.points", points=12) == "+12 очков"


@pytest.mark.parametrize(
    ("total", "said"), [(0, "0 очков"), (1, "1 очко"), (2, "2 очка"), (11, "11 очков"),
                        (21, "21 очко"), (54, "54 очка")]
)  # fmt: skip
def test_a_chinese_poker_total_agrees_with_its_own_number(total: int, said: str) -> None:
    """R7.1: the reveal's "2/51 очко" took the noun's form from the target (51 очко), not from
    the player's points it counts: "2 очка (цель 51)"; English "2 pts (target 51)"."""
    assert (
        tr("ru", "reveal.player", name="Алиса", total=total, target=51)
        == f"Алиса · {said} (цель 51)"
    )
    assert tr("ru", "reveal.player", name="Б", total=2, target=5) == "Б · 2 очка (цель 5)"
    pts = "pt" if total == 1 else "pts"
    assert (
        tr("en", "reveal.player", name="Alice", total=total, target=51)
        == f"Alice · {total} {pts} (target 51)"
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_r7_1_a_chinese_poker_total_past_the_target_reads_right(lang: str) -> None:
    """R7.1: a player may end the game past the target; the reveal's "14 очков из 10" (and
    "14/10 pts") read as "14 points out of 10". The total is given with the target beside
    it, in the text and in the picture alike."""
    said = {"en": "Anna · 14 pts (target 10)", "ru": "Anna · 14 очков (цель 10)"}
    assert tr(lang, "reveal.player", name="Anna", total=14, target=10) == said[lang]
    drawn = {"en": "14 pts (target 10)", "ru": "14 очков (цель 10)"}
    assert tr(lang, "picture.total", total=14, target=10) == drawn[lang]
    assert "из 10" not in said[lang] and "/10" not in said[lang]


def test_r7_3_the_bonus_line_is_true_for_three_boxes_of_three() -> None:
    """R7.3: the bonus is for two or more of the three boxes; "Bonus for winning 2 of 3
    boxes" was printed also when all three were won."""
    assert tr("en", "reveal.two_of_three", points="+1") == ("2+ of 3 boxes (+1 per opponent): +1")
    assert tr("ru", "reveal.two_of_three", points="+1") == (
        "2+ бокса из 3 (+1 с каждым соперником): +1"
    )


def test_one_point_is_one_pt_in_english() -> None:
    """A showdown won or lost by one point read "You: -1 pts · -1 kush" (and /history "+1
    pts"): one point is "pt", the rest "pts"."""
    assert tr("en", "showdown.points", points=-1) == "−1 pt"
    assert tr("en", "showdown.points", points=1) == "+1 pt"
    assert tr("en", "showdown.points", points=0) == "0 pts"
    assert tr("en", "showdown.points", points=-21) == "−21 pts"
    line = tr("en", "reply.history_line", table=1, hand=2, points=1, kush=1, label="kush", foul="")
    assert line == "Table #1, hand 2: +1 pt, +1 kush"


async def test_the_telegram_command_menu_is_published_in_english_and_russian(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        calls = [c for c in w.fake.calls if c.method == "setMyCommands"]
    by_lang = {str(c.params.get("language_code") or ""): c.params["commands"] for c in calls}
    assert set(by_lang) == {"", *RUSSIAN_READERS}
    default, russian = (
        c if isinstance(c, list) else json.loads(c) for c in (by_lang[""], by_lang["ru"])
    )
    assert [c["command"] for c in default] == [c["command"] for c in russian]
    assert [c["command"] for c in default] == [n for n, _, _ in COMMANDS]
    assert all(not CYRILLIC.search(c["description"]) for c in default)
    assert all(CYRILLIC.search(c["description"]) for c in russian)
    assert {"command": "newtable", "description": "открыть стол"} in russian


def _described(command: dict[str, Any]) -> list[dict[str, Any]]:
    """``command`` and every subcommand and parameter under it, as Discord stores them."""
    out = [command]
    for option in command.get("options") or []:
        out.extend(_described(option))
    return out


async def test_discord_slash_commands_are_described_in_russian_for_russian_locales(
    tmp_path: Path,
) -> None:
    """Every command, group and parameter description the bot syncs has its Russian for
    Discord's ``ru`` and ``uk`` locales (≤ 100 characters, Discord's limit), other locales
    none."""
    async with dc_world(tmp_path) as w:
        synced = [d for c in w.fake.commands for d in _described(c)]
    assert len(synced) > 30
    for item in synced:
        localized = item.get("description_localizations") or {}
        assert set(localized) == {"ru", "uk"}, item["description"]
        assert localized["ru"] == DISCORD_DESCRIPTIONS_RU[item["description"]]
        assert localized["uk"] == localized["ru"] and len(localized["ru"]) <= 100
        assert CYRILLIC.search(localized["ru"])
    assert {i["description"] for i in synced} == set(DISCORD_DESCRIPTIONS_RU)


async def test_discord_choices_are_named_in_russian_for_russian_locales(
    tmp_path: Path,
) -> None:
    """The choices of ``/ofc addbot`` (levels), ``/ofc new`` and ``/ofc tournament`` (games)
    and ``/ofc stats`` and ``/ofc top`` (periods) read as the bot's messages name them: the
    seating notice's "🤖 Anna (сильный)", the lobby's "Ананас (OFC)", the statistics' "за 7
    дней" for the ``ru`` and ``uk`` locales, "Pineapple OFC" and "last 7 days" for the rest;
    the value sent stays the service's English word."""
    async with dc_world(tmp_path) as w:
        synced = [d for c in w.fake.commands for d in _described(c)]

    def choices(option: str) -> dict[str, tuple[str, dict[str, str]]]:
        found: dict[str, tuple[str, dict[str, str]]] = {}
        for d in synced:
            if d.get("name") == option:
                for c in d.get("choices") or []:
                    found[c["value"]] = (c["name"], c.get("name_localizations") or {})
        return found

    assert choices("level") == {
        "easy": ("easy", {"ru": "лёгкий", "uk": "лёгкий"}),
        "normal": ("normal", {"ru": "средний", "uk": "средний"}),
        "strong": ("strong", {"ru": "сильный", "uk": "сильный"}),
    }
    assert choices("game") == {
        "pineapple": ("Pineapple OFC", {"ru": "Ананас (OFC)", "uk": "Ананас (OFC)"}),
        "ofc": ("Classic OFC", {"ru": "Классический OFC", "uk": "Классический OFC"}),
        "chinese": ("Chinese Poker", {"ru": "Китайский покер", "uk": "Китайский покер"}),
    }
    assert choices("period") == {
        "week": ("last 7 days", {"ru": "за 7 дней", "uk": "за 7 дней"}),
        "month": ("last 30 days", {"ru": "за 30 дней", "uk": "за 30 дней"}),
        "all": ("all time", {"ru": "за всё время", "uk": "за всё время"}),
    }
    games = sum(1 for d in synced if d.get("name") == "game")
    periods = sum(1 for d in synced if d.get("name") == "period")
    assert games >= 3 and periods >= 2


def test_command_menus_do_not_name_the_kush_label() -> None:
    """R8.1: the kush label is each group's (``kush_label``: "chips", "очки"…), and the command
    menus are the bot's, one for every group (Telegram's per language, Discord's per locale):
    "/balance — your kush" and "/grant — admins: give kush" read wrong in a group that calls
    them chips. No menu description names the unit, in either language (the synced Discord
    descriptions are exactly ``DISCORD_DESCRIPTIONS_RU``'s, checked above); nor does the
    command list of /help, which goes on the same lines."""
    unit = re.compile(r"kush|куш", re.IGNORECASE)
    menus = [text for _, en, ru in COMMANDS for text in (en, ru)]
    menus += [text for pair in DISCORD_DESCRIPTIONS_RU.items() for text in pair]
    assert [text for text in menus if unit.search(text)] == []
    for lang in LANGS:  # nor the command list /help gives, nor /top's usage, in any group
        for key in ("help", "help.discord", "top.usage"):
            assert not unit.search(tr(lang, key)), (lang, key)
    by_name = {name: (en, ru) for name, en, ru in COMMANDS}
    assert by_name["balance"] == ("your balance", "ваш баланс")
    assert by_name["grant"] == ("admins: add to a balance", "админам: пополнить баланс")


#: group messages that spoke of "kush" whatever the table's ``kush_label``, with values
GROUP_TEXTS_WITHOUT_THE_UNIT: dict[str, dict[str, Any]] = {
    "reveal.game_over": {},
    "reveal.game_over_early": {"table": 3, "moves": "Alice +12, Bob -12"},
    "bot.added": {"name": "🤖 Anna", "level": "strong"},
    "showdown.settle_later": {},
    "top.period_title": {"when": "last 7 days"},
    "reply.wallet_in_group": {},
}


@pytest.mark.parametrize("label", ["chips", "фишки", "₽"])
@pytest.mark.parametrize("key", list(GROUP_TEXTS_WITHOUT_THE_UNIT))
def test_group_texts_do_not_say_kush_under_a_custom_label(key: str, label: str) -> None:
    """R8.1: a group whose label is "chips" read "kush are settled", "with house kush",
    "Kush won" and "Kush are kept per group". A custom label is shown as written, never
    declined, so a Russian sentence cannot take it in every case: these texts name no unit
    (the settlement, the house's stake, winnings, balances), in both languages."""
    unit = re.compile(r"kush|куш", re.IGNORECASE)
    for lang in LANGS:
        text = tr(lang, key, label=label, **GROUP_TEXTS_WITHOUT_THE_UNIT[key])
        assert not unit.search(text), (lang, text)
        assert "{" not in text and text.strip(), (lang, text)
    assert tr("en", "top.period_title", when="last 7 days") == "🏆 Winnings · last 7 days"
    assert tr("ru", "bot.added", name="🤖 Anna", level="сильный") == (
        "🤖 Anna садится за стол (уровень: сильный): компьютерный игрок на средства заведения."
    )


def test_russian_texts_ask_with_one_polite_imperative() -> None:
    """Every Russian prompt asks with «Нажмите», never the colloquial «Жмите» (the lobby and
    the tournament lobby once did), and R7.5's claim notice names the target as a goal
    reached, not as the points scored (a player at 4 of 3 read «набрано 3 очка»)."""
    for key, entry in TEXTS.items():
        assert "Жмите" not in entry["ru"], key
    claim = tr("ru", "reveal.claim", names="Вася", target=3)
    assert claim.startswith("🏆 Вася: цель в 3 очка достигнута."), claim
    assert "«Закончить игру»" in claim and "«Продолжить»" in claim
    assert tr("ru", "lobby.empty") == "Пока никого. Нажмите «Сесть»."


#: the words a player's name may follow in a Russian text: a name is never declined
#: («Боб», «🤖 Anna»), so it stands where the nominative reads right: after «игрока» (its
#: genitive apposition: «баланс игрока Боб»), as a subject («может Боб», «… и Боб»)
NAME_MAY_FOLLOW = {"игрока", "может", "и"}


def test_russian_texts_never_decline_a_players_name() -> None:
    """A name placed where Russian declines it read «Админ поднял Боб из-за стола»,
    «Баланс Боб превысил …», «взнос за 🤖 Anna»: such texts start with the name
    («Боб встаёт из-за стола по решению админа») or name it after «игрока»."""
    declined = [
        (key, m.group(0))
        for key, entry in TEXTS.items()
        if key != "reply.setting_refused_named"  # (the name of a setting: a Latin word)
        for m in re.finditer(r"([а-яё]+) \{(?:name|names|who)\}", entry["ru"], re.IGNORECASE)
        if m.group(1).lower() not in NAME_MAY_FOLLOW
    ]
    assert declined == []
    assert tr("ru", "reply.kicked_nothing", name="Боб") == (
        "Боб встаёт из-за стола по решению админа."
    )
    assert tr("ru", "err.grant_unsure", name="Боб") == (
        "Не удалось проверить, сохранена ли выдача: посмотрите баланс игрока Боб, прежде чем "
        "выдавать снова."
    )


def test_tournament_chips_on_a_picture_agree_with_their_amount() -> None:
    """A tournament's showdown picture (R8.7) writes its chips with the agreeing form, from
    ``texts.py`` like every word players read: +1 фишка, −2 фишки, +5 фишек, 11 фишек."""
    from bot.pictures import amount_word

    chips = {lang: tr(lang, "picture.chips") for lang in LANGS}
    forms = [amount_word(chips["ru"], "ru", n) for n in (1, -2, 5, 11, -21, 104)]
    assert forms == ["фишка", "фишки", "фишек", "фишек", "фишка", "фишки"]
    assert [amount_word(chips["en"], "en", n) for n in (1, -1, 2)] == ["chip", "chip", "chips"]
    assert amount_word("kush", "ru", 5) == "кушей"  # the kush label agrees too


def test_a_signed_zero_is_shown_without_its_sign() -> None:
    """A showdown line read "+0 pts" / "+0 очков" (and "+0 kush") for a hand that broke even."""
    assert tr("en", "showdown.points", points=0) == "0 pts"
    assert tr("ru", "showdown.points", points=0) == "0 очков"
    assert tr("en", "showdown.kush", delta=0, label="kush", stack=200) == "0 kush → 200"
    assert tr("ru", "showdown.kush", delta=0, label="kush", stack=200) == "0 кушей → 200"
    line = tr("en", "reply.history_line", table=1, hand=2, points=0, kush=0, label="🍩", foul="")
    assert line == "Table #1, hand 2: 0 pts, 0 🍩"
    # other numbers keep their sign
    assert tr("ru", "showdown.points", points=3) == "+3 очка"
    assert tr("en", "showdown.kush", delta=-5, label="kush", stack=0) == "−5 kush → 0"
    assert tr("en", "stats.total", kush=0, label="kush") == "Net: 0 kush"


def test_a_cancelled_tournaments_chips_agree_with_their_number() -> None:
    """R8.7: a tournament cancelled after a knock-out lists each player still in with their
    chips; English read "Anna (1 chips)" (Russian agreed: "1 фишка")."""
    one = tr("en", "tour.cancel_in", name="Anna", chips=1, prize=70, label="kush")
    assert one == "Anna (1 chip) — 70 kush"
    assert tr("en", "tour.cancel_in", name="Anna", chips=250, prize=70, label="kush") == (
        "Anna (250 chips) — 70 kush"
    )
    assert tr("ru", "tour.cancel_in", name="Аня", chips=1, prize=70, label="kush") == (
        "Аня (1 фишка) — 70 кушей"
    )


def test_r3_2_no_discard_street_and_discard_already_made_read_differently() -> None:
    """A street without discards and one whose discard is made had one text ("No (more)
    discards on this street"): each situation now says what it is, in both languages."""
    from bot.texts import error_text

    assert error_text("en", "discard_not_allowed") == "No discards on this street."
    assert error_text("en", "discard_done").startswith(
        "You have already discarded on this street: "
    )
    assert error_text("ru", "discard_not_allowed") == "На этой улице сбрасывать нельзя."
    assert error_text("ru", "discard_done").startswith("На этой улице сброс уже сделан: ")
    # (and how to discard another card: tests/bot/test_nu53_player_texts.py)
