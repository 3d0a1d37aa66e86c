"""Write the admins' settings reference, ``docs/settings.md``, from the settings' own
descriptions (``bot.service.settings.SETTINGS``): each setting's name and Russian name, what it
is, the games
it applies to, what it takes and its default, as ``/settings <name>`` says them in English.

Usage: ``python tools/settings_doc.py > docs/settings.md`` (a test checks the file is what this
prints, so a setting added or changed updates it)."""

from __future__ import annotations

from bot.service.settings import DEFAULT_WORDS, SETTINGS, _display, table_options
from bot.texts import tr
from game.options import GameKind
from storage.api import DEFAULT_KUSH_LABEL, CommunitySettings

__all__ = ["reference"]

_HEAD = """# Settings (`/settings`, Discord `/ofcadmin settings`)

Admins change these with `/settings <name> <value>` (or the buttons of the settings list);
`/settings <name>` shows one with its current value; `/settings <name> default` (or any of
WORDS) drops the saved value:
it follows its default again, a rule option each game's own.
`/settings` alone lists the settings that differ from their defaults, with their buttons and
an "All settings" button; `/settings all` (Discord `name:all`) lists every one, each with its
buttons. A rule option changed during a match applies when the match ends (R6.6); a buy-in
between hands (R8.2). Each table takes the options its game has: an option of one game
(`dummy_box`, Classic OFC) may be set whatever the group's game, and that game's tables play
it. Each setting has a Russian name too (column "Russian"), which `/settings` takes wherever
it takes the English one: any case, «ё» as «е», its words joined by `_` or typed with spaces
(`/settings время на раздачу 90`); the Russian settings list shows it. This file is written by
`python tools/settings_doc.py > docs/settings.md` from the settings' own descriptions.

| setting | Russian | what it is | takes | default | games |
|---|---|---|---|---|---|
"""


def _head() -> str:
    """The heading, naming every word that resets a setting (:data:`DEFAULT_WORDS`: the
    heading named three of seven), English ones first."""
    others = sorted(DEFAULT_WORDS - {"default"}, key=lambda w: (not w.isascii(), w))
    return _HEAD.replace("WORDS", ", ".join(f"`{w}`" for w in others), 1)


def _cell(text: str) -> str:
    """``text`` fit for a markdown table cell (one line, no bare ``|``)."""
    return " ".join(text.split()).replace("|", "\\|")


def reference() -> str:
    """The markdown of ``docs/settings.md``: one table row per setting, in the order
    ``/settings`` lists them."""
    default = CommunitySettings()
    rows = []
    for spec in SETTINGS.values():
        games = [g for g in GameKind if spec.applies_to(g)]
        by_game = {
            g: _display(default, table_options(default, g), spec, "en", DEFAULT_KUSH_LABEL)
            for g in games
        }
        # a default that differs by game (scoring: 2 a box in Classic OFC, R5.3) is given for
        # each: "1 a box, scoop 6" alone read as Classic OFC's too
        shown = (
            by_game[games[0]]
            if len(set(by_game.values())) == 1
            else "; ".join(f"{v} ({tr('en', f'game.{g.value}')})" for g, v in by_game.items())
        )
        names = (
            "— (the whole group)"  # (a setting of the group, not of games: /settings <name>)
            if spec.community
            else "all"
            if len(games) == len(GameKind)
            else ", ".join(tr("en", f"game.{g.value}") for g in games)
        )
        rows.append(
            f"| `{spec.name}` | `{spec.ru_name}` | {_cell(spec.en)} "
            f"| {_cell(spec.range_text('en'))} "
            f"| {_cell(shown)} | {_cell(names)} |"
        )
    return _head() + "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(reference(), end="")
