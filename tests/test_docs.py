"""The documentation a newcomer reads stays true: every relative link of README.md and
docs/*.md leads to a file (and heading) that exists, the settings reference is what the
settings' own descriptions say, and the rule book copy is the shared one."""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor of a markdown heading: lower case, punctuation dropped, spaces to -."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    lines = page.read_text(encoding="utf-8").splitlines()
    return {_slug(line.lstrip("#")) for line in lines if line.startswith("#")}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target):  # (https:, mailto:)
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        missing = not dest.exists()
        if missing or (anchor and dest.suffix == ".md" and anchor not in _anchors(dest)):
            broken.append(target)
    assert broken == [], f"{page.name}: {broken}"


def test_the_settings_reference_is_what_the_settings_say() -> None:
    """docs/settings.md is tools/settings_doc.py's output: a setting added or changed, run
    ``python tools/settings_doc.py > docs/settings.md``."""
    spec = importlib.util.spec_from_file_location(
        "settings_doc", ROOT / "tools" / "settings_doc.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert written == module.reference()
    from bot.service.settings import SETTINGS

    assert all(f"| `{name}` |" in written for name in SETTINGS)


def test_the_rule_book_copy_is_the_shared_one() -> None:
    """docs/rules.md is ../shared/RULES.md (R1–R8) for a clone that has no shared folder."""
    shared = ROOT.parent / "shared" / "RULES.md"
    if not shared.exists():
        pytest.skip("no ../shared/RULES.md next to this checkout")
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == shared.read_text(
        encoding="utf-8"
    )


def _help(main: Callable[[list[str]], object], argv: list[str], capsys: Any) -> str:
    """What ``main(argv + ["--help"])`` prints (argparse exits with status 0)."""
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    return str(capsys.readouterr().out)


def test_every_flag_the_readme_and_sandbox_page_name_exists(capsys: Any) -> None:
    """A ``--flag`` README.md or docs/sandbox.md quotes is one of ``python -m bot``, ``python
    -m storage check|backup`` or ``python -m game simulate|tournament`` (a flag renamed or
    dropped in the code, the page still naming it, fails here)."""
    from bot.__main__ import main as bot_main
    from game.cli import main as game_main
    from storage.__main__ import main as storage_main

    helps = _help(bot_main, [], capsys)
    for command in ("check", "backup"):
        helps += _help(storage_main, [command], capsys)
    for command in ("simulate", "tournament"):
        helps += _help(game_main, [command], capsys)
    known = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", helps))
    for page in (ROOT / "README.md", ROOT / "docs" / "sandbox.md"):
        # (an anchor such as #--lang-ru is a heading's, not a flag)
        named = set(re.findall(r"(?<![\w#-])--[a-z][a-z0-9-]*", page.read_text(encoding="utf-8")))
        assert named - known == set(), page.name


def test_every_variable_the_configuration_names_is_a_setting() -> None:
    """README's configuration table and .env.example name exactly the bot's settings
    (bot/config.py's Settings): one renamed or added on one side only fails here."""
    from bot.config import Settings

    fields = {name.upper() for name in Settings.model_fields}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Configuration", 1)[1].split("\n\n", 2)[1]
    first_cells = [line.split("|")[1] for line in table.splitlines()[2:]]
    rows = {n for cell in first_cells for n in re.findall(r"`([A-Z][A-Z0-9_]+)`", cell)}
    assert rows == fields
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert set(re.findall(r"^([A-Z][A-Z0-9_]+)=", example, re.M)) == fields


def test_every_setting_the_pages_name_exists() -> None:
    """A ``/settings NAME`` quoted in README.md or docs/*.md names an admin setting (or
    ``all``)."""
    from bot.service.settings import SETTINGS

    for page in PAGES:
        named = set(re.findall(r"/settings ([a-z_]+)", page.read_text(encoding="utf-8")))
        assert named - set(SETTINGS) - {"all"} == set(), page.name


#: the Russian guide's backticked Cyrillic words that name no setting: a value or a command's
#: argument (`я`, `авто`), and the guide's own "how to read the quotes" words
_RU_NOT_SETTINGS = {"я", "авто", "обратных кавычках"}


def _russian_setting_names_unknown(text: str, *, bare: bool = False) -> list[str]:
    """The setting names ``text`` quotes in Russian that the bot does not take: the words
    after a backticked ``/settings`` (`/settings часовой пояс 3`) and, with ``bare`` (the
    Russian guide, whose other backticked Cyrillic words are :data:`_RU_NOT_SETTINGS`), a
    backticked name alone (`макс_стек`, `тайм-банк`); each looked up as ``/settings`` does
    (any case, «ё» as «е», words apart by ``_``, ``-`` or spaces)."""
    from bot.service.settings import asks_list, leading_setting

    unknown = []
    for quoted in re.findall(r"`/settings ([^`<\[]+)`", text):
        words = quoted.split()
        russian = re.search(r"[а-яё]", words[0]) is not None
        if russian and not asks_list(words) and leading_setting(words)[0] is None:
            unknown.append(quoted)
    for quoted in re.findall(r"`([а-яё][а-яё _-]*)`", text) if bare else []:
        if quoted not in _RU_NOT_SETTINGS and leading_setting([quoted])[0] is None:
            unknown.append(quoted)
    return unknown


def test_the_russian_setting_names_the_pages_quote_are_the_bots() -> None:
    """A Russian setting name README.md or docs/*.md quotes (`/settings часовой_пояс 3`, the
    Russian guide's `макс_стек`) is one ``/settings`` takes: a Russian name renamed in
    bot/service/settings.py, a page still quoting the old one, fails here (the check above
    reads Latin names only). Not vacuous: a misspelt name is found."""
    for page in PAGES:
        assert _russian_setting_names_unknown(page.read_text(encoding="utf-8")) == [], page.name
    guide = (ROOT / "docs" / "playing.ru.md").read_text(encoding="utf-8")
    assert _russian_setting_names_unknown(guide, bare=True) == []
    for right, wrong in [("`макс_стек`", "`макс_стэк`"), ("часовой пояс 3`", "часовой зона 3`")]:
        assert right in guide, right
        broken = guide.replace(right, wrong, 1)
        assert _russian_setting_names_unknown(broken, bare=True) != [], wrong


def test_every_file_path_the_pages_quote_exists() -> None:
    """A path README.md or docs/*.md quotes in backticks (``bot/thinking.py``, ``tests/fakes/``;
    within a package's own paragraph ``telegram/fake_api.py``, under bot/, storage/ or game/)
    is in the checkout."""
    missing = []
    for page in PAGES:
        paths = re.findall(r"`([a-z_.]+/[A-Za-z0-9_./-]+)`", page.read_text(encoding="utf-8"))
        bases = (ROOT, ROOT / "bot", ROOT / "storage", ROOT / "game")
        missing += [
            f"{page.name}: {p}"
            for p in paths
            if not p.startswith("../")  # (outside the checkout: ../shared/, not in a clone)
            and not any((b / p).exists() for b in bases)
        ]
    assert missing == []


# -- the Russian player guide (docs/playing.ru.md) ----------------------------------------------
#: the words the bot puts into its Russian texts' placeholders, as the guide's quotes show
#: them: the example names, the kush and chip words, the computer players' levels, and the
#: words of a text it nests in another (the clock's «тайм-банк», «(было 120)»)
_VALUE_WORDS = (
    "Анна|Борис|Игрок|Боб|Алиса|Куш|кушей|куша|куш|фишек|фишки|фишка|тайм-банк|было|лёгкий"
    "|средний|сильный"
)


@functools.cache
def _value() -> str:
    """A placeholder's value (:data:`_VALUE_WORDS`): digits, times, signs and spaces, the
    words above, a setting's name (English or Russian: «Может быть, время_на_раздачу?») or a
    language; no other Latin word (a label left in English is no value)."""
    from bot.service.settings import SETTINGS

    names = [*SETTINGS, *(s.ru_name for s in SETTINGS.values())]
    latin = sorted([*names, "ru", "en", "auto", "OFC"], key=len, reverse=True)
    return "|".join([r"[\d\s:.,+\-−–#%/×()@=•·]|🤖|⚙", _VALUE_WORDS, *latin])


def _russian_tables() -> list[str]:
    """Every Russian text of the bot: ``TEXTS``, the settings' descriptions, the Telegram
    command menu and Discord's command descriptions."""
    from bot.service.settings import SETTINGS
    from bot.telegram.adapter import COMMANDS
    from bot.texts import DISCORD_DESCRIPTIONS_RU, TEXTS

    texts = [entry["ru"] for entry in TEXTS.values()]
    texts += [s.ru for s in SETTINGS.values()] + [s.discord_ru for s in SETTINGS.values()]
    texts += [ru for _, _, ru in COMMANDS] + list(DISCORD_DESCRIPTIONS_RU.values())
    return [t for t in texts if t]


def _parts(template: str) -> list[tuple[str, str | None]]:
    """A template's literal pieces, each with the placeholder after it (its plural forms'
    spec, "" for a plain one, None after the last piece)."""
    import string

    parts: list[tuple[str, str | None]] = []
    for literal, field, spec, _ in string.Formatter().parse(template):
        parts.append((literal, None if field is None else (spec or "")))
    if not parts or parts[-1][1] is not None:
        parts.append(("", None))
    return parts


def _placeholder(spec: str, value: str | None = None) -> str:
    """A placeholder's value: ``value`` (a pattern; :func:`_value` by default) or its plural
    forms (``{n:секунду|секунды|секунд}``; ``{n:+d|очко|очка|очков}``); it may be empty."""
    forms = spec.split("|")[1:] if spec.startswith("+d") else spec.split("|")
    words = [re.escape(f) for f in forms if f and "|" in spec]
    return f"(?:{'|'.join([*words, value if value is not None else _value()])})*?"


@functools.cache
def _is_fragment(quote: str, template: str, value: str | None = None) -> bool:
    """Whether ``quote`` is a piece of ``template`` rendered with some placeholder values
    (``value``, a pattern, :func:`_value` by default, or the placeholder's own plural forms):
    it may begin and end inside a literal piece or a value."""
    parts = _parts(template)
    if any(quote in literal for literal, _ in parts):
        return True
    for i in range(len(parts) - 1):
        literal = parts[i][0]
        # (the quote begins with a suffix of the literal, so only those it begins with can
        # match: the others left out of the alternation, which keeps the pattern small; a
        # pattern of every suffix and every prefix took the two Russian guide tests ~30 s)
        heads = (literal[k:] for k in range(len(literal) + 1))
        head = "|".join(re.escape(h) for h in heads if quote.startswith(h))
        body = f"(?:{head})"
        for j in range(i + 1, len(parts)):
            body += _placeholder(parts[j - 1][1] or "", value)
            tail = parts[j][0]
            prefixes = (tail[:k] for k in range(len(tail) + 1))
            ends = "|".join(re.escape(e) for e in prefixes if quote.endswith(e))
            if re.fullmatch(f"{body}(?:{ends})", quote, re.S):
                return True
            body += re.escape(tail)
            if parts[j][1] is None:
                break
    return False


def _unknown_quotes(text: str, tables: list[str]) -> list[str]:
    """The «…» quotes of ``text`` (outer ones; «» may nest, as the bot's own texts nest them)
    none of ``tables`` holds: each piece between the quote's "…" (a part left out) must be a
    fragment of one text."""
    quotes, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char == "«":
            depth += 1
            if depth == 1:
                start = at + 1
        elif char == "»" and depth:
            depth -= 1
            if depth == 0:
                quotes.append(text[start:at])
    assert depth == 0, "an unclosed «"
    from bot.service.settings import SETTINGS

    # (the words of the settings' Russian names, values as their English names are)
    named = " ".join(s.ru_name for s in SETTINGS.values())
    unknown = []
    for quote in quotes:
        for piece in re.sub(r"\s+", " ", quote).split("…"):
            piece = piece.strip()
            words = set(re.findall(r"[а-яё]{3,}", piece.lower()))
            words -= set(re.findall(r"[а-яё]{3,}", f"{_VALUE_WORDS} {named}".lower()))
            # (its every word is the template's, or a value's)
            candidates = [t for t in tables if all(w in t.lower() for w in words)]
            if piece and not any(_is_fragment(piece, t) for t in candidates):
                unknown.append(piece)
    return unknown


def _unknown_commands(text: str) -> list[str]:
    """The /commands ``text`` names that the bot does not have: Telegram's menu (admin ones
    included), Discord's ``/ofc X`` and ``/ofcadmin X``, and the sandbox's ``/quit``."""
    from bot.discord.adapter import OfcAdminCommands, OfcCommands
    from bot.telegram.adapter import COMMANDS

    telegram = {name for name, _, _ in COMMANDS}
    made = (OfcCommands(cast(Any, None)), OfcAdminCommands(cast(Any, None)))  # (no adapter)
    groups = {group.name: {c.name for c in group.commands} for group in made}
    assert "/quit" in (ROOT / "bot" / "sandbox.py").read_text(encoding="utf-8")
    unknown = []
    for name, sub in re.findall(r"(?<![\w/.:<])/([a-z_]+)(?: ([a-z]+))?", text):
        if name in groups:
            if sub and sub not in groups[name]:  # (a bare /ofc: the group)
                unknown.append(f"/{name} {sub}")
        elif name not in telegram | {"quit"}:
            unknown.append(f"/{name}")
    return unknown


RU_GUIDE = ROOT / "docs" / "playing.ru.md"


def test_the_russian_guide_quotes_the_bots_own_texts_and_commands() -> None:
    """docs/playing.ru.md quotes in «» only what the bot shows in Russian (a button, a piece of
    a message, example values for its placeholders), and names only commands the bot has; a
    text reworded in bot/texts.py, the guide still quoting the old one, fails here."""
    text = RU_GUIDE.read_text(encoding="utf-8")
    assert _unknown_quotes(text, _russian_tables()) == []
    assert _unknown_commands(text) == []


def test_the_russian_guide_check_finds_a_broken_quote_or_command() -> None:
    """The check above is not vacuous: one word changed in a quote, a label in English, a
    made-up command or Discord subcommand is found."""
    tables = _russian_tables()
    text = RU_GUIDE.read_text(encoding="utf-8")
    for right, wrong in [
        ("«Сесть»", "«Сестъ»"),
        ("«✅ Подтвердить»", "«✅ Confirm»"),
        ("«Вы готовы: взнос 200 кушей на", "«Вы готовы: взнос 200 кушей в"),
        ("«Сохранено: время_на_раздачу = 90", "«Сохранили: время_на_раздачу = 90"),
    ]:
        assert right in text, right
        broken = text.replace(right, wrong, 1)
        assert _unknown_quotes(broken, tables) != [], wrong
    for right, wrong in [("`/sitout`", "`/sitdown`"), ("`/ofc join`", "`/ofc sit`")]:
        assert right in text, right
        assert _unknown_commands(text.replace(right, wrong, 1)) != [], wrong
    joined = "«Вы сели на место 2. Нажмите «Готов», чтобы внести взнос.»"
    assert _unknown_quotes(joined, tables) == []
    assert _unknown_quotes("«Вы сели на стул 2.»", tables) == ["Вы сели на стул 2."]


# -- the English guide's section on the other games (docs/playing.md) ---------------------------
#: a placeholder's value in the English quotes of that section: digits, signs, the example names
_EN_VALUE = r"[\d\s:.,+\-−–#%/×()@=•·]|🤖|Anna|Bob|Alice"


def _english_section(title: str) -> str:
    """The text of docs/playing.md's ``## title`` section, up to the next ``## `` heading."""
    text = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_english_guide_s_classic_and_chinese_section_quotes_the_bots_own_texts() -> None:
    """docs/playing.md's "Classic OFC and Chinese Poker" (the Russian guide's «Классический OFC
    и китайский покер» in English) quotes in "…" only what the bot shows in English, with
    example values: a text reworded in bot/texts.py, the section still quoting it, fails here;
    so does one word changed in a quote (the check is not vacuous)."""
    from bot.texts import TEXTS

    tables = [entry["en"] for entry in TEXTS.values()]
    section = _english_section("Classic OFC and Chinese Poker")

    def unknown(text: str) -> list[str]:
        quotes = [re.sub(r"\s+", " ", q) for q in re.findall(r'"([^"]+)"', text)]
        return [q for q in quotes if not any(_is_fragment(q, t, _EN_VALUE) for t in tables)]

    assert len(re.findall(r'"([^"]+)"', section)) == 6
    assert unknown(section) == []
    broken = section.replace("hand is dead", "hand is fouled", 1)
    assert unknown(broken) == ["⌛ Your time ran out: your hand is fouled and the game is over."]
    assert _unknown_commands(section) == []


#: the quotes of those sections that are names or words a player types, no text of the bot's
_EN_NOT_TEXTS = {"All Star", "Alice year", "Alex (2)", "Алена", "Алёна"}


def test_the_english_guide_s_statistics_and_errors_sections_quote_the_bots_own_texts() -> None:
    """docs/playing.md's "Statistics and replays" and "Errors and names" quote in "…" only
    what the bot says in English (each piece between "…" a fragment of one text, example
    values for its placeholders), but for the names of :data:`_EN_NOT_TEXTS`: they quoted
    "kush settled when the game ends" and "something went wrong, nothing changed", which the
    bot never said. Not vacuous: one word changed in a quote is found."""
    from bot.texts import TEXTS

    tables = [entry["en"] for entry in TEXTS.values()]
    value = _EN_VALUE + "|kush|Alice year"  # (a name typed with a word that is no period)

    def unknown(text: str) -> list[str]:
        quotes = [re.sub(r"\s+", " ", q) for q in re.findall(r'"([^"]+)"', text)]
        return [
            q
            for q in quotes
            if q not in _EN_NOT_TEXTS
            and not all(
                any(_is_fragment(p.strip(), t, value) for t in tables)
                for p in q.split("…")
                if p.strip()
            )
        ]

    stats = _english_section("Statistics and replays")
    errors = _english_section("Errors and names")
    assert unknown(stats) == []
    assert unknown(errors) == []
    broken = stats.replace("· settled when the game ends", "· kush settled when the game ends", 1)
    assert unknown(broken) == ["+7 pts, game 7/51 · kush settled when the game ends"]
