"""brk73: break-it on the "🂠 My cards" hand's writes (fix40a, fix40j): the answer to a press
on it refused or lost after a later step's refresh was queued."""

from __future__ import annotations

from pathlib import Path

from tests.bot.discord.dc_world import ALICE, World, action_of, components, world
from tests.bot.discord.test_fix39e_discord_writes import LIMITED, acting_dm, placed_on_top
from tests.bot.discord.test_fix40a_ephemeral_429 import Hands, never_back, open_hands
from tests.fakes.discord_api import GUILD_ID, ApiCall

UNKNOWN = {"message": "Unknown interaction", "code": 10062}
UNAVAILABLE = {"message": "503: Service Unavailable", "code": 0}


async def _dm_press_in_the_pause(w: World, h: Hands) -> None:
    """While the answer to a press placing ``a`` on the "My cards" hand waits out a 429,
    place ``b`` on the DM hand (once it shows ``a``) and wait for that press's answer."""
    await w.fake.wait_for(
        lambda: any(c.status == 429 for c in w.fake.calls_to("POST", "/interactions/"))
    )

    def dm_shows_a() -> bool:
        dm = w.dm(h.user)
        return dm is not None and placed_on_top(dm["content"]) == {h.a}

    await w.fake.wait_for(dm_shows_a)
    dm = w.dm(h.user)
    assert dm is not None
    r2 = await w.fake.press(h.user, dict(dm), w.buttons(dm)[("p", h.b + "t")])
    await w.settle(r2)
    assert r2.callback_type == 7


async def test_an_answer_refused_after_a_429_does_not_write_its_older_screen_last(
    tmp_path: Path,
) -> None:
    """The answer to a press on the "My cards" hand (placing ``a``) is refused with a 429;
    in the pause the player places ``b`` on the DM hand, whose refresh of "My cards" waits
    for that answer. Sent again, the answer is refused for good (404 10062: past Discord's
    3 s). The hand is written as after any refused answer, but with the newer screen: it
    ends showing both cards, never ``a`` alone after them. (The refused answer's screen was
    queued as the newest step, over the DM press's refresh: the hand showed ``a`` alone, a
    card behind its DM, until the next change.)"""
    async with world(tmp_path) as w:
        h = await open_hands(w)
        w.fake.fail_next["callback"] = [(429, dict(LIMITED, retry_after=3.0))]
        r1 = await w.fake.press(h.user, dict(h.mine), w.buttons(h.mine)[("p", h.a + "t")])
        # (its try after the pause refused: this press's alone)
        w.fake.outage(lambda _name, call: f"/interactions/{r1.id}/" in call.path, 404, UNKNOWN)
        await _dm_press_in_the_pause(w, h)
        calls = f"/interactions/{r1.id}/"
        await w.fake.wait_for(lambda: any(c.status == 404 for c in w.fake.calls_to("POST", calls)))
        w.fake.recover()
        await w.adapter.idle()
        await w.adapter.presenter.flush()
        assert r1.callback_type is None  # (refused)
        t = w.table()
        assert t.hand is not None and len(dict(t.hand.pending(t.hand.to_act[0]))) == 2
        tops = never_back(h.seen)
        assert tops and tops[-1] == {h.a, h.b}, h.seen
        now = w.ephemeral(h.user)
        assert now is not None and placed_on_top(now["content"]) == {h.a, h.b}
        assert [m.split(": ", 1)[1] for m in w.logged] == [
            f"could not answer interaction {r1.id}: 404 Not Found (error code: 10062): "
            "Unknown interaction"
        ]
        w.logged.clear()  # (the refused answer, on purpose)


async def test_a_move_made_while_my_cards_is_being_answered_reaches_the_new_hand(
    tmp_path: Path,
) -> None:
    """The player presses "🂠 My cards"; Discord posts the ephemeral hand but is slow to say
    so. Meanwhile they place a card on their DM hand. Once the answer comes back, the new
    "My cards" hand is written with that card: it showed the screen from before the move
    (made before it), and nothing refreshed it until the next change."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        a, first = places[0]
        held: list[ApiCall] = []

        def once(name: str, call: ApiCall) -> bool:
            if name == "callback" and not held:
                held.append(call)
                return True
            return False

        w.fake.hold(once, 5.0)
        msg = w.table_message()
        cid = next(c["custom_id"] for c in components(msg) if action_of(c) == "h")
        r0 = await w.fake.press(user, msg, cid)
        await w.fake.wait_for(lambda: bool(held))  # (posted, its answer held)
        r1 = await w.fake.press(user, dict(dm), first)
        await w.settle(r1)
        assert r1.callback_type == 7
        w.fake.recover()
        await w.settle(r0)
        assert r0.callback_type == 4 and r0.messages
        mine = int(r0.messages[-1])
        await w.adapter.idle()
        await w.adapter.presenter.flush()
        now = w.fake.messages[mine]
        assert placed_on_top(now["content"]) == {a}, now["content"]
        assert w.adapter.presenter.live_hand(str(user.id)) is not None


async def test_the_russian_word_for_all_is_suggested_as_all(tmp_path: Path) -> None:
    """/settings takes «все» and «всё» for ``all`` (every setting listed); typed into
    Discord's name option they found nothing (no name holds them), the admin left to guess
    that «все» works: ``all`` is suggested, as it is for "al". A Latin «о» in «взнoс»
    (a homoglyph) suggests nothing, and the command then says the name is unknown and
    offers взнос, nothing changed."""
    async with world(tmp_path) as w:
        for typed in ("все", "Всё", "вс", "al"):
            record = await w.fake.autocomplete(ALICE, "settings", "name", typed, group="ofcadmin")
            await w.settle(record)
            assert record.choices is not None
            assert [c["value"] for c in record.choices][:1] == ["all"], (typed, record.choices)
        record = await w.fake.autocomplete(ALICE, "settings", "name", "взнoс", group="ofcadmin")
        await w.settle(record)
        assert record.choices == []
        before = (await w.store.community("discord", str(GUILD_ID))).settings
        answer = await w.slash(ALICE, "settings", {"name": "взнoс", "value": "100"}, admin=True)
        text = answer["content"]
        assert text.startswith("“взнoс” is not a setting. Did you mean min_buy_in?"), text
        assert (await w.store.community("discord", str(GUILD_ID))).settings == before


async def test_a_move_made_while_my_cards_is_answered_twice_reaches_the_newer_hand(
    tmp_path: Path,
) -> None:
    """As above, the player pressing "🂠 My cards" twice: both answers held while they place
    a card on the DM hand. The newer hand, the one kept up to date, shows the card (the
    first answer took the move for its own hand, the second was posted with the older
    screen and nothing refreshed it)."""
    async with world(tmp_path) as w:
        user, dm, places = await acting_dm(w)
        a, first = places[0]
        held: list[ApiCall] = []

        def twice(name: str, call: ApiCall) -> bool:
            if name == "callback" and len(held) < 2 and call not in held:
                held.append(call)
                return True
            return call in held

        w.fake.hold(twice, 5.0)
        msg = w.table_message()
        cid = next(c["custom_id"] for c in components(msg) if action_of(c) == "h")
        r0 = await w.fake.press(user, msg, cid)
        await w.fake.wait_for(lambda: len(held) == 1)
        r00 = await w.fake.press(user, msg, cid)
        await w.fake.wait_for(lambda: len(held) == 2)
        r1 = await w.fake.press(user, dict(dm), first)
        await w.settle(r1)
        assert r1.callback_type == 7
        w.fake.recover()
        await w.settle(r0)
        await w.settle(r00)
        live = w.adapter.presenter.live_hand(str(user.id))
        assert live is not None and live.message_id == int(r00.messages[-1])
        now = w.fake.messages[live.message_id]
        assert placed_on_top(now["content"]) == {a}, now["content"]


async def test_a_my_cards_refresh_refused_with_a_503_is_written_again(tmp_path: Path) -> None:
    """Discord answers a "🂠 My cards" refresh with a 503 (discord.py raises it at once, as
    it does a 500 past its own tries): a failure for a while, not the hand dismissed. The
    refresh is written again, as a DM hand's edit is, and the hand stays kept up to date:
    it was dropped for good, showing the screen from before the move, and the player's
    next moves never reached it."""
    async with world(tmp_path) as w:
        h = await open_hands(w)
        w.adapter.presenter.edit_retries = (0.05, 0.1)
        w.fake.fail_next["edit_webhook_message"] = [(503, UNAVAILABLE)]
        r1 = await w.fake.press(h.user, dict(h.dm), h.first)
        await w.settle(r1)
        await w.fake.wait_for(lambda: bool(h.seen) and placed_on_top(h.seen[-1]) == {h.a})
        assert w.adapter.presenter.live_hand(str(h.user.id)) is not None
        dm = w.dm(h.user)
        assert dm is not None
        r2 = await w.fake.press(h.user, dict(dm), w.buttons(dm)[("p", h.b + "t")])
        await w.settle(r2)
        tops = never_back(h.seen)
        assert tops == [{h.a}, {h.a, h.b}], h.seen
        assert [c.status for c in w.fake.calls_to("PATCH", "/webhooks/")] == [503, 200, 200]
