"""R8.2a: a table closed by an admin says so once. During a hand the group read "Стол #1
закрыт." (the closing message) and right under it "Стол #1 закрыт; стеки возвращены на
балансы: …" (a notice of its own)."""

from __future__ import annotations

from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_service_classic import ALICE, BOB, GROUP, play_hand, start
from tests.bot.test_transitions import player_balance_in


async def test_r8_2a_a_close_during_a_hand_is_one_message_naming_the_stacks() -> None:
    service, presenter, store, _ = service_env(next_hand_delay=5)
    await start(service, [ALICE, BOB], "ofc")
    assert (await service.close_table(GROUP, ALICE, True)).text == tr(
        "en", "reply.closes_after_hand_fl", table=1
    )
    shown = len(presenter.tables[GROUP.chat_id])
    posts = len(presenter.posts)
    await play_hand(service, presenter, [ALICE, BOB])
    assert service.table_in(GROUP) is None
    balances = [await player_balance_in(store, GROUP, a) for a in (ALICE, BOB)]
    closing = [s.text for s in presenter.tables[GROUP.chat_id][shown:] if "closed" in s.text] + [
        text for _chat, text in presenter.posts[posts:] if "closed" in text
    ]
    assert closing == [
        "Table #1 is closed; stacks returned to balances: "
        f"Alice {balances[0] - 800} kush, Bob {balances[1] - 800} kush."
    ], closing
    assert await check_store(store) == []
