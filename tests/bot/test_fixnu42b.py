"""A new user's sandbox points (fixnu42b): each test fails without its fix."""

from __future__ import annotations

import ast
import io
from pathlib import Path

from bot.sandbox import GROUP_ID, Sandbox, SandboxOptions

ROOT = Path(__file__).resolve().parents[2]

# -- 1. the "leave?" question's button is not the kush label -------------------------------


async def test_the_russian_leave_question_names_the_button_not_a_kush_amount(
    tmp_path: Path,
) -> None:
    """On a full Russian table ``g2`` is Leave and asks first. Its text passed the button's
    name as ``label``, which :func:`bot.texts.tr` takes for the kush label: it read
    «g2 сейчас — «ед. «Встать»»». Now the button's name is printed as it is."""
    out = io.StringIO()
    opts = SandboxOptions(db=tmp_path / "s.sqlite3", bots=2, bot_delay=0.0, lang="ru")
    box = Sandbox(opts, out)
    await box.start()
    try:
        assert await box.handle("g1")  # Join (a free seat: Join is g1)
        shown = box.screen(GROUP_ID)
        assert shown is not None
        assert [label for label, _ in shown.buttons][:2] == ["Готов", "Встать"]
        start = len(out.getvalue().splitlines())
        assert await box.handle("g2")
        assert out.getvalue().splitlines()[start] == (
            "» g2 сейчас — «Встать»: наберите g2 ещё раз, чтобы встать из-за стола "
            "(или g встать). «Готов» — g1."
        )
    finally:
        await box.stop()


def _kush_label(node: ast.expr) -> bool:
    """Whether an argument reads as the kush label: a name or attribute called ``label`` or
    ``kush_label``, or a call on one (``rt.kush_label(community)``, ``_drawable(chart.label)``)."""
    if isinstance(node, ast.Name):
        return node.id in ("label", "kush_label", "DEFAULT_KUSH_LABEL")
    if isinstance(node, ast.Attribute):
        return node.attr in ("label", "kush_label")
    if isinstance(node, ast.Call):
        return _kush_label(node.func) or any(_kush_label(a) for a in node.args)
    return False


def test_every_tr_label_argument_is_the_kush_label() -> None:
    """``tr(..., label=X)`` makes X the kush label (Russian plural forms, «ед. «X»» for a
    word it cannot inflect): no call of the bot passes anything else under that name (the
    sandbox passed a button's name)."""
    wrong = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id != "tr":
                continue
            for kw in node.keywords:
                if kw.arg == "label" and not _kush_label(kw.value):
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(kw.value)}")
    assert wrong == []
