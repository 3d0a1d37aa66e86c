"""What a Russian-speaking player met in the sandbox (nu53): a setting's internal name in a
player's Leave question, "put the cards" for a street of one card, a refused second discard
that did not say how to change it, and a leaderboard that did not say what it ranks."""

from __future__ import annotations

import re

from bot.model import Actor
from bot.presses import Arrange, ConfirmMove, DiscardCard, PlaceCard, encode
from bot.service.settings import SETTINGS
from bot.texts import TEXTS, error_text, tr
from game.actions import Place
from game.board import Box
from tests.bot import test_service as svc
from tests.bot.conftest import service_env
from tests.bot.test_fast_taps import _actor, _version
from tests.bot.test_service import GROUP as TAPS_GROUP
from tests.bot.test_service import dealt_at
from tests.bot.test_service_classic import ALICE, GROUP, auto_street, start

#: a setting's name as an argument of /settings ("/settings min_buy_in"), which an admin types
_AS_COMMAND = re.compile(r"/settings\s+$")


def test_a_player_text_names_a_setting_only_as_an_argument_of_settings() -> None:
    """A Leave during the hand with ``safe_autoplay`` on asked "Встать во время раздачи?
    Оставшиеся карты будут разложены автоматически (safe_autoplay)": a setting's name,
    English and unexplained, in a player's Russian question. Outside the settings' own texts
    (``settings.*``, which admins read), a setting's name appears only as what to type after
    ``/settings``."""
    found = []
    for key, texts in TEXTS.items():
        if key.startswith("settings."):
            continue
        for lang, text in texts.items():
            plain = re.sub(r"\{[^{}]*\}", "", text)
            for name in SETTINGS:
                if "_" not in name:  # (game, language, …: ordinary words)
                    continue
                for m in re.finditer(re.escape(name), plain):
                    if not _AS_COMMAND.search(plain[: m.start()]):
                        found.append((key, lang, name))
    assert found == []


def test_r8_5_the_safe_leave_texts_say_who_places_the_cards() -> None:
    """The three Leave texts of ``safe_autoplay`` (R8.5) say in words that the bot places the
    cards by its strategy, and never that the hand may foul."""
    for key in (
        "reply.leave_after_hand_safe",
        "reply.leave_confirm_safe",
        "reply.leave_confirm_typed_safe",
    ):
        assert "разложит за вас по своей стратегии" in tr("ru", key), key
        assert "places your remaining cards for you with its strategy" in tr("en", key), key
        assert "мёртв" not in tr("ru", key) and "foul" not in tr("en", key)


async def test_r4_1_a_street_of_one_card_says_put_the_card(env) -> None:  # type: ignore[no-untyped-def]
    """Classic OFC's streets 2-9 deal one card (R4.1); the private screen said «Разложите карты
    по боксам» ("put each card in a box") for it. Street 1's five cards keep that line; a
    street of one says «Положите карту в бокс» in Russian, "Put the card in a box" in English."""
    service, presenter, _store, _clock = env
    boris = Actor("telegram", "4", "Борис", "ru")
    players = {a.user_id: a for a in (ALICE, boris)}
    await start(service, [ALICE, boris], "ofc")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    time = "⏱ "
    seen: dict[str, list[str]] = {"en": [], "ru": []}
    for _ in range(4):  # street 1 of both, then street 2 of both
        player = t.player_of(t.hand.to_act[0])
        assert player is not None
        actor = players[player.user_id]
        screen = presenter.last_private(actor.user_id).text
        move = next(line for line in screen.splitlines() if time in line and "·" in line)
        seen[actor.language or "en"].append(move.split(". ", 1)[1])
        await auto_street(service, presenter, actor)
    assert seen["ru"] == [
        "Разложите карты по боксам и нажмите «Подтвердить».",
        "Положите карту в бокс и нажмите «Подтвердить».",
    ]
    assert seen["en"] == [
        "Put each card in a box, then Confirm.",
        "Put the card in a box, then Confirm.",
    ]


async def test_r3_2_a_second_discard_says_how_to_discard_another_card() -> None:
    """Street 2 (R3.2: one of three cards discarded): a second ✖ Discard was refused with
    «На этой улице сброс уже сделан.» only. It now says to put the discarded card in a box
    first, and doing so frees the discard for another card."""
    service, _presenter, _store, _clock = service_env()
    t = await dealt_at(service, TAPS_GROUP, (svc.ALICE, svc.BOB))
    hand = t.hand
    assert hand is not None
    while hand.street_of(hand.to_act[0]) == 1:  # both play street 1 with "Arrange for me"
        board = hand.to_act[0]
        actor = _actor(t, board)
        assert not (
            await service.press(actor, encode(Arrange(t.id, _version(service, board))))
        ).alert
        confirm = encode(ConfirmMove(t.id, _version(service, board)))
        assert not (await service.press(actor, confirm)).alert
    board = hand.to_act[0]
    actor = _actor(t, board)
    cards = hand.current_cards(board)
    assert len(cards) == 3 and hand.street_of(board) == 2
    assert not (
        await service.press(actor, encode(DiscardCard(t.id, _version(service, board), cards[0])))
    ).alert
    reply = await service.press(
        actor, encode(DiscardCard(t.id, _version(service, board), cards[1]))
    )
    assert reply.alert and reply.text == error_text("en", "discard_done")
    assert reply.text == (
        "You have already discarded on this street: to discard another card, first put the "
        "discarded one in a box."
    )
    assert error_text("ru", "discard_done") == (
        "На этой улице сброс уже сделан: чтобы сбросить другую карту, сначала положите "
        "сброшенную в бокс."
    )
    free = next(b for b in Box if hand.can(Place(board, cards[0], b)))
    place = encode(PlaceCard(t.id, _version(service, board), cards[0], free))
    assert not (await service.press(actor, place)).alert
    assert not (
        await service.press(actor, encode(DiscardCard(t.id, _version(service, board), cards[1])))
    ).alert
    assert dict(hand.pending(board)) == {cards[0]: free, cards[1]: None}
