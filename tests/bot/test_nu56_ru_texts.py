"""What a Russian-speaking newcomer found writing docs/playing.ru.md (nu56): the admin's answer
to a /kick during a hand said of the named player «он встанет» («his cards», «his hand»), the
tournament lobby and /help called the opener «открывший» and /help's ⌛ line «разложены за
него … он ушёл»: masculine words about a player who may be a woman. And «/leave пишется без
слов» read oddly: a command's words are its parameters."""

from __future__ import annotations

import io
import re
from pathlib import Path

from bot.sandbox import Sandbox, SandboxOptions
from bot.texts import TEXTS, tr


def test_the_admin_s_answer_to_a_kick_during_a_hand_names_no_gender() -> None:
    """«он встанет» of the kicked player: the name is the subject instead. (Every Russian
    text naming a player is checked for a gendered pronoun or verb, with one allow-list, in
    tests/bot/test_fixnu48b.py.)"""
    assert tr("ru", "reply.kicked_when_hand_ends", name="Анна") == (
        "Анна встанет из-за стола по решению админа, когда закончится эта раздача; стек "
        "вернётся на баланс."
    )


def test_no_russian_text_calls_the_opener_or_a_player_in_the_masculine() -> None:
    """«открывший» (who opened it) and «за него … он ушёл» in /help and the tournament
    lobby: «тот, кто открыл» and a sentence without the player's gender instead."""
    masculine = re.compile(r"открывший|за него|он ушёл|он уйдёт")
    assert [k for k, e in TEXTS.items() if masculine.search(e["ru"])] == []
    assert tr("ru", "tour.hint") == (
        "Начнётся, когда места заполнятся или когда тот, кто открыл турнир, или админ нажмёт "
        "«Старт» (от двух игроков)."
    )
    for key in ("help", "help.discord"):
        lines = tr("ru", key).split("\n")
        assert lines[-1] == (
            "⌛ авто: карты игрока разложены автоматически (когда время вышло или после ухода)."
        )


def test_a_command_without_parameters_says_so_in_russian() -> None:
    for name in ("join", "ready", "leave", "sitout", "balance", "hand"):
        text = tr("ru", f"usage.{name}")
        assert text.startswith(f"/{name} пишется без параметров"), text


async def test_the_sandbox_calls_bob_in_the_groups_language(tmp_path: Path) -> None:
    """A group set to Russian by an earlier ``--lang ru`` start, started again without the
    flag: the sandbox speaks Russian, and its help called the second member "Bob" (his name
    in the flag's language) where the first start said «Боб»."""
    db = tmp_path / "s.sqlite3"
    for given in ({"lang"}, set()):
        out = io.StringIO()
        lang = "ru" if given else "en"
        opts = SandboxOptions(db=db, bots=0, bot_delay=0.0, lang=lang, given=frozenset(given))
        box = Sandbox(opts, out)
        try:
            await box.start()
            assert box.lang == "ru"
            assert box.bob.first_name == "Боб", out.getvalue()
            assert "b … — ходы второго участника, Боб (" in out.getvalue()
        finally:
            await box.stop()


def test_the_russian_sandbox_suggests_bobs_lines_in_russian() -> None:
    """The Russian hints about Bob mixed «b g участвовать» and «b имя X» with «b g join,
    затем b g ready» and «b manual»: the sandbox takes «b g сесть», «b g готов» and
    «b вручную» too, so the Russian hints say those."""
    bob = {k: e["ru"] for k, e in TEXTS.items() if k.startswith("sandbox.bob")}
    assert [k for k, ru in bob.items() if re.search(r"b manual|b g join|b g ready", ru)] == []
    assert "(за стол: b g сесть, затем b g готов)" in bob["sandbox.bob_nothing"]
    assert "(b вручную — ходы вводите вы)" in bob["sandbox.bob_auto"]


def test_russian_stats_answers_name_the_periods_russian_first() -> None:
    """/stats's usage and «нет периода» say «неделя (week)»; its answer to an unknown name
    said «week (неделя)», the English word first."""
    for key in ("stats.unknown_or_period", "stats.no_period"):
        assert "неделя (week), месяц (month) или всё (all)" in tr("ru", key, period="год"), key
