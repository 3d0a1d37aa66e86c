"""A new user's findings (nu49): Chinese Poker's Claim / Continue offer (R7.5) says how long
the players at the target have to choose, as every turn on the table message does (R8.5)."""

from __future__ import annotations

from bot import render
from bot.service.chinese import CLAIM_SECONDS
from tests.bot.test_service_classic import ALICE, BOB, GROUP, configure, play_hand, start


async def test_r7_5_the_claim_offer_shows_the_time_left_to_choose(env) -> None:  # type: ignore[no-untyped-def]
    """R7.5: the bottom boxes put Alice past a 1-point target and the table message offers
    her Claim / Continue for 30 s, then the reveal goes on by itself; the offer said nothing
    of that time ("🏆 Alice reached 1 point: Claim to end the game now, or Continue the
    reveal."), though the message shows every turn's clock. It ends "⏱ 0:30" (the time left
    when written, as a turn's duration), or with the group's time zone set, the clock time
    the offer ends there ("⏱ until 12:00"), in both languages."""
    service, presenter, _store, clock = env
    await configure(service, target_points="1")
    await start(service, [ALICE, BOB], "chinese")
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand(service, presenter, [ALICE, BOB])
    assert t.reveal is not None and t.reveal["claim"] is not None
    assert CLAIM_SECONDS == 30
    sent = presenter.last_table(GROUP.chat_id).text.splitlines()
    offer = next(line for line in sent if line.startswith("🏆"))
    assert offer == (
        "🏆 Alice reached 1 point: Claim to end the game now, or Continue the reveal. ⏱ 0:30"
    )
    clock.now += 12
    later = render.group_screen(t, "ru", None, clock.now).text.splitlines()
    assert later[-1] == (
        "🏆 Alice: цель в 1 очко достигнута. «Закончить игру» — конец игры сейчас, "
        "«Продолжить» — вскрывать дальше. ⏱ 0:18"
    )
    ends = t.reveal["claim"]["deadline"]
    zoned = render.group_screen(t, "en", None, clock.now, zone=0).text.splitlines()
    assert zoned[-1].endswith(f"Continue the reveal. ⏱ until {render.clock_time(ends, 0)}")
    await service.stop()


async def test_a_word_typed_in_the_sandbox_is_pointed_to_help() -> None:
    """A newcomer's first word in the sandbox is often ``help`` (or ``помощь``): it was
    answered "type a button number (…) or a /command" without saying which commands there
    are. The hint names ``/help``, in both languages."""
    import io

    from bot.sandbox import Sandbox, SandboxOptions

    for lang, typed, tail in (
        ("en", "help", "or a /command (/help lists them)"),
        ("ru", "помощь", "или /команду (список — /help)"),
    ):
        out = io.StringIO()
        box = Sandbox(SandboxOptions(lang=lang), out)
        assert await box.handle(typed)
        assert out.getvalue().splitlines()[-1].endswith(tail), out.getvalue()
