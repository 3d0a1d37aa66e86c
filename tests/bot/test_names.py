"""Names and arguments as users type them, made safe to show (issue 16.7): no bidirectional
controls, one line, cut at whole grapheme clusters, lengths within the platform's limits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.names import MAX_ARG, MAX_NAME, clean_arg, clean_name, cut, fit, folded, units
from storage._common import name_key
from storage.api import fold_name

FAMILY = "👨\u200d👩\u200d👧\u200d👦"  # one grapheme cluster of 7 code points (11 UTF-16 units)
FLAG = "🇷🇺"  # two regional indicators, one cluster
BIDI = "\u202e\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u200e\u200f\u061c"


def test_bidirectional_controls_are_removed() -> None:
    assert clean_name(f"\u202eevil{BIDI}name\u2069") == "evilname"


def test_a_name_never_begins_with_the_computer_players_mark() -> None:
    """A person named "🤖 Anna" passed for a computer player in every list: the mark goes,
    repeated, with its variation selector and invisible characters or bidi controls before
    it; elsewhere in the name it stays."""
    assert clean_name("🤖 Anna") == "Anna"
    assert clean_name("\u200b🤖\ufe0f \u2060🤖Anna") == "Anna"
    assert clean_name("\u202e\u2066🤖 Anna\u2069") == "Anna"
    assert clean_name("Anna 🤖") == "Anna 🤖"
    assert clean_name("🤖", fallback="42") == "42"


def test_control_characters_and_line_breaks_become_one_space() -> None:
    assert clean_name("  Ann\n\n# Heading\t\x00x\u2028y  ") == "Ann # Heading x y"


def test_names_are_cut_at_whole_grapheme_clusters() -> None:
    name = "A" * 25 + FAMILY  # 25 + 11 units: the family does not fit in 32
    assert clean_name(name) == "A" * 25
    name = "A" * 20 + FAMILY + "B" * 10  # 20 + 11 = 31: the family fits whole, one B more
    assert clean_name(name) == "A" * 20 + FAMILY + "B"
    flags = FLAG * 20
    assert clean_name(flags) == FLAG * 8  # 4 units each: never half a flag
    accented = "e\u0301" * 40  # é as e + combining acute
    assert clean_name(accented) == "e\u0301" * 16


def test_empty_names_fall_back() -> None:
    assert clean_name("\u202e \n\u2069", fallback="42") == "42"
    assert clean_name(None) == "?"


def test_arguments_are_cut_with_an_ellipsis() -> None:
    typed = "@" + "x" * 4086
    cleaned = clean_arg(typed)
    assert units(cleaned) == MAX_ARG and cleaned.startswith("@xxx") and cleaned.endswith("…")
    assert clean_arg("100") == "100"


def test_fit_counts_utf16_units_and_keeps_clusters() -> None:
    text = FAMILY * 500  # 5,500 units
    out = fit(text, 4096)
    assert units(out) <= 4096 and out.endswith("…")
    assert out[:-1] == FAMILY * ((4096 - 1) // 11)
    assert fit("short", 200) == "short"
    assert cut("abcdef", 4, "…") == "abc…"


@given(st.text(max_size=300))
def test_any_name_is_clean_and_short(raw: str) -> None:
    name = clean_name(raw, fallback="id")
    assert 0 < units(name) <= MAX_NAME
    assert not any(ch in BIDI for ch in name)
    assert not name.startswith("🤖")
    assert "\n" not in name and name == name.strip()


@given(st.text(max_size=5000), st.integers(min_value=1, max_value=4096))
def test_fit_never_exceeds_the_limit(text: str, limit: int) -> None:
    out = fit(text, limit)
    assert units(out) <= limit
    assert out == text or out.endswith("…")


@given(st.text(max_size=12))
def test_the_bot_and_the_store_fold_names_one_way(name: str) -> None:
    """One fold of names (letter case aside, ё read as е): the bot's comparisons and the
    store's lookup key, which trims and drops one leading @ besides."""
    assert folded is fold_name
    assert name_key(name) == fold_name(name.strip().removeprefix("@"))
    assert folded("@Алёна ") == "@алена " and name_key("@Алёна ") == "алена"
