"""Russian polish (fix40i): a kick told in private said «Админ поднимает вас из-за стола…»
(the present tense for a thing done, and "admin" as the one acting); the Chinese Poker leave
and kick texts said «игра до 51 очка закончится ею» (stilted); Russian settings answers named
the setting in English although a Russian admin types and reads its Russian name."""

from __future__ import annotations

import re

from bot.service.settings import SETTINGS, setting_word
from bot.texts import TEXTS, tr
from tests.bot.test_fix40g import ALICE, _say, _service


def test_no_russian_text_says_the_admin_lifts_you_or_the_game_ends_with_it() -> None:
    """No Russian text keeps «Админ поднимает вас» or «закончится ею»."""
    stilted = [
        key
        for key, entry in TEXTS.items()
        if "Админ поднимает" in entry.get("ru", "") or "закончится ею" in entry.get("ru", "")
    ]
    assert stilted == []


def test_the_kicked_player_reads_what_happened_by_the_admins_decision() -> None:
    """Each private kick notice, and the refused Join of a kicked player, in its tense."""
    assert tr("ru", "private.kicked", table=7, amount=50, label="куш") == (
        "По решению админа вы встали из-за стола #7; возвращено на баланс: 50 кушей."
    )
    assert tr("ru", "private.kicked_nothing", table=7) == (
        "По решению админа вы встали из-за стола #7."
    )
    assert tr("ru", "private.kicked_later", table=7) == (
        "По решению админа вы встанете из-за стола #7, когда закончится эта раздача; тогда же "
        "стек вернётся на баланс."
    )
    assert tr("ru", "private.kicked_later_chinese", table=7, target=51) == (
        "По решению админа вы встанете из-за стола #7, когда закончится игра до 51 очка с "
        "расчётом для всех; тогда же стек вернётся на баланс."
    )
    assert tr("ru", "reply.join_kicked") == (
        "По решению админа вы встаёте из-за стола: сесть снова можно после этой раздачи."
    )
    assert tr("ru", "reply.join_kicked_chinese", target=51) == (
        "По решению админа вы встаёте из-за стола: сесть снова можно, когда закончится игра "
        "до 51 очка."
    )


def test_a_dead_hand_ends_the_game_to_the_target_in_plain_russian() -> None:
    """The Chinese Poker texts where a leaving player's hand ends the game to the target."""
    assert tr("ru", "notice.left_group_dead_chinese", name="Анна", target=51) == (
        "👋 Анна покидает группу: рука мёртвая, и этой раздачей закончится игра до 51 очка с "
        "расчётом для всех."
    )
    assert tr("ru", "reply.kicked_after_hand_chinese", name="Анна", target=51) == (
        "Анна встанет из-за стола по решению админа после этой раздачи: рука мёртвая, и на "
        "этом закончится игра до 51 очка с расчётом для всех; стек вернётся."
    )
    assert tr("ru", "reply.leave_after_hand_chinese", target=51) == (
        "Вы встанете после этой раздачи. Ваша рука мёртвая, а игра до 51 очка закончится "
        "этой раздачей с расчётом для всех; тогда же вернётся стек."
    )
    assert tr("ru", "reply.leave_after_hand_done_chinese", target=21) == (
        "Вы встанете после этой раздачи; ваша рука уже разложена. Этой раздачей закончится "
        "игра до 21 очка с расчётом для всех, тогда же вернётся стек."
    )


# -- 3. a Russian settings answer names the setting by its Russian name -----------------------


def test_a_setting_s_name_in_a_language_comes_from_one_helper() -> None:
    assert setting_word("hand_seconds", "ru") == "время_на_раздачу"
    assert setting_word(SETTINGS["hand_seconds"], "en") == "hand_seconds"
    for spec in SETTINGS.values():
        assert setting_word(spec.name, "ru") == spec.ru_name
        assert setting_word(spec, "en") == spec.name
        assert spec.range_text("ru").startswith(f"{spec.ru_name}: "), spec.range_text("ru")
        assert spec.range_text("en").startswith(spec.name), spec.range_text("en")


def test_no_russian_settings_text_names_a_setting_in_english() -> None:
    """The refusals worded once (a buy-in order, a point above the buy-in, the payouts)
    named the settings in English in Russian too; the placeholders aside (``{game}``)."""
    english = [
        (key, spec.name)
        for key, entry in TEXTS.items()
        if key.startswith("settings.")
        for spec in SETTINGS.values()
        if re.search(rf"(?<![\w{{]){spec.name}(?![\w}}])", entry.get("ru", ""))
    ]
    assert english == []


async def test_a_russian_change_reset_and_refusal_name_the_setting_in_russian() -> None:
    service = _service()
    saved = await _say(service, "hand_seconds", "90")  # (typed in English: answered in Russian)
    assert saved.text.startswith("Сохранено: время_на_раздачу = 90 (было 120)."), saved.text
    back = await _say(service, "время_на_раздачу", "по", "умолчанию")
    assert back.text.startswith("Снова по умолчанию: время_на_раздачу = 120 (было 90)."), back.text
    again = await _say(service, "время_на_раздачу", "по", "умолчанию")
    assert again.text.startswith("Уже по умолчанию: время_на_раздачу"), again.text
    refused = await _say(service, "куш_за_очко", "0")
    assert refused.text == (
        "Не удалось изменить куш_за_очко: целое число от 1 до 1\u00a0000\u00a0000 кушей."
    )
    game = await _say(service, "игра", "ofc")
    assert game.text.startswith("Сохранено: игра = ofc — Классический OFC (было pineapple)."), (
        game.text
    )
    order = await _say(service, "макс_стек", "100")
    assert (
        order.text.startswith(
            "Не удалось изменить макс_стек: 100 не может быть меньше, чем взнос (200)"
        )
        or "макс_стек (100) не может быть меньше, чем взнос (200)" in order.text
    ), order.text
    two = await _say(service, "min_buy_in", "100", "max_buy_in", "500")
    assert two.text == (
        "По одной настройке за раз: взнос 100, затем макс_стек 500. Ничего не изменено."
    )
    # an English reader is answered with the English names
    saved = await _say(service, "время_на_раздачу", "60", actor=ALICE)
    assert saved.text.startswith("Saved: hand_seconds = 60 (was 120)."), saved.text
    two = await _say(service, "взнос", "100", "призы", "70,30", actor=ALICE)
    assert two.text.startswith("One setting at a time: min_buy_in 100, then payouts 70,30."), (
        two.text
    )
