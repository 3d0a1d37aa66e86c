"""The documentation a newcomer reads stays true: every relative link of README.md and
docs/*.md leads to a file (and heading) that exists, the settings reference is what the
settings' own descriptions say, and the rule book copy is the shared one."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

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
