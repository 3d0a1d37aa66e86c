"""Settings items fix38c mended: the "was" of a rule option the group's game does not play,
a time zone's quarter hours and H:MM declared on the setting (no name checked in
:meth:`Setting.parse`), the list settings' separators, a reset word typed as a kush label,
and the tournament's line under an answer that changed nothing."""

from __future__ import annotations

import pytest

from bot.service.settings import SETTINGS, Kind, Setting, SettingRefused, Unit, updated
from bot.texts import tr
from storage.api import CommunitySettings
from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, say, stored


# -- 1. the "was" of an option this group's game does not play --------------------------------
async def test_the_was_of_an_option_of_other_games_names_what_each_of_them_played() -> None:
    """A Chinese Poker group with nothing stored: ``/settings scoring two_per_row`` read
    "(was one_six)", Pineapple's default, though its Classic OFC tables had scored
    two_per_row already (R5.3). The "was" names what each game played."""
    service, store = new_service()
    await say(service, "language", "en")
    await say(service, "game", "chinese")
    reply = await say(service, "scoring", "two_per_row")
    assert reply.text is not None and not reply.alert
    assert reply.text.startswith(
        "Saved: scoring = two_per_row (was Pineapple OFC: one_six, Classic OFC: two_per_row)"
    ), reply.text
    assert (await stored(store)).options == {"scoring": "two_per_row"}
    # one value stored: every game played it, and that is the "was"
    reply = await say(service, "scoring", "one_six")
    assert reply.text is not None
    assert reply.text.startswith("Saved: scoring = one_six (was two_per_row)"), reply.text
    # the other way round, as before: one_six from nothing stored names each game too
    await say(service, "scoring", "default")
    reply = await say(service, "scoring", "one_six")
    assert reply.text is not None
    assert reply.text.startswith(
        "Saved: scoring = one_six (was Pineapple OFC: one_six, Classic OFC: two_per_row)"
    ), reply.text
    # a switch whose default differs by game (R6.4), in Russian
    await say(service, "language", "ru")
    reply = await say(service, "stay_on_full_house_middle", "on", actor=BORIS)
    assert reply.text is not None
    assert "(было Ананас (OFC): выкл, Классический OFC: вкл)" in reply.text, reply.text


async def test_the_was_in_a_group_whose_game_plays_the_option_is_its_own_value() -> None:
    """A Pineapple group's "was" stays Pineapple's own value: its tables played it."""
    service, _ = new_service()
    await say(service, "language", "en")
    reply = await say(service, "scoring", "two_per_row")
    assert reply.text is not None
    assert reply.text.startswith("Saved: scoring = two_per_row (was one_six)."), reply.text


# -- 2. a time zone's grain and H:MM are the setting's, not its name's -----------------------
def test_quarter_hours_and_hours_minutes_are_declared_on_the_setting() -> None:
    """A setting in hours that takes quarter hours and H:MM parses so whatever its name:
    ``Setting.parse`` checked the name ``utc_offset``."""
    spec = Setting(
        name="break_hours",
        ru_name="перерыв",
        code="zz",
        kind=Kind.NUMBER,
        unit=Unit.HOURS,
        low=0,
        high=10,
        step=1,
        grain=0.25,
        grain_hint="settings.zone_quarters",
        clock=True,
        en="a break.",
        ru="перерыв.",
    )
    assert spec.parse("1:30") == 1.5
    assert spec.parse("1：45") == 1.75
    assert spec.parse("2.25") == 2.25
    with pytest.raises(SettingRefused) as refused:
        spec.parse("1.1")
    assert refused.value.says("en").endswith("\n" + tr("en", "settings.zone_quarters"))
    with pytest.raises(SettingRefused):
        spec.parse("1:75")
    zone = SETTINGS["utc_offset"]
    assert zone.grain == 0.25 and zone.clock and zone.grain_hint == "settings.zone_quarters"
    # the other numbers take any fraction and no H:MM
    assert SETTINGS["level_minutes"].parse("7.3") == 7.3
    assert not SETTINGS["level_minutes"].clock and not SETTINGS["level_minutes"].grain
    with pytest.raises(SettingRefused):
        SETTINGS["level_minutes"].parse("1:30")
    with pytest.raises(ValueError, match="grain"):
        Setting(
            name="bad", ru_name="плохо", code="zy", kind=Kind.SWITCH, grain=0.5, en="x.", ru="х."
        )
    with pytest.raises(ValueError, match="H:MM"):
        Setting(
            name="bad",
            ru_name="плохо",
            code="zy",
            kind=Kind.NUMBER,
            high=5,
            clock=True,
            en="x.",
            ru="х.",
        )


async def test_a_full_width_colon_is_a_colon_and_minutes_with_a_typographic_minus_are_told() -> (
    None
):
    """A full-width colon, "5：45" (a Chinese or Japanese keyboard's), was refused with the
    range alone; "−330m" (the minus the bot prints) or "–330m" (a phone's dash) got no word
    of the hours they are, as "-330m" did."""
    service, store = new_service()
    await say(service, "language", "en")
    reply = await say(service, "utc_offset", "5：45")
    assert not reply.alert, reply.text
    assert (await stored(store)).utc_offset == 5.75
    reply = await say(service, "utc_offset", "−5：30")
    assert not reply.alert, reply.text
    assert (await stored(store)).utc_offset == -5.5
    for typed in ("-330m", "−330m", "–330m", "−330 мин"):
        reply = await say(service, "utc_offset", typed)
        assert reply.alert and reply.text is not None
        assert reply.text.endswith(f"\n“{typed}” is -5.5 hours: type -5.5."), reply.text
    await say(service, "language", "ru")
    reply = await say(service, "utc_offset", "−330m", actor=BORIS)
    assert reply.text is not None
    assert reply.text.endswith("\n«−330m» — это -5,5 часа: наберите -5,5."), reply.text
    assert (await stored(store)).utc_offset == -5.5


# -- 3. payouts and chips_schedule: separators and empty places -------------------------------
@pytest.mark.parametrize(
    ("typed", "saved"),
    [
        ("70,30", "70,30"),
        ("70, 30", "70,30"),
        ("70 30", "70,30"),
        ("70;30", "70,30"),
        ("50; 30 ,20", "50,30,20"),
        ("70,30,", "70,30"),  # (a comma after the last place: no place more)
        (" 70,30 ", "70,30"),
    ],
)
def test_payouts_take_commas_spaces_or_semicolons(typed: str, saved: str) -> None:
    assert updated(CommunitySettings(), "payouts", typed).payouts == saved


@pytest.mark.parametrize("typed", ["50,,50", "70, ,30", "70;;30", ",70,30", ",", ";"])
def test_payouts_with_an_empty_place_are_refused(typed: str) -> None:
    """A list with a place left out, "50,,50" (a prize of what?), was saved as "50,50"; ","
    alone as the default."""
    with pytest.raises(SettingRefused) as refused:
        updated(CommunitySettings(), "payouts", typed)
    sep = ";" if ";" in typed else ","  # (the separator typed at the empty place, fixpg38)
    said = tr("en", "settings.payouts_empty", name="payouts", sep=sep) + "."
    assert refused.value.says("en") == said


async def test_chips_schedule_with_a_level_left_out_is_refused_in_both_languages() -> None:
    service, store = new_service()
    reply = await say(service, "chips_schedule", "10,,20")  # (10, ?, 20: not 10, 20)
    assert reply.alert and reply.text is not None
    said = tr("en", "settings.schedule_empty", name="chips_schedule", sep=",")
    assert said in reply.text, reply.text
    reply = await say(service, "chips_schedule", "10,,20", actor=BORIS)
    assert reply.text is not None
    assert tr("ru", "settings.schedule_empty", name="цена_по_уровням", sep=",") in reply.text, (
        reply.text
    )
    assert (await stored(store)).chips_schedule == ""
    reply = await say(service, "chips_schedule", "10 15;20")
    assert not reply.alert, reply.text
    assert (await stored(store)).chips_schedule == "10,15,20"


def test_the_list_settings_texts_name_every_separator_they_take() -> None:
    """The help, the refusal and docs/settings.md said "separated by commas" while spaces and
    semicolons were taken too."""
    for name in ("payouts", "chips_schedule"):
        spec = SETTINGS[name]
        assert "commas, spaces or semicolons" in spec.range_text("en")
        assert "через запятую, пробел или точку с запятой" in spec.range_text("ru")
    assert "commas, spaces or semicolons" in tr("en", "settings.list_digits", name="x", example=1)


# -- 4. a reset word typed as a kush label ------------------------------------------------------
@pytest.mark.parametrize("word", ["reset", "Defaults", "сброс", "умолчанию"])
async def test_a_reset_word_as_a_kush_label_says_it_gives_the_default_back(word: str) -> None:
    """``/settings kush_label reset`` by an admin who wanted the label "reset" gave the
    default back with nothing said of the word: the answer says it cannot be a label."""
    service, store = new_service()
    await say(service, "language", "en")
    await say(service, "kush_label", "coins")
    reply = await say(service, "kush_label", word)
    assert reply.text is not None and not reply.alert
    lines = reply.text.splitlines()
    assert lines[0] == "Back to default: kush_label = kush (was coins).", reply.text
    assert lines[1] == tr("en", "settings.label_reset_word", word=word), reply.text
    assert (await stored(store)).kush_label == "kush"
    await say(service, "language", "ru")
    reply = await say(service, "kush_label", word, actor=BORIS)  # nothing stored now
    assert reply.text is not None
    assert reply.text.splitlines()[1] == tr("ru", "settings.label_reset_word", word=word)
    # another setting's reset says nothing of labels
    reply = await say(service, "hand_seconds", word)
    assert reply.text is not None and "label" not in reply.text, reply.text


# -- 5. "Tournament #N keeps…" only under a change ------------------------------------------
async def test_an_answer_that_changed_nothing_says_nothing_of_the_open_tournament() -> None:
    """The answer "Already default: hand_seconds = 120." came with "Tournament #1 keeps the
    settings it opened with …: this one applies from the next /tournament", of a change there
    was not."""
    service, _ = new_service()
    await say(service, "language", "en")
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    kept = tr("en", "tour.settings_kept", tables=f"#{t.id}")
    for args in (
        ("hand_seconds", "default"),
        ("hand_seconds", "120"),
        ("level_minutes", "reset"),
        ("payouts", "default"),
    ):
        reply = await say(service, *args)
        assert reply.text is not None and reply.text.startswith("Already"), (args, reply.text)
        assert kept not in reply.text, (args, reply.text)
    reply = await say(service, "hand_seconds", "60")  # a change: said
    assert reply.text is not None and reply.text.splitlines()[1] == kept, reply.text
    reply = await say(service, "hand_seconds", "60")  # again: nothing changed
    assert reply.text is not None and kept not in reply.text, reply.text
    reply = await say(service, "hand_seconds", "default")  # given back: a change
    assert reply.text is not None and reply.text.splitlines()[1] == kept, reply.text


@pytest.mark.parametrize(("lang", "word"), [("en", "default"), ("ru", "по умолчанию")])
async def test_the_documented_reset_of_a_kush_label_says_nothing_of_labels(
    lang: str, word: str
) -> None:
    """The reset the help names ("default", «по умолчанию») is plainly a reset: the line
    that a reset word cannot be a label was noise under it (rev38)."""
    service, store = new_service()
    await say(service, "language", lang)
    await say(service, "kush_label", "coins")
    reply = await say(service, "kush_label", word)
    assert reply.text is not None and not reply.alert
    assert tr(lang, "settings.label_reset_word", word=word) not in reply.text
    assert (await stored(store)).kush_label == "kush"
