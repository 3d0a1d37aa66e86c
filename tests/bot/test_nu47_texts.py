"""Texts a new user met in the sandbox (nu47's run): Russian phrases that read unnaturally,
said now as the English says them."""

from __future__ import annotations

from bot.texts import tr


def test_russian_arrange_late_away_and_fantasyland_sit_out_read_naturally() -> None:
    """«Расклад не успел» (a placement cannot "be in time"), «ваши улицы расставляются …
    Поставьте карту» (streets are not "set up", a card is laid, not stood) and «Сначала
    играется раздача Фантазии, заработанная в этой, с вами» (the words out of order) read
    as translated word for word; each says what its English says (R8.5, R8.6, R6)."""
    assert tr("en", "err.arrange_late") == (
        "No placement came in time: place the cards yourself, or press again."
    )
    assert tr("ru", "err.arrange_late") == (
        "Расклад не пришёл вовремя: разложите карты сами или нажмите ещё раз."
    )
    assert tr("ru", "private.away", seconds="10") == (
        "💤 Вы не на месте: карты каждой улицы раскладываются за вас через 10 с. "
        "Положите карту, чтобы вернуться."
    )
    assert tr("ru", "private.sitting_out_after_match") == (
        "⌛ Время вышло, ходы сделаны за вас. Раздачу Фантазии, заработанную в этой, вы ещё "
        "играете; затем пропускаете игру (/back — вернуться)."
    )
    assert tr("en", "private.sitting_out_after_match") == (
        "⌛ Time ran out and your moves were made for you. The Fantasyland hand this one earned "
        "is played first, with you; then you sit out (/back to play again)."
    )
