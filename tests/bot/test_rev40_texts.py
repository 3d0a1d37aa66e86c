"""rev40: Russian wordings of the change reviewed: /kick of a computer player read «{name} —
компьютерный игрок: убрать — /removebot …» (two dashes, an infinitive left hanging)."""

from __future__ import annotations

from bot.texts import tr


def test_kick_of_a_computer_player_says_how_to_remove_it_in_russian() -> None:
    assert tr("ru", "reply.kick_computer", name="🤖 Борис", bare="Борис") == (
        "🤖 Борис — компьютерный игрок: чтобы убрать, наберите /removebot Борис."
    )
