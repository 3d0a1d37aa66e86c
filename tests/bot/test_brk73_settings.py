"""brk73: break-it on /settings by Russian names (fix40g, fix40k): two settings in one
command, the second named by words typed apart."""

from __future__ import annotations

from tests.bot.test_fix40k import _service
from tests.bot.test_settings import say, stored


async def test_a_second_setting_named_by_words_apart_is_refused_one_at_a_time() -> None:
    """«/settings время на раздачу 60 тайм банк 30»: a name typed apart is a name wherever
    /settings reads one (fix40g), the second too: refused "one at a time", nothing changed
    (it was refused as время_на_раздачу's value, the admin told to type digits, which they
    had); «взнос 100 взнос турнира 5» names взнос_турнира second, not взнос."""
    service = _service()
    assert not (await say(service, "language", "ru")).alert
    before = await stored(service.store)
    reply = await say(service, "время", "на", "раздачу", "60", "тайм", "банк", "30")
    assert reply.alert
    assert reply.text == (
        "По одной настройке за раз: время_на_раздачу 60, затем тайм-банк 30. Ничего не изменено."
    )
    reply = await say(service, "взнос", "100", "время", "на", "раздачу", "60")
    assert reply.text == (
        "По одной настройке за раз: взнос 100, затем время_на_раздачу 60. Ничего не изменено."
    )
    reply = await say(service, "взнос", "100", "взнос", "турнира", "5")
    assert reply.text == (
        "По одной настройке за раз: взнос 100, затем взнос_турнира 5. Ничего не изменено."
    )
    reply = await say(service, "hand_seconds", "60", "time", "bank", "seconds", "30")
    assert reply.text.startswith("По одной настройке за раз: время_на_раздачу 60, затем тайм-банк")
    assert await stored(service.store) == before  # nothing changed
    # a label may hold a setting's words: saved as typed
    assert not (await say(service, "валюта", "тайм", "банк")).alert
    assert (await stored(service.store)).kush_label == "тайм банк"


async def test_the_default_typed_with_a_hyphen_or_underscore_resets_the_setting() -> None:
    """«/settings время_на_раздачу по-умолчанию» (a hyphen many write there) and «…
    по_умолчанию» (its words joined as the names' are) set the default back, as «по
    умолчанию» does: they were refused, "not a number: type digits"."""
    service = _service()
    assert not (await say(service, "language", "ru")).alert
    for word in ("по-умолчанию", "по_умолчанию", "ПО-УМОЛЧАНИЮ"):
        assert not (await say(service, "время_на_раздачу", "60")).alert
        assert (await stored(service.store)).options == {"hand_seconds": 60}
        reply = await say(service, "время_на_раздачу", word)
        assert not reply.alert, reply.text
        assert reply.text.startswith("Снова по умолчанию: время_на_раздачу = 120 (было 60)."), (
            reply.text
        )
        assert (await stored(service.store)).options == {}
