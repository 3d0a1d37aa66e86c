"""The documentation a newcomer reads stays true: every relative link of README.md and
docs/*.md leads to a file (and heading) that exists, the settings reference is what the
settings' own descriptions say, and the rule book copy is the shared one."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
