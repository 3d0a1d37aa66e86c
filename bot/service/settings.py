"""Admin settings of a community (R8.1 and the rule options of R3–R8): the ``/settings``
message with its buttons, ``/settings <name> <value>``, and passing changes on to the
community's tables (between matches, R6.6)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Any

from bot.model import Reply
from bot.presses import SettingStep, encode
from bot.screens import Button, Screen
from bot.service.dealing import apply_pending
from bot.service.runtime import Runtime, TransitionFailed
from bot.texts import tr
from game.errors import OptionError
from game.options import GameKind, RuleOptions
from storage.api import Community, CommunitySettings

__all__ = [
    "PLAYABLE_GAMES",
    "SETTINGS",
    "change_setting",
    "settings",
    "settings_press",
    "settings_screen",
]

#: Games a table can be opened with.
PLAYABLE_GAMES: tuple[GameKind, ...] = (GameKind.PINEAPPLE, GameKind.OFC, GameKind.CHINESE)

# name → (kind, short code for buttons, step). Kinds: int settings of the community, option
# booleans/numbers of RuleOptions, and a few special ones.
SETTINGS: dict[str, tuple[str, str, float]] = {
    "min_buy_in": ("community", "mb", 50),
    "starting_balance": ("community", "sb", 500),
    "daily_bonus": ("community", "db", 50),
    "kush_label": ("community", "kl", 0),
    "language": ("community", "la", 0),
    "game": ("community", "gm", 0),
    "hand_seconds": ("option", "hs", 30),
    "time_bank_seconds": ("option", "tb", 30),
    "fantasyland_seconds": ("option", "fs", 30),
    "fantasyland": ("option", "fl", 0),
    "progressive_fantasyland": ("option", "pf", 0),
    "simultaneous_streets": ("option", "ss", 0),
    "safe_autoplay": ("option", "sa", 0),
    "button_moves_in_fantasyland": ("option", "bm", 0),
    "settle_per_round": ("option", "sr", 0),
    "scoring": ("option", "sc", 0),
    "kush_per_point": ("option", "kp", 1),
    "time_bank_refill_per_match": ("option", "tr", 15),
    "stay_on_full_house_middle": ("option", "st", 0),
    "deuce_of_spades": ("option", "ds", 0),
    "dummy_box": ("option", "dx", 0),
    "heads_up_double_boxes": ("option", "hd", 0),
    "target_points": ("option", "tp", 10),
    "reveal_pause_seconds": ("option", "rp", 1),
}
_BY_CODE = {code: name for name, (_, code, _) in SETTINGS.items()}


def settings_version(settings: CommunitySettings) -> str:
    """The version of the settings message: a digest of the settings (a press made on an
    older message is stale)."""
    digest = hashlib.sha1(json.dumps(settings.to_json(), sort_keys=True).encode()).hexdigest()
    return "S" + digest[:8]


def settings_screen(community: Community, lang: str) -> Screen:
    """The admin settings message: every setting with buttons to change it."""
    s = community.settings
    opts = s.rule_options()
    on, off = tr(lang, "settings.on"), tr(lang, "settings.off")
    v = settings_version(s)
    lines = [tr(lang, "settings.title")]
    rows: list[tuple[Button, ...]] = []
    for name, (kind, code, step) in SETTINGS.items():
        if kind == "community":
            value: Any = getattr(s, name)
            if name == "language":
                value = value or tr(lang, "settings.auto")
        else:
            value = getattr(opts, name)
            value = getattr(value, "value", value)
        if isinstance(value, bool):
            value = on if value else off
        lines.append(tr(lang, "settings.line", name=name, value=value))
        if name == "kush_label":
            continue
        if step:
            rows.append(
                (
                    Button(f"{name} −{step:g}", encode(SettingStep(0, v, code, "-"))),
                    Button(f"+{step:g}", encode(SettingStep(0, v, code, "+"))),
                )
            )
        else:
            rows.append((Button(f"{name} ⟳", encode(SettingStep(0, v, code, "~"))),))
    return Screen("\n".join(lines), tuple(rows))


async def settings(rt: Runtime, community: Community, lang: str, args: list[str]) -> Reply:
    """``/settings`` (show with buttons) or ``/settings <name> <value>`` (the caller checked
    that an admin asks, in the group)."""
    if not args:
        return Reply(screen=settings_screen(community, lang))
    name, value = args[0], " ".join(args[1:])
    if name not in SETTINGS or not value:
        return Reply(tr(lang, "reply.settings_usage", names=", ".join(SETTINGS)), alert=True)
    try:
        community = await change_setting(rt, community, name, value)
    except (ValueError, OptionError) as exc:
        return Reply(tr(lang, "reply.settings_bad", error=str(exc)), alert=True)
    return Reply(
        tr(lang, "reply.settings_saved", what=f"{name} = {value}"),
        screen=settings_screen(community, lang),
    )


async def change_setting(rt: Runtime, community: Community, name: str, value: str) -> Community:
    """Apply one setting and pass it on to the community's tables.

    :raises ValueError, OptionError: on a bad value (nothing is saved)."""
    s = community.settings
    kind = SETTINGS[name][0]
    if kind == "community":
        if name in ("min_buy_in", "starting_balance", "daily_bonus"):
            number = int(value)
            if number < (1 if name == "min_buy_in" else 0):
                raise ValueError(f"{name} must be positive")
            s = replace(
                s,
                min_buy_in=number if name == "min_buy_in" else s.min_buy_in,
                starting_balance=number if name == "starting_balance" else s.starting_balance,
                daily_bonus=number if name == "daily_bonus" else s.daily_bonus,
            )
        elif name == "kush_label":
            if not 1 <= len(value) <= 40:
                raise ValueError("label: 1–40 characters")
            s = replace(s, kush_label=value)
        elif name == "language":
            if value not in ("en", "ru", "auto"):
                raise ValueError("language: en, ru or auto")
            s = replace(s, language=None if value == "auto" else value)
        elif name == "game":
            kind_ = RuleOptions.preset(value).game
            if kind_ not in PLAYABLE_GAMES:
                raise ValueError("game: " + ", ".join(g.value for g in PLAYABLE_GAMES))
            s = replace(s, game=kind_.value)
    else:
        options = dict(s.options)
        options[name] = value
        RuleOptions.preset(s.game, **options)  # validates
        s = replace(s, options=options)
    community = await rt.store.update_settings(community.id, s)
    await settings_changed(rt, community)
    return community


async def settings_changed(rt: Runtime, community: Community) -> None:
    """The community's tables take the new settings: options between matches, the buy-in
    between hands (each table in a transition of its own)."""
    for t in list(rt.tables.values()):
        if t.community_id != community.id:
            continue
        async with t.lock:
            if t.id not in rt.tables:
                continue
            try:
                async with rt.transition(t) as tx:
                    t.pending_options = community.settings.rule_options()
                    t.pending_buy_in = community.settings.min_buy_in
                    t.label = community.settings.kush_label
                    if community.settings.language in ("en", "ru"):
                        t.lang = community.settings.language
                    if t.hand is None:
                        apply_pending(t)
                        tx.group = True
            except TransitionFailed:
                continue  # logged; the table keeps its settings and takes them next time


async def settings_press(rt: Runtime, community: Community, lang: str, p: SettingStep) -> Reply:
    """A press on the settings message (the caller checked the admin)."""
    if p.version != settings_version(community.settings):
        return Reply(tr(lang, "err.stale"), alert=True)
    op = p.op
    name = _BY_CODE.get(p.code)
    if name is None:
        return Reply(tr(lang, "err.forged"), alert=True)
    s = community.settings
    kind, _, step = SETTINGS[name]
    opts = s.rule_options()
    current: Any = getattr(s, name) if kind == "community" else getattr(opts, name)
    if op == "~":
        if isinstance(current, bool):
            value = "false" if current else "true"
        elif name == "language":
            order = [None, "en", "ru"]
            value = order[(order.index(current) + 1) % 3] or "auto"
        elif name == "scoring":
            value = "two_per_row" if current.value == "one_six" else "one_six"
        elif name == "game":
            games = [g.value for g in PLAYABLE_GAMES]
            value = games[(games.index(current) + 1) % len(games)] if current in games else games[0]
        else:
            return Reply(tr(lang, "err.forged"), alert=True)
    else:
        if not step:
            return Reply(tr(lang, "err.forged"), alert=True)
        number = float(current) + (step if op == "+" else -step)
        value = str(int(number)) if float(number).is_integer() else str(number)
    try:
        community = await change_setting(rt, community, name, value)
    except (ValueError, OptionError) as exc:
        return Reply(tr(lang, "reply.settings_bad", error=str(exc)), alert=True)
    return Reply(
        tr(lang, "reply.settings_saved", what=f"{name} = {value}"),
        screen=settings_screen(community, lang),
    )
