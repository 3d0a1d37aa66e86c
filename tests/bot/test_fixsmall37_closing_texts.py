"""fixsmall37: what a table closing at the end of its hand (R8.2a) tells the people who
touch it meanwhile (``reply.table_closing``: a /join, Ready, /newtable…) and an admin who
closes it again (``reply.already_closing``) said nothing of the stacks, while
``/closetable``'s own answer mid-hand says they go back to the balances: each now says it
too, in Russian and English."""

from __future__ import annotations

from bot.texts import tr
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, seated

STACKS = {"en": "stacks go back to balances", "ru": "стеки вернутся на балансы"}


async def test_the_answers_of_a_closing_table_say_where_the_stacks_go(env) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, _store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    first = await service.close_table(GROUP, ALICE, True)
    assert STACKS["en"] in first.text and t.closing
    again = await service.close_table(GROUP, ALICE, True)
    assert again.alert and again.text == (
        f"Table #{t.id} is already set to close at the end of this hand; stacks go back to "
        "balances then."
    )
    again = await service.close_table(GROUP, BOB, True)  # (Bob reads Russian)
    assert again.text == (
        f"Стол #{t.id} и так закроется в конце этой раздачи; тогда стеки вернутся на балансы."
    )
    joined = await service.join(GROUP, CAROL)
    assert joined.alert and joined.text == (
        f"This chat's table #{t.id} closes at the end of this hand, stacks back to balances; "
        "then /newtable opens another."
    )
    assert t.seat_of(CAROL.user_id) is None


def test_every_closing_text_names_the_stacks_in_both_languages() -> None:
    stacks = {"en": "stacks back to balances", "ru": "стеки вернутся на балансы"}
    for lang in ("en", "ru"):
        assert STACKS[lang] in tr(lang, "reply.closes_after_hand", table=3)  # (/closetable's)
        assert STACKS[lang] in tr(lang, "reply.already_closing", table=3), lang
        assert stacks[lang] in tr(lang, "reply.table_closing", table=3), lang
    assert tr("ru", "reply.table_closing", table=3) == (
        "Стол #3 этого чата закроется в конце этой раздачи, стеки вернутся на балансы; затем "
        "/newtable откроет новый."
    )
