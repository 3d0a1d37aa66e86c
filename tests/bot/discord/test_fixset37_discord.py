"""fixset37 on Discord, through discord.py's real client and the fake Discord: brk56's
settings input as the ``/ofcadmin settings`` options deliver it."""

from __future__ import annotations

from pathlib import Path

from bot.texts import tr
from tests.bot.discord.dc_world import ALICE, world


async def test_a_kush_label_of_nul_alone_is_refused_with_the_labels_range(tmp_path: Path) -> None:
    """``/ofcadmin settings name:kush_label value:<NUL>`` was answered with the setting's help
    (the value, cleaned, was nothing): it is refused with the label's range, the label
    unchanged; ``name:all value:5`` lists every setting (it was "“all” is not a setting")."""
    async with world(tmp_path) as w:
        refusal = tr(
            "en",
            "reply.setting_refused",
            error=tr("en", "settings.range.text", name="kush_label", low=1, high=12) + ".",
        )
        for value in ("\x00", "\x00\x00", "\x01\x1f"):
            reply = await w.slash(
                ALICE, "settings", {"name": "kush_label", "value": value}, admin=True
            )
            assert reply["content"] == refusal, reply
        reply = await w.slash(ALICE, "settings", {"name": "all", "value": "5"}, admin=True)
        assert "is not a setting" not in reply["content"], reply
        assert "hand_seconds" in reply["content"], reply
        reply = await w.slash(ALICE, "settings", {"name": "kush_label"}, admin=True)
        assert reply["content"].endswith("Now: kush (default)."), reply
