"""Russian polish (fix40i): a kick told in private said «Админ поднимает вас из-за стола…»
(the present tense for a thing done, and "admin" as the one acting); the Chinese Poker leave
and kick texts said «игра до 51 очка закончится ею» (stilted); Russian settings answers named
the setting in English although a Russian admin types and reads its Russian name."""

from __future__ import annotations

from bot.texts import TEXTS, tr


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
