"""The ⚠ fouled mark on a player's own private screen (R2.3): shown from the press whose
placement makes a foul certain, before Confirm, and never in the group; on the scripted hand
of ``test_stats_service`` (the loser's full house middle over a 7-high bottom)."""

from __future__ import annotations

from bot.service import TableService
from bot.texts import tr
from game.cards import parse_cards
from tests.bot.fakes import FakePresenter
from tests.bot.test_stats_service import ALICE, BOB, GROUP, env, hand_version, press_scripted

__all__ = ["env"]

MARK = {"en": tr("en", "private.fouled"), "ru": tr("ru", "private.fouled")}


async def test_the_own_screen_marks_a_certain_foul_before_confirm_and_the_group_never(
    env: tuple[TableService, FakePresenter, object],
) -> None:
    service, presenter, _store = env
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    by_user = {a.user_id: a for a in (ALICE, BOB)}
    # the first to act is dealt the royal flush, the other the hand that fouls
    loser = BOB if t.seats[t.hand.order[0]].user_id == ALICE.user_id else ALICE
    lang = {ALICE.user_id: "en", BOB.user_id: "ru"}
    fouling = parse_cards("3s")[0]  # the fifth middle card: full house over a 7-high bottom
    marked: list[bool] = []
    while t.hand_no == 1:
        assert t.hand is not None
        seat = t.hand.to_act[0]
        actor = by_user[t.seats[seat].user_id]
        for card in t.hand.current_cards(seat):
            await press_scripted(service, presenter, t, actor, card)
            screen = presenter.last_private(actor.user_id).text
            shown = MARK[lang[actor.user_id]] in screen
            if actor is loser:
                marked.append(shown)
                if card == fouling:  # this street's placement, not yet confirmed
                    assert shown, screen
            else:
                assert not shown, screen  # the winner's board never fouls
            for screens in presenter.tables.values():  # the group's message: never
                assert all(MARK["en"] not in s.text and "⚠" not in s.text for s in screens)
        version = hand_version(presenter.last_private(actor.user_id))
        reply = await service.press(actor, f"{t.id}:{version}:c")
        if actor is loser and t.hand.board_of(seat, with_pending=True).is_complete:
            # the fouled board's Confirm asks first (R2.3): the mark stays till the second
            assert reply.text == tr(lang[actor.user_id], "err.confirm_fouled")
            assert MARK[lang[actor.user_id]] in presenter.last_private(actor.user_id).text
            reply = await service.press(actor, f"{t.id}:{version}:c")
        assert not reply.alert, reply.text
    # unmarked until the foul was certain, marked from then on
    first = marked.index(True)
    assert not any(marked[:first]) and all(marked[first:]) and first > 5
