"""A new user's findings (nu49): Chinese Poker's Claim / Continue offer (R7.5) says how long
the players at the target have to choose, as every turn on the table message does (R8.5); the
sandbox points a typed word to /help and prints a lobby written again unchanged once; a lobby
where only computer players are ready says the person's seat is freed, not that a hand starts
(R8.2)."""

from __future__ import annotations

from bot import render
from bot.service.chinese import CLAIM_SECONDS
from bot.texts import tr
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
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


async def test_the_sandbox_prints_a_table_message_edited_to_look_the_same_once() -> None:
    """The lobby after a showdown is written again under a new version (its buttons' data
    change, the text and labels do not): the sandbox printed the whole lobby twice, one
    copy under the other, as if something had changed. An edit that shows the same text
    and labels is not printed again; one whose labels change is."""
    import io

    from bot.sandbox import GROUP_ID, Sandbox, SandboxOptions
    from bot.telegram.fake_api import BOT_ID, ApiCall

    out = io.StringIO()
    box = Sandbox(SandboxOptions(), out)
    bot = {"id": BOT_ID, "is_bot": True, "first_name": "OFC"}

    def markup(data: str, label: str = "Join") -> dict[str, object]:
        return {"inline_keyboard": [[{"text": label, "callback_data": data}]]}

    def write(data: str, label: str = "Join", send: bool = False) -> None:
        box.fake.messages[(GROUP_ID, 8)] = {
            "message_id": 8, "text": "lobby", "from": bot, "reply_markup": markup(data, label),
        }  # fmt: skip
        params = {"chat_id": GROUP_ID, "text": "lobby", "reply_markup": markup(data, label)}
        if send:
            box._on_call(ApiCall("sendMessage", params, result={"message_id": 8}))
        else:
            box._on_call(ApiCall("editMessageText", {**params, "message_id": 8}))

    write("v1", send=True)
    await box.print_changes()
    write("v2")
    await box.print_changes()
    assert [x for x in out.getvalue().splitlines() if not x.startswith("──")] == [
        "lobby",
        "  [g1] Join",
    ]
    write("v3", label="Ready")
    await box.print_changes()
    assert out.getvalue().splitlines()[-2:] == ["lobby", "  [g1] Ready"]


async def test_r8_2_a_ready_timer_beside_computer_players_only_says_the_seat_is_freed() -> None:
    """R8.2: two computer players ready and Alice seated, not ready: the ready timer runs for
    her, and the lobby said "⏳ The hand starts in 60 seconds; whoever is not Ready by then
    stands up." No hand starts then (computer players never play each other): she is stood
    up and the table waits. It says what happens, as for a player seated during the hands:
    "⏳ Alice: press Ready to be dealt in; otherwise the seat is freed in 60 seconds." Once
    a person is ready the hand does start at the timer's end, and the lobby says so."""
    from tests.bot.test_bots import new_service
    from tests.bot.test_service import ALICE, BOB, GROUP

    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE, "ofc")  # (2-4 players: Bob sits down later)
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.add_bot(GROUP, ALICE, True, "easy")
    await service.join(GROUP, ALICE)
    lobby = presenter.tables[GROUP.chat_id][-1].text.splitlines()
    assert lobby[-1] == (
        "⏳ Alice: press Ready to be dealt in; otherwise the seat is freed in 60 seconds."
    )
    t = service.table_in(GROUP)
    assert t is not None
    ru = render.lobby_screen(t, "ru", None, clock.now + 20).text.splitlines()
    assert ru[-1] == (
        "⏳ Alice: нажмите «Готов», чтобы играть; иначе место освободится через 40 секунд."
    )
    await service.join(GROUP, BOB)
    await service.ready(GROUP, BOB)  # a person ready: the hand starts at the timer's end
    lobby = presenter.tables[GROUP.chat_id][-1].text.splitlines()
    assert lobby[-1] == tr("en", "lobby.ready_timer", seconds=60)
    await service.stop()
