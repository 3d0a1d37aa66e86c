"""A new user's findings (fixnu47b): Chinese Poker's two-of-three bonus (R7.3) worded one short
way in the reveal's text and the showdown picture, both languages; the Russian ``/hand``
caption names the cards to place as the English does."""

from __future__ import annotations

import dataclasses

from bot import pictures, render
from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.test_lead_notes import _chinese_picture
from tests.bot.test_service_classic import ALICE, BOB, GROUP, chinese_hand_arranged, start

SHORT = {
    "en": "2+ of 3 boxes (+1 per opponent): ",
    "ru": "2+ бокса из 3 (+1 с каждым соперником): ",
}


async def test_r7_3_the_reveal_and_the_picture_word_the_bonus_one_short_way() -> None:
    """R7.3: the reveal said "Bottom and middle: +1 for 2 of 3 boxes" under the middle and
    "Bonus for winning 2 or 3 of 3 boxes (per opponent): ⚙ Anna +1, Player +2" at the top and
    under the picture: one bonus, two wordings, one too long for a phone. It is said one way,
    "2+ of 3 boxes (+1 per opponent): +1", in the text (under the middle) and the picture, in
    both languages; a player's "+2" there is two opponents beaten (one point each)."""
    service, _presenter, _store, clock, t = await chinese_hand_arranged("3")
    clock.now += 3
    await service.run_due()  # the middle: Alice won bottom and middle against Bob
    for lang in ("en", "ru"):
        lines = render.reveal_screen(t, lang).text.splitlines()
        said = [x for x in lines if x.startswith("  " + SHORT[lang])]
        assert said == ["  " + SHORT[lang] + "+1"], lines
        assert lines[lines.index(said[0]) - 1].startswith("  " + tr(lang, "btn.middle"))
        pic = dataclasses.replace(_chinese_picture("en", 2), lang=lang)
        assert pictures.notes_of(pic)[-1] == SHORT[lang] + "Anna +2"
        assert len(SHORT[lang] + "⚙ Anna +1, Player +2") <= 60  # a phone's line
    await service.stop()


async def test_the_russian_hand_caption_says_to_place_as_the_english_does() -> None:
    """``/hand`` in Russian captioned the cards still to place «Ваши карты: Q♦ 4♦», where the
    English says "To place:" (it read as the player's whole hand). It says «Выложить:», the
    rules' word for placing (R3), not the «🪄 Разложить» button's (arrange for me)."""
    service, _presenter, _store, _clock = service_env()
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    seat = t.player_of(t.hand.to_act[0])
    assert seat is not None
    picture = pictures.hand_picture(t, seat)
    assert picture is not None
    [note] = picture.notes
    assert note.startswith("To place: ") and len(note.split()) == 2 + 5, note
    faces = note.removeprefix("To place: ")
    ru = pictures.hand_picture(t, dataclasses.replace(seat, lang="ru"))
    assert ru is not None and ru.notes == ("Выложить: " + faces,)
    assert "Выложить" not in tr("ru", "btn.arrange")
    await service.stop()
