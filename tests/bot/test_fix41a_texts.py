"""Player texts left in one language or worded two ways (fix41a): a tournament setting saved
by an older version that opens no tournament was told in the core's English to a Russian group
(R8.7); Discord's Russian /help opened with a title of some 200 characters that named every
option in both languages; an unknown setting name of several words was quoted by its first word
alone; a player's time running out read «по таймауту» beside «время вышло» everywhere else
(and "as on timeout" beside "time ran out"); and the permissions the texts name are the names
the Russian clients show."""

from __future__ import annotations

import dataclasses
import re

from bot.service import TableService
from bot.texts import TEXTS, tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service
from tests.bot.test_service import ALICE, GROUP

#: English words of the core's refusals (game.tournament.TournamentConfig)
_CORE_ENGLISH = re.compile(r"must|may not|got \[|at least|whole number")


async def _group(lang: str) -> tuple[TableService, MemoryStore]:
    store = MemoryStore()
    service, _presenter = new_service(store, Clock())
    reply = await service.settings(GROUP, ALICE, True, ["language", lang])
    assert not reply.alert, reply.text
    return service, store


async def _save(store: MemoryStore, **changes: object) -> None:
    """Tournament settings as an older version saved them (no /settings writes these)."""
    community = await store.community(GROUP.platform, GROUP.community_id)
    await store.update_settings(community.id, dataclasses.replace(community.settings, **changes))


async def test_r8_7_saved_payouts_that_open_no_tournament_are_told_in_the_group_language() -> None:
    """A Russian group whose saved payouts add up to 110 changed ``level_minutes`` and read
    "level_minutes: payouts must add up to 100 %, got [50, 60]"; /tournament answered it too,
    as "Нельзя установить — payouts must …". Both are Russian now, naming the setting at fault,
    and nothing is changed; an English group reads the same in English."""
    service, store = await _group("ru")
    await _save(store, payouts="50,60")
    reply = await service.settings(GROUP, ALICE, True, ["level_minutes", "10"])
    assert reply.alert
    assert reply.text == (
        "Не удалось изменить длина_уровня: одна из сохранённых настроек турнира неверна — "
        "призы: проценты должны давать в сумме 100, а эти дают 110."
    ), reply.text
    community = await store.community(GROUP.platform, GROUP.community_id)
    assert community.settings.level_minutes == 5 and community.settings.payouts == "50,60"
    reply = await service.new_tournament(GROUP, ALICE)
    assert reply.alert and service.table_in(GROUP) is None
    assert reply.text == (
        "Турнир не открыт — призы: проценты должны давать в сумме 100, а эти дают 110."
    ), reply.text
    # the payouts themselves, set back to the default, are taken
    reply = await service.settings(GROUP, ALICE, True, ["payouts", "по", "умолчанию"])
    assert not reply.alert, reply.text

    service, store = await _group("en")
    await _save(store, chips_schedule="20,10")
    reply = await service.settings(GROUP, ALICE, True, ["tournament_chips", "2000"])
    assert reply.alert and reply.text.endswith(
        "tournament_chips: a saved tournament setting is wrong — chips_schedule: chips per "
        "point cannot fall from one level to the next."
    ), reply.text
    assert not _CORE_ENGLISH.search(reply.text), reply.text


async def test_r8_7_a_saved_number_that_opens_no_tournament_names_it_and_how_to_reset() -> None:
    """A level of 0 minutes (saved before levels had a least length) is no list: the answer
    names the setting, its saved value and how to set it back, in the group's language."""
    service, store = await _group("ru")
    await _save(store, level_minutes=0)
    reply = await service.settings(GROUP, ALICE, True, ["tournament_chips", "2000"])
    assert reply.alert
    saved = tr("ru", "settings.tournament_saved", name="длина_уровня", value="0")
    assert saved == (
        "длина_уровня: сохранённое значение 0 не подходит для турнира: задайте новое или "
        "верните по умолчанию (/settings длина_уровня по умолчанию)"
    )
    assert reply.text.endswith(saved + "."), reply.text
    assert not _CORE_ENGLISH.search(reply.text), reply.text
    reply = await service.new_tournament(GROUP, ALICE)
    assert reply.alert and reply.text == f"Турнир не открыт — {saved}.", reply.text
    assert not (await service.settings(GROUP, ALICE, True, ["level_minutes", "default"])).alert
    assert not (await service.new_tournament(GROUP, ALICE)).alert


def test_russian_discord_help_has_a_short_russian_title() -> None:
    """Discord's Russian /help opened with «Команды бота OFC. Параметры команд Discord
    называет по-английски: game — игра, level — уровень, …» as one line: its title is now
    Telegram's, «Команды бота OFC:», the options said in Russian on the line under it."""
    discord = tr("ru", "help.discord").split("\n")
    telegram = tr("ru", "help").split("\n")
    assert discord[0] == telegram[0] == "Команды бота OFC:"
    assert discord[1].startswith("Discord показывает параметры команд по-английски: game — игра")
    assert tr("en", "help.discord").split("\n")[0] == tr("en", "help").split("\n")[0]


async def test_an_unknown_setting_of_several_words_is_quoted_as_typed() -> None:
    """``/settings время раздачи 60`` answered «Настройки «время» нет»: the name quoted is
    every word before the value (a number, a reset word, or a last word that is some setting's
    value: a language, on/off), spaces trimmed, in lower case
    as the name is read, cut at 40 characters; in either language."""
    service, _store = await _group("ru")
    cases = {
        ("время", "раздачи", "60"): "«время раздачи»",
        ("  цена ", "за", "фишку", "5"): "«цена за фишку»",
        ("время", "раздачи", "по", "умолчанию"): "«время раздачи»",
        ("Foo", "BAR", "baz"): "«foo bar baz»",  # (read in lower case, quoted so)
        ("x" * 80, "1"): "«" + "x" * 39 + "…»",
        # a last word some setting takes as its value (a language, on/off) is no word of it
        ("языкк", "en"): "«языкк»",
        ("быстрый", "режим", "вкл"): "«быстрый режим»",
    }
    for args, quoted in cases.items():
        reply = await service.settings(GROUP, ALICE, True, list(args))
        assert reply.alert and reply.text.startswith(f"Настройки {quoted} нет."), (args, reply)
    service, _store = await _group("en")
    reply = await service.settings(GROUP, ALICE, True, ["time", "per", "hand", "60"])
    assert reply.alert and reply.text.startswith("“time per hand” is not a setting."), reply.text


def test_a_players_time_running_out_is_worded_one_way() -> None:
    """«по таймауту» (/help's ⌛ line, a kick during a hand) beside «время вышло» in every
    other Russian text, and "as on timeout" beside "time ran out": one wording, the plain one."""
    for key, entry in TEXTS.items():
        assert not re.search(r"тайм-?аут", entry["ru"], re.I), key
        assert not re.search(r"timeout|timed out", entry["en"], re.I), key
    for key in ("help", "help.discord"):
        assert tr("ru", key).split("\n")[-1] == (
            "⌛ авто: карты игрока разложены автоматически (когда время вышло или после ухода)."
        )
    assert tr("ru", "reply.kicked_after_hand", name="Боб") == (
        "Боб встанет из-за стола по решению админа после этой раздачи (карты разложатся "
        "автоматически, как если бы время вышло), стек вернётся на баланс."
    )
    assert "(their cards are placed for them as if their time ran out)" in tr(
        "en", "reply.kicked_after_hand", name="Bob"
    )
    assert tr("ru", "err.timed_out") == "⌛ Поздно: время вышло, ход сделан за вас."


#: the permissions as the clients name them, English and Russian: Discord's (server and
#: channel permissions) and Telegram's (a group admin's rights)
CLIENT_NAMES = {
    "View Channels": "Просматривать каналы",
    "Manage Channels": "Управлять каналами",
    "Manage Server": "Управлять сервером",
    "Send Messages": "Отправлять сообщения",
    "Send Messages in Threads": "Отправлять сообщения в ветках",
    "Embed Links": "Встраивать ссылки",
    "Attach Files": "Прикреплять файлы",
    "Read Message History": "Читать историю сообщений",
    "Use Application Commands": "Использовать команды приложения",
    "Delete Messages": "Удаление сообщений",
    "Pin Messages": "Закрепление сообщений",
    "Manage Topics": "Управление темами",
}


def test_the_permissions_the_texts_name_are_the_clients_names() -> None:
    """Every permission a Russian text names («право «…»», «права «…» и «…»») is the name the
    Russian client shows, and each one an English text names is named so in its Russian."""
    quoted = re.compile(r"прав\w*\W+((?:«[^»]+»(?:\s*(?:,|и)\s*)?)+)")
    russian = set(CLIENT_NAMES.values())
    named = 0
    for key, entry in TEXTS.items():
        for group in quoted.findall(entry["ru"]):
            for name in re.findall(r"«([^»]+)»", group):
                assert name in russian, (key, name)
                named += 1
        for english, ru in CLIENT_NAMES.items():
            # (the longest name that fits: "Send Messages in Threads", not "Send Messages")
            longer = [e for e in CLIENT_NAMES if e != english and english in e]
            text = entry["en"]
            for e in longer:
                text = text.replace(e, "")
            if re.search(rf"\b{english}\b", text):
                assert f"«{ru}»" in entry["ru"], (key, english, entry["ru"])
    assert named >= 9, named  # (Manage Server ×6, View Channels, Send Messages, in Threads)
