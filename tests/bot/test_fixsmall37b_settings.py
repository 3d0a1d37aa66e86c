"""``/settings <name>`` for a setting with a value stored says how to drop it (``/settings
<name> default``): it named the value and its default, not the way back (fixsmall37b)."""

from __future__ import annotations

from bot.service.settings import resets, updated
from storage.api import CommunitySettings
from tests.bot.test_settings import new_service, say, stored


async def test_the_help_of_a_stored_setting_says_how_to_give_its_default_back() -> None:
    service, _ = new_service()
    await say(service, "language", "en")  # (the group exists, in English)
    reply = await say(service, "scoring")
    assert reply.text is not None and "default gives it back" not in reply.text  # (none stored)
    await say(service, "scoring", "two_per_row")
    reply = await say(service, "scoring")
    assert reply.text is not None
    assert reply.text.endswith("\n/settings scoring default gives it back its default."), reply.text
    await say(service, "kush_label", "coins")  # a setting of the whole group too
    reply = await say(service, "kush_label")
    assert reply.text is not None
    assert reply.text.endswith("\n/settings kush_label default gives it back its default.")
    await say(service, "language", "ru")
    reply = await say(service, "scoring")
    assert reply.text is not None
    assert reply.text.endswith(
        "\n/settings подсчёт_очков по умолчанию — вернуть значение по умолчанию."
    ), reply.text
    await say(service, "scoring", "default")  # dropped: no line
    reply = await say(service, "scoring")
    assert reply.text is not None and "/settings подсчёт_очков по умолчанию" not in reply.text
    reply = await say(service, "hand_seconds")  # never stored
    assert reply.text is not None and "по умолчанию —" not in reply.text


async def test_umolchaniyu_and_defaults_give_a_setting_its_default_back() -> None:
    """``/settings scoring умолчанию`` (the second word of «по умолчанию» alone) and
    ``defaults`` were refused as no choice of scoring's; they drop the stored value as
    ``default`` does."""
    for word in ("умолчанию", "defaults", "Умолчанию", "DEFAULTS"):
        service, store = new_service()
        await say(service, "scoring", "two_per_row")
        assert "scoring" in (await stored(store)).options
        reply = await say(service, "scoring", word)
        assert not reply.alert, (word, reply.text)
        assert "scoring" not in (await stored(store)).options, word
        assert resets(word)
    s = CommunitySettings(options={"hand_seconds": 60})
    assert updated(s, "hand_seconds", "умолчанию").options == {}
    assert not resets("умолч") and not resets("defaultss")
