"""What a new user found in the sandbox (nu47), each in English and Russian: ``/grant me``,
the fraction a number setting takes, two colons in a row in Russian ranges, computer players
with Latin names in a Russian group, a sandbox redraw under the old name, /stats' 12.5 %."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot import pictures
from bot.sandbox import GROUP, GROUP_ID, Sandbox, SandboxOptions
from bot.service import stats as stats_mod
from bot.service.settings import SETTINGS
from bot.telegram.fake_api import FakeUser
from storage.api import HandStats
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.test_bots import new_service as bots_service
from tests.bot.test_service import ALICE as S_ALICE
from tests.bot.test_service import BOB as S_BOB
from tests.bot.test_service import GROUP as S_GROUP
from tests.bot.test_settings import ALICE, BORIS, new_service, say
from tests.bot.tg_world import GROUP_ID as TG_GROUP
from tests.bot.tg_world import world

ALICE_TG = FakeUser(101, "Alice", "alice", "en")
BORIS_TG = FakeUser(105, "Борис", None, "ru")


# -- 1. /grant me N: the admin themself, as /stats me ---------------------------------------
@pytest.mark.parametrize(
    ("user", "typed", "said"),
    [
        (ALICE_TG, "me", "Alice: +100 kush, balance 1,100."),
        (BORIS_TG, "я", "Борис: +100 кушей, баланс 1100."),
        (BORIS_TG, "Me", "Борис: +100 кушей, баланс 1100."),
    ],
)
async def test_grant_me_grants_the_admin_themself(
    tmp_path: Path, user: FakeUser, typed: str, said: str
) -> None:
    """``/grant me 100`` answered "No such player here: me" while ``/stats me`` worked: the
    words /stats takes for oneself name the admin in /grant too (a wallet made for an admin
    who never played here, as for a member the platform names)."""
    async with world(tmp_path) as w:
        w.fake.admins[TG_GROUP] = {user.id}
        reply = await w.say(user, f"/grant {typed} 100")
        assert reply["text"] == said, reply
        again = await w.say(user, f"/grant {typed} 5")
        assert again["text"].endswith(("balance 1,105.", "баланс 1105.")), again


# -- 2. a fraction said plainly in English --------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "Cannot set that — utc_offset takes a number of hours from -12 to 14 "
            "(a fraction like 7.5 is fine).",
        ),
        (
            "ru",
            "Не удалось изменить часовой_пояс: число часов от -12 до 14 "
            "(дробное — через запятую или точку: 7,5).",
        ),
    ],
)
async def test_utc_offset_out_of_range_says_a_fraction_is_fine(lang: str, said: str) -> None:
    """ "(7.5 for a fraction)" was unclear in English; the Russian said it plainly."""
    reply = await say(new_service()[0], "utc_offset", "30", actor=ALICE if lang == "en" else BORIS)
    assert reply.alert and reply.text == said, reply.text


# -- 3. one colon at a time -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Cannot set that — language is one of: auto, en, ru."),
        ("ru", "Не удалось изменить язык: одно из значений авто, en, ru."),
    ],
)
async def test_a_choice_refused_reads_one_colon_at_a_time(lang: str, said: str) -> None:
    """ "Не удалось изменить язык: одно из: auto, en, ru." had two colons in a row."""
    reply = await say(
        new_service()[0], "language", "klingon", actor=ALICE if lang == "en" else BORIS
    )
    assert reply.alert and reply.text == said, reply.text


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_range_has_two_colons_in_a_row(lang: str) -> None:
    """Every setting's range (each settings.range.* text), as a refusal reads it: no colon
    follows another with at most two words between ("язык: одно из: auto")."""
    for spec in SETTINGS.values():
        text = spec.range_text(lang)
        assert not re.search(r":\s*\S+(\s\S+)?:", text), text


# -- 6. computer players named in the group's language -------------------------------------
async def test_a_russian_table_s_computer_players_have_russian_names() -> None:
    """A Russian group's computer players were "🤖 Anna (средний)". Created at a Russian
    table they are named in Cyrillic (the user id stays ``bot:anna``, so /removebot Anna and
    /stats Анна find it), unique per table as before; at an English table in Latin."""
    store, clock = MemoryStore(), Clock()
    service, _ = bots_service(store, clock)
    await service.new_table(S_GROUP, S_BOB)  # Bob reads Russian: a Russian table
    t = service.table_in(S_GROUP)
    assert t is not None and t.lang == "ru"
    reply = await service.add_bot(S_GROUP, S_BOB, True, "")
    assert reply.text.startswith("🤖 Анна садится за стол (уровень: средний)"), reply.text
    await service.add_bot(S_GROUP, S_BOB, True, "сильный")
    assert sorted(s.name for s in t.seats.values()) == ["🤖 Анна", "🤖 Борис"]
    anna = await store.find_player(t.community_id, "bot:anna")
    assert anna is not None and anna.name == "🤖 Анна"
    reply = await service.remove_bot(S_GROUP, S_BOB, True, None, "Boris")  # (its own name)
    assert not reply.alert and reply.text.startswith("🤖 Борис"), reply.text
    # the picture's font draws the Cyrillic name (the 🤖 drawn as a gear)
    assert pictures._drawable("🤖 Анна") == f"{pictures.ROBOT_DRAWN} Анна"
    assert all(pictures._has_glyph(ch) for ch in "АннаБорисВераГлеб")


async def test_a_computer_player_keeps_the_name_it_was_created_with() -> None:
    """The name is saved with the player: "🤖 Anna", created at an English table, stays so
    at a Russian table later (its /stats and history keep one name); a person called «Анна»
    seated keeps a computer player «Анна» away (Борис sits down)."""
    store, clock = MemoryStore(), Clock()
    service, _ = bots_service(store, clock)
    await service.new_table(S_GROUP, S_ALICE)
    await service.add_bot(S_GROUP, S_ALICE, True, "")
    t = service.table_in(S_GROUP)
    assert t is not None and [s.name for s in t.seats.values()] == ["🤖 Anna"]
    await service.close_table(S_GROUP, S_ALICE, True)
    anna_ru = type(S_BOB)("telegram", "7", "Анна", "ru")
    await service.new_table(S_GROUP, anna_ru)
    await service.join(S_GROUP, anna_ru)
    t = service.table_in(S_GROUP)
    assert t is not None and t.lang == "ru"
    await service.add_bot(S_GROUP, anna_ru, True, "")  # (the opener may)
    assert sorted(s.name for s in t.seats.values()) == ["Анна", "🤖 Борис"]
    await service.add_bot(S_GROUP, anna_ru, True, "")
    assert sorted(s.name for s in t.seats.values()) == ["Анна", "🤖 Борис", "🤖 Вера"]


# -- 5. the sandbox names you before the redraw ---------------------------------------------
@pytest.mark.parametrize(
    ("lang", "to", "old", "new"), [("ru", "en", "Игрок", "Player"), ("en", "ru", "Player", "Игрок")]
)
async def test_the_sandbox_redraws_the_table_once_with_your_new_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, to: str, old: str, new: str
) -> None:
    """In a Russian sandbox during a hand ``/settings language en`` printed the table once
    in English under «Игрок» ("▶ Игрок to act"), then again renamed: the seat takes the
    new name before the command redraws the table, and the stored player takes it too."""
    monkeypatch.delenv("USER", raising=False)
    out = io.StringIO()
    box = Sandbox(SandboxOptions(db=tmp_path / "s.sqlite3", bots=1, bot_delay=0.0, lang=lang), out)
    await box.start()
    try:
        assert await box.handle("g join")
        assert await box.handle("g ready")
        assert box.service is not None and box.store is not None
        t = box.service.table_in(GROUP)
        assert t is not None and t.hand is not None
        start = len(out.getvalue().splitlines())
        assert await box.handle(f"/settings language {to}")
        assert await box.handle("/balance")
        printed = out.getvalue().splitlines()[start:]
        assert not [x for x in printed if old in x], printed
        assert any(new in x for x in printed), printed
        shown = box.screen(GROUP_ID)
        assert shown is not None and new in shown.text and old not in shown.text
        community = await box.store.community("telegram", str(GROUP_ID))
        me = await box.store.find_player(community.id, str(box.human.id))
        assert me is not None and me.name == new
    finally:
        await box.stop()


# -- 7. /stats rounds a half up -------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "fouls", "entered"),
    [
        ("en", "Fouls: 13% (1 of 8 boards)", "entered in 13% of hands"),
        ("ru", "Мёртвые руки: 13% (1 из 8 досок)", "13%"),
    ],
)
def test_stats_percentages_round_a_half_up(lang: str, fouls: str, entered: str) -> None:
    """ "Fouls: 12% (1 of 8 boards)": 12.5 % was rounded to even (down); every percentage
    /stats shows rounds a half up (Fantasyland entered 1 of 8 chances too)."""
    s = HandStats(hands=8, players=1, boards=8, points=0, kush=0, fouls=1, fl_chances=8,
                  fl_entered=1)  # fmt: skip
    lines = stats_mod._stats_lines(s, lang, "kush", group=False)
    assert fouls in lines, lines
    fl = next(x for x in lines if x.startswith(("Fantasyland", "Фантазия")))
    assert entered in fl, fl
    assert stats_mod._pct(1, 40) == "3%" and stats_mod._pct(3, 8) == "38%"
    assert stats_mod._pct(1, 3) == "33%" and stats_mod._pct(0, 0) == "—"
