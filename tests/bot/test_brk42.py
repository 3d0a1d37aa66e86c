"""Break-it round 42: an admin's nonsense to /settings, a chat that changes under the bot,
forged and stale buttons."""

from __future__ import annotations

from bot.service.settings import SETTINGS
from tests.bot.test_settings import new_service, say, stored


async def test_a_tiny_fraction_is_shown_as_typed_and_reads_back() -> None:
    """``/settings utc_offset 0.0000001`` (within -12 to 14) was saved and answered
    "utc_offset = 1e-07", and the setting's help said "Now: 1e-07": an exponent no reader
    writes, and refused when typed back ("1e-07" is not a number an admin writes). A number
    is shown in plain digits, and what is shown reads back as the same value."""
    service, store = new_service()
    reply = await say(service, "utc_offset", "0.0000001")
    assert (await stored(store)).utc_offset == 1e-07
    assert reply.text.startswith("Saved: utc_offset = 0.0000001."), reply.text
    assert "e-" not in (await say(service, "utc_offset")).text
    reply = await say(service, "utc_offset", "-0.0000001")
    assert reply.text.startswith("Saved: utc_offset = -0.0000001."), reply.text
    assert SETTINGS["utc_offset"].parse("-0.0000001") == (await stored(store)).utc_offset
