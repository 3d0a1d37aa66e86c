"""Discord and Telegram alike, where they should be.

Every Discord message names the commands as Discord has them (``/ofc back``, ``/ofcadmin
settings``), not as Telegram does (``/back``, ``/settings``): the texts are shared, and a
Discord user told to type ``/daily`` or ``/back`` finds no such command. Slash commands'
answers were renamed, but press answers (a refusal, the settings panel a press edits) and
what the presenter writes (the table message, DM hands, notices) were not."""

from __future__ import annotations

import re
from pathlib import Path

from bot.discord.components import discord_commands, routed_table
from bot.service.stats import PERIODS
from bot.service.wallet import HISTORY_MAX
from bot.texts import tr
from game.policy import Level
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, components, world
from tests.fakes.discord_api import EPHEMERAL

#: a command written the Telegram way: a slash and a word not preceded by "/ofc " or
#: "/ofcadmin " (what discord_commands rewrites)
_TELEGRAM_COMMAND = re.compile(
    r"(?<![\w/\\])/(join|ready|leave|topup|sitout|back|daily|grant|settings|newtable|"
    r"closetable|balance|top|history|stats|replay|rules|help|hand|addbot|removebot|tournament)\b"
)


def telegram_commands(text: str) -> list[str]:
    """The commands ``text`` names the Telegram way."""
    return _TELEGRAM_COMMAND.findall(text)


async def test_a_refused_ready_press_names_discord_commands(tmp_path: Path) -> None:
    """Ready pressed with a balance under the buy-in (R8.2) is refused with what to do: the
    daily bonus and an admin's grant, as ``/ofc daily`` and ``/ofcadmin grant`` (EN and RU)."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for user in (CAROL, BOB):
            await w.slash(user, "join")
            reply = await w.slash(ALICE, "grant", {"user": user, "amount": -900}, admin=True)
            assert "100" in reply["content"], reply
        record = await w.press_lobby(CAROL, "r")
        notice = (w.notice(record) or {})["content"]
        assert record.callback_type == 4 and "/ofc daily" in notice, notice
        assert "/ofcadmin grant" in notice and "/ofcadmin settings min_buy_in" in notice
        assert telegram_commands(notice) == [], notice
        record = await w.press_lobby(BOB, "r")  # Bob reads Russian
        notice = (w.notice(record) or {})["content"]
        assert "/ofc daily" in notice and "/ofcadmin grant" in notice, notice
        assert telegram_commands(notice) == [], notice


async def test_the_settings_panel_a_press_edits_names_discord_commands(tmp_path: Path) -> None:
    """The settings panel's footer says how to see or set one setting: ``/ofcadmin settings
    <name>``, when the command shows the panel and after a press has edited it."""
    async with world(tmp_path) as w:
        panel = await w.slash(ALICE, "settings", {"name": "all"}, admin=True)
        assert panel["flags"] & EPHEMERAL and "/ofcadmin settings <name>" in panel["content"]
        assert telegram_commands(panel["content"]) == []
        pick, plus = next(
            (c["custom_id"], o)
            for c in components(panel)
            for o in c["options"]
            if o["value"].endswith(":mb+")
        )
        record = await w.press(ALICE, panel, pick, [plus["value"]], admin=True)
        assert record.callback_type == 7
        edited = w.fake.messages[int(panel["id"])]
        assert "Saved: min_buy_in = 250" in edited["content"]
        assert "/ofcadmin settings <name>" in edited["content"], edited["content"]
        assert telegram_commands(edited["content"]) == [], edited["content"]


async def test_the_table_message_names_discord_commands(tmp_path: Path) -> None:
    """The table message of a person sitting out beside a computer player says to press
    Ready or ``/ofc back`` (the presenter's writes, not only the commands' answers)."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        await w.slash(ALICE, "join")
        await w.slash(ALICE, "addbot")
        reply = await w.slash(ALICE, "sitout")
        assert "/ofc back" in reply["content"], reply
        await w.adapter.presenter.flush()
        text = w.table_message()["content"]
        assert "(or /ofc back)" in text, text
        assert telegram_commands(text) == [], text


async def test_the_options_offer_what_the_service_reads(tmp_path: Path) -> None:
    """The slash options' choices and ranges are the service's own lists, not copies of
    them: ``/ofc history count`` 1..HISTORY_MAX (as ``/history N``), ``period`` the periods
    ``/stats`` and ``/top`` read, ``/ofc addbot level`` the computer players' levels."""
    async with world(tmp_path) as w:
        ofc = next(c for c in w.fake.commands if c["name"] == "ofc")
        subs = {o["name"]: {p["name"]: p for p in o.get("options", [])} for o in ofc["options"]}
        count = subs["history"]["count"]
        assert (count["min_value"], count["max_value"]) == (1, HISTORY_MAX)
        for sub in ("stats", "top"):
            assert [c["value"] for c in subs[sub]["period"]["choices"]] == list(PERIODS)
        assert [c["value"] for c in subs["addbot"]["level"]["choices"]] == [
            lvl.value for lvl in Level
        ]


async def test_a_double_click_race_is_refused_in_the_table_s_language(tmp_path: Path) -> None:
    """A group that reads Russian (``/ofcadmin settings language ru``): a button pressed
    after the message lost it (a double click racing an edit, which discord.py drops and the
    adapter answers itself) is refused in Russian, as the service refuses an out-of-date
    press at that table (and as every press on Telegram, which the service answers), not in
    the English of Alice's Discord client."""
    async with world(tmp_path) as w:
        reply = await w.slash(ALICE, "settings", {"name": "language", "value": "ru"}, admin=True)
        assert "язык = ru" in reply["content"], reply  # (said in Russian, by its Russian name)
        await w.slash(ALICE, "new")
        for user in (ALICE, BOB):
            await w.slash(user, "join")
        for user in (ALICE, BOB):
            await w.slash(user, "ready")
        t = w.table()
        assert t.hand is not None
        hand = await w.my_cards(ALICE)
        card, box = w.plan_street(ALICE)[0]
        assert box is not None
        # (a card's button gone so goes to the service, tests/bot/test_fast_taps.py: the
        # race is the Confirm's, which the adapter answers)
        clicked = w.buttons(hand)[("c", "")]
        old = dict(hand)  # as it was before the press
        first = await w.press(ALICE, hand, w.buttons(hand)[("p", card.text + box.value[0])])
        assert first.callback_type == 7
        now = w.fake.messages[int(hand["id"])]
        state = t.hand.to_json()  # type: ignore[union-attr]
        second = await w.settle(await w.fake.press(ALICE, now, clicked, gone=True))
        assert (w.notice(second) or {}).get(
            "content"
        ) == "Кнопка устарела: нажмите одну из тех, что в сообщении сейчас."
        assert t.hand.to_json() == state  # type: ignore[union-attr]
        # the service's own refusal of that press (the message as it was: the press reaches
        # the service) says the same, on the hand pressed
        stale = await w.press(ALICE, old, clicked)
        assert stale.callback_type == 7
        shown = w.fake.messages[int(hand["id"])]["content"]
        assert shown.startswith("Кнопка устарела: вот ваши карты сейчас.\n\n"), shown
        assert t.hand.to_json() == state  # type: ignore[union-attr]


def test_routed_table_names_the_table_of_a_button_or_a_box_select() -> None:
    """The table an unrouted press belongs to (whose language answers it): a payload's, a
    box select's; a settings pick and a foreign id name none."""
    assert routed_table("12:3.0.1:p:Ahb") == 12
    assert routed_table("sel:12:3.0.1:t") == 12
    assert routed_table("pick:0") is None
    assert routed_table("something-else") is None


def test_a_slash_after_the_kush_label_is_no_command() -> None:
    """``/stats`` reads "💎/hand" per hand with a kush label "💎" (``stats.hands``:
    ``{label}/hand``): no command, so Discord reads it as Telegram does, not "💎/ofc hand".
    Commands the texts name stand at the start of a line, after a space or a parenthesis."""
    stats = tr("en", "stats.hands", hands=3, points=2.0, label="💎", kush=5)
    assert discord_commands(stats) == stats == "Hands: 3 · points/hand 2.0 · 💎/hand 5"
    assert discord_commands("/back\n(/topup) «/daily» then /grant") == (
        "/ofc back\n(/ofc topup) «/ofc daily» then /ofcadmin grant"
    )
