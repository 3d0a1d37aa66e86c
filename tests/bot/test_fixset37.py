"""fixset37: brk56's admin settings input (``/settings``), through the service as both
platforms' adapters call it."""

from __future__ import annotations

from bot.texts import tr
from tests.bot.test_settings import BORIS, new_service, say, stored


async def test_settings_all_with_a_value_lists_every_setting() -> None:
    """``/settings all 5`` (Discord ``name:all value:5``) was answered "“all” is not a
    setting", though the usage says ``/settings all`` lists them: it lists every setting,
    the extra words ignored, and changes nothing."""
    service, store = new_service()
    before = await stored(store)
    listed = await say(service, "all")
    assert listed.screen is not None
    for args in (("all", "5"), ("ALL", "hand_seconds", "60"), ("все", "5")):
        reply = await say(service, *args)
        assert not reply.alert, reply.text
        assert reply.screen is not None, reply.text
        assert reply.screen.text == listed.screen.text
        assert tr("en", "reply.settings_unknown", name="all") not in reply.text
    reply = await say(service, "all", "5", actor=BORIS)
    assert reply.screen is not None and "hand_seconds" in reply.screen.text
    assert await stored(store) == before
