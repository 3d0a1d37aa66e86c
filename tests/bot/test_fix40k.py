"""fix40k: a time zone stored at the zone the group would have anyway (``/settings utc_offset
3`` in a Moscow group) still changes play: a turn ends at a clock time on the table messages
("⏱ до 15:27"), not a countdown. It was said "3 (default)", left out of the short list, and
yet offered the reset tip."""

from __future__ import annotations

from bot.service import TableService
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_settings import say, stored


def _service() -> TableService:
    service = TableService(
        MemoryStore(), clock=lambda: 1_000_000.0, next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    return service


async def test_r8_1_a_time_zone_stored_at_the_automatic_one_is_shown_as_set() -> None:
    service = _service()
    assert not (await say(service, "language", "ru")).alert
    short = (await say(service)).screen
    assert short is not None and "Часовой пояс" not in short.text
    assert not (await say(service, "часовой_пояс", "3")).alert
    store = service.store
    assert (await stored(store)).utc_offset == 3
    short = (await say(service)).screen
    assert short is not None
    assert "Часовой пояс: 3 (по умолчанию авто — 3)" in short.text.splitlines(), short.text
    one = (await say(service, "часовой_пояс")).text
    assert "Сейчас: 3 (по умолчанию авто — 3)." in one, one
    assert one.splitlines()[-1].startswith("/settings "), one  # (the reset tip, now true)
    # reset: automatic again, the default, no tip
    assert not (await say(service, "utc_offset", "default")).alert
    assert (await stored(store)).utc_offset is None
    one = (await say(service, "utc_offset")).text
    assert one.endswith("Сейчас: авто — 3 (по умолчанию)."), one
    short = (await say(service)).screen
    assert short is not None and "Часовой пояс" not in short.text
