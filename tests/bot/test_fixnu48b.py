"""What a new admin found in the sandbox (nu48), each in English and Russian: Russian texts
beside a player's name in the masculine ("🤖 Анна — готов ✅"), ``/settings hand_seconds 2m``
told to type digits without separators, and ``/closetable`` during a hand saying nothing of
where the stacks go; a saved setting not naming the value it replaced."""

from __future__ import annotations

import re

import pytest

from bot import render
from bot.model import Actor
from bot.service.settings import SETTINGS
from bot.texts import TEXTS, tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock, service_env
from tests.bot.test_bots import new_service as bots_service
from tests.bot.test_service import BOB as S_BOB
from tests.bot.test_service import GROUP as S_GROUP
from tests.bot.test_service_classic import ALICE, BOB, GROUP, configure, start
from tests.bot.test_settings import ALICE as SET_ALICE
from tests.bot.test_settings import BORIS, new_service, say


# -- 1. Russian texts beside a name: no masculine adjective or past tense ---------------------
async def test_a_russian_lobby_and_seating_notice_are_gender_neutral() -> None:
    """A Russian lobby read "1. 🤖 Анна — готов ✅ 200" and the seating notice "🤖 Анна
    (средний) садится за стол": masculine words beside every name, a woman's too. The lobby
    now reads "— ✅ 200" for a ready player and "— ждём «Готов»" for the others; the notice
    names the level as "уровень: средний" (agreeing with «уровень», not with the player)."""
    store, clock = MemoryStore(), Clock()
    service, _ = bots_service(store, clock)
    await service.new_table(S_GROUP, S_BOB)  # Bob reads Russian: a Russian table
    await service.join(S_GROUP, S_BOB)
    reply = await service.add_bot(S_GROUP, S_BOB, True, "")
    assert reply.text == (
        "🤖 Анна садится за стол (уровень: средний): компьютерный игрок на средства заведения."
    )
    t = service.table_in(S_GROUP)
    assert t is not None
    lines = render.lobby_screen(t, "ru", None, clock.now).text.splitlines()
    seats = [line for line in lines if line.startswith(("1. ", "2. "))]
    assert seats == ["1. Bob — ждём «Готов»", "2. 🤖 Анна — ✅ 200"], lines
    english = render.lobby_screen(t, "en", None, clock.now).text.splitlines()
    assert "2. 🤖 Анна — ready ✅ 200" in english, english
    assert tr("ru", "tour.cancel_out", name="Анна", place=3, prize=5, label="куш") == (
        "Анна (вне игры, 3-е место) — 5 кушей"
    )


def test_no_russian_text_puts_a_gendered_state_word_beside_a_name() -> None:
    """The words that agree with a player's gender ("готов", "вышел", "сел", "ушёл",
    "выбыл", "отошёл", "(средний)") appear in no Russian text that names a player
    (``{name}``/``{names}``); «Вы готовы» and the like (the reader, plural) are fine."""
    words = ("готов ", "готов.", "готов,", "вышел", " сел ", "ушёл", "выбыл ", "выбыл(", "отошёл")
    for key, entry in TEXTS.items():
        ru = entry.get("ru", "")
        if "{name}" not in ru and "{names}" not in ru:
            continue
        assert not any(w in ru for w in words), (key, ru)
        assert "{name} ({level})" not in ru, (key, ru)
    assert tr("ru", "lobby.ready", stack=200) == "✅ 200"
    assert tr("ru", "lobby.not_ready") == "ждём «Готов»"


#: The third-person pronouns that give a gender, whole words («им», «ним», «их» and «они»
#: are the plural's too, and «нём» is only ever a thing here).
GENDERED_PRONOUN = re.compile(
    r"(?<![а-яё])(он|она|его|её|ему|ей|него|неё|нему|ней)(?![а-яё])", re.I
)
#: A verb in the past tense, masculine or feminine (the neuter «-ло» and the plural «-ли» give
#: no gender): «сделал», «поставил», «вышел», «ушёл», «закрылся», «ушла», «смог»…
PAST_VERB = re.compile(
    r"(?<![а-яё])([а-яё]*(?:[аеиоуыя]л|ёл|[аеиоуыяё]лся|[аеиоуыя]ла|шла|[аеиоуыяё]лась|мог))"
    r"(?![а-яё])",
    re.I,
)
#: Words with those endings that are no verbs.
NOT_VERBS = frozenset(
    {"стол", "стола", "канал", "канала", "пробел", "правила", "сначала", "роял", "символа"}
)
#: «кто», «никто», «кто-то» take the masculine whoever they are («тот, кто играл», «никто не
#: сел», «кто-то выбыл»): a verb up to three words after them names no one.
WHO_BEFORE = re.compile(r"(?<![а-яё])(?:ни)?кто(?:-то)?,?(?:\s+[а-яё]+){0,3}\s+$", re.I)
#: A Russian text speaks of a person in the third person when it names one (a player's
#: ``{name}``/``{names}``, the sandbox's ``{bob}``/``{old}``, a departure's ``{who}``) or has a
#: word for one (игрок, участник, соперник, победитель, открывший, админ).
ABOUT_A_PERSON = re.compile(
    r"\{(?:name|names|bob|old|who)[}:]|игрок|участник|соперник|победител|открывш|админ", re.I
)
#: The texts about a person whose gendered words are about something else: the key, the words
#: allowed there and why. Nothing else may give a gender to anyone.
ALLOWED: dict[str, tuple[frozenset[str], str]] = {
    # a thing of the feminine or masculine gender, not a person
    "lobby.fl_forfeited": (frozenset({"ушла"}), "«Фантазия ушла вместе с местом»"),
    "lobby.topup_not_needed": (frozenset({"прошла"}), "«докупка … не прошла»"),
    "lobby.topup_above": (frozenset({"прошла"}), "«докупка … не прошла»"),
    "lobby.topup_failed": (frozenset({"прошла"}), "«докупка … не прошла»"),
    "reply.grant_balance_bound": (frozenset({"превысил"}), "«баланс игрока … превысил бы»"),
    "reply.grant_over_partial": (frozenset({"превысил"}), "«баланс игрока … превысил»"),
    "err.grant_over_unsure": (frozenset({"превысил"}), "«баланс игрока … превысил»"),
    "private.kicked_stood_up": (frozenset({"закончилась"}), "«раздача … закончилась»"),
    "private.kicked_stood_up_nothing": (frozenset({"закончилась"}), "«раздача … закончилась»"),
    "replay.not_yours": (frozenset({"её"}), "«только её игрокам» — раздачи"),
    "usage.leave": (frozenset({"неё"}), "«во время раздачи — после неё»"),
    "help": (frozenset({"неё"}), "«после неё» — раздачи"),
    "help.discord": (frozenset({"неё"}), "«после неё» — раздачи"),
    "reply.table_exists": (frozenset({"его"}), "«админ закрывает его» — стол"),
    "tour.exists": (frozenset({"он", "его"}), "«когда он закончится», «отменяет его» — турнир"),
    "reply.table_exists.discord": (frozenset({"его"}), "«админ закрывает его» — стол"),
    "tour.exists.discord": (
        frozenset({"он", "его"}),
        "«когда он закончится», «отменяет его» — турнир",
    ),
    "tour.start_who": (frozenset({"его"}), "«тот, кто его открыл» — турнир"),
    "sandbox.bob_button_gone": (frozenset({"была", "её"}), "«это была кнопка», «её больше нет»"),
    "setting utc_offset": (frozenset({"нему"}), "«по нему начинается новый день» — пояс"),
    "setting utc_offset (Discord)": (frozenset({"нему"}), "«по нему …» — часовой пояс"),
    "setting dummy_box": (frozenset({"он"}), "«очков он не получает» — болван, доска"),
    # ``{name}`` here is no person: a file of the sandbox's
    "sandbox.db_not_bots": (frozenset({"она"}), "«{name} — база бота, она не используется»"),
}


def _gendered_words(ru: str) -> set[str]:
    """The pronouns (:data:`GENDERED_PRONOUN`) and past-tense verbs (:data:`PAST_VERB`, not
    after «кто») that give a gender in the Russian text ``ru``, lower-cased."""
    words = {m.group(1).lower() for m in GENDERED_PRONOUN.finditer(ru)}
    for m in PAST_VERB.finditer(ru):
        word = m.group(1).lower()
        if word not in NOT_VERBS and not WHO_BEFORE.search(ru[: m.start()]):
            words.add(word)
    return words


def test_no_russian_text_gives_a_person_spoken_of_a_gender() -> None:
    """Russian texts about a player said "he" and used the masculine past: «{name}: админ
    поднял игрока из-за стола — он встанет после этой раздачи (его карты…)», «его рука
    мёртвая», «его уберёт /removebot», «уйти может только он сам», «последний соперник ушёл»,
    «его закрыл админ». No Russian text that speaks of a person (a name or a word for one)
    has a gendered pronoun (он, она, его, её, ему, ей, него, неё, нему, ней) or a past-tense
    verb in the masculine or feminine, but the ones :data:`ALLOWED` says are about a thing;
    nor does what a setting is (/settings hand_seconds: «идёт только в его ход»)."""
    russian = {key: entry.get("ru", "") for key, entry in TEXTS.items()}
    # and what each setting is (/settings <name>): «время игрока …, идёт только в его ход»
    for setting in SETTINGS.values():
        russian[f"setting {setting.name}"] = setting.ru
        russian[f"setting {setting.name} (Discord)"] = setting.discord_ru
    assert "setting hand_seconds" in russian
    found = {}
    for key, ru in russian.items():
        if not ABOUT_A_PERSON.search(ru):
            continue
        words = _gendered_words(ru) - ALLOWED.get(key, (frozenset(), ""))[0]
        if words:
            found[key] = (sorted(words), ru)
    assert found == {}, "\n".join(f"{k}: {w} — {ru}" for k, (w, ru) in found.items())
    # each allowed word is still there (the allow-list does not outlive its texts)
    for key, (allowed, _why) in ALLOWED.items():
        assert allowed <= _gendered_words(russian[key]), key
    # the checks themselves
    assert _gendered_words("{name} встанет после этой раздачи.") == set()
    assert _gendered_words("{name}: он встанет, его карты") == {"он", "его"}
    assert _gendered_words("{name} сделал ход, {name} вышла") == {"сделал", "вышла"}
    assert _gendered_words("никто не сел; тот, кто здесь ещё не играл") == set()
    assert _gendered_words("за столом, сначала правила") == set()


# -- 2. a time typed with its unit -------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "typed", "en", "ru"),
    [
        (
            "hand_seconds",
            "2m",
            "“2m” is 120 seconds: type 120.",
            "«2m» — это 120 секунд: наберите 120.",
        ),
        (
            "hand_seconds",
            "1,5 мин",
            "“1,5 мин” is 90 seconds: type 90.",
            "«1,5 мин» — это 90 секунд: наберите 90.",
        ),
        (
            "ready_seconds",
            "1 min",
            "“1 min” is 60 seconds: type 60.",
            "«1 min» — это 60 секунд: наберите 60.",
        ),
        (
            "hand_seconds",
            "2ч",
            "“2ч” is 7200 seconds.",
            "«2ч» — это 7200 секунд.",
        ),
        (
            "level_minutes",
            "90s",
            "“90s” is 1.5 minutes: type 1.5.",
            "«90s» — это 1,5 минуты: наберите 1,5.",
        ),
        (
            "utc_offset",
            "+3h",
            "“+3h” is 3 hours: type 3.",
            "«+3h» — это 3 часа: наберите 3.",
        ),
    ],
)
async def test_a_time_typed_with_its_unit_is_told_the_number_in_the_settings_unit(
    name: str, typed: str, en: str, ru: str
) -> None:
    """``/settings hand_seconds 2m`` was told "type the number with the digits 0–9 only,
    without spaces or separators (1000, not 1 000 or 1_000)", beside the point. A number
    with a unit (s, m, min, h, с, мин, ч…) on a setting of seconds, minutes or hours is told
    what it is in the setting's unit and to type that (beyond the range, only what it is);
    nothing is saved."""
    service, _store = new_service()
    for actor, said in ((SET_ALICE, en), (BORIS, ru)):
        reply = await say(service, name, typed, actor=actor)
        assert reply.alert and reply.text.splitlines()[1:] == [said], reply.text
    # an amount of kush is no time: still told how to type a number
    reply = await say(service, "min_buy_in", "2m")
    assert reply.text.endswith("(5000, 5,000 or 5 000; not 5_000)."), reply.text


# -- 3. /closetable during a hand says where the stacks go ----------------------------------
@pytest.mark.parametrize("game", ["pineapple", "chinese"])
async def test_closetable_during_a_hand_says_the_stacks_go_back_to_balances(game: str) -> None:
    """/closetable mid-hand answered "Table #1 closes at the end of this hand; …", with no
    word of the stacks; it now says they go back to balances (both cash games; in Russian
    too). A tournament's already says where its pool goes."""
    service, _presenter, _store, _clock = service_env()
    await configure(service, game=game)
    await start(service, [ALICE, BOB], game)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    reply = await service.close_table(GROUP, Actor("telegram", "1", "Alice", "ru"), True)
    fantasyland = "; заработанная в ней Фантазия не будет сыграна" if game == "pineapple" else ""
    comma = "," if fantasyland else ";"
    assert reply.text == (
        f"Стол #1 закроется в конце этой раздачи{comma} стеки вернутся на балансы{fantasyland}."
    )
    assert render.closes_after_hand(t, "en").startswith(
        "Table #1 closes at the end of this hand" + ("," if fantasyland else ";")
        + " stacks go back to balances"
    )  # fmt: skip
    assert "взносы вернутся" in tr("ru", "tour.cancels_after_hand", table=1)


# -- 4. a saved setting names the value it replaced ------------------------------------------
async def test_a_saved_setting_says_what_it_was() -> None:
    """``/settings min_buy_in 500`` answered "Saved: min_buy_in = 500." with no word of the
    value it replaced (to undo it the admin had to remember it): the answer adds "(was
    200)", «(было 200)» in Russian; a label's note stays after it, and "Already so" has none."""
    service, _store = new_service()
    reply = await say(service, "min_buy_in", "500")
    assert reply.text.splitlines()[0] == "Saved: min_buy_in = 500 (was 200).", reply.text
    reply = await say(service, "min_buy_in", "300", actor=BORIS)
    assert reply.text.splitlines()[0] == "Сохранено: взнос = 300 (было 500).", reply.text
    reply = await say(service, "min_buy_in", "300")
    assert reply.text.splitlines()[0] == "Already so: min_buy_in = 300.", reply.text
    reply = await say(service, "game", "ofc", actor=BORIS)
    assert reply.text.splitlines()[0] == (
        "Сохранено: игра = ofc — Классический OFC (было pineapple)."
    ), reply.text
    reply = await say(service, "kush_label", "монеты")
    assert reply.text.splitlines()[0] == (
        'Saved: kush_label = монеты (was kush) (readers of English see "kush").'
    ), reply.text
    reply = await say(service, "kush_label", "жетоны", actor=BORIS)
    assert reply.text.splitlines()[0] == "Сохранено: валюта = жетоны (было монеты).", reply
