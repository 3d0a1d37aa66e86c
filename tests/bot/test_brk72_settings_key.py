"""brk72's finding in fix40f's ``POST /settings/<platform>``: it was signed with the key of
``/private`` (Telegram) or ``/discord``, and a signature covers the time, the nonce, the
worker's address and the body, not the path. A ``/private`` request captured on its way
and sent to ``/settings/telegram`` first was taken there (signature and nonce accepted,
then a 400 for its body), and the genuine request, arriving next, refused as a replay: the
player's news lost. Each settings route now has a key of its own."""

from __future__ import annotations

import json
from pathlib import Path

from aiohttp import ClientSession

from bot.cluster import internal_key
from tests.bot.test_fixcl38_private_life import BOB_ID, TOKEN, two_workers
from tests.waiting import until


async def test_r14_a_private_request_sent_to_the_settings_route_first_is_refused_there(
    tmp_path: Path,
) -> None:
    async with two_workers(tmp_path) as c:
        assert c.w2.keys["settings-telegram"] == internal_key(TOKEN, "settings-telegram")
        assert c.w2.keys["settings-telegram"] != c.w2.keys["private"]
        c.presenter2.blocked.discard(BOB_ID)
        captured: list[tuple[str, str, bytes]] = []
        refusal = c.w2.signatures.refusal

        def capture(route: str, header: str, body: bytes) -> str | None:
            if route == "private" and not captured:
                captured.append((route, header, body))
            return refusal(route, header, body)

        c.w2.signatures.refusal = capture  # type: ignore[method-assign]
        c.w1.private_life(BOB_ID, False, True)
        await until(lambda: not c.w1._telling, 15.0, "the telling done")
        await c.service2.rt.drain()
        ((_route, header, body),) = captured
        assert json.loads(body) == {"user": BOB_ID, "blocked": False}
        # the same signed request, sent to the settings route as someone who captured it
        # would (before the genuine one, in the real attack): refused for its key
        headers = {"Content-Type": "application/json", "X-OFC-Internal-Key": header}
        c.w2.signatures.refusal = refusal  # type: ignore[method-assign]
        c.w2.signatures._seen.clear()  # (as before the genuine request came)
        url = f"{c.w2.address}/settings/telegram"
        async with ClientSession() as http, http.post(url, data=body, headers=headers) as r:
            assert r.status == 403  # (was 400: signature and nonce taken)
        assert c.w2.signatures._seen == set()  # its nonce not taken: the genuine one goes
        assert refusal("private", header, body) is None
