"""fix39g: after ``b name Alice`` the sandbox's texts about its second member said "his"/"him"
(«сам», «его», «за него»): they name the player instead, in English and in Russian."""

from __future__ import annotations

import io
import re
import string
from pathlib import Path

import pytest

from bot.sandbox import Sandbox, SandboxOptions
from bot.texts import TEXTS, tr

#: The words that give Bob a gender: English pronouns, Russian ones and «сам» (himself).
GENDERED = {
    "en": re.compile(r"\b(he|him|his|himself)\b", re.IGNORECASE),
    "ru": re.compile(r"(?<![а-яё])(он|его|него|ему|нему|им|ним|сам|самого)(?![а-яё])", re.I),
}

#: The sandbox's texts about its second member: those naming him with ``{bob}``.
BOB_KEYS = sorted(k for k, e in TEXTS.items() if k.startswith("sandbox.") and "{bob}" in e["en"])


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_texts_about_the_second_member_give_no_gender(lang: str) -> None:
    """Every sandbox text about Bob (``{bob}``), with Bob renamed Alice: no "his"/"him", no
    «сам»/«его»/«за него»; the name itself is in each."""
    assert "sandbox.help" in BOB_KEYS and "sandbox.bob_auto" in BOB_KEYS
    for key in BOB_KEYS:
        fields = {f for _, f, _, _ in string.Formatter().parse(TEXTS[key][lang]) if f}
        values: dict[str, object] = {f: 1 for f in fields} | {"bob": "Alice"}
        text = tr(lang, key, **values)
        assert not GENDERED[lang].search(text), (key, text)
        assert "Alice" in text, (key, text)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_b_name_alice_then_auto_manual_and_help_name_her(lang: str, tmp_path: Path) -> None:
    """``b name Alice``, then ``b auto``, ``b manual``, ``b ?`` (the help of b lines) and
    ``/help``: each line says "Alice", none "his"/"him" («сам»/«его»): «Alice играет сам»
    and "b … acts as Bob" (the help named Bob after the rename) no longer."""
    out = io.StringIO()
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bots=0, bot_delay=0.0, lang=lang)
    box = Sandbox(opts, out)
    try:
        await box.start()
        assert await box.handle("b name Alice")
        for line, key in (("b auto", "sandbox.bob_auto"), ("b manual", "sandbox.bob_manual"),
                          ("b ?", "sandbox.bob_help")):  # fmt: skip
            assert await box.handle(line)
            said = out.getvalue().splitlines()[-1]
            assert said == tr(lang, key, bob="Alice"), said
            assert "Alice" in said and not GENDERED[lang].search(said), said
        assert await box.handle("/help")
        said = out.getvalue().splitlines()[-1]
        assert said == "» " + tr(lang, "sandbox.help", bob="Alice"), said
        assert "Alice" in said and "Bob" not in said and "Боб" not in said, said
    finally:
        await box.stop()
