"""Tournament levels shorter than ``/settings`` takes (``level_minutes`` is at least 1 minute,
R8.7), for tests whose clock cannot wait minutes for a level to rise."""

from __future__ import annotations

from dataclasses import replace

from storage.api import Store


async def short_levels(store: Store, platform: str, community_ext: str, minutes: float) -> None:
    """Write ``level_minutes`` = ``minutes`` (say 0.05: 3-second levels) straight to the
    community's stored settings; a tournament opened after it plays levels of that length."""
    community = await store.community(platform, community_ext)
    await store.change_settings(community.id, lambda s: replace(s, level_minutes=minutes))
