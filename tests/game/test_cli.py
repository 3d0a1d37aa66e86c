"""``python -m game score`` and ``python -m game simulate`` as subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = json.loads((ROOT / "tests" / "data" / "cases.json").read_text())


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_every_public_vector_passes_through_the_score_command() -> None:
    for case in CASES:
        proc = run(["score"], json.dumps(case["request"]))
        assert proc.returncode == 0, (case["id"], proc.stderr)
        assert json.loads(proc.stdout) == case["expect"], case["id"]


BASE = CASES[0]["request"]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r["boards"][0].update(top="Qs Qh"), "top box needs 3 cards"),
        (lambda r: r["boards"][1].update(top="Qs Td 4s"), "also on another board"),
        (lambda r: r["boards"][0].update(middle="Kd Kd 8s 8h 3h"), "duplicate card"),
        (lambda r: r.update(options={"no_such_option": True}), "unknown option: no_such_option"),
        (lambda r: r.update(game="poker"), "unknown game"),
        (lambda r: r["boards"][0].update(top="Qs Qh Xd"), "not a card"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line(mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    request = json.loads(json.dumps(BASE))
    mutate(request)
    proc = run(["score"], json.dumps(request))
    assert proc.returncode != 0
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


def test_not_json_is_refused() -> None:
    proc = run(["score"], "{boards")
    assert proc.returncode != 0 and len(proc.stderr.strip().splitlines()) == 1


def test_simulate_prints_one_object_per_hand_and_repeats_with_the_same_seed() -> None:
    args = ["simulate", "--game", "pineapple", "--players", "3", "--hands", "40", "--seed", "7"]
    first = run(args)
    second = run(args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    records = [json.loads(line) for line in first.stdout.splitlines()]
    assert [r["hand"] for r in records] == list(range(1, 41))
    for r in records:
        assert {"hand", "button", "seats"} <= set(r)
        assert len(r["seats"]) == 3
        assert sum(s["points"] for s in r["seats"]) == 0
        for s in r["seats"]:
            assert set(s) == {
                "seat",
                "fantasyland_cards",
                "top",
                "middle",
                "bottom",
                "discards",
                "fouled",
                "royalties",
                "points",
            }
            assert len(s["top"].split()) == 3 and len(s["bottom"].split()) == 5
            assert len(s["discards"].split()) == (
                s["fantasyland_cards"] - 13 if s["fantasyland_cards"] else 4
            )
    assert [r["button"] for r in records[:6]] == [2, 0, 1, 2, 0, 1]  # R3.3: the button moves
    other = run(["simulate", "--players", "3", "--hands", "40", "--seed", "8"])
    assert other.stdout != first.stdout


def test_simulate_refuses_bad_player_counts() -> None:
    proc = run(["simulate", "--players", "4"])
    assert proc.returncode != 0 and "2–3 players" in proc.stderr


def test_help_names_every_command_in_plain_text() -> None:
    """``python -m game --help`` as a newcomer reads it: its description names all three
    commands (it named ``score`` and ``simulate`` only) without the docstring's
    reStructuredText (it printed ````python -m game score````)."""
    proc = run(["--help"])
    assert proc.returncode == 0, proc.stderr
    description = proc.stdout.split("\n\n")[1].replace("\n", " ")
    assert description == (
        "Command line of the core: score boards (score), play whole hands (simulate) or a "
        "whole tournament (tournament) with the built-in strategy."
    )
    assert "``" not in proc.stdout


def test_score_help_says_what_stdin_takes() -> None:
    """``python -m game score --help``: it printed only "options: -h", while the command
    waits for a JSON request on stdin; now it says the request's shape and the answer's."""
    proc = run(["score", "--help"])
    assert proc.returncode == 0, proc.stderr
    description = " ".join(proc.stdout.split("\n\n")[1].split())
    assert description.startswith(
        "Reads one JSON request on stdin, the 'request' of a case in tests/data/cases.json: "
        '{"game": "pineapple" | "ofc" | "chinese", "boards": [{"top": "Qs Qh 2d",'
    )
    assert description.endswith(
        "fantasyland and fantasyland_cards per board (chinese: fouled and points). Bad "
        "input: one line on stderr, status 2."
    )
