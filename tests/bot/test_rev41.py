"""rev41: review findings of the fortieth session's changes (f97b51e..c49aea9c).

1. A double-tapped Register (fix40h: answered "registered already") still wrote the table
   message again first, as for a stale press of an edit lost (``_stale_lobby``), and then
   dropped that answer: the group's message was edited for a tap that changed nothing
   (R8.2: one group edit per press, none for a refusal of what is shown).
2. nu58 named settings by their Russian names in every Russian answer, but four Russian
   descriptions (shown by ``/settings <name>``) still named other settings in English:
   «когда hand_seconds игрока кончились», «5 × min_buy_in», «не больше
   time_bank_seconds», «больше, чем ready_seconds».
3. A setting's name typed with spaces is read as its name (fix40g, nu58: «/settings время на
   раздачу 90», ``/settings time bank seconds 30``), but only as the first: two settings
   in one command, the second typed so («/settings взнос 100 макс стек 500»), were refused
   as the first's value with how to type digits, which the admin had; they are told to
   send one setting at a time, as with the second's name typed whole.
"""

from __future__ import annotations

import re

import pytest

from bot.presses import Register, encode
from bot.service.settings import SETTINGS, Setting
from bot.texts import tr
from tests.bot.conftest import service_env
from tests.bot.test_service import ALICE as S_ALICE
from tests.bot.test_service import GROUP as S_GROUP
from tests.bot.test_settings import ALICE as SET_ALICE
from tests.bot.test_settings import BORIS, new_service, say, stored


async def test_r8_7_a_double_tapped_register_writes_no_group_message() -> None:
    """Alice taps Register twice on the table message itself: the second tap is told she is
    registered and the table message is not written again (it was, at the same version)."""
    service, presenter, _store, _clock = service_env()
    assert not (await service.new_tournament(S_GROUP, S_ALICE, "ofc")).alert
    t = service.table_in(S_GROUP)
    assert t is not None and t.group_ref is not None
    shown = f"L{t.version}"
    first = await service.press(
        S_ALICE, encode(Register(t.id, shown)), S_GROUP, message_ref=t.group_ref
    )
    assert not first.alert, first.text
    await service.rt.settled(t)
    written = len(presenter.tables[S_GROUP.chat_id])
    second = await service.press(
        S_ALICE, encode(Register(t.id, shown)), S_GROUP, message_ref=t.group_ref
    )
    await service.rt.settled(t)
    assert second.alert and second.text == tr("en", "err.already_registered"), second.text
    assert len(presenter.tables[S_GROUP.chat_id]) == written


@pytest.mark.parametrize("spec", list(SETTINGS.values()), ids=list(SETTINGS))
def test_russian_descriptions_name_settings_in_russian(spec: Setting) -> None:
    """A setting's Russian descriptions (``ru``, ``discord_ru``) name the settings they speak
    of by their Russian names (:func:`~bot.service.settings.setting_word`), as the Russian
    answers around them do."""
    for text in (spec.ru, spec.discord_ru):
        english = [n for n in SETTINGS if re.search(rf"(?<![\w/]){n}(?!\w)", text)]
        assert english == [], (spec.name, text)


@pytest.mark.parametrize(
    ("lang", "args", "first", "second"),
    [
        ("ru", ["взнос", "100", "макс", "стек", "500"], "взнос 100", "макс_стек 500"),
        ("ru", ["взнос", "100", "Тайм", "банк", "30"], "взнос 100", "тайм-банк 30"),
        ("ru", ["время", "на", "раздачу", "90", "тайм", "банк", "30"], "время_на_раздачу 90",
         "тайм-банк 30"),
        ("en", ["min_buy_in", "100", "time", "bank", "seconds", "30"], "min_buy_in 100",
         "time_bank_seconds 30"),
        ("en", ["min_buy_in", "100", "max_buy_in", "500"], "min_buy_in 100", "max_buy_in 500"),
    ],
)  # fmt: skip
async def test_a_second_setting_typed_with_spaces_is_one_at_a_time(
    lang: str, args: list[str], first: str, second: str
) -> None:
    service, store = new_service()
    try:
        before = await stored(store)
        reply = await say(service, *args, actor=BORIS if lang == "ru" else SET_ALICE)
        said = tr(lang, "reply.settings_one_at_a_time", first=first, second=second)
        assert reply.alert and reply.text == said, reply.text
        assert await stored(store) == before  # nothing saved
    finally:
        await service.stop()
