"""What a Russian-speaking admin found running the sandbox with docs/playing.ru.md (nu58): the
guide teaches the settings' Russian names (``/settings взнос 500``), but the bot's Russian hints
named them in English: a short balance said «меньшем взносе (/settings min_buy_in)», the
sandbox's language notes «/settings language auto» and «язык группы — auto» (the settings list
says «авто»). A hint in Russian names the setting as the Russian list does."""

from __future__ import annotations

import re

from bot.service.settings import SETTINGS
from bot.texts import TEXTS, tr

#: ``/settings <English name>`` in a text
ENGLISH_NAME = re.compile(
    r"/settings (" + "|".join(sorted(SETTINGS, key=len, reverse=True)) + r")(?![\w-])"
)
#: the refusals of a settings change, which fix40i converts to the Russian names apart
SETTINGS_ANSWERS = {"settings.conflict_option"}


def test_no_russian_text_names_a_setting_in_english() -> None:
    english = [
        (key, found.group(0))
        for key, entry in TEXTS.items()
        if key not in SETTINGS_ANSWERS
        for found in ENGLISH_NAME.finditer(entry["ru"])
    ]
    assert english == []


def test_the_short_balance_hint_names_the_buy_in_in_russian() -> None:
    assert tr("ru", "reply.no_money_hint") == (
        "Возьмите бонус /daily или попросите админа о /grant либо о меньшем взносе "
        "(/settings взнос)."
    )
    assert tr("ru", "reply.no_money_hint_no_daily") == (
        "Попросите админа о /grant либо о меньшем взносе (/settings взнос)."
    )
    # (the English twin keeps the English name)
    assert tr("en", "reply.no_money_hint_no_daily").endswith("(/settings min_buy_in).")


def test_the_sandboxs_language_notes_in_russian_say_язык_and_авто() -> None:
    assert tr("ru", "sandbox.group_lang_resumed", flag="en") == (
        "» Язык этой группы — русский, поэтому бот и песочница говорят по-русски; "
        "переключить: /settings язык авто (или en)"
    )
    assert tr("ru", "sandbox.table_lang_kept", flag="en") == (
        "» Этот стол говорит по-русски, а язык группы — авто, поэтому вы играете по-русски; "
        "переключить: --lang en или /settings язык en"
    )
    assert tr("ru", "sandbox.lang_switched", flag="ru").endswith("как это делает /settings язык ru")
