"""Every text players read, in English and Russian.

``tr(lang, key, **values)`` formats one text; an unknown language falls back to English and a
missing Russian text to the English one. Keys are stable names; the core's error codes
(``GameError.code``) have texts here too, so a refused press gets a short localised notice.
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata
from decimal import Decimal
from typing import Any

from storage.api import DEFAULT_KUSH_LABEL

__all__ = [
    "DISCORD_DESCRIPTIONS_RU",
    "LANGS",
    "MINUS",
    "RUSSIAN_READERS",
    "TEXTS",
    "decimal",
    "group_from",
    "grouped",
    "grouped_tenths",
    "language_of",
    "minus",
    "on",
    "plural",
    "signed",
    "tr",
]

LANGS = ("en", "ru")
#: the language codes (Telegram's ``language_code``) of the players who read the Russian texts
RUSSIAN_READERS = ("ru", "uk", "be", "kk")

TEXTS: dict[str, dict[str, str]] = {
    # -- lobby and table ---------------------------------------------------------------------
    "game.pineapple": {"en": "Pineapple OFC", "ru": "Ананас (OFC)"},
    "game.ofc": {"en": "Classic OFC", "ru": "Классический OFC"},
    "game.chinese": {"en": "Chinese Poker", "ru": "Китайский покер"},
    "lobby.title": {
        "en": "🃏 {game} · table #{table}\nBuy-in {buy_in} {label} · 1 pt = {point} {label} · {players} players",
        "ru": "🃏 {game} · стол #{table}\nВзнос {buy_in} {label} · 1 очко = {point} {label} · игроков: {players}",
    },
    "lobby.empty": {"en": "No one seated yet. Press Join.", "ru": "Пока никого. Нажмите «Сесть»."},
    "lobby.seat": {"en": "{n}. {name} — {status}", "ru": "{n}. {name} — {status}"},
    # (Russian without «готов»: masculine beside every name, "🤖 Анна — готов")
    "lobby.ready": {"en": "ready ✅ {stack}", "ru": "✅ {stack}"},
    # after a stack (the table message's): a top-up since the last hand ended (R8.2)
    "board.topped_up": {"en": "(➕{amount} top-up)", "ru": "(докупка ➕{amount})"},
    "lobby.not_ready": {"en": "not ready", "ru": "ждём «Готов»"},
    "lobby.needs_top_up": {
        "en": "{stack} {label}: below one point, top up (➕ or /topup) to play",
        "ru": "{stack} {label}: меньше очка, докупите (➕ или /topup), чтобы играть",
    },
    "lobby.sitting_out": {"en": "sitting out ({stack})", "ru": "пропускает ({stack})"},
    "lobby.hint": {
        "en": "The hand starts when everyone seated (2+) has pressed Ready.",
        "ru": "Раздача начнётся, когда все за столом (от двух игроков) нажмут «Готов».",
    },
    "lobby.bots_wait": {
        "en": "🤖 Computer players do not play each other: press Join to play against them.",
        "ru": "🤖 Компьютерные игроки не играют между собой: нажмите «Сесть», чтобы сыграть с ними.",
    },
    "lobby.bots_wait_back": {
        "en": "🤖 Computer players do not play each other: press Ready (or /back) to play against them.",
        "ru": "🤖 Компьютерные игроки не играют между собой: нажмите «Готов» (или /back), чтобы сыграть с ними.",
    },
    "lobby.ready_timer": {
        "en": "⏳ The hand starts in {seconds:second|seconds}; whoever is not Ready by then stands up.",
        "ru": "⏳ Раздача через {seconds:секунду|секунды|секунд}; кто не нажмёт «Готов», встанет из-за стола.",
    },
    # the table message during a hand: a player seated meanwhile and bought in (a computer
    # player /addbot seated, a person who pressed Ready), dealt in from the next hand (R8.2)
    "board.next_hand_seat": {
        "en": "{name} — from the next hand",
        "ru": "{name} — со следующей раздачи",
    },
    "lobby.ready_window": {
        "en": "⏳ {name}: press Ready to be dealt in; otherwise the seat is freed in {seconds:second|seconds}.",
        "ru": "⏳ {name}: нажмите «Готов», чтобы играть; иначе место освободится через {seconds:секунду|секунды|секунд}.",
    },
    "lobby.stood_up": {
        "en": "Not ready in time, stood up: {names}.",
        "ru": "Не нажали «Готов» вовремя и встали из-за стола: {names}.",
    },
    # the same under two minutes, said in seconds ("no hand for 0 minutes" at 20 s)
    "table.idle_closed.s": {
        "en": "Table #{table} closed: no hand for {seconds:second|seconds}. Stacks are back in balances; anyone may open a new one: /newtable.",
        "ru": "Стол #{table} закрыт: {seconds:секунду|секунды|секунд} без раздач. Стеки вернулись на балансы; открыть новый может любой: /newtable.",
    },
    "table.idle_closed": {
        "en": "Table #{table} closed: no hand for {minutes:minute|minutes}. Stacks are back in balances; anyone may open a new one: /newtable.",
        "ru": "Стол #{table} закрыт: {minutes:минуту|минуты|минут} без раздач. Стеки вернулись на балансы; открыть новый может любой: /newtable.",
    },
    "lobby.top_up_timer": {
        "en": "⏳ {seconds:second|seconds} left to top up; whoever has not by then stands up.",
        "ru": "⏳ На докупку {seconds:секунда|секунды|секунд}; кто не докупит, встанет из-за стола.",
    },
    "lobby.next_hand": {
        "en": "Next hand in {seconds:second|seconds}…",
        "ru": "Следующая раздача через {seconds:секунду|секунды|секунд}…",
    },
    "lobby.next_hand_now": {"en": "Next hand now…", "ru": "Следующая раздача — сейчас…"},
    "press.busy": {
        "en": "⏳ The table is busy for a moment. If nothing changes, press again.",
        "ru": "⏳ Стол на секунду занят. Если ничего не изменилось, нажмите ещё раз.",
    },
    "btn.join": {"en": "Join", "ru": "Сесть"},
    "btn.leave": {"en": "Leave", "ru": "Встать"},
    "btn.ready": {"en": "Ready", "ru": "Готов"},
    "btn.back": {"en": "I'm back", "ru": "Вернуться"},
    "btn.my_cards": {"en": "🂠 My cards", "ru": "🂠 Мои карты"},
    "btn.top": {"en": "Top", "ru": "Верх"},
    "btn.middle": {"en": "Middle", "ru": "Середина"},
    "btn.bottom": {"en": "Bottom", "ru": "Низ"},
    "btn.discard": {"en": "✖ Discard", "ru": "✖ Сброс"},
    "btn.undo": {"en": "↩ Undo", "ru": "↩ Отменить"},
    "btn.confirm": {"en": "✅ Confirm", "ru": "✅ Подтвердить"},
    "btn.arrange": {"en": "🪄 Arrange for me", "ru": "🪄 Разложить"},
    "btn.refresh": {"en": "🔄 Refresh", "ru": "🔄 Обновить"},
    # -- board ------------------------------------------------------------------------------
    "board.title": {
        "en": "🃏 {game} · table #{table} · hand {hand}",
        "ru": "🃏 {game} · стол #{table} · раздача {hand}",
    },
    "board.button": {"en": "Button: {name}", "ru": "Баттон: {name}"},
    # the private nudge when a player's time bank starts (R8.5; the hand's title above it)
    "private.bank_started": {
        "en": "⏳ Your time bank has started · ⏱ {time} left, then your cards are placed for you.",
        "ru": "⏳ Пошёл ваш тайм-банк · ⏱ осталось {time}, затем карты разложат за вас.",
    },
    # the same with the group's time zone known (utc_offset): when the bank runs out, as a
    # clock time there with seconds ({at}: "18:42:30"), the bank's length after it; the
    # nudge stays in the chat, and "0:30 left" read later was stale
    "private.bank_started_until": {
        "en": "⏳ Your time bank has started · ⏱ until {at} ({time}), then your cards are "
        "placed for you.",
        "ru": "⏳ Пошёл ваш тайм-банк · ⏱ до {at} ({time}), затем карты разложат за вас.",
    },
    "board.turn": {"en": "▶ {names} to act · ⏱ {time}", "ru": "▶ Ход: {names} · ⏱ {time}"},
    "board.turns": {"en": "▶ To act ⏱ {turns}", "ru": "▶ Ходят ⏱ {turns}"},
    # the group message's clock of the player to act (R8.5): when the turn's budget ends, a
    # clock time in the group's time zone ({at}: "18:41"), the time bank after it
    "board.until": {"en": "until {at}", "ru": "до {at}"},
    "board.plus_bank": {"en": "(+{bank} time bank)", "ru": "(+{bank} тайм-банк)"},
    "board.plus_bank_short": {"en": "(+{bank})", "ru": "(+{bank})"},
    "board.bank_until": {"en": "time bank until {at}", "ru": "тайм-банк до {at}"},
    "board.street": {"en": "street {street}/{streets}", "ru": "улица {street}/{streets}"},
    "board.fantasyland": {"en": "🌴 Fantasyland", "ru": "🌴 Фантазия"},
    # a board hidden until showdown (R6.3, R4.5): one wording at the table and in /replay
    # (which read «скрыто до вскрытия» of what the table called «закрыто»), the table adding
    # how many cards: board.hidden_count
    "board.hidden": {"en": "🂠 hidden until showdown", "ru": "🂠 закрыто до вскрытия"},
    "board.hidden_count": {
        "en": "{hidden}: {count:card|cards}",
        "ru": "{hidden}: {count:карта|карты|карт}",
    },
    "board.hidden_street": {
        "en": "🂠 hidden until the street ends: {count:card|cards}",
        "ru": "🂠 закрыто до конца улицы: {count:карта|карты|карт}",
    },
    "board.placing": {"en": "placing: {cards}", "ru": "выкладывает: {cards}"},
    "board.done": {"en": "done", "ru": "готово"},
    "board.bank": {"en": "time bank", "ru": "тайм-банк"},
    "board.unreachable": {
        "en": "⚠ {names}: open a private chat with the bot (button below) to see your cards.",
        "ru": "⚠ {names}: откройте личный чат с ботом (кнопка ниже), чтобы видеть свои карты.",
    },
    "board.unreachable_button": {
        "en": "⚠ {names}: press 🂠 My cards below to see your cards.",
        "ru": "⚠ {names}: нажмите «🂠 Мои карты» ниже, чтобы видеть свои карты.",
    },
    "board.timed_out": {"en": "⌛ auto", "ru": "⌛ авто"},
    # a tournament player away (R8.7): their turns wait only a short grace
    "board.away": {"en": "💤 away", "ru": "💤 не на месте"},
    # -- private ----------------------------------------------------------------------------
    "private.title": {
        "en": "🃏 Table #{table} · hand {hand} · {street}",
        "ru": "🃏 Стол #{table} · раздача {hand} · {street}",
    },
    "private.your_turn": {
        "en": "Your move · ⏱ {time}. Put each card in a box{discard}, then Confirm.",
        "ru": "Ваш ход · ⏱ {time}. Разложите карты по боксам{discard} и нажмите «Подтвердить».",
    },
    # a street of one card (classic OFC's streets 2-9, R4.1), which discards none
    "private.your_turn_one": {
        "en": "Your move · ⏱ {time}. Put the card in a box, then Confirm.",
        "ru": "Ваш ход · ⏱ {time}. Положите карту в бокс и нажмите «Подтвердить».",
    },
    "private.away": {
        "en": "💤 You are away: your streets are placed for you after {seconds} s. Place a card to come back.",
        "ru": "💤 Вы не на месте: карты каждой улицы раскладываются за вас через {seconds} с. Положите карту, чтобы вернуться.",
    },
    "private.discard_hint": {
        "en": " (the card left over is discarded)",
        "ru": " (оставшаяся карта уйдёт в сброс)",
    },
    # a progressive Fantasyland of 15-17 cards discards 2-4 (R6.2)
    "private.discard_hint_many": {
        "en": " (the {n:card|cards} left over are discarded)",
        "ru": " (оставшиеся {n:карта|карты|карт} уйдут в сброс)",
    },
    # {names}: whose turn, with their time left: "🤖 Anna · ⏱ 1:52 + time bank 1:00"
    "private.waiting": {"en": "Waiting for {names}", "ru": "Ждём: {names}"},
    # classic OFC (R4.1): street 1's five cards, dealt face down to everyone at the start,
    # shown to their owner while they wait for their turn to place them
    "private.waiting_cards": {
        "en": "⏳ Wait for your turn (now: {names}).\nYour cards: {cards}",
        "ru": "⏳ Ждите своей очереди (сейчас: {names}).\nВаши карты: {cards}",
    },
    # the same cards of a double boxes player's other board (R4.2), on its line
    "private.other_waiting": {"en": "⏳ your cards: {cards}", "ru": "⏳ ваши карты: {cards}"},
    # a player who left during the hand (R8.5): the rest is placed for them, no waiting
    "private.leaving": {
        "en": "You are leaving: you stand up when this hand ends.",
        "ru": "Вы уходите: встанете, когда закончится эта раздача.",
    },
    "private.fouled": {
        "en": "⚠ fouled: a box ranks above the one below it",
        "ru": "⚠ мёртвая рука: бокс сильнее бокса под ним",
    },
    "private.fl_wait": {
        "en": "🌴 Fantasyland: you arrange after the others.",
        "ru": "🌴 Фантазия: вы раскладываете после остальных.",
    },
    "private.cards": {"en": "Your cards:", "ru": "Ваши карты:"},
    "private.over": {
        "en": "🃏 Table #{table} · hand {hand} is over. Result in the group.",
        "ru": "🃏 Стол #{table} · раздача {hand} окончена. Итоги в группе.",
    },
    "private.chat_gone": {
        "en": "Table #{table} is closed: the bot can no longer write where the table was. What you had at the table is back in your balance.",
        "ru": "Стол #{table} закрыт: бот больше не может писать туда, где был стол. Всё, что у вас было за столом, вернулось на баланс.",
    },
    "private.chat_gone_tour": {
        "en": "Tournament #{table} is cancelled: the bot can no longer write where it was played. {amount} {label} from its pool went to your balance.",
        "ru": "Турнир #{table} отменён: бот больше не может писать туда, где он шёл. Из его фонда вам на баланс: {amount} {label}.",
    },
    # the same for a seated player knocked out, whose place the pool pays nothing (R8.7: a
    # cancel refunds the buy-ins only while nobody is out)
    "private.chat_gone_tour_none": {
        "en": "Tournament #{table} is cancelled: the bot can no longer write where it was played. You were out in place {place}, with no prize: your buy-in is not refunded.",
        "ru": "Турнир #{table} отменён: бот больше не может писать туда, где он шёл. Вы выбыли на {place}-м месте без приза: ваш взнос не возвращается.",
    },
    # the same for a seated player who lost a finished tournament, out of the money (its
    # pool paid them nothing: not "0 kush from its pool went to your balance")
    "private.chat_gone_final_none": {
        "en": "Tournament #{table} is over: the bot can no longer write where it was played. You were out in place {place}, with no prize.",
        "ru": "Турнир #{table} окончен: бот больше не может писать туда, где он шёл. Вы выбыли на {place}-м месте без приза.",
    },
    "private.chat_gone_out": {
        "en": "Tournament #{table} is cancelled: the bot can no longer write where it was played. For your place {place}, {amount} {label} from its pool went to your balance.",
        "ru": "Турнир #{table} отменён: бот больше не может писать туда, где он шёл. За ваше {place}-е место из его фонда вам на баланс: {amount} {label}.",
    },
    "private.chat_gone_out_final": {
        "en": "Tournament #{table} is over: the bot can no longer write where it was played. For your place {place}, {amount} {label} from its pool went to your balance.",
        "ru": "Турнир #{table} окончен: бот больше не может писать туда, где он шёл. За ваше {place}-е место из его фонда вам на баланс: {amount} {label}.",
    },
    # an admin's close of a tournament (R8.7): each registered player told in private, one
    # of the first two, then one of the last three
    "private.admin_cancel": {
        "en": "Tournament #{table} was cancelled by an admin.",
        "ru": "Турнир #{table} отменён админом.",
    },
    "private.admin_over": {
        "en": "Tournament #{table} is over: an admin closed it.",
        "ru": "Турнир #{table} закрыт админом.",
    },
    # the same when the group's older table moved into the tournament's chat (its upgrade to
    # a supergroup, heard of after the tournament was opened there): no admin closed it
    "private.idle_cancel": {
        "en": "Tournament #{table} was cancelled: no hand was dealt for too long.",
        "ru": "Турнир #{table} отменён: слишком долго не было раздач.",
    },
    "private.idle_over": {
        "en": "Tournament #{table} is over: no hand was dealt for too long.",
        "ru": "Турнир #{table} окончен: слишком долго не было раздач.",
    },
    "private.abandoned_cancel": {
        "en": "Tournament #{table} was stopped: nobody played its last hands.",
        "ru": "Турнир #{table} остановлен: в последних раздачах никто не играл.",
    },
    "private.abandoned_over": {
        "en": "Tournament #{table} is over: nobody played its last hands.",
        "ru": "Турнир #{table} окончен: в последних раздачах никто не играл.",
    },
    "private.moved_cancel": {
        "en": "Tournament #{table} was cancelled: the group's older table moved into its chat.",
        "ru": "Турнир #{table} отменён: в его чат перешёл прежний стол группы.",
    },
    "private.moved_over": {
        "en": "Tournament #{table} is over: the group's older table moved into its chat.",
        "ru": "Турнир #{table} окончен: в его чат перешёл прежний стол группы.",
    },
    "private.pool_paid": {
        "en": "{amount} {label} from its pool went to your balance.",
        "ru": "Из его фонда вам на баланс: {amount} {label}.",
    },
    "private.pool_paid_place": {
        "en": "For your place {place}, {amount} {label} from its pool went to your balance.",
        "ru": "За ваше {place}-е место из его фонда вам на баланс: {amount} {label}.",
    },
    "private.pool_paid_none": {
        "en": "Your place {place} takes nothing from its pool.",
        "ru": "За ваше {place}-е место из его фонда вам ничего не причитается.",
    },
    # the same after a cancel (R8.7: the buy-ins come back only while nobody is out)
    "private.pool_paid_none_cancel": {
        "en": "You were knocked out in place {place}, which has no prize: your buy-in is not refunded (a cancel refunds buy-ins only while nobody is out).",
        "ru": "Вы выбыли на {place}-м месте, за которое приза нет: ваш взнос не возвращается (отмена возвращает взносы, только пока никто не выбыл).",
    },
    "private.over.discord": {
        "en": "🃏 Table #{table} · hand {hand} is over. Result in the channel.",
        "ru": "🃏 Стол #{table} · раздача {hand} окончена. Итоги в канале.",
    },
    "private.chat_gone_final": {
        "en": "Tournament #{table} is over: the bot can no longer write where it was played. {amount} {label} from its pool went to your balance.",
        "ru": "Турнир #{table} окончен: бот больше не может писать туда, где он шёл. Из его фонда вам на баланс: {amount} {label}.",
    },
    "private.none": {
        "en": "You have no hand at this table now.",
        "ru": "Сейчас у вас нет раздачи за этим столом.",
    },
    "private.no_hand": {
        "en": "You have no hand in play now.",
        "ru": "Сейчас у вас нет раздачи в игре.",
    },
    "private.sitting_out_self": {
        "en": "You sit out from the next hand on. /back to play again.",
        "ru": "Со следующей раздачи вы пропускаете игру. /back — вернуться в игру.",
    },
    "private.sitting_out": {
        "en": "⌛ Time ran out and your moves were made for you; you sit out from the next hand on. /back to play again.",
        "ru": "⌛ Время вышло, ходы сделаны за вас; со следующей раздачи вы пропускаете игру. /back — вернуться в игру.",
    },
    # during the hand, from the moment the clock made a move of theirs (R8.5, R8.6)
    "private.timed_out_now": {
        "en": "⌛ Time ran out: your moves are made for you. From the next hand you sit out; /back to play again.",
        "ru": "⌛ Время вышло: ходы делаются за вас. Со следующей раздачи вы пропускаете игру; /back — вернуться в игру.",
    },
    "private.timed_out_chinese": {
        "en": "⌛ Time ran out: your cards were set for you. The game ends after this hand.",
        "ru": "⌛ Время вышло: карты разложены за вас. Игра закончится после этой раздачи.",
    },
    # the end of that hand, on the same screen (R7.7): the board counts as fouled, the game ends
    "private.timed_out_chinese_over": {
        "en": "⌛ Your time ran out: your hand is dead and the game is over.",
        "ru": "⌛ Ваше время вышло: ваша рука мёртвая, игра окончена.",
    },
    "private.sitting_out_after_match": {
        "en": "⌛ Time ran out and your moves were made for you. The Fantasyland hand this one earned is played first, with you; then you sit out (/back to play again).",
        "ru": "⌛ Время вышло, ходы сделаны за вас. Раздачу Фантазии, заработанную в этой, вы ещё играете; затем пропускаете игру (/back — вернуться).",
    },
    "private.discarded": {"en": "discarded", "ru": "сброшена"},
    # -- showdown ---------------------------------------------------------------------------
    "showdown.title": {
        "en": "🏁 Showdown · table #{table} · hand {hand}",
        "ru": "🏁 Вскрытие · стол #{table} · раздача {hand}",
    },
    "showdown.fouled": {"en": "💀 foul", "ru": "💀 мёртвая рука"},
    "showdown.royalties": {"en": "royalties {n}", "ru": "роялти {n}"},
    "showdown.points": {"en": "{points:+d|pt|pts}", "ru": "{points:+d|очко|очка|очков}"},
    "showdown.kush": {"en": "{delta:+d} {label} → {stack}", "ru": "{delta:+d} {label} → {stack}"},
    "showdown.fl_next": {
        "en": "🌴 Fantasyland next ({cards} cards)",
        "ru": "🌴 дальше Фантазия: {cards:карта|карты|карт}",
    },
    # Fantasyland earned by a player the hand left below a point (R8.2): it goes with the
    # seat if they do not top up before the next deal (R6, bot.service.dealing.stand_up)
    "showdown.fl_if_top_up": {
        "en": "🌴 Fantasyland next ({cards} cards) only after a top-up; without one it goes with the seat",
        "ru": "🌴 дальше Фантазия: {cards:карта|карты|карт} — только после докупки, без неё она уходит вместе с местом",
    },
    "showdown.dummy": {"en": "Dummy board: {board}", "ru": "Болван: {board}"},
    # the showdown picture (bot/pictures.py): DejaVu Sans draws these, so no emoji
    "picture.title": {
        "en": "{game} · table #{table} · hand {hand}",
        "ru": "{game} · стол #{table} · раздача {hand}",
    },
    "picture.foul": {"en": "FOUL", "ru": "МЁРТВАЯ"},
    "picture.fl_next": {"en": "FANTASYLAND {cards}", "ru": "ФАНТАЗИЯ {cards}"},
    "picture.fl_if_top_up": {
        "en": "FL {cards} IF TOPPED UP",
        "ru": "ФАНТ. {cards} ПРИ ДОКУПКЕ",
    },
    "picture.fl_played": {"en": "in FL", "ru": "в Фантазии"},
    # some move made for the player: on timeout, or as they left (R8.5): the text's "⌛ auto"
    "picture.timed_out": {"en": "auto", "ru": "авто"},
    # a Chinese Poker board's game total, as the reveal's text gives it (reveal.player)
    "picture.total": {
        "en": "{total:pt|pts} (target {target})",
        "ru": "{total:очко|очка|очков} (цель {target})",
    },
    # the same without the target, where "N pts of T" does not fit (a fouled board's badge
    # next to the kush) or a picture stored before the target was kept with it
    "picture.total_only": {
        "en": "{total:pt|pts}",
        "ru": "{total:очко|очка|очков}",
    },
    # the unit of a board's points in the picture's corner ("+2 pts"), agreeing with them
    "picture.point_forms": {"en": "pt|pts", "ru": "очко|очка|очков"},
    "picture.chips": {"en": "chips", "ru": "фишки"},
    # the forms of "chip" agreeing with a number (one|other, Russian one|few|many)
    "picture.chip_forms": {"en": "chip|chips", "ru": "фишка|фишки|фишек"},
    "picture.dummy": {"en": "Dummy", "ru": "Болван"},
    "picture.player": {"en": "Player {n}", "ru": "Игрок {n}"},
    # /hand's title, as the private hand's (in the player's own private chat, their name on
    # the panel): "Ваша доска · стол #7 · раздача 7 · улица 1" wrapped on a one-board picture
    "picture.hand_title": {
        "en": "Table #{table} · hand {hand} · street {street}",
        "ru": "Стол #{table} · раздача {hand} · улица {street}",
    },
    # /hand's title for a hand dealt whole (Chinese Poker, Fantasyland): no street
    "picture.hand_title_whole": {
        "en": "Table #{table} · hand {hand}",
        "ru": "Стол #{table} · раздача {hand}",
    },
    "picture.to_place": {"en": "To place: {cards}", "ru": "Выложить: {cards}"},
    "picture.waiting": {
        "en": "Your cards (wait for your turn): {cards}",
        "ru": "Ваши карты (ждите своей очереди): {cards}",
    },
    "reply.hand_private": {
        "en": "Your board is yours alone: send /hand to me in the private chat.",
        "ru": "Ваша доска — только для вас: отправьте /hand мне в личный чат.",
    },
    "reveal.title": {
        "en": "🀄 Reveal · table #{table} · hand {hand}",
        "ru": "🀄 Вскрытие · стол #{table} · раздача {hand}",
    },
    # "(target N)", not "N of T": a total past the target read "14 points out of 10"
    "reveal.player": {
        "en": "{name} · {total:pt|pts} (target {target})",
        "ru": "{name} · {total:очко|очка|очков} (цель {target})",
    },
    "chinese.settle_note": {
        "en": "💰 Stacks change only when the game to {target} ends: it is settled then.",
        "ru": "💰 Стеки меняются только в конце игры до {target:очка|очков|очков}: тогда и расчёт.",
    },
    "chinese.score": {
        "en": "🎯 Game to {target}: {scores}",
        "ru": "🎯 Игра до {target:очка|очков|очков}: {scores}",
    },
    # R7.3: the point for winning two boxes of three (or all three) against an opponent, one
    # per opponent: one short wording under the box that decides it (the middle, when bottom
    # and middle are both won, else the top) and under the showdown picture's boards, where
    # {points} names the players ("⚙ Anna +1, Player +2": Player beat two opponents)
    "reveal.two_of_three": {
        "en": "2+ of 3 boxes (+1 per opponent): {points}",
        "ru": "2+ бокса из 3 (+1 с каждым соперником): {points}",
    },
    "reveal.claim": {
        "en": "🏆 {names} reached {target:point|points}: Claim to end the game now, or Continue the reveal.",
        "ru": "🏆 {names}: цель в {target:очко|очка|очков} достигнута. «Закончить игру» — конец игры сейчас, «Продолжить» — вскрывать дальше.",
    },
    "reveal.claimed": {"en": "🏆 {name} claimed the game.", "ru": "🏆 {name} забирает игру."},
    "reveal.game_over": {
        "en": "The game is over and settled.",
        "ru": "Игра окончена, расчёт произведён.",
    },
    "reveal.game_over_timeout": {
        "en": "⌛ {names}: time ran out, so the game ends here.",
        "ru": "⌛ {names}: время вышло, поэтому игра на этом окончена.",
    },
    # the game ends at its target (R7.6), whoever left or timed out in that hand
    "reveal.game_over_target": {
        "en": "🏆 {names} reached {target:point|points}, so the game ends here.",
        "ru": "🏆 {names}: цель в {target:очко|очка|очков} достигнута, игра окончена.",
    },
    # the target an admin changed during the hand (target_points), reached as it ended: the
    # reveal's frames showed the target the hand was played to
    "reveal.game_over_new_target": {
        "en": "🏆 {names} reached the game's new target, {target:point|points}, so the game ends here.",
        "ru": "🏆 {names}: новая цель игры, {target:очко|очка|очков}, достигнута, игра окончена.",
    },
    # ... and not reached: the game plays on to it from the next hand
    "reveal.new_target": {
        "en": "🎯 From the next hand the game plays to {target:point|points}.",
        "ru": "🎯 Со следующей раздачи игра идёт до {target:очка|очков|очков}.",
    },
    "reveal.game_over_left": {
        "en": "🚪 {names} left the table, so the game ends here.",
        "ru": "🚪 {names}: уход из-за стола, поэтому игра на этом окончена.",
    },
    "reveal.game_over_early": {
        "en": "Table #{table}: the Chinese Poker game is over and settled: {moves}.",
        "ru": "Стол #{table}: игра в китайский покер окончена, расчёт: {moves}.",
    },
    "reveal.game_over_chips": {
        "en": "The game is over; chips are settled.",
        "ru": "Игра окончена, фишки рассчитаны.",
    },
    # after a line that says why the game ends ("…so the game ends here"): not said twice
    "reveal.settled": {"en": "The game is settled.", "ru": "Расчёт произведён."},
    "reveal.settled_chips": {"en": "Chips are settled.", "ru": "Фишки рассчитаны."},
    "btn.claim": {"en": "🏆 Claim", "ru": "🏆 Закончить игру"},
    "btn.continue": {"en": "▶ Continue", "ru": "▶ Продолжить"},
    "reply.claimed": {"en": "You claimed the game.", "ru": "Вы забрали игру."},
    "reply.continued": {"en": "Continue.", "ru": "Продолжаем."},
    # a Claim pressed after the time to claim ran out, before the timer fired (R7.5)
    "err.claim_late": {
        "en": "⌛ Too late: the time to claim ran out; the reveal goes on.",
        "ru": "⌛ Поздно: время закончить игру вышло, вскрытие продолжается.",
    },
    # a Claim (or Continue) of the hand whose game was claimed already (R7.5)
    "err.already_claimed": {
        "en": "Already claimed: the game is over.",
        "ru": "Игра уже закончена.",
    },
    "err.not_claimant": {
        "en": "Only a player who reached the target may claim.",
        "ru": "Закончить игру может только тот, кто набрал нужные очки.",
    },
    "showdown.scoop": {"en": "scoop", "ru": "скуп"},
    "showdown.busted": {
        "en": "{name}: no {label} left — top up (➕ or /topup) before the next hand, or the seat is freed.",
        "ru": "{name}: стек 0 {label} — докупите (➕ или /topup) до следующей раздачи, иначе место освободится.",
    },
    "showdown.below_point": {
        "en": "{name}: {stack} {label} left, less than a point — top up (➕ or /topup) before the next hand, or the seat is freed.",
        "ru": "{name}: в стеке {stack} {label}, меньше очка — докупите (➕ или /topup) до следующей раздачи, иначе место освободится.",
    },
    "showdown.below_point_many": {
        "en": "Less than a point left: {names} — top up (➕ or /topup) before the next hand, or the seat is freed.",
        "ru": "В стеке меньше очка: {names} — докупите (➕ или /topup) до следующей раздачи, иначе место освободится.",
    },
    "lobby.point_raised_many": {
        "en": "A point now costs {point} {label}, more than the stacks of {names} — top up (➕ or /topup) before the next hand, or the seat is freed.",
        "ru": "Очко теперь стоит {point} {label:acc}, больше стеков: {names} — докупите (➕ или /topup) до следующей раздачи, иначе место освободится.",
    },
    "lobby.point_raised": {
        "en": "{name}: a point now costs {point} {label}, more than the stack ({stack}) — top up (➕ or /topup) before the next hand, or the seat is freed.",
        "ru": "{name}: очко теперь стоит {point} {label:acc}, больше стека ({stack}) — докупите (➕ или /topup) до следующей раздачи, иначе место освободится.",
    },
    # a newcomer paid the table's buy-in at Ready while a lower one waited for the match's
    # end; the lower one applies before their first hand: the difference back (R8.2)
    "lobby.buy_in_returned": {
        "en": "{name}: the buy-in is now {buy_in} {label}; {amount} {label} of the {paid} paid went back to the balance.",
        "ru": "{name}: взнос теперь {buy_in} {label}; из внесённых {paid} на баланс возвращено {amount} {label}.",
    },
    "lobby.busted_stood_up": {
        "en": "No top-up in time, the seat is free: {names}.",
        "ru": "Не докупили вовремя, место свободно: {names}.",
    },
    "lobby.fl_not_dealt": {
        "en": "Fantasyland not played, too few of the match's players are in: {names}.",
        "ru": "Фантазия не сыграна, в матче осталось мало игроков: {names}.",
    },
    "lobby.fl_forfeited": {
        "en": "The Fantasyland earned went with the seat: {names}.",
        "ru": "Заработанная Фантазия ушла вместе с местом: {names}.",
    },
    "btn.topup": {"en": "➕ Top up", "ru": "➕ Докупить"},
    "reply.topped_up": {
        "en": "Topped up: +{amount} {label}, stack {stack}.",
        "ru": "Докуплено: +{amount} {label}, стек {stack}.",
    },
    "reply.request_done": {
        "en": "Already done: this command was applied once.",
        "ru": "Уже сделано: эта команда выполняется только один раз.",
    },
    "reply.topup_range": {
        "en": "Top up from 1 to {room} {label} (a stack holds at most {max}). Usage: /topup N",
        "ru": "Докупить можно от 1 до {room} {label:gen} (в стеке не больше {max}). Формат: /topup N",
    },
    "reply.topup_range_balance": {
        "en": "Top up from 1 to {room} {label}, your balance (a stack holds at most {max}). Usage: /topup N",
        "ru": "Докупить можно от 1 до {room} {label:gen} — это ваш баланс (в стеке не больше {max}). Формат: /topup N",
    },
    "reply.topup_no_balance": {
        "en": "Your balance is empty: nothing to top up from.",
        "ru": "Баланс пуст: докупать не из чего.",
    },
    # a top-up the balance cannot pay (R8.2); the advice (reply.no_money_hint_tour) follows
    "reply.topup_no_money": {
        "en": "Not enough {label} for a top-up of {need}: you have {have}.",
        "ru": "Недостаточно средств на балансе: докупка {need} {label}, у вас {have}.",
    },
    "reply.topup_full": {
        "en": "Your stack is at the table's maximum ({max} {label}).",
        "ru": "Ваш стек уже максимальный: {max} {label}.",
    },
    "reply.topup_above": {
        "en": "Your stack ({stack} {label}) is above the table's maximum ({max} {label}): nothing to top up.",
        "ru": "Ваш стек ({stack} {label}) больше максимума стола ({max} {label}): докупать нечего.",
    },
    "reply.topup_queued": {
        "en": "Top-up of {amount} {label} queued: it is added when this hand ends.",
        "ru": "Докупка на {amount} {label:acc} принята: она пройдёт после этой раздачи.",
    },
    # /topup without an amount during the hand: the next hand's buy-in (one saved during the
    # hand applies as it ends); what happens and when first, why that amount after («Докупка
    # принята: 200 кушей (взнос следующей раздачи); она пройдёт после этой раздачи.» read
    # heavily: a colon, brackets, a semicolon and «раздачи» twice)
    "reply.topup_queued_buy_in": {
        "en": "Top-up of {amount} {label} queued for after this hand (the next hand's buy-in).",
        "ru": "Докупка на {amount} {label:acc} пройдёт после этой раздачи — это взнос следующей.",
    },
    # a second top-up of the same amount during the hand: it replaces the first (no sum)
    "reply.topup_already_queued": {
        "en": "Top-up of {amount} {label} is already queued (a new one replaces it, not adds): it is added when this hand ends.",
        "ru": "Докупка на {amount} {label:acc} уже принята (новая заменяет её, а не добавляется): она пройдёт после этой раздачи.",
    },
    "reply.topup_requeued": {
        "en": "Top-up changed from {before} to {amount} {label}: it is added when this hand ends.",
        "ru": "Докупка изменена: {amount} {label} вместо {before}; она пройдёт после этой раздачи.",
    },
    "lobby.topup_capped": {
        "en": "{name}: top-up of {amount} {label} cut to {added}: a stack holds at most {max} {label}.",
        "ru": "{name}: докупка на {amount} {label:acc} урезана до {added}: стек не больше {max} {label:gen}.",
    },
    "lobby.topup_not_needed": {
        "en": "{name}: top-up of {amount} {label} not made: the stack is at the table's maximum ({max} {label}).",
        "ru": "{name}: докупка на {amount} {label:acc} не прошла: стек уже максимальный ({max} {label}).",
    },
    "lobby.topup_above": {
        "en": "{name}: top-up of {amount} {label} not made: the stack ({stack} {label}) is above the table's maximum ({max} {label}).",
        "ru": "{name}: докупка на {amount} {label:acc} не прошла: стек ({stack} {label}) больше максимума стола ({max} {label}).",
    },
    # a queued top-up past the balance when the hand ended: what the balance had (R8.2)
    "lobby.topup_cut_balance": {
        "en": "{name}: top-up of {amount} {label} cut to {added}, the whole balance.",
        "ru": "{name}: докупка на {amount} {label:acc} урезана до {added} — это весь баланс.",
    },
    "lobby.topup_failed": {
        "en": "{name}: top-up of {amount} {label} not made, the balance has {have}.",
        "ru": "{name}: докупка на {amount} {label:acc} не прошла, на балансе только {have}.",
    },
    # a top-up queued during the hand, dropped as its player leaves the table (R8.2)
    "reply.topup_cancelled_leave": {
        "en": "Your queued top-up of {amount} {label} is cancelled: nothing was taken from "
        "your balance.",
        "ru": "Заказанная докупка на {amount} {label:acc} отменена: с баланса ничего не списано.",
    },
    # ... and as they leave the table because they left the group (or were removed from
    # it), told in private: they read the group no more (R8.2)
    "private.left_group_topup_cancelled": {
        "en": "You left the group, so you leave table #{table}: your queued top-up of {amount} "
        "{label} is cancelled, nothing was taken from your balance.",
        "ru": "Вы вышли из группы и поэтому покидаете стол #{table}: заказанная докупка на "
        "{amount} {label:acc} отменена, с баланса ничего не списано.",
    },
    "private.left_group_topup_cancelled.discord": {
        "en": "You left the server, so you leave table #{table}: your queued top-up of "
        "{amount} {label} is cancelled, nothing was taken from your balance.",
        "ru": "Вы вышли с сервера и поэтому покидаете стол #{table}: заказанная докупка на "
        "{amount} {label:acc} отменена, с баланса ничего не списано.",
    },
    "reply.topup_leaving": {
        "en": "You are leaving this table: no top-up.",
        "ru": "Вы уходите из-за стола: докупка не нужна.",
    },
    "reply.topup_not_ready": {
        "en": "Press Ready first: it buys you in.",
        "ru": "Сначала нажмите «Готов»: так вы вносите взнос.",
    },
    "showdown.settle_later": {
        "en": "Settlement comes after the full round.",
        "ru": "Расчёт — после полного круга.",
    },
    # -- replies ----------------------------------------------------------------------------
    "reply.table_opened": {"en": "Table #{table} is open.", "ru": "Стол #{table} открыт."},
    "reply.table_not_posted": {
        "en": "⚠ Table #{table}: its message could not be posted here. The bot needs to see "
        "and write in this chat; without that the table closes.",
        "ru": "⚠ Стол #{table}: не удалось опубликовать его сообщение здесь. Боту нужно видеть "
        "этот чат и писать в него; без этого стол закрывается.",
    },
    # Discord: a channel, and the permissions the bot lacks there (as the invite asks them)
    "reply.table_not_posted.discord": {
        "en": "⚠ Table #{table}: its message could not be posted here. The bot needs View "
        "Channels and Send Messages in this channel; without them the table closes.",
        "ru": "⚠ Стол #{table}: не удалось опубликовать его сообщение. Боту нужны права "
        "«Просматривать каналы» и «Отправлять сообщения» в этом канале, иначе стол закрывается.",
    },
    # Discord: a thread, where writing takes Send Messages in Threads (on the channel)
    "reply.table_not_posted.discord_thread": {
        "en": "⚠ Table #{table}: its message could not be posted here. The bot needs View "
        "Channels and Send Messages in Threads here; without them the table closes.",
        "ru": "⚠ Стол #{table}: не удалось опубликовать его сообщение. Боту нужны права "
        "«Просматривать каналы» и «Отправлять сообщения в ветках», иначе стол закрывается.",
    },
    # Discord: a private thread, which the bot sees only once added to it (a mention adds it)
    "reply.table_not_posted.discord_private": {
        "en": "⚠ Table #{table}: its message could not be posted here. The thread is private: "
        "add the bot to this thread (mention it here), or the table closes.",
        "ru": "⚠ Стол #{table}: не удалось опубликовать его сообщение. Ветка приватная: "
        "добавьте в неё бота (упомяните его здесь), иначе стол закрывается.",
    },
    "reply.tournament_opened": {
        "en": "Tournament #{table} is open: press Register to join.",
        "ru": "Турнир #{table} открыт: регистрация — кнопкой «Участвовать».",
    },
    "reply.table_exists": {
        "en": "This chat already has an open table (#{table}). To open another game, an admin closes it with /closetable (stacks go back to balances).",
        "ru": "Здесь уже открыт стол #{table}. Для другой игры админ сначала закрывает его: /closetable (стеки вернутся на балансы).",
    },
    "reply.table_exists.discord": {
        "en": "This channel already has an open table (#{table}). To open another game, an admin closes it with /closetable (stacks go back to balances).",
        "ru": "Здесь уже открыт стол #{table}. Для другой игры админ сначала закрывает его: /closetable (стеки вернутся на балансы).",
    },
    # a table closing at the end of its hand (R8.2a): the stacks said as /closetable says them
    "reply.table_closing": {
        "en": "This chat's table #{table} closes at the end of this hand, stacks back to balances; then /newtable opens another.",
        "ru": "Стол #{table} этого чата закроется в конце этой раздачи, стеки вернутся на балансы; затем /newtable откроет новый.",
    },
    "reply.table_closing.discord": {
        "en": "This channel's table #{table} closes at the end of this hand, stacks back to balances; then /newtable opens another.",
        "ru": "Стол #{table} этого канала закроется в конце этой раздачи, стеки вернутся на балансы; затем /newtable откроет новый.",
    },
    "reply.no_table": {
        "en": "No open table here. Start one with /newtable.",
        "ru": "Здесь нет открытого стола. Откройте: /newtable.",
    },
    "reply.wallet_in_group": {
        "en": "Each group keeps its own balances: use this command in the group where you play.",
        "ru": "У каждой группы свои балансы: отправьте эту команду в группе, где играете.",
    },
    "reply.wallet_in_group.discord": {
        "en": "Each server keeps its own balances: use this command in the server where you play.",
        "ru": "У каждого сервера свои балансы: отправьте эту команду на сервере, где играете.",
    },
    "reply.group_only": {
        "en": "This command works in a group chat.",
        "ru": "Эта команда работает в групповом чате.",
    },
    "reply.group_only.discord": {
        "en": "This command works in a server channel.",
        "ru": "Эта команда работает в канале сервера.",
    },
    "reply.group_only_tables": {
        "en": "This command works in a group chat: send it in your table's group.",
        "ru": "Эта команда работает в групповом чате: отправьте её в группе вашего стола.",
    },
    "reply.group_only_tables.discord": {
        "en": "This command works in a server channel: send it in your table's channel.",
        "ru": "Эта команда работает в канале сервера: отправьте её в канале вашего стола.",
    },
    "reply.your_table": {"en": "Table #{table}", "ru": "Стол #{table}"},
    "reply.your_table_out": {"en": "you sit out", "ru": "вы пропускаете игру"},
    "reply.game_unavailable": {
        "en": "That game is not available yet. Games: {games}.",
        "ru": "Эта игра пока недоступна. Игры: {games}.",
    },
    "reply.game_usage": {
        "en": "Usage: /{command} [game]. Games: {games}.",
        "ru": "Формат: /{command} [игра]. Игры: {games}.",
    },
    # the games /rules, /newtable and /tournament take (code names, and Russian ones too:
    # bot.service.settings.GAME_NAMES)
    "games.names": {
        "en": "pineapple, ofc, chinese",
        "ru": "pineapple (ананас), ofc (классический), chinese (китайский)",
    },
    "reply.unknown_game": {
        "en": "Unknown game “{game}”. Games: {games}.",
        "ru": "Неизвестная игра «{game}». Игры: {games}.",
    },
    "reply.joined": {
        "en": "You sit at seat {seat}. Press Ready to buy in.",
        "ru": "Вы сели на место {seat}. Нажмите «Готов», чтобы внести взнос.",
    },
    # the lobby's ready timer runs (R8.2): the seconds left of it, as the lobby counts them
    # (lobby.ready_window; "Press Ready within 0:05" read as a clock time)
    "reply.joined_timer": {
        "en": "You sit at seat {seat}. Press Ready to buy in; otherwise the seat is freed in "
        "{seconds:second|seconds}.",
        "ru": "Вы сели на место {seat}. Нажмите «Готов», чтобы внести взнос; иначе место "
        "освободится через {seconds:секунду|секунды|секунд}.",
    },
    # seated while a hand is played (R8.2): dealt in from the next hand, Ready within the window
    "reply.joined_mid_hand": {
        "en": "You sit at seat {seat}. You play from the next hand: press Ready to buy in within "
        "{seconds:second|seconds}.",
        "ru": "Вы сели на место {seat}. Играете со следующей раздачи: нажмите «Готов», чтобы "
        "внести взнос, в течение {seconds:секунды|секунд|секунд}.",
    },
    "reply.already_seated": {"en": "You are already seated.", "ru": "Вы уже за столом."},
    "reply.table_full": {"en": "The table is full.", "ru": "За столом нет мест."},
    "reply.table_full_until": {
        "en": "The table is full: {name} stands up after this hand.",
        "ru": "За столом нет мест: {name} встанет из-за стола после этой раздачи.",
    },
    "reply.not_seated": {"en": "You are not at this table.", "ru": "Вы не сидите за этим столом."},
    # Ready (pressed or /ready) from a member with no seat, a seat free: Join comes first
    "reply.join_first": {
        "en": "You are not at this table: press Join first.",
        "ru": "Вы не сидите за этим столом: сначала нажмите «Сесть».",
    },
    "reply.no_money": {
        "en": "Not enough {label}: the buy-in is {need}, you have {have}.",
        "ru": "Недостаточно средств на балансе: взнос {need} {label}, у вас {have}.",
    },
    # what to do about reply.no_money at a table (R8.2): the next line of the refusal
    "reply.no_money_hint": {
        "en": "Take the /daily bonus, or ask an admin for /grant or a lower buy-in (/settings min_buy_in).",
        "ru": "Возьмите бонус /daily или попросите админа о /grant либо о меньшем взносе (/settings взнос).",
    },
    "reply.no_money_hint_no_daily": {
        "en": "Ask an admin for /grant or a lower buy-in (/settings min_buy_in).",
        "ru": "Попросите админа о /grant либо о меньшем взносе (/settings взнос).",
    },
    # ... at a tournament, whose buy-in is fixed once it is open (R8.7)
    "reply.no_money_hint_tour": {
        "en": "Take the /daily bonus, or ask an admin for /grant.",
        "ru": "Возьмите бонус /daily или попросите админа о /grant.",
    },
    "reply.no_money_hint_tour_no_daily": {
        "en": "Ask an admin for /grant.",
        "ru": "Попросите админа о /grant.",
    },
    # after a no_money hint when today's /daily is taken: when the next one comes
    "reply.daily_next": {
        "en": "Next /daily in {hours} h {minutes} min.",
        "ru": "Следующий /daily — через {hours} ч {minutes} мин.",
    },
    "reply.ready": {
        "en": "Ready: {amount} {label} moved to the table.",
        "ru": "Вы готовы: взнос {amount} {label} на столе.",
    },
    "reply.already_ready": {"en": "You are already ready.", "ru": "Вы уже готовы."},
    "reply.busted_top_up": {
        "en": "Your stack ({stack} {label}) cannot pay a point: top up (➕ or /topup) to play.",
        "ru": "Вашего стека ({stack} {label}) не хватит на очко: докупите (➕ или /topup), чтобы играть.",
    },
    "reply.left": {
        "en": "You left the table; {amount} {label} back to your balance.",
        "ru": "Вы встали из-за стола; возвращено на баланс: {amount} {label}.",
    },
    "reply.left_nothing": {"en": "You left the table.", "ru": "Вы встали из-за стола."},
    "reply.leave_after_hand": {
        "en": "You leave after this hand. Your remaining cards are placed automatically "
        "and may foul; your stack comes back after the showdown.",
        "ru": "Вы встанете после этой раздачи. Оставшиеся карты будут разложены автоматически, "
        "и рука может оказаться мёртвой; стек вернётся после вскрытия.",
    },
    "reply.leave_after_hand_done": {
        "en": "You leave after this hand; your board is complete, and your stack comes back "
        "after the showdown.",
        "ru": "Вы встанете после этой раздачи; ваша рука уже разложена, стек вернётся после "
        "вскрытия.",
    },
    # the cards placed for a player leaving during their hand ended it in the leave's own
    # step (the last to act; a Fantasyland hand set last, R6.3): they stood up with it (R8.5)
    "reply.left_hand_ended": {
        "en": "Your remaining cards were placed and ended the hand: you left the table; "
        "{amount} {label} back to your balance.",
        "ru": "Оставшиеся карты разложены, и раздача закончилась: вы встали из-за стола; "
        "возвращено на баланс: {amount} {label}.",
    },
    "reply.left_hand_ended_nothing": {
        "en": "Your remaining cards were placed and ended the hand: you left the table.",
        "ru": "Оставшиеся карты разложены, и раздача закончилась: вы встали из-за стола.",
    },
    "reply.leave_after_reveal": {
        "en": "You leave when this reveal ends; the game to {target} ends then, settled for "
        "everyone, and your stack comes back.",
        "ru": "Вы встанете, когда закончится вскрытие; тогда же закончится игра до "
        "{target:очка|очков|очков} с расчётом для всех, и вернётся стек.",
    },
    # Chinese Poker (R7.7): cards placed for a leaver make a dead hand, whatever places them
    # (safe_autoplay too); a player of the game leaving ends it for everyone (R7.6)
    "reply.leave_confirm_chinese": {
        "en": "Leave during the hand? Your hand will be dead, and the game to {target} ends "
        "with this hand, settled for everyone. Press Leave again to confirm.",
        "ru": "Встать во время раздачи? Рука будет мёртвой, а игра до "
        "{target:очка|очков|очков} закончится этой раздачей с расчётом для всех. "
        "Нажмите «Встать» ещё раз, чтобы подтвердить.",
    },
    "reply.leave_confirm_typed_chinese": {
        "en": "Leave during the hand? Your hand will be dead, and the game to {target} ends "
        "with this hand, settled for everyone. Send /leave again to confirm.",
        "ru": "Встать во время раздачи? Рука будет мёртвой, а игра до "
        "{target:очка|очков|очков} закончится этой раздачей с расчётом для всех. "
        "Отправьте /leave ещё раз, чтобы подтвердить.",
    },
    "reply.leave_after_hand_chinese": {
        "en": "You leave after this hand. Your hand is dead, and the game to {target} ends "
        "with it, settled for everyone; your stack comes back then.",
        "ru": "Вы встанете после этой раздачи. Ваша рука мёртвая, а игра до "
        "{target:очка|очков|очков} закончится этой раздачей с расчётом для всех; тогда же "
        "вернётся стек.",
    },
    "reply.leave_after_hand_done_chinese": {
        "en": "You leave after this hand; your board is complete. The game to {target} ends "
        "with it, settled for everyone, and your stack comes back then.",
        "ru": "Вы встанете после этой раздачи; ваша рука уже разложена. Этой раздачей "
        "закончится игра до {target:очка|очков|очков} с расчётом для всех, тогда же вернётся "
        "стек.",
    },
    "reply.leave_after_hand_safe": {
        "en": "You leave after this hand. The bot places your remaining cards for you with "
        "its strategy; your stack comes back after the showdown.",
        "ru": "Вы встанете после этой раздачи. Оставшиеся карты бот разложит за вас по своей "
        "стратегии; стек вернётся после вскрытия.",
    },
    "reply.leave_confirm_safe": {
        "en": "Leave during your hand? The bot places your remaining cards for you with its "
        "strategy. Press Leave again to confirm.",
        "ru": "Встать во время раздачи? Оставшиеся карты бот разложит за вас по своей "
        "стратегии. Нажмите «Встать» ещё раз, чтобы подтвердить.",
    },
    "reply.leave_confirm": {
        "en": "Leave during your hand? Your remaining cards are placed automatically and may "
        "foul. Press Leave again to confirm.",
        "ru": "Встать во время раздачи? Оставшиеся карты будут разложены автоматически, и рука "
        "может оказаться мёртвой. Нажмите «Встать» ещё раз, чтобы подтвердить.",
    },
    "reply.leave_confirm_typed_safe": {
        "en": "Leave during your hand? The bot places your remaining cards for you with its "
        "strategy. Send /leave again to confirm.",
        "ru": "Встать во время раздачи? Оставшиеся карты бот разложит за вас по своей "
        "стратегии. Отправьте /leave ещё раз, чтобы подтвердить.",
    },
    "reply.leave_confirm_typed": {
        "en": "Leave during your hand? Your remaining cards are placed automatically and may "
        "foul. Send /leave again to confirm.",
        "ru": "Встать во время раздачи? Оставшиеся карты будут разложены автоматически, и рука "
        "может оказаться мёртвой. Отправьте /leave ещё раз, чтобы подтвердить.",
    },
    "reply.leave_cancelled": {
        "en": "You stay at the table: your leave is cancelled.",
        "ru": "Вы остаётесь за столом: уход отменён.",
    },
    "notice.left_after_hand_nothing": {
        "en": "👋 {name} left the table.",
        "ru": "👋 {name} встаёт из-за стола.",
    },
    "notice.left_after_hand": {
        "en": "👋 {name} left the table; {amount} {label} back to their balance.",
        "ru": "👋 {name} встаёт из-за стола; возвращено на баланс: {amount} {label}.",
    },
    # /kick NAME (admins): a seated person stood up as their own /leave would (R8.2, R8.5); the
    # answer is the group's one notice
    "reply.kick_usage": {
        "en": "Usage: /kick @user (or their name): stands a seated player up, or unregisters "
        "them from a tournament not started.",
        "ru": "Формат: /kick @игрок (или имя) — поднять игрока из-за стола или снять с "
        "регистрации в турнире до старта.",
    },
    # (in Russian the kicked player's name is the subject, the admin's part «по решению
    # админа»: no «он встанет», «его карты», «админ поднял», which give either a gender)
    "reply.kicked": {
        "en": "Admin stood {name} up; {amount} {label} back to their balance.",
        "ru": "{name} встаёт из-за стола по решению админа; возвращено на баланс: {amount} {label}.",
    },
    "reply.kicked_nothing": {
        "en": "Admin stood {name} up.",
        "ru": "{name} встаёт из-за стола по решению админа.",
    },
    "reply.kicked_after_hand": {
        "en": "Admin stood {name} up: they leave after this hand (their cards are placed "
        "for them as if their time ran out), their stack back to their balance then.",
        "ru": "{name} встанет из-за стола по решению админа после этой раздачи (карты "
        "разложатся автоматически, как если бы время вышло), стек вернётся на баланс.",
    },
    "reply.kicked_when_hand_ends": {
        "en": "Admin stood {name} up: they leave when this hand ends, their stack back to "
        "their balance then.",
        "ru": "{name} встанет из-за стола по решению админа, когда закончится эта раздача; "
        "стек вернётся на баланс.",
    },
    # the cards placed for the kicked player (R8.5) ended the hand at once: they stood up with
    # it (the showdown's notice says what went back to their balance)
    "reply.kicked_hand_ended": {
        "en": "Admin stood {name} up: the cards placed for them ended the hand, and they left "
        "with it.",
        "ru": "{name} встаёт из-за стола по решению админа: карты разложены автоматически, "
        "раздача завершена, место свободно.",
    },
    # Chinese Poker (R7.7, R7.6): the kicked player's hand is dead, the game ends for everyone
    "reply.kicked_after_hand_chinese": {
        "en": "Admin stood {name} up after this hand: their hand is dead, and the game to "
        "{target} ends with it, settled for everyone; their stack back then.",
        "ru": "{name} встанет из-за стола по решению админа после этой раздачи: рука мёртвая, "
        "и на этом закончится игра до {target:очка|очков|очков} с расчётом для всех; стек "
        "вернётся.",
    },
    "reply.kicked_game_ends_chinese": {
        "en": "Admin stood {name} up: they leave when this hand ends; the game to {target} "
        "ends then, settled for everyone, their stack back to their balance.",
        "ru": "{name} встанет из-за стола по решению админа в конце этой раздачи; "
        "тогда же закончится игра до {target:очка|очков|очков} с расчётом для всех, стек "
        "вернётся на баланс.",
    },
    "reply.kick_leaving": {
        "en": "{name} is leaving already: they stand up when this hand ends.",
        "ru": "{name} уже уходит: встанет, когда закончится эта раздача.",
    },
    # the player an admin's /kick stands up when the hand ends presses Join (R8.2): a kick
    # is not taken back by the player kicked (their own /leave is); after the hand, they may
    "reply.join_kicked": {
        "en": "An admin stood you up: you can join again after this hand.",
        "ru": "По решению админа вы встаёте из-за стола: сесть снова можно после этой раздачи.",
    },
    # the same in Chinese Poker: the player stands up when the game to the target ends, with
    # the hand or its reveal (R7.6, R7.4)
    "reply.join_kicked_chinese": {
        "en": "An admin stood you up: you can join again when the game to {target} ends.",
        "ru": "По решению админа вы встаёте из-за стола: сесть снова можно, когда закончится "
        "игра до {target:очка|очков|очков}.",
    },
    "reply.kick_not_seated": {
        "en": "{name} is not seated here.",
        "ru": "{name} не сидит за этим столом.",
    },
    "reply.kick_computer": {
        "en": "{name} is a computer player: /removebot {bare} stands it up.",
        "ru": "{name} — компьютерный игрок: чтобы убрать, наберите /removebot {bare}.",
    },
    "reply.kick_tournament": {
        "en": "Once a tournament has started, a seat is its player's own: only they leave it. "
        "/closetable cancels the whole tournament.",
        "ru": "В начавшемся турнире место освобождает только /leave того, кто на нём сидит. "
        "/closetable отменит весь турнир.",
    },
    # a /kick at a cash table told to the kicked player in private (they may not read the
    # group): stood up at once, the stack back (R8.2); with nothing at the table; when the
    # hand ends (R8.5)
    "private.kicked": {
        "en": "An admin stood you up at table #{table}; {amount} {label} back to your balance.",
        "ru": "По решению админа вы встали из-за стола #{table}; возвращено на баланс: "
        "{amount} {label}.",
    },
    "private.kicked_nothing": {
        "en": "An admin stood you up at table #{table}.",
        "ru": "По решению админа вы встали из-за стола #{table}.",
    },
    "private.kicked_later": {
        "en": "An admin stood you up at table #{table}: you leave when this hand ends, your "
        "stack back to your balance then.",
        "ru": "По решению админа вы встанете из-за стола #{table}, когда закончится эта "
        "раздача; тогда же стек вернётся на баланс.",
    },
    # the same in Chinese Poker: they stand up when the game to the target ends (R7.6)
    "private.kicked_later_chinese": {
        "en": "An admin stood you up at table #{table}: you leave when the game to {target} "
        "ends, settled for everyone; your stack back to your balance then.",
        "ru": "По решению админа вы встанете из-за стола #{table}, когда закончится игра до "
        "{target:очка|очков|очков} с расчётом для всех; тогда же стек вернётся на баланс.",
    },
    # the player kicked during a hand, told in private again when they stand up as it ends
    # (R8.5), their stack back then (R8.2)
    "private.kicked_stood_up": {
        "en": "The hand at table #{table} is over: you stood up, as an admin asked; {amount} "
        "{label} back to your balance.",
        "ru": "Раздача за столом #{table} закончилась: вы встали из-за стола по решению админа; "
        "возвращено на баланс: {amount} {label}.",
    },
    "private.kicked_stood_up_nothing": {
        "en": "The hand at table #{table} is over: you stood up, as an admin asked.",
        "ru": "Раздача за столом #{table} закончилась: вы встали из-за стола по решению админа.",
    },
    # the same in Chinese Poker: they stand up as the game to the target ends (R7.6), as
    # they were told when kicked (``private.kicked_later_chinese``)
    "private.kicked_stood_up_chinese": {
        "en": "The game to {target} at table #{table} is over: you stood up, as an admin "
        "asked; {amount} {label} back to your balance.",
        "ru": "Игра до {target:очка|очков|очков} за столом #{table} окончена: вы встали из-за "
        "стола по решению админа; возвращено на баланс: {amount} {label}.",
    },
    "private.kicked_stood_up_nothing_chinese": {
        "en": "The game to {target} at table #{table} is over: you stood up, as an admin asked.",
        "ru": "Игра до {target:очка|очков|очков} за столом #{table} окончена: вы встали из-за "
        "стола по решению админа.",
    },
    # a tournament still registering (R8.7): the kicked player unregistered, the buy-in back
    "reply.kicked_unregistered": {
        "en": "{name}: an admin withdrew them from the tournament; the buy-in, {amount} "
        "{label}, is back on their balance.",
        "ru": "{name}: регистрация в турнире снята админом, взнос {amount} {label} возвращён "
        "на баланс.",
    },
    # the same, told to the kicked player in private (they may not read the group)
    "private.kicked_unregistered": {
        "en": "An admin withdrew you from tournament #{table}; your buy-in, {amount} {label}, "
        "is back on your balance.",
        "ru": "Ваша регистрация в турнире #{table} снята админом; взнос {amount} {label} "
        "возвращён на баланс.",
    },
    "reply.already_leaving": {
        "en": "You are leaving this table: you stand up when this hand ends.",
        "ru": "Вы уходите из-за стола: встанете, когда закончится эта раздача.",
    },
    "reply.leave_after_round": {
        "en": "You leave table #{table} when this hand ends: your points are settled then.",
        "ru": "Вы встанете из-за стола #{table} в конце этой раздачи, тогда же будут рассчитаны ваши очки.",
    },
    "notice.left_group": {
        "en": "👋 {name} left the group and the table.",
        "ru": "👋 {name} покидает группу и встаёт из-за стола.",
    },
    "notice.left_group_later": {
        "en": "👋 {name} left the group and leaves the table after this hand "
        "(their moves are made for them).",
        "ru": "👋 {name} покидает группу и встанет из-за стола после этой раздачи "
        "(ходы будут сделаны автоматически).",
    },
    # Chinese Poker (R7.6, R7.7): a player of the game leaving ends it with this hand for
    # everyone; their hand is dead unless arranged already (the reveal: every card placed)
    "notice.left_group_dead_chinese": {
        "en": "👋 {name} left the group: their hand is dead, and the game to {target} ends "
        "with it, settled for everyone.",
        "ru": "👋 {name} покидает группу: рука мёртвая, и этой раздачей "
        "закончится игра до {target:очка|очков|очков} с расчётом для всех.",
    },
    "notice.left_group_later_chinese": {
        "en": "👋 {name} left the group: the game to {target} ends with this hand, settled for "
        "everyone.",
        "ru": "👋 {name} покидает группу: игра до {target:очка|очков|очков} закончится этой "
        "раздачей с расчётом для всех.",
    },
    "notice.left_group_unregistered": {
        "en": "👋 {name} left the group: their registration is withdrawn.",
        "ru": "👋 {name} покидает группу: регистрация снята.",
    },
    "notice.left_group.discord": {
        "en": "👋 {name} left the server and the table.",
        "ru": "👋 {name} покидает сервер и встаёт из-за стола.",
    },
    "notice.left_group_later.discord": {
        "en": "👋 {name} left the server and leaves the table after this hand "
        "(their moves are made for them).",
        "ru": "👋 {name} покидает сервер и встанет из-за стола после этой раздачи "
        "(ходы будут сделаны автоматически).",
    },
    "notice.left_group_dead_chinese.discord": {
        "en": "👋 {name} left the server: their hand is dead, and the game to {target} ends "
        "with it, settled for everyone.",
        "ru": "👋 {name} покидает сервер: рука мёртвая, и этой раздачей "
        "закончится игра до {target:очка|очков|очков} с расчётом для всех.",
    },
    "notice.left_group_later_chinese.discord": {
        "en": "👋 {name} left the server: the game to {target} ends with this hand, settled "
        "for everyone.",
        "ru": "👋 {name} покидает сервер: игра до {target:очка|очков|очков} закончится этой "
        "раздачей с расчётом для всех.",
    },
    "notice.left_group_unregistered.discord": {
        "en": "👋 {name} left the server: their registration is withdrawn.",
        "ru": "👋 {name} покидает сервер: регистрация снята.",
    },
    "reply.sitout_fantasyland": {
        "en": "Your Fantasyland is not played unless you are /back before the next deal.",
        "ru": "Ваша Фантазия не будет сыграна, если не вернуться (/back) до следующей раздачи.",
    },
    "reply.sitout": {
        "en": "You sit out from the next hand. /back to return.",
        "ru": "Со следующей раздачи вы пропускаете игру. /back — вернуться.",
    },
    "reply.back_before_sit_out_hand": {
        "en": "Welcome back: you play the next hand too.",
        "ru": "С возвращением: следующую раздачу вы тоже играете.",
    },
    "reply.back_before_sit_out": {
        "en": "Welcome back: you will not sit out after this match.",
        "ru": "С возвращением: после этого матча вы остаётесь в игре.",
    },
    "reply.back": {
        "en": "Welcome back: you play the next hand.",
        "ru": "С возвращением: вы играете со следующей раздачи.",
    },
    "reply.back_not_ready": {
        "en": "Welcome back: press Ready to buy in and play.",
        "ru": "С возвращением: нажмите «Готов», чтобы внести взнос и играть.",
    },
    "reply.not_sitting_out": {"en": "You are not sitting out.", "ru": "Вы и так в игре."},
    "reply.balance": {
        "en": "{name}: {balance} {label} on balance, {stack} at the table{elsewhere}.",
        "ru": "{name}: {balance} {label} на балансе, {stack} на столе{elsewhere}.",
    },
    # (the stacks at the community's other tables: a Discord server's other channels)
    "reply.balance_elsewhere": {
        "en": ", {other} at other tables here",
        "ru": ", {other} за другими столами здесь",
    },
    "reply.balance_tour": {
        "en": "{name}: {balance} {label} on balance; tournament #{table}: buy-in {buy_in} in "
        "the prize pool, {chips} chips.",
        "ru": "{name}: {balance} {label} на балансе; турнир #{table}: взнос {buy_in} в призовом "
        "фонде, фишек: {chips}.",
    },
    "reply.balance_tour_out": {
        "en": "{name}: {balance} {label} on balance; out of tournament #{table} in place "
        "{place}{prize}.",
        "ru": "{name}: {balance} {label} на балансе; вы выбыли из турнира #{table} (место "
        "{place}){prize}.",
    },
    "reply.balance_tour_prize": {
        "en": ", prize {prize} {label} when it ends",
        "ru": ", приз {prize} {label} — после его окончания",
    },
    # what /top without a period ranks (top.usage): the title said only "Top players", and
    # "1. Alice — 1121 kush" read as winnings as well as a balance
    "reply.top_title": {
        "en": "🏆 Top players · balance with stacks",
        "ru": "🏆 Лучшие игроки · баланс со стеками",
    },
    "reply.top_line": {
        "en": "{n}. {name} — {total} {label}",
        "ru": "{n}. {name} — {total} {label}",
    },
    "reply.top_empty": {"en": "No players yet.", "ru": "Пока нет игроков."},
    "reply.history_title": {"en": "Your last hands:", "ru": "Ваши последние раздачи:"},
    "reply.history_line": {
        "en": "Table #{table}, hand {hand}: {points:+d|pt|pts}, {kush:+d} {label}{foul}",
        "ru": "Стол #{table}, раздача {hand}: {points:+d|очко|очка|очков}, {kush:+d} {label}{foul}",
    },
    # a Chinese Poker cash hand before its game to the target ended: no kush moved yet (R7.6)
    "reply.history_line_game": {
        "en": "Table #{table}, hand {hand}: {points:+d|pt|pts}, game {total}/{target} · settled when the game ends{foul}",
        "ru": "Стол #{table}, раздача {hand}: {points:+d|очко|очка|очков}, игра {total}/{target} · расчёт в конце игры{foul}",
    },
    "reply.history_game_end": {
        "en": "Table #{table}, the Chinese Poker game settled: {kush:+d} {label}",
        "ru": "Стол #{table}, расчёт игры в китайский покер: {kush:+d} {label}",
    },
    "reply.history_round_end": {
        "en": "Table #{table}, the round settled: {kush:+d} {label}",
        "ru": "Стол #{table}, расчёт круга: {kush:+d} {label}",
    },
    "reply.history_empty": {"en": "No hands yet.", "ru": "Раздач пока нет."},
    # a Chinese Poker hand of the player's being revealed: it is recorded when its reveal ends
    # (R4.5, R7.5), and "No hands yet." alone was said of a hand they had played
    "reply.history_revealing": {
        "en": "Table #{table}, hand {hand}: being revealed; it is listed when the reveal ends.",
        "ru": "Стол #{table}, раздача {hand}: идёт вскрытие, в списке она будет после него.",
    },
    # -- statistics, leaderboard by period, replays (issue 12) --------------------------------
    "reply.history_replay": {
        "en": "#{id} · ",
        "ru": "#{id} · ",
    },
    "reply.history_hint": {
        "en": "/replay N — watch hand #N street by street",
        "ru": "/replay N — посмотреть раздачу #N по улицам",
    },
    "period.week": {"en": "last 7 days", "ru": "за 7 дней"},
    "period.month": {"en": "last 30 days", "ru": "за 30 дней"},
    "period.all": {"en": "all time", "ru": "за всё время"},
    "stats.title": {"en": "📊 {name} · {when}", "ru": "📊 {name} · {when}"},
    "stats.this_group": {"en": "This group", "ru": "Эта группа"},
    "stats.this_group.discord": {"en": "This server", "ru": "Этот сервер"},
    "stats.hands": {
        "en": "Hands: {hands} · points/hand {points} · {label}/hand {kush}",
        "ru": "Раздач: {hands} · за раздачу: {points:очко|очка|очков}, {kush} {label}",
    },
    # a player's hands all Chinese Poker: no open-face points per hand (its own points are
    # no net, R7.1: a figure of their own, stats.chinese_points)
    "stats.hands_chinese": {
        "en": "Hands: {hands} · {label}/hand {kush}",
        "ru": "Раздач: {hands} · за раздачу: {kush} {label}",
    },
    "stats.group_hands": {
        "en": "Hands: {hands} · players: {players}",
        "ru": "Раздач: {hands} · игроков: {players}",
    },
    "stats.tournament_hands": {
        "en": "Tournament hands: {hands} · points/hand {points} (chips, balance unchanged)",
        "ru": "Турнирных раздач: {hands} · за раздачу: {points:очко|очка|очков} (фишки, баланс не меняется)",
    },
    # a player's tournament hands all Chinese Poker: no open-face points (stats.hands_chinese)
    "stats.tournament_hands_chinese": {
        "en": "Tournament hands: {hands} (chips, balance unchanged)",
        "ru": "Турнирных раздач: {hands} (фишки, баланс не меняется)",
    },
    "stats.group_tournament_hands": {
        "en": "Tournament hands: {hands}",
        "ru": "Турнирных раздач: {hands}",
    },
    "stats.fouls": {
        "en": "Fouls: {pct} ({fouls} of {boards:board|boards})",
        "ru": "Мёртвые руки: {pct} ({fouls} из {boards:доски|досок|досок})",
    },
    "stats.royalties": {"en": "royalties/hand {n}", "ru": "роялти за раздачу: {n}"},
    # Chinese Poker's strength bonuses (R7.2), not the point for 2 of 3 boxes (R7.3): "bonus/hand
    # 0.0" read as if that point, just won twice, were not counted
    "stats.bonuses": {
        "en": "strength bonus/hand {n}",
        "ru": "бонус за комбинации за раздачу: {n}",
    },
    # {stays} of {played}: the Fantasyland hands played that earned it again (R6.4)
    "stats.fantasyland": {
        "en": "Fantasyland: {entered} · stayed {stays} of {played:time|times}",
        "ru": "Фантазия: {entered} · повтор {stays} из {played}",
    },
    "stats.fantasyland_entry": {"en": "Fantasyland: {entered}", "ru": "Фантазия: {entered}"},
    # the share of the hands that could earn Fantasyland that did (R6.1)
    "stats.fantasyland_entered": {
        "en": "entered in {pct} of hands",
        "ru": "попадание в {pct} раздач",
    },
    # no hand that could earn it ("попадание в — раздач" said nothing)
    "stats.fantasyland_entered_none": {"en": "entered —", "ru": "попадание —"},
    "stats.best": {
        "en": "Scoops (all three boxes): {scoops} · biggest win: {best}",
        "ru": "Скупов (все три бокса): {scoops} · крупнейший выигрыш: {best}",
    },
    "stats.tournaments": {
        "en": "Tournaments: {n} · prizes less buy-ins {kush:+d} {label}",
        "ru": "Турниров: {n} · призы за вычетом взносов: {kush:+d} {label}",
    },
    "stats.group_tournaments": {"en": "Tournaments: {n}", "ru": "Турниров: {n}"},
    "stats.total": {"en": "Net: {kush:+d} {label}", "ru": "Итого: {kush:+d} {label}"},
    "chart.net": {"en": "net {kush} {label}", "ru": "итог {kush} {label}"},
    "chart.caption": {
        "en": "📈 {name}: {label} over time ({when}), net {kush:+d} {label}",
        "ru": "📈 {name}: график {when}, итог {kush:+d} {label}",
    },
    # the group's biggest win, after "biggest win: " (stats.best) or "Biggest win: "
    "stats.best_win": {"en": "{won:+d} {label} ({name})", "ru": "{won:+d} {label} ({name})"},
    # Chinese Poker alone: no scoops (R5.2's, not R7's)
    "stats.biggest": {"en": "Biggest win: {best}", "ru": "Крупнейший выигрыш: {best}"},
    # the group's winnings and losses, every member's of every hand (not a net alone: 0
    # among members; winnings alone read as contradicting a member's "Net" below)
    # (fixnu5: "Members in all hands: won 0, lost 34 kush" read badly: "won 0" of what)
    "stats.group_moved": {
        "en": "Members won {won} {label}, lost {lost} {label}",
        "ru": "Участники выиграли {won} {label:acc}, проиграли {lost} {label:acc}",
    },
    # Chinese Poker's points per hand (R7.1: boxes won, no net), after its bonus/hand
    "stats.chinese_points": {
        "en": "Chinese Poker points/hand {n}",
        "ru": "очки китайского покера за раздачу: {n}",
    },
    "stats.none": {"en": "No hands played ({when}).", "ru": "Раздач не было ({when})."},
    "stats.player_none": {
        "en": "{name}: no hands ({when}).",
        "ru": "{name}: раздач нет ({when}).",
    },
    # /stats of a name no player here has: who has statistics, and what /stats alone shows
    "stats.unknown_hint": {
        "en": "Only those who played here have statistics. /stats alone: this group and you.",
        "ru": "Статистика есть только у тех, кто играл здесь. /stats без имени — группа и вы.",
    },
    "stats.unknown_hint.discord": {
        "en": "Only those who played here have statistics. /stats alone: this server and you.",
        "ru": "Статистика есть только у тех, кто играл здесь. /stats без имени — сервер и вы.",
    },
    # /stats with one word that is neither a player here nor a period ("/stats year"): the
    # periods too (no Discord wording: its period is an option with choices)
    "stats.unknown_or_period": {
        "en": "Only those who played here have statistics. /stats alone: this group and you; a period: week, month or all.",
        "ru": "Статистика есть только у тех, кто играл здесь. /stats без имени — группа и вы; период: неделя (week), месяц (month) или всё (all).",
    },
    # "/stats year": a period /stats has not (not read as a player's name)
    "stats.no_period": {
        "en": "/stats has no period “{period}”: week (last 7 days), month (last 30 days) or all.",
        "ru": "У /stats нет периода «{period}»: неделя (week), месяц (month) или всё (all).",
    },
    "stats.usage": {
        "en": "Usage: /stats [@user | me] [week | month | all]",
        "ru": "Формат: /stats [@игрок | я] [неделя | месяц | всё]",
    },
    "top.usage": {
        "en": "Usage: /top (by balance plus stacks at tables) or /top week | month | all (by winnings)",
        "ru": "Формат: /top (по балансу со стеками за столами) или /top неделя | месяц | всё (по выигрышу)",
    },
    "top.period_title": {
        "en": "🏆 Winnings · {when}",
        "ru": "🏆 Выигрыш · {when}",
    },
    "top.period_line": {
        "en": "{n}. {name} — {kush:+d} {label} · hands: {hands}",
        "ru": "{n}. {name} — {kush:+d} {label} · раздач: {hands}",
    },
    "replay.usage": {
        "en": "Usage: /replay N, where #N is a hand from /history",
        "ru": "Формат: /replay N, где #N — номер раздачи из /history",
    },
    "replay.unknown": {"en": "There is no hand #{n}.", "ru": "Раздачи #{n} нет."},
    "replay.not_yours": {
        "en": "Only the players of a hand may replay it.",
        "ru": "Повтор раздачи доступен только её игрокам.",
    },
    "replay.no_cards": {
        "en": "#{n} is a settlement, not a hand with cards to replay.",
        "ru": "#{n} — это расчёт, а не раздача с картами.",
    },
    # the frames of a replay not made within a press's time (bot/service/stats.py, _frames)
    "replay.busy": {
        "en": "⏳ The replay took too long to prepare. Try again in a moment.",
        "ru": "⏳ Повтор раздачи готовится слишком долго. Попробуйте ещё раз чуть позже.",
    },
    "replay.sent": {
        "en": "🎬 Replay of #{n} sent to your private chat.",
        "ru": "🎬 Повтор #{n} отправлен в личный чат.",
    },
    # (a command's answer that is the typer's alone, typed in a group: Telegram)
    "reply.sent_private": {
        "en": "Sent to your private chat.",
        "ru": "Отправлено вам в личный чат.",
    },
    "replay.no_private": {
        "en": "I cannot write to you privately: open a chat with me, press Start, then try again.",
        "ru": "Не могу написать вам в личный чат: откройте чат со мной, нажмите «Запустить» (Start) и повторите.",
    },
    # "table #1 · hand 2", as the table message and the reveal name them
    "replay.title": {
        "en": "🎬 #{n} · table #{table} · hand {hand}",
        "ru": "🎬 #{n} · стол #{table} · раздача {hand}",
    },
    "replay.street": {"en": "Street {street} of {streets}", "ru": "Улица {street} из {streets}"},
    "replay.streets": {
        "en": "Streets {first}–{street} of {streets}",
        "ru": "Улицы {first}–{street} из {streets}",
    },
    "replay.showdown": {"en": "Showdown", "ru": "Вскрытие"},
    "replay.you": {"en": "You", "ru": "Вы"},
    "replay.kush": {"en": "{delta:+d} {label}", "ru": "{delta:+d} {label}"},
    "replay.chips": {
        "en": "{delta:+d|chip|chips} → {chips}",
        "ru": "{delta:+d|фишка|фишки|фишек} → {chips}",
    },
    "replay.chips_game": {
        "en": "game {total}/{target} · {chips:chip|chips}, settled when the game ends",
        "ru": "игра {total}/{target} · {chips:фишка|фишки|фишек}, расчёт в конце игры",
    },
    "replay.kush_game": {
        "en": "game {total}/{target} · settled when the game ends",
        "ru": "игра {total}/{target} · расчёт в конце игры",
    },
    "replay.fl_dealt": {
        "en": "dealt: {cards}; set after the others' streets",
        "ru": "сдано: {cards}; раскладка после улиц остальных",
    },
    "replay.fl_dealt_at_once": {
        "en": "dealt: {cards}; set while the others played their streets",
        "ru": "сдано: {cards}; раскладка одновременно с улицами остальных",
    },
    "replay.bonus": {"en": "bonus {n} included", "ru": "в т. ч. бонус {n}"},
    "replay.discards": {"en": "Your discards: {cards}", "ru": "Ваш сброс: {cards}"},
    "reply.daily": {
        "en": "Daily bonus: +{amount} {label}. Balance {balance}.",
        "ru": "Ежедневный бонус: +{amount} {label}. Баланс {balance}.",
    },
    "reply.daily_taken": {
        "en": "You already took today's bonus. The next one in {hours} h {minutes} min.",
        "ru": "Бонус за сегодня уже получен. Следующий — через {hours} ч {minutes} мин.",
    },
    "reply.daily_off": {
        "en": "The daily bonus is off in this group.",
        "ru": "Ежедневный бонус в этой группе выключен.",
    },
    "reply.daily_off.discord": {
        "en": "The daily bonus is off on this server.",
        "ru": "Ежедневный бонус на этом сервере выключен.",
    },
    "reply.anonymous": {
        "en": "Sent as the group (an anonymous admin): send it as yourself to play.",
        "ru": "Отправлено от имени группы (анонимный админ): чтобы играть, пишите от своего имени.",
    },
    "reply.as_channel": {
        "en": "Sent on behalf of a channel: a channel does not play or run tables here. Send it as yourself.",
        "ru": "Отправлено от имени канала: канал здесь не играет и не управляет столами. Пишите от своего имени.",
    },
    "reply.admins_only": {
        "en": "Only group admins can do that.",
        "ru": "Это могут только админы группы.",
    },
    "reply.admins_only.discord": {
        "en": "Only members with Manage Server can do that.",
        "ru": "Это могут только участники с правом «Управлять сервером».",
    },
    "reply.granted": {
        "en": "{name}: {amount:+d} {label}, balance {balance}.",
        "ru": "{name}: {amount:+d} {label}, баланс {balance}.",
    },
    # a command that takes no words typed with some ("/leave now", "/balance @bob"): not run
    "usage.join": {
        "en": "/join takes no words; nothing was done. /join seats you at the first free seat, Ready then buys in, /topup N adds to your stack.",
        "ru": "/join пишется без параметров, ничего не сделано. /join сажает вас на первое свободное место, «Готов» вносит взнос, /topup N докупает в стек.",
    },
    "usage.ready": {
        "en": "/ready takes no words; nothing was done. /ready buys in with the table's buy-in, /topup N adds to your stack.",
        "ru": "/ready пишется без параметров, ничего не сделано. /ready вносит взнос стола, /topup N докупает в стек.",
    },
    "usage.leave": {
        "en": "/leave takes no words; nothing was done. /leave stands you up (during a hand, when it ends); admins close the table with /closetable.",
        "ru": "/leave пишется без параметров, ничего не сделано. /leave поднимает вас из-за стола (во время раздачи — после неё); стол закрывают админы: /closetable.",
    },
    "usage.sitout": {
        "en": "/sitout takes no words; nothing was done. /sitout skips hands, keeping your seat, until /back.",
        "ru": "/sitout пишется без параметров, ничего не сделано. /sitout пропускает раздачи, сохраняя ваше место, до /back.",
    },
    "usage.balance": {
        "en": "/balance takes no words; it shows your own balance. /top shows everyone's, /stats @user one player's statistics.",
        "ru": "/balance пишется без параметров и показывает ваш баланс. /top — балансы всех, /stats @игрок — статистика одного игрока.",
    },
    "usage.history": {
        "en": "Usage: /history [N]: your last N hands (1–20; 5 without N).",
        "ru": "Формат: /history [N] — ваши последние N раздач (1–20; без N — 5).",
    },
    "usage.hand": {
        "en": "/hand takes no words; it shows your board now as a picture. /replay N shows hand N street by street.",
        "ru": "/hand пишется без параметров и показывает вашу доску сейчас картинкой. /replay N — раздача N по улицам.",
    },
    "reply.grant_usage": {"en": "Usage: /grant @user N", "ru": "Формат: /grant @игрок N"},
    # an amount typed with nobody named ("/grant 1 000": a thousand, grouped as Russian
    # writes it): the player is what is missing; {whole} is the amount as a command takes it
    "reply.grant_whom": {
        "en": "Who gets {amount:+d} {label}? Nothing was granted. Name the player: /grant @user {whole}, or reply to their message with /grant {whole}.",
        "ru": "Кому {amount:+d} {label}? Ничего не начислено. Укажите игрока: /grant @игрок {whole} — или ответьте командой /grant {whole} на сообщение игрока.",
    },
    # "/grant 100 200" with no player of id 100 here: user 100 and 200, or 100 200 for whom?
    "reply.grant_id_or_amount": {
        "en": "Grant {amount} to user id {id}, or {whole} to someone? Nobody here has id {id}; nothing was granted. Name them with @ or reply to their message with /grant N.",
        "ru": "{amount} игроку с id {id} или {whole} кому-то? Игрока с id {id} тут нет; ничего не начислено. Укажите игрока через @ или ответьте /grant N на сообщение игрока.",
    },
    "reply.grant_which": {
        "en": "“{name}” gets {amount}, or “{other}” gets {grouped}? Nothing was granted. Say which: /grant {other} {whole} (amount without spaces), or /grant {amount} replying to their message.",
        "ru": "«{name}» получает {amount} или «{other}» получает {grouped}? Ничего не начислено. Уточните: /grant {other} {whole} (сумма без пробелов) или /grant {amount} ответом на сообщение игрока.",
    },
    "reply.number_comma": {
        "en": "Is “{value}” {whole} or {fraction}? Write {whole}, or {fraction} for the fraction.",
        "ru": "«{value}» — это {whole} или {fraction}? Напишите {whole} или, если дробь, {fraction}.",
    },
    "reply.number_thousands": {
        "en": "“{value}”: write {whole}, without the “{mark}”.",
        "ru": "«{value}»: напишите {whole}, без «{mark}».",
    },
    # an amount or a setting written with no digit at all ("/topup абв"): told it is no number,
    # not how to write one without separators (reply.number_digits)
    "reply.number_none": {
        "en": "That is not a number: write it in digits.",
        "ru": "Это не число: напишите его цифрами.",
    },
    # an amount or a whole-number setting refused as written ("1_000", "١٠٠"): its thousands
    # may be grouped as the bot writes them (bot.service.numbers.ungrouped)
    "reply.number_grouped": {
        "en": "Type the number with the digits 0–9, its thousands grouped or not (5000, 5,000 or 5 000; not 5_000).",
        "ru": "Набирайте число цифрами 0–9, тысячи можно отделить пробелом (5000 или 5 000; не 5_000).",
    },
    # a number of a setting that takes fractions (reveal_pause_seconds "1 000"): nothing
    # between its digits (a comma is its decimal sign in Russian)
    "reply.number_digits": {
        "en": "Type the number with the digits 0–9 only, without spaces or separators (1000, not 1 000 or 1_000).",
        "ru": "Набирайте число только цифрами 0–9, без пробелов и разделителей (1000, а не 1 000 или 1_000).",
    },
    # a fraction typed for a setting that takes whole numbers (kush_per_point 2.5)
    "reply.number_whole": {
        "en": "Whole numbers only: {nearest}, not {value}.",
        "ru": "Только целые числа: {nearest}, а не {value}.",
    },
    "reply.number_whole_only": {
        "en": "Whole numbers only, not {value}.",
        "ru": "Только целые числа, а не {value}.",
    },
    "reply.number_or": {"en": " or ", "ru": " или "},
    "reply.grant_bound": {
        "en": "Cannot grant that: the amount is a whole number from −{limit} to {limit} {label}.",
        "ru": "Нельзя: сумма — целое число от −{limit} до {limit} {label:gen}.",
    },
    "reply.grant_zero": {
        "en": "Cannot grant 0: the amount is a whole number from −{limit} to {limit} {label}, not 0.",
        "ru": "Нельзя начислить 0: сумма — целое число от −{limit} до {limit} {label:gen}, кроме 0.",
    },
    "reply.grant_balance_bound": {
        "en": "Cannot grant that: {name}'s balance would be above {limit} {label}.",
        "ru": "Нельзя: баланс игрока {name} превысил бы {limit} {label:acc}.",
    },
    # a /grant that went in over the limit (another grant at the same moment), of which the
    # balance no longer held all to take back (a buy-in or another admin's take meanwhile)
    "reply.grant_over_partial": {
        "en": "{name}'s balance went over {limit} {label} (two grants at once). Of this grant "
        "of {amount}, {taken} is taken back; {kept} was spent meanwhile and stays. Balance "
        "{balance}.",
        "ru": "Баланс игрока {name} превысил {limit} {label:acc} (две выдачи сразу). Из этой выдачи "
        "({amount}) забрано {taken}; {kept} уже потрачено и остаётся. Баланс {balance}.",
    },
    "reply.unknown_player": {
        "en": "No such player here: {name}.",
        "ru": "Здесь нет такого игрока: {name}.",
    },
    # /grant to a name (or a @username) no player here has: how to grant a member who has
    # not played here yet (a reply names them to the bot; a typed name cannot)
    "reply.grant_unknown": {
        "en": "No such player here: {name}. To grant a member who has not played here yet, reply to one of their messages with /grant N.",
        "ru": "Нет такого игрока: {name}. Чтобы начислить тому, кто здесь ещё не играл, ответьте командой /grant N на любое сообщение этого человека.",
    },
    "reply.grant_computer": {
        "en": "{name} is a computer player with a house account: /grant is for members.",
        "ru": "{name} — компьютерный игрок со счётом заведения: /grant — только для участников.",
    },
    "reply.grant_bot": {
        "en": "{name} is a bot account, which never plays: /grant is for members.",
        "ru": "{name} — бот, а не игрок: /grant — только для участников.",
    },
    "reply.grant_negative": {
        "en": "{name} has only {balance} {label}.",
        "ru": "У игрока {name} только {balance} {label}.",
    },
    "reply.settings_saved": {"en": "Saved: {what}.", "ru": "Сохранено: {what}."},
    "reply.settings_same": {"en": "Already so: {what}.", "ru": "Уже так: {what}."},
    # /settings <name> default: nothing stored any more, the setting follows its default
    "reply.settings_reset": {
        "en": "Back to default: {what}.",
        "ru": "Снова по умолчанию: {what}.",
    },
    "reply.settings_already_default": {
        "en": "Already default: {what}.",
        "ru": "Уже по умолчанию: {what}.",
    },
    # /settings kush_label reset (default, сброс …): a reset word, never a label
    "settings.label_reset_word": {
        "en": "“{word}” gives the label its default back; it cannot be a label itself.",
        "ru": "«{word}» возвращает название по умолчанию, поэтому само названием быть не может.",
    },
    # after a saved value: the one it replaced ("Saved: min_buy_in = 500 (was 200).")
    "settings.was": {"en": " (was {value})", "ru": " (было {value})"},
    # a kush label of digits alone ("10 000"): every amount read as two numbers (R8.1)
    "settings.label_chips": {
        "en": "“{unit}” would read as a tournament's chips: choose another unit, e.g. “coins” or “₽”",
        "ru": "«{unit}» легко спутать с турнирными фишками: выберите другую единицу, например «монеты» или «₽»",
    },
    # a kush label that shows nothing ("\u200b", a Braille blank): every amount had no unit
    "settings.label_blank": {
        "en": "the label shows nothing: type a unit with visible letters or a symbol, e.g. “coins” or “₽” (invisible characters are dropped)",
        "ru": "в названии не видно ни одного знака: нужна единица из видимых букв или символа, например «монеты», «coins» или «₽» (невидимые символы убираются)",
    },
    "settings.label_digits": {
        "en": "the label is shown after every amount (“500 coins”): a short unit with no digits or “=”, e.g. “coins” or “₽”",
        "ru": "название валюты стоит после каждой суммы («500 монет»): нужна короткая единица без цифр и «=», например «монеты», «coins» или «₽»",
    },
    # (a dash: the reasons name the setting with a colon, "kush_per_point: целое число …",
    # and "Нельзя установить: kush_per_point: …" read two colons in a row)
    "reply.settings_bad": {"en": "Cannot set that — {error}", "ru": "Нельзя установить — {error}"},
    # a refused /settings change (bot.service.settings.refusal_text): its reason names the
    # setting ("min_buy_in: целое число …"), or not («coins» …)
    "reply.setting_refused_named": {
        "en": "Cannot set that — {name}: {reason}",
        "ru": "Не удалось изменить {name}: {reason}",
    },
    "reply.setting_refused": {
        "en": "Cannot set that — {error}",
        "ru": "Не удалось изменить настройку — {error}",
    },
    "reply.settings_unknown": {
        "en": "“{name}” is not a setting.",
        "ru": "Настройки «{name}» нет.",
    },
    "reply.settings_no_name": {
        "en": "Name the setting to change.",
        "ru": "Укажите, какую настройку изменить.",
    },
    "settings.default_payouts": {
        "en": "default: winner takes all up to 3 players, 70/30 with 4",
        "ru": "по умолчанию: всё победителю до 3 игроков, 70/30 при 4",
    },
    "settings.default_chips_schedule": {
        "en": "default: 10, 15, 20, 30, 40, 60, 80, 100, 150, 200, then +100",
        "ru": "по умолчанию: 10, 15, 20, 30, 40, 60, 80, 100, 150, 200, дальше +100",
    },
    "reply.settings_did_you_mean": {
        "en": "Did you mean {names}?",
        "ru": "Может быть, {names}?",
    },
    "reply.settings_or": {"en": "{first} or {last}", "ru": "{first} или {last}"},
    "settings.list_hint": {
        "en": "/settings lists the changed settings, /settings all every one.",
        "ru": "Изменённые настройки: /settings, все: /settings all.",
    },
    "reply.settings_one_at_a_time": {
        "en": "One setting at a time: {first}, then {second}. Nothing was changed.",
        "ru": "По одной настройке за раз: {first}, затем {second}. Ничего не изменено.",
    },
    "reply.settings_usage_short": {
        "en": "Usage: /settings <name> <value> (value default: back to its default); /settings <name> explains one, /settings all lists them all.",
        "ru": "Формат: /settings <имя> <значение> (значение «по умолчанию» — вернуть исходное); /settings <имя> — описание настройки, /settings all — все настройки.",
    },
    "reply.private_linked": {
        "en": "Your cards for table #{table} are above.",
        "ru": "Ваши карты за столом #{table} — выше.",
    },
    "reply.private_elsewhere": {
        "en": "Your cards for table #{table}: {link}",
        "ru": "Ваши карты за столом #{table}: {link}",
    },
    "reply.private_seated": {
        "en": "You are at table #{table}: your cards come here when you are dealt in.",
        "ru": "Вы за столом #{table}: карты придут сюда, когда вам раздадут.",
    },
    "reply.welcome": {
        "en": "Hi! Add me to a group and start a table with /newtable. /help for commands.",
        "ru": "Привет! Добавьте меня в группу и откройте стол: /newtable. Команды: /help.",
    },
    "reply.hand_cancelled": {
        "en": "⚠ Table #{table}: the hand could not be continued after a restart and was cancelled; every stack was refunded.",
        "ru": "⚠ Стол #{table}: раздачу не удалось продолжить после перезапуска, она отменена; все стеки возвращены.",
    },
    "reply.table_closed": {"en": "Table #{table} is closed.", "ru": "Стол #{table} закрыт."},
    "reply.table_closed_cashed": {
        "en": "Table #{table} is closed; stacks returned to balances: {stacks}.",
        "ru": "Стол #{table} закрыт; стеки возвращены на балансы: {stacks}.",
    },
    # one player's stack in reply.table_closed_cashed
    "close.stack": {"en": "{name} {amount} {label}", "ru": "{name} {amount} {label}"},
    "bot.added": {
        "en": "{name} ({level}) sits down: a computer player staked by the house.",
        "ru": "{name} садится за стол (уровень: {level}): компьютерный игрок на средства заведения.",
    },
    "bot.removed": {"en": "{name} stands up.", "ru": "{name} встаёт из-за стола."},
    "bot.left_after_hand": {"en": "{name} left the table.", "ru": "{name} покидает стол."},
    "bot.removed_after_hand": {
        "en": "{name} stands up after this hand.",
        "ru": "{name} встанет из-за стола после этой раздачи.",
    },
    "bot.all_leaving": {
        "en": "Every computer player here stands up after this hand already.",
        "ru": "Все компьютерные игроки и так встанут после этой раздачи.",
    },
    "bot.unknown": {
        "en": "No computer player “{name}” is seated. Seated: {seated}. Usage: /removebot [name]",
        "ru": "Компьютерного игрока «{name}» за столом нет. За столом: {seated}. "
        "Формат: /removebot [имя]",
    },
    # the table's opener left their seat: the right passed to the player seated longest
    "bot.opener_passed": {
        "en": "{name} may now seat computer players: /addbot",
        "ru": "Теперь сажать компьютерных игроков может {name}: /addbot",
    },
    # who may, now: the player the opener's right passed to (or the opener, seated)
    "bot.admins_or_name": {
        "en": "Only group admins and {name} can seat or stand up computer players.",
        "ru": "Сажать и убирать компьютерных игроков могут только админы группы и {name}.",
    },
    "bot.admins_or_name.discord": {
        "en": "Only members with Manage Server and {name} can seat or stand up computer players.",
        "ru": "Сажать и убирать компьютерных игроков могут только участники с правом «Управлять сервером» "
        "и {name}.",
    },
    # the opener left with nobody seated: whoever sits down next takes their place
    "bot.admins_or_next": {
        "en": "Only group admins and the next player to sit down can seat or stand up computer "
        "players.",
        "ru": "Сажать и убирать компьютерных игроков могут только админы группы и тот, "
        "кто следующим сядет за стол.",
    },
    "bot.admins_or_next.discord": {
        "en": "Only members with Manage Server and the next player to sit down can seat or stand "
        "up computer players.",
        "ru": "Сажать и убирать компьютерных игроков могут только участники с правом «Управлять сервером» "
        "и тот, кто следующим сядет за стол.",
    },
    "bot.admins_or_opener": {
        "en": "Only group admins and the table's opener can seat or stand up computer players.",
        "ru": "Сажать и убирать компьютерных игроков могут только админы группы и тот, "
        "кто открыл стол.",
    },
    "bot.admins_or_opener.discord": {
        "en": "Only members with Manage Server and the table's opener can seat or stand up computer players.",
        "ru": "Сажать и убирать компьютерных игроков могут только участники с правом «Управлять сервером» "
        "и тот, кто открыл стол.",
    },
    # never expected (the house grants in the buy-in's own transaction): its kush is minted
    "bot.house_short": {
        "en": "The house could not stake {name}'s buy-in of {amount} {label}; nobody sat down.",
        "ru": "{name}: заведение не смогло оплатить взнос ({amount} {label}), никто не сел.",
    },
    "bot.last_seat": {
        "en": "The last seat stays free for a person: computer players do not play each other.",
        "ru": "Последнее место остаётся для человека: компьютерные игроки не играют между собой.",
    },
    "bot.none": {
        "en": "No computer player is seated.",
        "ru": "Компьютерных игроков за столом нет.",
    },
    # the sandbox's player without a login name (USER): a name the group's notices, written
    # of a player ("{name} left the table; … back to their balance"), read right with
    "sandbox.player": {"en": "Player", "ru": "Игрок"},
    # the heading the sandbox prints above each bot message: the chat it was written in
    "sandbox.group_title": {"en": "group · Sandbox", "ru": "группа · Песочница"},
    # the sandbox group's title, which /stats heads the group's figures with ("📊 Sandbox" in
    # Russian)
    "sandbox.group_name": {"en": "Sandbox", "ru": "Песочница"},
    "sandbox.private_title": {"en": "private · {name}", "ru": "личный чат · {name}"},
    # in place of a link to the group's table message, which the sandbox prints under it
    "sandbox.link_below": {
        "en": "(the table's message is printed below)",
        "ru": "(сообщение стола — ниже)",
    },
    # "--lang ru" where the group speaks another language (set so, or a table opened in it):
    # the sandbox switches the group as /settings language would; said in the flag's language
    "sandbox.lang_switched": {
        "en": "» --lang {flag}: the group is switched to English (the table and your hand's "
        "screens too), as /settings language {flag} does",
        "ru": "» --lang {flag}: группа переключена на русский (стол и экраны вашей руки тоже), "
        "как это делает /settings язык {flag}",
    },
    # a plain start in a group set to another language: it came back in it unexplained
    "sandbox.group_lang_resumed": {
        "en": "» This group's language is set to English, so the bot and the sandbox speak "
        "English; to switch: /settings language auto (or {flag})",
        "ru": "» Язык этой группы — русский, поэтому бот и песочница говорят по-русски; "
        "переключить: /settings язык авто (или {flag})",
    },
    # a plain start on a table opened in the other language, the group's language auto: the
    # setting is kept; you play in the table's language (said in it)
    "sandbox.table_lang_kept": {
        "en": "» This table speaks English and the group's language is auto, so you play in "
        "English; to switch: --lang {flag} or /settings language {flag}",
        "ru": "» Этот стол говорит по-русски, а язык группы — авто, поэтому вы играете "
        "по-русски; переключить: --lang {flag} или /settings язык {flag}",
    },
    "sandbox.help": {
        "en": "Sandbox: N presses button N of your hand, rN a button of a /replay, gN a button "
        "of the group message (or g and its label: g ready, g join); /hand goes to your private chat, every other command to the "
        "group; /addbot [easy|normal|strong] seats a computer player, /removebot stands it up; "
        "/closetable then /newtable ofc (or chinese) changes the game; b … acts as {bob}, a second "
        "member (b g register, b auto: /tournament; b name X renames {bob}; b auto and the name "
        "are kept for the next start); /quit exits (delete the sandbox's .sqlite3 file to "
        "start afresh).",
        "ru": "Песочница: N нажимает кнопку N вашей руки, rN — кнопку /replay, gN — кнопку "
        "сообщения группы (или g и название кнопки: g готов, g сесть); /hand уходит в личный чат, остальные команды — в группу; "
        "/addbot [лёгкий|средний|сильный] сажает компьютерного игрока, /removebot — убирает; "
        "/closetable, затем /newtable классический (или китайский) меняет игру; b … — ходы второго "
        "участника, {bob} (b g участвовать, b auto: /tournament; b имя X даёт другое имя; b auto и "
        "имя сохраняются до следующего запуска); /quit — выход (удалите файл .sqlite3 "
        "песочницы, чтобы начать заново).",
    },
    # {file}: the settings file read, ``--env-file`` (".env" by default), as it was given
    "sandbox.no_token": {
        "en": "No bot token set (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN in {file}): starting "
        "the local sandbox.",
        "ru": "Токен бота не задан (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN в {file}): "
        "запускаю локальную песочницу.",
    },
    # the same when that file does not exist (a mistyped --env-file, or .env never made here)
    # python -m bot without a token and with stdin /dev/null (a service manager's): the
    # sandbox would end at once (bot/__main__.py)
    "sandbox.no_input": {
        "en": "error: no bot token set (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN in {file}) and "
        "stdin is /dev/null: set a token, or play the sandbox in a terminal",
        "ru": "ошибка: токен бота не задан (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN в {file}), а "
        "ввод — /dev/null: задайте токен или запустите песочницу в терминале",
    },
    "sandbox.no_input_file": {
        "en": "error: no bot token set (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN; there is no "
        "{file}) and stdin is /dev/null: set a token, or play the sandbox in a terminal",
        "ru": "ошибка: токен бота не задан (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN; файла {file} "
        "нет), а ввод — /dev/null: задайте токен или запустите песочницу в терминале",
    },
    "sandbox.no_token_file": {
        "en": "No bot token set (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN; there is no {file}): "
        "starting the local sandbox.",
        "ru": "Токен бота не задан (TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN; файла {file} нет): "
        "запускаю локальную песочницу.",
    },
    # the database the sandbox plays on (its own file, --sandbox-db), printed at its start
    "sandbox.db": {
        "en": "Database: {path} (the sandbox's own file, --sandbox-db).",
        "ru": "База данных: {path} (свой файл песочницы, --sandbox-db).",
    },
    # the same when the settings name the bot's database: it is not used, and why
    "sandbox.db_not_bots": {
        "en": "Database: {path} (the sandbox's own file, --sandbox-db); {name} is the bot's "
        "and is not used: the sandbox never writes to real groups' balances.",
        "ru": "База данных: {path} (свой файл песочницы, --sandbox-db); {name} — база бота, "
        "она не используется: песочница никогда не пишет в балансы настоящих групп.",
    },
    # --sandbox-db names the bot's own database (DATABASE_PATH, the same file): refused
    "sandbox.db_is_bots": {
        "en": "error: {path} is the bot's database (DATABASE_PATH): the sandbox never plays on "
        "it; give --sandbox-db a file of its own (default sandbox.sqlite3)",
        "ru": "ошибка: {path} — база бота (DATABASE_PATH): песочница никогда не играет на ней; "
        "дайте --sandbox-db свой файл (по умолчанию sandbox.sqlite3)",
    },
    "sandbox.bye": {
        "en": "» Bye (the table is saved; the next start resumes it)",
        "ru": "» Пока (стол сохранён; следующий запуск продолжит его)",
    },
    # --sandbox-db names no SQLite file that can be opened: one line instead of a traceback
    "sandbox.db_error": {
        "en": "error: cannot open the sandbox's database {path} ({reason}): --sandbox-db takes "
        "an SQLite file (or a new file's name) in a folder that exists",
        "ru": "ошибка: не удалось открыть базу песочницы {path} ({reason}): --sandbox-db — файл SQLite "
        "(или имя нового файла) в существующей папке",
    },
    # a second sandbox on the file another one (or a bot) runs on: it would play the same
    # table (bot.dblock)
    "sandbox.db_busy": {
        "en": "error: another sandbox or a bot is running on {path}: quit it first, or give "
        "this one its own file with --sandbox-db",
        "ru": "ошибка: на {path} уже работает другая песочница или бот: сначала остановите "
        "их или дайте этой песочнице свой файл через --sandbox-db",
    },
    "sandbox.bye_no_table": {
        "en": "» Bye (no table is open; the next start opens a new one)",
        "ru": "» Пока (открытого стола нет; следующий запуск откроет новый)",
    },
    # the group message's buttons are pressed by label (g join) or by the number printed next
    # to them, which moves: a full table's lobby has no Join, so Ready is g1 and Leave g2
    "sandbox.join": {
        "en": "Type g join, then g ready (or the gN printed next to a button: the numbers "
        "move as buttons come and go), then the numbers of your hand's buttons.",
        "ru": "Наберите g сесть, затем g готов (или gN, напечатанный у кнопки: номера "
        "сдвигаются, когда кнопки появляются и исчезают), затем номера кнопок вашей руки.",
    },
    # gN named a Leave that would stand the player up at once: asked first ({typed}: "g2")
    "sandbox.leave_ask": {
        "en": "» {typed} is {button} now: type {typed} again to leave the table (or {leave}).",
        "ru": "» {typed} сейчас — «{button}»: наберите {typed} ещё раз, чтобы встать из-за "
        "стола (или {leave}).",
    },
    # the line that leaves without asking, in sandbox.leave_ask (Bob's: "b " before it)
    "sandbox.g_leave": {"en": "g leave", "ru": "g встать"},
    "sandbox.leave_ready": {"en": " Ready is {ready}.", "ru": " «Готов» — {ready}."},
    # g LABEL named no button of the group message ({buttons}: "g1 Ready, g2 Leave")
    "sandbox.no_label": {
        "en": 'no button "{typed}" on the group message now; its buttons: {buttons}',
        "ru": "кнопки «{typed}» сейчас нет у сообщения группы; его кнопки: {buttons}",
    },
    "sandbox.back": {"en": "Your table is back: ", "ru": "Ваш стол снова здесь: "},
    "sandbox.play": {
        "en": "press the numbers of your hand's buttons.",
        "ru": "нажимайте номера кнопок вашей руки.",
    },
    "sandbox.revealing": {
        "en": "the hand is being revealed in the group (🏆 Claim / ▶ Continue, when offered, are its gN buttons).",
        "ru": "в группе идёт вскрытие раздачи («🏆 Закончить игру» / «▶ Продолжить», когда предложат, — её кнопки gN).",
    },
    "sandbox.next_hand": {
        "en": "a hand is being played; you play from the next one.",
        "ru": "идёт раздача; вы играете со следующей.",
    },
    "sandbox.ready": {
        "en": "type {button} for Ready to play the next hand.",
        "ru": "наберите {button} («Готов»), чтобы сыграть следующую раздачу.",
    },
    "sandbox.ready_button": {"en": "the Ready button", "ru": "кнопку «Готов»"},
    "sandbox.sitting_out": {
        "en": "you sit out (your time ran out and your moves were made for you); "
        "type /back to play again from the next hand.",
        "ru": "вы пропускаете игру (время вышло, и ходы сделали за вас); "
        "наберите /back, чтобы вернуться со следующей раздачи.",
    },
    "sandbox.sitting_out_self": {
        "en": "you sit out (/sitout); type /back to play again from the next hand.",
        "ru": "вы пропускаете игру (/sitout); наберите /back, чтобы вернуться со следующей "
        "раздачи.",
    },
    "sandbox.waiting": {
        "en": "you are ready; the next hand starts when everyone is.",
        "ru": "вы готовы; раздача начнётся, когда будут готовы все.",
    },
    "sandbox.old_bots": {
        "en": "» this table still seats the old sandbox's computer players ({names}), which no "
        "longer move: /closetable, then /newtable (/addbot seats the new ones)",
        "ru": "» за этим столом сидят компьютерные игроки старой песочницы ({names}), которые "
        "больше не ходят: /closetable, затем /newtable (/addbot сажает новых)",
    },
    "sandbox.new_table_flag": {
        "en": "» {first} applies to a new table only; /addbot [easy|normal|strong] seats one "
        "more computer player",
        "ru": "» {first} действует только для нового стола; /addbot [лёгкий|средний|сильный] "
        "сажает ещё одного компьютерного игрока",
    },
    "sandbox.new_table_flags": {
        "en": "» {first} and {second} apply to a new table only; /addbot [easy|normal|strong] seats one "
        "more computer player",
        "ru": "» {first} и {second} действуют только для нового стола; /addbot [лёгкий|средний|сильный] "
        "сажает ещё одного компьютерного игрока",
    },
    # --hand-seconds over the group's timers: which settings it replaced, old → new
    # --fantasyland: the player's next Pineapple hand is stacked (bot/sandbox.py)
    "sandbox.fantasyland": {
        "en": "» --fantasyland: your next Pineapple hand starts {cards}; the Queens on top, the "
        "board not fouled, earn Fantasyland (🪄 Arrange for me plays it so)",
        "ru": "» --fantasyland: ваша следующая раздача «Ананаса» начнётся с {cards}; дамы наверху "
        "(если рука не мёртвая) дают Фантазию (🪄 Разложить так и сыграет)",
    },
    # --fantasyland's stacked hand ended without Fantasyland (the player placed it otherwise,
    # or fouled): said before the next hand, since the flag stacks one hand a start and a
    # user waited for a Fantasyland that never came (nu62)
    "sandbox.fantasyland_missed": {
        "en": "» --fantasyland: hand {hand} earned no Fantasyland (Queens on top, board not "
        "fouled); the flag deals it once a start: /quit, then start again with --fantasyland",
        "ru": "» --fantasyland: раздача {hand} не дала Фантазии (нужны дамы наверху, рука не "
        "мёртвая); флаг сдаёт её раз за запуск: /quit и новый запуск с --fantasyland",
    },
    "sandbox.timers_replaced": {
        "en": "» --hand-seconds {value} replaced the group's timers: {settings}",
        "ru": "» --hand-seconds {value} заменил таймеры группы: {settings}",
    },
    "sandbox.hand_seconds_now": {
        "en": "» --hand-seconds {value} applies at once: the table is between matches",
        "ru": "» --hand-seconds {value} действует сразу: стол между матчами",
    },
    "sandbox.hand_seconds_match": {
        "en": "» --hand-seconds {value} applies from the next match: the hand under way keeps "
        "{kept} s",
        "ru": "» --hand-seconds {value} действует со следующего матча: идущая раздача "
        "сохраняет {kept} с",
    },
    "sandbox.hand_seconds_table": {
        "en": "» --hand-seconds {value} applies from the next table: this one keeps {kept} s "
        "per hand (/closetable, then /newtable)",
        "ru": "» --hand-seconds {value} действует со следующего стола: этот сохраняет {kept} с "
        "на раздачу (/closetable, затем /newtable)",
    },
    "sandbox.no_button": {
        "en": "no such button: that message's buttons are {first}–{last}",
        "ru": "нет такой кнопки: у этого сообщения кнопки {first}–{last}",
    },
    # a bare number whose button has gone this street (its box filled): nothing pressed; the
    # numbers stay with their buttons for the street ({buttons}: the lines of the buttons now)
    "sandbox.button_gone": {
        "en": '{n} was "{button}", which is gone now: nothing pressed. The numbers stay with '
        "their buttons for the street; your buttons now:\n{buttons}",
        "ru": "{n} — это была кнопка «{button}», её больше нет: ничего не нажато. Номера "
        "остаются за кнопками до конца улицы; ваши кнопки сейчас:\n{buttons}",
    },
    # the same for Bob's hand (b N): {n} as typed ("b5"), {bob} the name (b name X)
    "sandbox.bob_button_gone": {
        "en": '{n} was "{button}", which is gone now: nothing pressed. The numbers stay with '
        "their buttons for the street; {bob}'s buttons now:\n{buttons}",
        "ru": "{n} — это была кнопка «{button}», её больше нет: ничего не нажато. Номера "
        "остаются за кнопками до конца улицы; кнопки сейчас ({bob}):\n{buttons}",
    },
    "sandbox.one_button": {
        "en": "no such button: that message's only button is {only}",
        "ru": "нет такой кнопки: у этого сообщения одна кнопка — {only}",
    },
    "sandbox.no_replay": {
        "en": "no such button: no replay is open (/history lists your hands, /replay N opens one)",
        "ru": "нет такой кнопки: повтор не открыт (/history покажет ваши раздачи, /replay N откроет одну)",
    },
    "sandbox.replay_one_frame": {
        "en": "no such button: this replay has one frame, nothing to step through",
        "ru": "нет такой кнопки: в этом повторе один кадр, листать нечего",
    },
    # a bare number with no hand of yours on screen (after /closetable, say): it presses
    # only your hand's buttons, never a /replay's (rN) or the group's (gN)
    "sandbox.no_hand": {
        "en": "no such button: you have no hand on screen; N presses your hand's buttons, rN a "
        "replay's, gN the group's",
        "ru": "нет такой кнопки: вашей руки на экране нет; N нажимает кнопки руки, rN — "
        "повтора, gN — группы",
    },
    "sandbox.no_hand_buttons": {
        "en": "no such button: your hand has no buttons now; rN presses a replay's, gN the group's",
        "ru": "нет такой кнопки: у вашей руки сейчас нет кнопок; rN нажимает кнопки повтора, "
        "gN — группы",
    },
    "sandbox.no_buttons": {
        "en": "no such button: that message has no buttons now",
        "ru": "нет такой кнопки: у этого сообщения сейчас нет кнопок",
    },
    "sandbox.picture_chart": {"en": "chart", "ru": "график"},
    "sandbox.picture_showdown": {"en": "showdown picture", "ru": "картинка вскрытия"},
    "sandbox.picture_board": {"en": "your board (/hand)", "ru": "ваша доска (/hand)"},
    "sandbox.picture_bob": {"en": "{bob}'s board (b /hand)", "ru": "доска: {bob} (b /hand)"},
    "sandbox.picture_failed": {
        "en": "(the picture could not be written: {error})",
        "ru": "(картинку не удалось записать: {error})",
    },
    # a command addressed to another bot ("/hand@otherbot"): not sent; {bot}: the sandbox's
    "sandbox.other_bot": {
        "en": "» {command} is for another bot: nothing sent (this one is @{bot}; a command "
        "without @ comes here)",
        "ru": "» {command} — команда другому боту: ничего не отправлено (этот бот — @{bot}; "
        "команда без @ приходит сюда)",
    },
    "sandbox.unknown": {
        "en": "» unknown command {command}; /help lists them",
        "ru": "» неизвестная команда {command}; список — /help",
    },
    # Bob, the sandbox's second member (b … lines): a tournament needs two (R8.7)
    "sandbox.bob": {"en": "Bob", "ru": "Боб"},
    "sandbox.bob_title": {
        "en": "private · {bob} (for {bob}'s eyes only)",
        "ru": "личный чат · {bob} (видит только {bob})",
    },
    "sandbox.tournament_bob": {
        "en": "» {bob} is the group's second member: b g register registers {bob}, b auto plays "
        "{bob}'s hands (b N presses button N of {bob}'s hand).",
        "ru": "» {bob} — второй участник группы: b g участвовать — регистрация, b auto — руки "
        "играются автоматически (b N — кнопка N руки: {bob}).",
    },
    "sandbox.bob_auto": {
        "en": "» {bob}'s hands are arranged automatically now (b manual: you type {bob}'s moves)",
        "ru": "» {bob}: руки раскладываются автоматически (b вручную — ходы вводите вы)",
    },
    "sandbox.bob_manual": {
        "en": "» {bob}'s moves are yours to type: b N presses button N of {bob}'s hand (b auto: "
        "arranged automatically)",
        "ru": "» {bob}: ходы вводите вы, b N — кнопка N руки (b auto — автоматически)",
    },
    # a resumed start whose Bob was on b auto (kept on the database's side file)
    "sandbox.bob_auto_kept": {
        "en": "» {bob}'s hands are arranged automatically, as at the last start (b manual: you "
        "type {bob}'s moves)",
        "ru": "» {bob}: руки раскладываются автоматически, как и в прошлый запуск (b вручную — "
        "ходы вводите вы)",
    },
    # once a street, Bob on manual: nothing of the cards (the private chat after a b line);
    # the texts about Bob name the player, no "his"/«его»: b name Alice renames (fix39g)
    "sandbox.bob_move": {
        "en": "» {bob}'s move: b shows {bob}'s hand, b N presses its button N (b auto plays "
        "it automatically)",
        "ru": "» Ход: {bob} — b покажет руку, b N нажмёт кнопку N руки (b auto сыграет "
        "автоматически)",
    },
    "sandbox.bob_named": {
        "en": "» {old} is called {bob} now (kept for the next start)",
        "ru": "» {old} теперь зовётся {bob} (сохранится до следующего запуска)",
    },
    "sandbox.bob_name_usage": {
        "en": "» b name X names the second member X (at most {most} characters): b name Alice",
        "ru": "» b name X (или b имя X) даёт второму участнику имя X (не длиннее "
        "{most:знака|знаков|знаков}): b имя Алиса",
    },
    # b name X with your own name: every line of his would read as yours ("» Player: …")
    "sandbox.bob_name_yours": {
        "en": "» {name} is your name here: {bob} needs another (b name X)",
        "ru": "» {name} — это ваше имя здесь: второму участнику ({bob}) нужно другое (b имя X)",
    },
    "sandbox.bob_not_saved": {
        "en": "» (kept for this start only: the file next to the database could not be "
        "written: {error})",
        "ru": "» (только до выхода: файл рядом с базой не удалось записать: {error})",
    },
    "sandbox.bob_no_hand": {
        "en": "{bob} has no move to make now",
        "ru": "{bob}: сейчас хода нет",
    },
    "sandbox.bob_nothing": {
        "en": "» {bob}: nothing in the private chat yet, no hand (to the table: b g join, then "
        "b g ready)",
        "ru": "» {bob}: в личном чате пока пусто, карт нет (за стол: b g сесть, затем b g готов)",
    },
    "sandbox.bob_help": {
        "en": "» {bob}: b /command, b gN (or b g LABEL), b N for {bob}'s hand, b auto, b manual, "
        "b name X; b alone shows {bob}'s hand",
        "ru": "» {bob}: b /команда, b gN (или b g название), b N — кнопки руки, b auto, b вручную, "
        "b имя X; b — показать руку",
    },
    "sandbox.number": {
        "en": "» type a button number (1, 2 … for your hand, r1 … for a replay, g1 … for the "
        "group) or a /command (/help lists them)",
        "ru": "» наберите номер кнопки (1, 2 … вашей руки, r1 … повтора, g1 … группы) или "
        "/команду (список — /help)",
    },
    "bot.levels": {
        "en": "Levels: easy, normal, strong. Usage: /addbot [level]",
        "ru": "Уровни: лёгкий (easy), средний (normal), сильный (strong). Формат: /addbot [уровень]",
    },
    # a computer player's level as players read it (the command takes it, or the English word)
    "bot.level.easy": {"en": "easy", "ru": "лёгкий"},
    "bot.level.normal": {"en": "normal", "ru": "средний"},
    "bot.level.strong": {"en": "strong", "ru": "сильный"},
    "bot.no_tournament": {
        "en": "Computer players sit at ordinary tables, not in tournaments.",
        "ru": "Компьютерные игроки садятся за обычные столы, не в турниры.",
    },
    "chat.moved_over": {
        "en": "Table #{table} is closed: this group's table #{moved} moved here with its upgrade.",
        "ru": "Стол #{table} закрыт: сюда перешёл стол #{moved} этой группы после её обновления.",
    },
    # (after a removal or a mute: the close either queued is cancelled)
    "table.moved": {
        "en": "⬇️ Table #{table} goes on in the message below.",
        "ru": "⬇️ Стол #{table} продолжается в сообщении ниже.",
    },
    # a player's hand message from before a restart, once their hand is posted anew
    "private.hand_moved": {
        "en": "⬇️ Your hand at table #{table} goes on below.",
        "ru": "⬇️ Ваша рука за столом #{table} продолжается ниже.",
    },
    "lobby.close_cancelled": {
        "en": "The bot can write here again: table #{table} stays open.",
        "ru": "Бот снова может писать здесь: стол #{table} остаётся открытым.",
    },
    # (where the stacks go said too: "closes at the end of this hand." left players asking)
    "reply.closes_after_hand": {
        "en": "Table #{table} closes at the end of this hand; stacks go back to balances.",
        "ru": "Стол #{table} закроется в конце этой раздачи; стеки вернутся на балансы.",
    },
    # a hand that can earn Fantasyland (R6): the close throws it away, said at once
    "reply.closes_after_hand_fl": {
        "en": "Table #{table} closes at the end of this hand, stacks go back to balances; "
        "Fantasyland earned in it is not played.",
        "ru": "Стол #{table} закроется в конце этой раздачи, стеки вернутся на балансы; "
        "заработанная в ней Фантазия не будет сыграна.",
    },
    # the closing table's message: the Fantasyland its last hand earned is never played (R6)
    "close.fantasyland_forgone": {
        "en": "🌴 {names}: the Fantasyland earned is not played.",
        "ru": "🌴 {names}: заработанная Фантазия не будет сыграна.",
    },
    "reply.already_closing": {
        "en": "Table #{table} is already set to close at the end of this hand; stacks go back to balances then.",
        "ru": "Стол #{table} и так закроется в конце этой раздачи; тогда стеки вернутся на балансы.",
    },
    "reply.wait_hand": {"en": "Wait for the hand to finish.", "ru": "Дождитесь конца раздачи."},
    # -- refused presses --------------------------------------------------------------------
    # a button of an older table message (lobby, claim, a table closed, moved or not served)
    "err.stale": {
        "en": "This button is out of date: use the newest table message.",
        "ru": "Кнопка устарела: нажмите в последнем сообщении стола.",
    },
    # a hand's button on a private message that is no longer the player's hand message
    "err.stale_hand": {
        "en": "This button is out of date: use your newest hand message.",
        "ru": "Кнопка устарела: нажмите в последнем сообщении с вашими картами.",
    },
    # the same on Discord, where "My cards" shows the hand as it is now
    "err.stale_hand.discord": {
        "en": "This button is out of date: press 🂠 My cards again.",
        "ru": "Кнопка устарела: нажмите «🂠 Мои карты» ещё раз.",
    },
    # an older screen of the hand pressed on the hand message, written as it is now with it
    "err.stale_shown": {
        "en": "This button is out of date: here are your cards as they are now.",
        "ru": "Кнопка устарела: вот ваши карты сейчас.",
    },
    # a Discord button no longer on its message: the message shows the current ones
    "err.stale_edited": {
        "en": "This button is out of date: press one the message shows now.",
        "ru": "Кнопка устарела: нажмите одну из тех, что в сообщении сейчас.",
    },
    # a settings message pressed after the settings changed
    "err.stale_settings": {
        "en": "The settings changed meanwhile: send /settings again.",
        "ru": "Настройки уже изменились: отправьте /settings ещё раз.",
    },
    # a replay whose frames changed since it was sent
    "err.stale_replay": {
        "en": "This replay is out of date: send /replay {n} again.",
        "ru": "Этот повтор устарел: отправьте /replay {n} ещё раз.",
    },
    # a press of the screen a timeout had just replaced (R8.5): the move was made for them
    # Ready or a top-up pressed after its time, before the table's timer fired (R8.2)
    "reply.ready_too_late": {
        "en": "⌛ Too late: the time to press Ready ran out and you were stood up (nothing was taken).",
        "ru": "⌛ Поздно: время нажать «Готов» вышло, и вы встали из-за стола (ничего не взято).",
    },
    "reply.topup_too_late": {
        "en": "⌛ Too late: the time to top up ran out and your seat was freed.",
        "ru": "⌛ Поздно: время докупить вышло, и ваше место освободилось.",
    },
    "err.timed_out": {
        "en": "⌛ Too late: your time ran out and the move was made for you.",
        "ru": "⌛ Поздно: время вышло, ход сделан за вас.",
    },
    # a press another worker serves could not reach it (issue 14: a takeover under way)
    "err.unreachable": {
        "en": "The table did not answer. Press again in a moment.",
        "ru": "Стол не ответил. Нажмите ещё раз чуть позже.",
    },
    "err.forged": {"en": "Unknown button.", "ru": "Неизвестная кнопка."},
    # a press or a table command while a restart restores the tables (bot/service)
    "err.restarting": {
        "en": "The bot is restarting. Try again in a few seconds.",
        "ru": "Бот перезапускается. Попробуйте через несколько секунд.",
    },
    "err.not_your_table": {"en": "This is not your table.", "ru": "Это не ваш стол."},
    "err.not_your_turn": {"en": "Not your turn.", "ru": "Сейчас не ваш ход."},
    "err.card_not_in_hand": {
        "en": "That card is not yours to place now.",
        "ru": "Эту карту сейчас класть нельзя.",
    },
    "err.not_placed": {"en": "That card is not placed yet.", "ru": "Эта карта ещё не выложена."},
    "err.box_full": {"en": "That box is full.", "ru": "Этот бокс заполнен."},
    # several cards chosen at once (a Discord menu), one refused: what was done of them
    "select.placed": {"en": "Placed: {cards}", "ru": "Выложены: {cards}"},
    "select.not_placed": {"en": "Not placed: {cards}", "ru": "Не выложены: {cards}"},
    "select.discarded": {"en": "Discarded: {cards}", "ru": "Сброшены: {cards}"},
    "select.not_discarded": {"en": "Not discarded: {cards}", "ru": "Не сброшены: {cards}"},
    "err.discard_not_allowed": {
        "en": "No discards on this street.",
        "ru": "На этой улице сбрасывать нельзя.",
    },
    # the street's discard is already made (R3.2); the card can be taken back first: a box's
    # button on the discarded card puts it there (it said only "already discarded", and a
    # player who wanted to discard another card did not learn how)
    "err.discard_done": {
        "en": "You have already discarded on this street: to discard another card, first "
        "put the discarded one in a box.",
        "ru": "На этой улице сброс уже сделан: чтобы сбросить другую карту, сначала положите "
        "сброшенную в бокс.",
    },
    "err.incomplete_street": {
        "en": "Place every card first.",
        "ru": "Сначала разложите все карты.",
    },
    # R3.2: Confirm on streets 2-5 with cards still to place (one of three is discarded)
    "err.place_and_discard": {
        "en": "Place two cards and discard one first.",
        "ru": "Сначала положите две карты и сбросьте одну.",
    },
    # R6.2: Confirm of a Fantasyland hand with cards still to place
    "err.fl_incomplete": {
        "en": "Place 13 cards and discard the rest first.",
        "ru": "Сначала разложите 13 карт и сбросьте остальные.",
    },
    # R3.2: Confirm on streets 2-5 with no card discarded (all three placed, or one left)
    "err.discard_missing": {
        "en": "Discard one card first (✖ Discard): this street places 2 cards and discards 1.",
        "ru": "Сначала сбросьте одну карту (✖ Сброс): на этой улице 2 карты кладут, 1 сбрасывают.",
    },
    # R6.2: Confirm of a Fantasyland hand placed card by card without its discards
    "err.fl_discard_missing": {
        "en": "Discard the cards left over first (✖ Discard): a Fantasyland hand keeps 13.",
        "ru": "Сначала сбросьте лишние карты (✖ Сброс): в Фантазии остаются 13.",
    },
    "err.hand_over": {"en": "The hand is over.", "ru": "Раздача окончена."},
    "err.wrong_street": {
        "en": "This button is from another street.",
        "ru": "Эта кнопка с другой улицы.",
    },
    "err.no_change": {"en": "The card is already there.", "ru": "Карта уже там."},
    "err.nothing_to_undo": {"en": "Nothing to undo.", "ru": "Нечего отменять."},
    # 🪄 Arrange for me whose decision did not come within PRESS_SECONDS (bot/thinking.py)
    "err.arrange_late": {
        "en": "No placement came in time: place the cards yourself, or press again.",
        "ru": "Расклад не пришёл вовремя: разложите карты сами или нажмите ещё раз.",
    },
    # 🪄 Arrange for me pressed with every card of the street already in a box
    "err.nothing_to_arrange": {
        "en": "Every card of this street is in a box: Undo to move one, or Confirm.",
        "ru": "Все карты этой улицы уже разложены: «Отменить», чтобы переложить, или «Подтвердить».",
    },
    # Confirm pressed once on a street whose confirmation leaves the board fouled (R2.3):
    # nothing done; a second press confirms (bot/service/play.py)
    "err.confirm_fouled": {
        "en": "⚠ This board fouls (dead hand). Press Confirm again to play it anyway.",
        "ru": "⚠ Рука мёртвая. Нажмите «Подтвердить» ещё раз, чтобы сыграть так.",
    },
    "err.illegal_action": {"en": "Not allowed.", "ru": "Так нельзя."},
    "err.game_error": {"en": "Not allowed.", "ru": "Так нельзя."},
    # -- help and rules ---------------------------------------------------------------------
    "help": {
        "en": (
            "OFC bot commands:\n"
            "/newtable — open a table here (this group's game, Pineapple by default)\n"
            "/newtable pineapple | ofc | chinese — Pineapple OFC, classic OFC, Chinese Poker\n"
            "/tournament [game] — open a sit-and-go tournament (Register, Start)\n"
            "/addbot [easy|normal|strong], /removebot [name] — seat or stand up a computer "
            "player (admins and the table's opener; once the opener leaves, the player seated "
            "longest)\n"
            "/join, /leave, /ready — take a seat, stand up, buy in\n"
            "/topup [N] — top up your stack (asked during your hand: added when it ends)\n"
            "/sitout, /back — skip hands, come back\n"
            "/balance, /history [N], /daily — your balance, your hands, daily bonus\n"
            "/stats [@user|me] [week|month|all] — statistics of the group and yours, or of one "
            "player\n"
            "/top [week|month|all] — leaderboard by balance, or by winnings in the period\n"
            "/replay N — hand N street by street\n"
            "/rules [game] — rules of this table's game (or the one named)\n"
            "Admins: /settings — the buy-in, the point's price, timers, language (/settings all "
            "lists them, /settings <name> explains one)\n"
            "/grant @user N — add to a balance (a negative N takes)\n"
            "/kick @user — stand a player up (their stack back to their balance; mid-hand, "
            "after the hand), or unregister them from a tournament not started (the buy-in "
            "back)\n"
            "/closetable — close the table (asked mid-hand: when the hand ends; stacks go back to "
            "balances), e.g. to open another game\n"
            "Your cards come in a private chat with me; /hand there shows your board as a picture.\n"
            "⌛ auto: a player's cards were placed for them (time ran out, or they left)."
        ),
        "ru": (
            "Команды бота OFC:\n"
            "/newtable — открыть стол (игра группы, по умолчанию «Ананас (OFC)»)\n"
            "/newtable ананас | классический | китайский (или pineapple | ofc | chinese) — "
            "Ананас (OFC), классический OFC, китайский покер\n"
            "/tournament [игра] — открыть турнир (регистрация, старт)\n"
            "/addbot [лёгкий|средний|сильный], /removebot [имя] — посадить или убрать компьютерного "
            "игрока "
            "(админы и тот, кто открыл стол, а после ухода открывшего — тот, кто сидит дольше всех)\n"
            "/join, /leave, /ready — сесть, встать, внести взнос\n"
            "/topup [N] — докупить в стек (во время вашей раздачи — пройдёт после неё)\n"
            "/sitout, /back — пропускать раздачи, вернуться\n"
            "/balance, /history [N], /daily — ваш баланс, ваши раздачи, бонус дня\n"
            "/stats [@игрок|я] [неделя|месяц|всё] — статистика группы и ваша или одного игрока\n"
            "/top [неделя|месяц|всё] — рейтинг по балансу или по выигрышу за период\n"
            "/replay N — раздача N по улицам\n"
            "/rules [игра] — правила игры за этим столом (или названной)\n"
            "Админы: /settings — взнос, цена очка, таймеры, язык (/settings all — все "
            "настройки, /settings <имя> — описание одной)\n"
            "/grant @игрок N — пополнить баланс (отрицательное N — списать)\n"
            "/kick @игрок — поднять игрока из-за стола (стек вернётся на баланс; в раздаче — "
            "после неё) или снять с регистрации в турнире до старта (взнос вернётся)\n"
            "/closetable — закрыть стол (посреди раздачи — в конце раздачи; стеки вернутся "
            "на балансы), например чтобы открыть другую игру\n"
            "Ваши карты приходят в личный чат со мной; /hand там покажет вашу доску картинкой.\n"
            "⌛ авто: карты игрока разложены автоматически (когда время вышло или после ухода)."
        ),
    },
    # after /help's list: what the group's unit is (R8.1: its own label, "chips" or "₽", so
    # not in the list itself, which is every group's). Not "points": a point costs kush
    # ("1 point = 10 kush"), and "Kush are" read badly
    "help.kush": {
        "en": "{unit} — this group's play money (not real money): /balance shows yours.",
        "ru": "{unit} — игровая валюта этой группы (не настоящие деньги): ваш баланс — /balance.",
    },
    "help.kush.discord": {
        "en": "{unit} — this server's play money (not real money): /balance shows yours.",
        "ru": "{unit} — игровая валюта этого сервера (не настоящие деньги): ваш баланс — /balance.",
    },
    "help.discord": {
        "en": (
            "OFC bot commands:\n"
            "/ofc new [game] — open a table in this channel; game: Pineapple OFC, Classic OFC "
            "or Chinese Poker\n"
            "/ofc tournament [game] — open a sit-and-go tournament (Register, Start)\n"
            "/ofc addbot [level], /ofc removebot [name] — seat or stand up a computer player "
            "(members with Manage Server and the table's opener; once the opener leaves, the "
            "player seated longest)\n"
            "/ofc join, /ofc ready, /ofc leave — take a seat, buy in, stand up\n"
            "/ofc topup [amount] — top up your stack (asked during your hand: added when it ends)\n"
            "/ofc sitout, /ofc back — skip hands, come back\n"
            "/ofc balance, /ofc history [count], /ofc daily — your balance, your hands, daily bonus\n"
            "/ofc stats [user] [period] — statistics of the server and yours, or of one player\n"
            "/ofc top [period] — leaderboard by balance, or by winnings in the period\n"
            "/ofc replay number — hand #number street by street\n"
            "/ofc rules [game] — rules of this table's game (or the one named)\n"
            "Admins (Manage Server): /ofcadmin settings — the buy-in, the point's price, timers, "
            "language (name:all lists them)\n"
            "/ofcadmin grant user amount — add to a balance (a negative amount takes)\n"
            "/ofcadmin kick user — stand a player up (their stack back to their balance; "
            "mid-hand, after the hand), or unregister them from a tournament not started (the "
            "buy-in back)\n"
            "/ofcadmin close — close the table (asked mid-hand: when the hand ends; stacks go back "
            "to balances), e.g. to open another game\n"
            "Your cards: press 🂠 My cards on the table message (and in DMs when they are open); "
            "/ofc hand shows your board as a picture only you see.\n"
            "⌛ auto: a player's cards were placed for them (time ran out, or they left)."
        ),
        "ru": (
            # the options as Discord shows them (their names are the commands' English ones in
            # every locale; only their descriptions and choices are Russian: Ананас (OFC), лёгкий)
            "Команды бота OFC:\n"
            "Discord показывает параметры команд по-английски: game — игра, level — уровень, "
            "name — имя, value — значение, amount — сумма, user — игрок, period — период, "
            "count — сколько, number — номер.\n"
            "/ofc new [game] — открыть стол в этом канале; игра на выбор: Ананас (OFC), "
            "классический OFC или китайский покер\n"
            "/ofc tournament [game] — открыть турнир (регистрация, старт)\n"
            "/ofc addbot [level], /ofc removebot [name] — посадить или убрать компьютерного игрока "
            "(участники с правом «Управлять сервером» и тот, кто открыл стол, а после ухода открывшего — тот, "
            "кто сидит дольше всех)\n"
            "/ofc join, /ofc ready, /ofc leave — сесть, внести взнос, встать\n"
            "/ofc topup [amount] — докупить в стек (во время вашей раздачи — пройдёт после неё)\n"
            "/ofc sitout, /ofc back — пропускать раздачи, вернуться\n"
            "/ofc balance, /ofc history [count], /ofc daily — ваш баланс, ваши раздачи, бонус дня\n"
            "/ofc stats [user] [period] — статистика сервера и ваша или одного игрока\n"
            "/ofc top [period] — рейтинг по балансу или по выигрышу за период\n"
            "/ofc replay number — раздача #number по улицам\n"
            "/ofc rules [game] — правила игры за этим столом (или выбранной)\n"
            "Админы (право «Управлять сервером»): /ofcadmin settings — взнос, цена очка, таймеры, "
            "язык (в name выберите all — все настройки)\n"
            "/ofcadmin grant user amount — пополнить баланс (отрицательная сумма — списать)\n"
            "/ofcadmin kick user — поднять игрока из-за стола (стек вернётся на баланс; в "
            "раздаче — после неё) или снять с регистрации в турнире до старта (взнос вернётся)\n"
            "/ofcadmin close — закрыть стол (посреди раздачи — в конце раздачи; стеки вернутся "
            "на балансы), например чтобы открыть другую игру\n"
            "Ваши карты: кнопка «🂠 Мои карты» на сообщении стола (и в личных сообщениях, если они "
            "открыты); "
            "/ofc hand покажет вашу доску картинкой, видной только вам.\n"
            "⌛ авто: карты игрока разложены автоматически (когда время вышло или после ухода)."
        ),
    },
    # a /grant storage neither confirmed nor refused, tried twice (a lost connection)
    "err.grant_unsure": {
        "en": "Could not tell whether the grant was saved: check {name}'s balance before granting again.",
        "ru": "Не удалось проверить, сохранена ли выдача: посмотрите баланс игрока {name}, прежде чем выдавать снова.",
    },
    # a /grant that went in over the limit (another grant at the same moment), its
    # take-back neither saved nor refused by storage, tried several times
    "err.grant_over_unsure": {
        "en": "{name}'s balance went over {limit} {label} (two grants at once); taking this "
        "grant of {amount} back could not be saved. Check the balance: if over, grant "
        "−{amount}.",
        "ru": "Баланс игрока {name} превысил {limit} {label:acc} (две выдачи сразу); возврат этой "
        "выдачи ({amount}) не удалось сохранить. Проверьте баланс: если больше, выдайте "
        "−{amount}.",
    },
    # storage did not answer within STORAGE_WAIT_SECONDS a command that holds no table
    # (/stats, /balance, /daily, …: TableService._within)
    "err.storage_slow": {
        "en": "The database did not answer in time. Please try again in a moment.",
        "ru": "База данных не ответила вовремя. Попробуйте ещё раз чуть позже.",
    },
    "err.storage": {
        "en": "Could not save that; nothing changed. Please try again.",
        "ru": "Не удалось сохранить, ничего не изменилось. Попробуйте ещё раз.",
    },
    # a table step refused as storage holds another worker's step of the table (two workers
    # on one table after a takeover, issue 14; Runtime._read_back): restored from storage
    "err.changed_elsewhere": {
        "en": "The table changed meanwhile; your action was not saved. Look at the table and "
        "try again.",
        "ru": "Стол тем временем изменился, ваше действие не сохранено. Посмотрите на стол и "
        "попробуйте ещё раз.",
    },
    # one player's part of a settlement the group is told of (round.settled, reveal.game_over_early)
    "settle.move": {"en": "{name} {delta:+d} {label}", "ru": "{name} {delta:+d} {label}"},
    "round.settled": {
        "en": "Table #{table}: the round is settled early ({who} leaves): {moves}.",
        "ru": "Стол #{table}: досрочный расчёт круга ({who} уходит): {moves}.",
    },
    "round.settled_close": {
        "en": "Table #{table}: the round is settled early (the table closes): {moves}.",
        "ru": "Стол #{table}: досрочный расчёт круга (стол закрывается): {moves}.",
    },
    "round.settled_end": {
        "en": "Table #{table}: the round is over and settled: {moves}.",
        "ru": "Стол #{table}: круг окончен и рассчитан: {moves}.",
    },
    "round.settled_options": {
        "en": "Table #{table}: the round is settled early (new table settings): {moves}.",
        "ru": "Стол #{table}: круг рассчитан досрочно (новые настройки стола): {moves}.",
    },
    "err.registration_closed": {
        "en": "Registration is closed: the tournament has started.",
        "ru": "Регистрация закрыта: турнир уже идёт.",
    },
    "err.already_registered": {
        "en": "You are registered already.",
        "ru": "Вы уже зарегистрированы.",
    },
    "err.not_registered": {"en": "You are not registered.", "ru": "Вы не зарегистрированы."},
    "err.tournament_full": {"en": "The tournament is full.", "ru": "Мест в турнире нет."},
    "err.not_enough_players": {
        "en": "A tournament needs at least two players.",
        "ru": "Для турнира нужно хотя бы двое.",
    },
    "err.tournament_started": {"en": "The tournament has started.", "ru": "Турнир уже начался."},
    "err.tournament_not_started": {
        "en": "The tournament has not started.",
        "ru": "Турнир ещё не начался.",
    },
    "err.tournament_over": {"en": "The tournament is over.", "ru": "Турнир окончен."},
    "tour.registered": {
        "en": "Registered: {amount} {label} went to the prize pool.",
        "ru": "Вы в турнире: взнос {amount} {label} — в призовом фонде.",
    },
    "tour.unregistered": {
        "en": "Unregistered: {amount} {label} back to your balance.",
        "ru": "Регистрация снята; возвращено на баланс: {amount} {label}.",
    },
    "tour.not_registered": {"en": "You are not registered.", "ru": "Вы не зарегистрированы."},
    "tour.start_who": {
        "en": "Only the player who opened the tournament or an admin can start it.",
        "ru": "Начать турнир может только тот, кто его открыл, или админ.",
    },
    "tour.started": {"en": "The tournament starts.", "ru": "Турнир начинается."},
    "tour.left": {
        "en": "You left the tournament: place {place}, prize {prize} {label}.",
        "ru": "Вы вышли из турнира: место {place}, приз {prize} {label}.",
    },
    "tour.no_topup": {
        "en": "No top-ups in a tournament.",
        "ru": "В турнире докупать нельзя.",
    },
    "tour.leave_confirm": {
        "en": "Leaving knocks you out of the tournament (place {place}). Press Leave again "
        "to confirm.",
        "ru": "Выход из турнира — это выбывание (место {place}). Нажмите «Встать» ещё раз, "
        "чтобы подтвердить.",
    },
    # a /leave typed at a running tournament asks first, as its Leave button does (R8.7)
    "tour.leave_confirm_typed": {
        "en": "Leaving knocks you out of the tournament (place {place}). Send /leave again "
        "to confirm.",
        "ru": "Выход из турнира — это выбывание (место {place}). Отправьте /leave ещё раз, "
        "чтобы подтвердить.",
    },
    "tour.already_out": {
        "en": "You are out of this tournament already.",
        "ru": "Вы уже выбыли из этого турнира.",
    },
    "tour.no_sitout": {
        "en": "No sitting out in a tournament: when your time runs out your hand is played "
        "for you. /leave knocks you out.",
        "ru": "В турнире пропускать нельзя: когда время выходит, ходы делаются за вас. "
        "/leave — выбыть.",
    },
    "tour.back_away": {
        "en": "Welcome back: your moves are no longer made for you after a few seconds.",
        "ru": "С возвращением: ходы больше не делаются за вас через несколько секунд.",
    },
    "tour.back_playing": {
        "en": "You are in: a tournament deals you every hand (no sitting out).",
        "ru": "Вы в игре: в турнире вам сдаётся каждая раздача (пропускать нельзя).",
    },
    "tour.ready": {
        "en": "In a tournament, registering is all it takes.",
        "ru": "В турнире достаточно зарегистрироваться.",
    },
    "tour.title": {
        "en": "🏆 Tournament #{table} · {game}\nBuy-in {buy_in} {label} · pool {pool} {label} · {chips} chips each\nLevels of {minutes} min · chips per point {schedule}…\nPrizes: {payouts}",
        "ru": "🏆 Турнир #{table} · {game}\nВзнос {buy_in} {label} · фонд {pool} {label} · по {chips:фишке|фишки|фишек}\nУровни по {minutes} мин · цена очка в фишках: {schedule}…\nПризы: {payouts}",
    },
    # the prizes line's note: places beyond the players there go to the winner (R8.7)
    "tour.place_to_winner": {
        "en": "(with {n:player|players}, place {place}'s {percent}% goes to the winner)",
        "ru": "(при {n:игроке|игроках|игроках} {percent}% за {place}-е место — победителю)",
    },
    "tour.places_to_winner": {
        "en": "(with {n:player|players}, the {percent}% of places {first}–{last} goes to the winner)",
        "ru": "(при {n:игроке|игроках|игроках} {percent}% за места {first}–{last} — победителю)",
    },
    "tour.registrants": {
        "en": "Registered ({n}/{max}): {names}",
        "ru": "Зарегистрированы ({n}/{max}): {names}",
    },
    "tour.nobody": {
        "en": "Nobody registered yet. Press Register.",
        "ru": "Пока никого. Нажмите «Участвовать».",
    },
    "tour.opener_passed": {
        "en": "{name} may now start the tournament.",
        "ru": "Теперь начать турнир может {name}.",
    },
    "tour.hint": {
        "en": "It starts when the seats are full, or when its opener or an admin presses Start (2+ players).",
        "ru": "Начнётся, когда места заполнятся или когда тот, кто открыл турнир, или админ нажмёт «Старт» (от двух игроков).",
    },
    "tour.status": {
        "en": "🏆 Level {level} · {cpp:chip|chips} a point · next level in {next}",
        "ru": "🏆 Уровень {level} · {cpp:фишка|фишки|фишек} за очко · следующий через {next}",
    },
    # the next level's start as a clock time in the group's zone (utc_offset set)
    "tour.status_at": {
        "en": "🏆 Level {level} · {cpp:chip|chips} a point · next level at {at}",
        "ru": "🏆 Уровень {level} · {cpp:фишка|фишки|фишек} за очко · следующий в {at}",
    },
    "tour.status_pending": {
        "en": "🏆 Level {level} · {cpp:chip|chips} a point · level {next_level} from the next hand",
        "ru": "🏆 Уровень {level} · {cpp:фишка|фишки|фишек} за очко · уровень {next_level} со следующей "
        "раздачи",
    },
    "tour.chips": {"en": "Chips: {chips}", "ru": "Фишки: {chips}"},
    "tour.chips_line": {
        "en": "Level {level} · {cpp:chip|chips} a point · chips: {chips}",
        "ru": "Уровень {level} · {cpp:фишка|фишки|фишек} за очко · фишки: {chips}",
    },
    "tour.knocked_out": {
        "en": "❌ {name} is out: place {place}, prize {prize} {label}.",
        "ru": "❌ {name} выбывает: место {place}, приз {prize} {label}.",
    },
    "tour.final_mid_hand": {
        "en": "Hand #{hand} of tournament #{table} is not played on: the last opponent left, "
        "so the tournament is over and its pool is paid out.",
        "ru": "Раздача #{hand} турнира #{table} не доигрывается: соперников за столом не осталось, "
        "турнир окончен, призовой фонд выплачен.",
    },
    "tour.final": {
        "en": "🏆 Tournament #{table} is over. Pool {pool} {label}:",
        "ru": "🏆 Турнир #{table} окончен. Фонд {pool} {label}:",
    },
    "tour.place": {
        "en": "{place}. {name} — {prize} {label}",
        "ru": "{place}. {name} — {prize} {label}",
    },
    "tour.abandoned": {
        "en": "Tournament #{table} is stopped: nobody played for {hands:hand|hands} in a row.",
        "ru": "Турнир #{table} остановлен: никто не играл {hands:раздачу|раздачи|раздач} подряд.",
    },
    "tour.exists": {
        "en": "This chat's tournament #{table} is under way: another table opens when it is over. An admin's /closetable cancels it (buy-ins back while nobody is out).",
        "ru": "В этом чате идёт турнир #{table}: новый стол откроется, когда он закончится. /closetable админа отменяет его (взносы вернутся, пока никто не выбыл).",
    },
    "tour.exists.discord": {
        "en": "This channel's tournament #{table} is under way: another table opens when it is over. An admin's /closetable cancels it (buy-ins back while nobody is out).",
        "ru": "В этом канале идёт турнир #{table}: новый стол откроется, когда он закончится. /closetable админа отменяет его (взносы вернутся, пока никто не выбыл).",
    },
    "tour.game_next": {
        "en": "Tournament #{number} goes on as {table}: {game} comes with the next /newtable or /tournament once it is over.",
        "ru": "Турнир #{number} продолжается как «{table}»: «{game}» будет со следующего /newtable или /tournament, когда он закончится.",
    },
    "tour.table_closing": {
        "en": "This chat's tournament #{table} is cancelled at the end of this hand (buy-ins back, or the pool to those still in if one is out); then /newtable opens a table.",
        "ru": "Турнир #{table} этого чата будет отменён в конце этой раздачи (взносы вернутся, а если кто-то выбыл, фонд получат оставшиеся); затем /newtable откроет новый стол.",
    },
    "tour.table_closing.discord": {
        "en": "This channel's tournament #{table} is cancelled at the end of this hand (buy-ins back, or the pool to those still in if one is out); then /newtable opens a table.",
        "ru": "Турнир #{table} этого канала будет отменён в конце этой раздачи (взносы вернутся, а если кто-то выбыл, фонд получат оставшиеся); затем /newtable откроет новый стол.",
    },
    "tour.already_cancelling": {
        "en": "Tournament #{table} is already set to be cancelled at the end of this hand.",
        "ru": "Турнир #{table} и так будет отменён в конце этой раздачи.",
    },
    "tour.cancels_after_hand": {
        "en": "Tournament #{table} is cancelled at the end of this hand: every buy-in back, or the pool to those still in if someone is out.",
        "ru": "Турнир #{table} будет отменён в конце этой раздачи: взносы вернутся, а если кто-то выбыл, фонд получат оставшиеся.",
    },
    # the same where the hand can earn Fantasyland (R6), which the cancel throws away, as a
    # table's close says it (reply.closes_after_hand_fl; the closing message names the players)
    "tour.cancels_after_hand_fl": {
        "en": "Tournament #{table} is cancelled at the end of this hand: buy-ins back, or the pool to those still in if someone is out; Fantasyland earned in it is not played.",
        "ru": "Турнир #{table} будет отменён в конце этой раздачи: взносы вернутся, а если кто-то выбыл, фонд получат оставшиеся; заработанная в ней Фантазия не будет сыграна.",
    },
    # after min_buy_in or max_buy_in saved in a tournament's chat: the tournament's buy-in is
    # its own (R8.7)
    "tour.buy_in_own": {
        "en": "Tournament #{table} keeps its own buy-in ({buy_in} {label}, {setting}), fixed when it opened: {name} is for cash tables.",
        "ru": "У турнира #{table} свой взнос ({buy_in} {label}, {setting}), заданный при открытии: {name} — для обычных столов.",
    },
    "tour.settings_kept": {
        "en": "Tournament {tables} keeps the settings it opened with (its players registered for them): this one applies from the next /tournament.",
        "ru": "Турнир {tables} идёт с настройками, с которыми открыт (на них регистрировались игроки): новое значение — со следующего /tournament.",
    },
    # the same of several open tournaments (a group with topics), agreeing in number
    "tour.settings_kept_many": {
        "en": "Tournaments {tables} keep the settings they opened with (their players registered for them): this one applies from the next /tournament.",
        "ru": "Турниры {tables} идут с настройками, с которыми открыты (на них регистрировались игроки): новое значение — со следующего /tournament.",
    },
    "tour.idle_unstarted.s": {
        "en": "Tournament #{table} did not start within {seconds:second|seconds}.",
        "ru": "Турнир #{table} так и не начался за {seconds:секунду|секунды|секунд}.",
    },
    "tour.idle_unstarted": {
        "en": "Tournament #{table} did not start within {minutes:minute|minutes}.",
        "ru": "Турнир #{table} так и не начался за {minutes:минуту|минуты|минут}.",
    },
    "tour.idle.s": {
        "en": "No hand was dealt at tournament #{table} for {seconds:second|seconds}.",
        "ru": "В турнире #{table} не было раздач {seconds:секунду|секунды|секунд}.",
    },
    "tour.idle": {
        "en": "No hand was dealt at tournament #{table} for {minutes:minute|minutes}.",
        "ru": "В турнире #{table} не было раздач {minutes:минуту|минуты|минут}.",
    },
    "tour.cancelled": {
        "en": "Tournament #{table} is cancelled; every buy-in is back.",
        "ru": "Турнир #{table} отменён, все взносы возвращены.",
    },
    # a tournament's Chinese Poker game ended between hands by a leaver (R7.6, R8.7)
    "tour.history_game_end": {
        "en": "Tournament #{table}, the Chinese Poker game settled: {chips:+d|chip|chips}",
        "ru": "Турнир #{table}, расчёт игры в китайский покер: {chips:+d|фишка|фишки|фишек}",
    },
    "tour.history_hand_line": {
        "en": "Tournament #{table}, hand {hand}: {points:+d|pt|pts}, {chips:+d|chip|chips}{foul}",
        "ru": "Турнир #{table}, раздача {hand}: {points:+d|очко|очка|очков}, {chips:+d|фишка|фишки|фишек}{foul}",
    },
    "tour.cancelled_shared": {
        "en": "Tournament #{table} is cancelled after a knock-out: the pool of {pool} {label} goes to the players still in, partly by chips:",
        "ru": "Турнир #{table} отменён после выбывания: фонд {pool} {label} делится между оставшимися, частично по фишкам:",
    },
    # a cancelled tournament's Chinese Poker game under way, settled before the pool (R7.6)
    "tour.game_settled_cancel": {
        "en": "The Chinese Poker game under way is settled first on its score: {moves}.",
        "ru": "Сначала текущая игра в китайский покер рассчитана по её счёту: {moves}.",
    },
    "tour.game_over_leave": {
        "en": "The Chinese Poker game ends with it and is settled on its score: {moves}.",
        "ru": "Игра в китайский покер на этом окончена и рассчитана по её счёту: {moves}.",
    },
    "tour.chip_move": {
        "en": "{name} {sign}{amount:chip|chips}",
        "ru": "{name} {sign}{amount:фишка|фишки|фишек}",
    },
    "tour.cancel_in": {
        "en": "{name} ({chips:chip|chips}) — {prize} {label}",
        "ru": "{name} ({chips:фишка|фишки|фишек}) — {prize} {label}",
    },
    "tour.cancel_out": {
        "en": "{name} (out, place {place}) — {prize} {label}",
        "ru": "{name} (вне игры, {place}-е место) — {prize} {label}",
    },
    "tour.history_cancelled": {
        "en": "Tournament #{table} cancelled: {kush:+d} {label}",
        "ru": "Турнир #{table} отменён: {kush:+d} {label}",
    },
    "tour.history_line": {
        "en": "Tournament #{table}: place {place}, {kush:+d} {label}",
        "ru": "Турнир #{table}: место {place}, {kush:+d} {label}",
    },
    "btn.register": {"en": "Register", "ru": "Участвовать"},
    "btn.unregister": {"en": "Unregister", "ru": "Сняться"},
    "btn.start": {"en": "▶ Start", "ru": "▶ Старт"},
    # Discord: a slash command the bot does not have (a client's old command list, or a
    # worker of another version during a deploy); "try again" at once fails the same way
    "reply.command_outdated": {
        "en": "The bot does not know that command: Discord may show an old list. Nothing was done. Reload Discord (Ctrl+R) or try in a few minutes; /help lists them.",
        "ru": "Бот не знает такой команды: Discord мог показать старый список. Ничего не сделано. Перезагрузите Discord (Ctrl+R) или попробуйте позже; список — /help.",
    },
    # a slash command's option of another type than the command declares (Discord)
    "reply.option_outdated": {
        "en": "Not a value the bot takes for “{option}”: Discord may show an old form of the command. Nothing was done. Reload Discord (Ctrl+R) or try in a few minutes.",
        "ru": "Бот не принимает такое значение для «{option}»: Discord мог показать старый вид команды. Ничего не сделано. Перезагрузите Discord (Ctrl+R) или попробуйте позже.",
    },
    # a slash command run without an option it requires (Discord: an old form of it)
    "reply.option_missing": {
        "en": "“{option}” is missing: Discord may show an old form of the command. Nothing was done. Reload Discord (Ctrl+R) or try in a few minutes.",
        "ru": "Не указано «{option}»: Discord мог показать старый вид команды. Ничего не сделано. Перезагрузите Discord (Ctrl+R) или попробуйте позже.",
    },
    "err.internal": {
        "en": "Something went wrong; nothing changed. Please try again.",
        "ru": "Что-то пошло не так, ничего не изменилось. Попробуйте ещё раз.",
    },
    # a step of the command or press was saved, then something failed: it is done, and
    # must not be tried again as if nothing changed
    "err.after_commit": {
        "en": "That was done, but something went wrong after it: the table message shows where things stand.",
        "ru": "Это сделано, но потом что-то пошло не так: что на столе, видно в сообщении стола.",
    },
    # the service answered (whatever it did is saved), but the answer could not be shown
    "err.not_shown": {
        "en": "The answer could not be shown. Whatever it did is saved: the table message shows where things stand.",
        "ru": "Не удалось показать ответ. Что сделано, то сохранено: что на столе, видно в сообщении стола.",
    },
    "rules.pineapple": {
        "en": (
            "Pineapple OFC: 13 cards in three boxes — top 3, middle 5, bottom 5; bottom ≥ middle ≥ top "
            "or the hand is dead (a foul).\nStreet 1: 5 cards, place all. Streets 2–5: 3 cards, place 2, "
            "discard 1.\nThe button acts last on each street and passes to the next seat each hand.\n{scoring}\n{royalties}\n{fantasyland}"
        ),
        "ru": (
            "Ананас: 13 карт в три бокса — верх 3, середина 5, низ 5; низ ≥ середина ≥ верх, иначе рука "
            "мёртвая.\nУлица 1: 5 карт, выложить все. Улицы 2–5: 3 карты, выложить 2, сбросить 1.\n"
            "Баттон ходит последним на каждой улице и с каждой раздачей переходит к следующему месту.\n{scoring}\n{royalties}\n{fantasyland}"
        ),
    },
    "rules.ofc": {
        "en": (
            "Classic OFC: 5 cards, then 8 streets of 1 card; 13 cards in top 3 / middle 5 / bottom 5, "
            "bottom ≥ middle ≥ top.\nThe button acts last on each street and passes to the next seat each hand.\n{scoring}\n{royalties}\n{fantasyland}"
        ),
        "ru": (
            "Классический OFC: 5 карт, затем 8 улиц по 1 карте; 13 карт: верх 3 / середина 5 / низ 5, "
            "низ ≥ середина ≥ верх.\nБаттон ходит последним на каждой улице и с каждой раздачей переходит к следующему месту.\n{scoring}\n{royalties}\n{fantasyland}"
        ),
    },
    # the royalty table of OFC and Pineapple (R5.6) and the bonus table of Chinese Poker
    # (R7.2), read from game/ (bot.service.rules): a title, then a line per box
    "rules.royalties": {
        "en": "Royalties (extra points):",
        "ru": "Роялти (дополнительные очки):",
    },
    "rules.royalties.deuce": {
        "en": "A box with 2♠ scores double royalties.",
        "ru": "За бокс с 2♠ роялти вдвое больше.",
    },
    "rules.bonuses": {
        "en": "Bonuses (points):",
        "ru": "Бонусы (очки):",
    },
    "rules.box.top": {"en": "top:", "ru": "верх:"},
    # the top box's pairs and trips in the points table, a run of ranks an item (R5.6, R7.2):
    # "66–AA 1–9" was terse; "pairs 66–AA pay 1 to 9"
    "rules.top.pairs": {"en": "pairs", "ru": "пары"},
    "rules.top.trips": {"en": "trips", "ru": "сеты"},
    "rules.top.pair": {"en": "pair", "ru": "пара"},
    "rules.top.trip": {"en": "trips", "ru": "сет"},
    "rules.top.rising": {
        "en": "{cat} {low}–{high} pay {first} to {last}",
        "ru": "{cat} {low}–{high} — от {first} до {last}",
    },
    "rules.top.flat": {
        "en": "{cat} {low}–{high} pay {first}",
        "ru": "{cat} {low}–{high} — по {first}",
    },
    "rules.top.one": {"en": "{cat} {low} pays {first}", "ru": "{cat} {low} — {first}"},
    "rules.box.middle": {"en": "middle:", "ru": "середина:"},
    "rules.box.bottom": {"en": "bottom:", "ru": "низ:"},
    "rules.cat.high_card": {"en": "high card", "ru": "старшая карта"},
    "rules.cat.pair": {"en": "pair", "ru": "пара"},
    "rules.cat.two_pair": {"en": "two pair", "ru": "две пары"},
    "rules.cat.trips": {"en": "trips", "ru": "сет"},
    "rules.cat.straight": {"en": "straight", "ru": "стрит"},
    "rules.cat.flush": {"en": "flush", "ru": "флеш"},
    "rules.cat.full_house": {"en": "full house", "ru": "фулл-хаус"},
    "rules.cat.quads": {"en": "quads", "ru": "каре"},
    "rules.cat.straight_flush": {"en": "straight flush", "ru": "стрит-флеш"},
    "rules.cat.royal_flush": {"en": "royal flush", "ru": "роял-флеш"},
    # the scoring scheme of OFC and Pineapple (R5.2, R5.3), in the rules above
    "rules.scoring.one_six": {
        "en": "Each box won vs each opponent: 1 point, all three: +3 (scoop).",
        "ru": "Каждый выигранный бокс у соперника — 1 очко, все три — ещё +3 (скуп).",
    },
    # R5.4: a fouled board against each live one, under either scheme
    "rules.foul": {
        "en": "A foul loses every box to each live board (−6) and pays that board's royalties.",
        "ru": "Мёртвая рука проигрывает каждой живой руке все боксы (−6) и платит роялти той руки.",
    },
    "rules.scoring.two_per_row": {
        "en": "Each box won vs each opponent: 2 points, no scoop bonus.",
        "ru": "Каждый выигранный бокс у соперника — 2 очка, без бонуса за все три.",
    },
    "rules.fantasyland.pineapple": {
        "en": "QQ+ on top (no foul) → Fantasyland: 14 cards at once next hand.",
        "ru": "QQ и выше наверху (если рука не мёртвая) → Фантазия: 14 карт сразу в следующей раздаче.",
    },
    "rules.fantasyland.progressive": {
        "en": "QQ, KK, AA or trips on top (no foul) → Fantasyland: 14, 15, 16 or 17 cards at once next hand.",
        "ru": "QQ, KK, AA или сет наверху (если рука не мёртвая) → Фантазия: 14, 15, 16 или 17 карт сразу в следующей раздаче.",
    },
    "rules.fantasyland.ofc": {
        "en": "QQ+ on top (no foul) → Fantasyland: 13 cards at once next hand.",
        "ru": "QQ и выше наверху (если рука не мёртвая) → Фантазия: 13 карт сразу в следующей раздаче.",
    },
    # staying in Fantasyland (R6.4), after the entry above
    "rules.fantasyland.stay": {
        "en": "Trips on top or quads+ on bottom there (no foul) → Fantasyland again.",
        "ru": "Сет наверху или каре и выше внизу в Фантазии (если рука не мёртвая) → снова Фантазия.",
    },
    "rules.fantasyland.stay_middle": {
        "en": "Trips on top, a full house+ in the middle or quads+ on bottom there (no foul) → Fantasyland again.",
        "ru": "Сет наверху, фулл-хаус и выше в середине или каре и выше внизу в Фантазии (если рука не мёртвая) → снова Фантазия.",
    },
    # what a point costs at the table (R7.6), after the rules above
    "rules.point_price": {
        "en": "A point costs {point} {label}.",
        "ru": "Очко стоит {point} {label:acc}.",
    },
    "rules.fantasyland.off": {
        "en": "Fantasyland is off.",
        "ru": "Фантазия выключена.",
    },
    "rules.chinese": {
        "en": (
            "Chinese Poker: 13 cards at once, arranged in secret into top 3 / middle 5 / bottom 5, "
            "bottom ≥ middle ≥ top.\nEach box against each opponent's: 2 points a win, 1 each a tie; "
            "+1 for winning 2 or 3 of 3 boxes; bonuses for strong hands.\nThe game is played to "
            "{target:point|points}.\nReached the target after the bottom or middle boxes are shown? "
            "Claim ends the game (boxes not yet shown don't count); Continue shows the rest.\n"
            "A claim after the middle keeps the +1 for bottom and middle both won."
        ),
        "ru": (
            "Китайский покер: 13 карт сразу, их втайне раскладывают на верх 3 / середину 5 / низ 5, "
            "низ ≥ середина ≥ верх.\nКаждый бокс — против того же бокса соперника: 2 очка за победу, "
            "по 1 при ничьей; +1 за 2 или 3 выигранных бокса из 3; бонусы за сильные комбинации.\n"
            "Игра идёт до {target:очка|очков|очков}.\nЦель достигнута при вскрытии низа или середины? "
            "«Закончить игру» — конец игры (невскрытые боксы не в счёт), «Продолжить» — вскрытие "
            "дальше.\n«Закончить игру» после середины сохраняет +1 за выигранные низ и середину."
        ),
    },
    "settings.title": {"en": "⚙ Settings of this group", "ru": "⚙ Настройки группы"},
    "settings.title.discord": {"en": "⚙ Settings of this server", "ru": "⚙ Настройки сервера"},
    "settings.line": {"en": "{name}: {value}", "ru": "{name}: {value}"},
    "settings.name.game": {"en": "Game", "ru": "Игра"},
    "settings.name.language": {"en": "Language", "ru": "Язык"},
    "settings.name.kush_label": {"en": "Kush label", "ru": "Название валюты"},
    "settings.name.pictures": {"en": "Pictures", "ru": "Картинки"},
    "settings.name.utc_offset": {"en": "Time zone", "ru": "Часовой пояс"},
    "settings.name.min_buy_in": {"en": "Buy-in", "ru": "Взнос"},
    "settings.name.max_buy_in": {"en": "Max stack", "ru": "Макс. стек"},
    "settings.name.starting_balance": {"en": "Starting balance", "ru": "Стартовый баланс"},
    "settings.name.daily_bonus": {"en": "/daily bonus", "ru": "Бонус /daily"},
    "settings.name.hand_seconds": {"en": "Time per hand", "ru": "Время на раздачу"},
    "settings.name.time_bank_seconds": {"en": "Time bank", "ru": "Тайм-банк"},
    "settings.name.time_bank_refill_per_match": {
        "en": "Time bank refill",
        "ru": "Пополнение банка",
    },
    "settings.name.fantasyland_seconds": {"en": "Fantasyland time", "ru": "Время Фантазии"},
    "settings.name.kush_per_point": {"en": "Kush per point", "ru": "Куш за очко"},
    "settings.name.scoring": {"en": "Scoring", "ru": "Подсчёт очков"},
    "settings.name.fantasyland": {"en": "Fantasyland", "ru": "Фантазия"},
    "settings.name.progressive_fantasyland": {
        "en": "Progressive Fantasyland",
        "ru": "Прогрессивная Фантазия",
    },
    "settings.name.stay_on_full_house_middle": {
        "en": "Stay in Fantasyland: middle full house",
        "ru": "Остаться в Фантазии: фулл в середине",
    },
    "settings.name.button_moves_in_fantasyland": {
        "en": "Button in Fantasyland",
        "ru": "Баттон в Фантазии",
    },
    "settings.name.simultaneous_streets": {
        "en": "Simultaneous streets",
        "ru": "Одновременные улицы",
    },
    "settings.name.safe_autoplay": {"en": "Safe autoplay", "ru": "Безопасный автоход"},
    "settings.name.settle_per_round": {"en": "Settle per round", "ru": "Расчёт по кругу"},
    "settings.name.deuce_of_spades": {"en": "Deuce of spades", "ru": "Двойка пик"},
    "settings.name.dummy_box": {"en": "Dummy box", "ru": "Болван"},
    "settings.name.heads_up_double_boxes": {"en": "Two boards heads-up", "ru": "Две доски вдвоём"},
    "settings.name.target_points": {"en": "Points to win", "ru": "Очки до победы"},
    "settings.name.reveal_pause_seconds": {"en": "Reveal pause", "ru": "Пауза вскрытия"},
    "settings.name.ready_seconds": {"en": "Ready timer", "ru": "Таймер готовности"},
    "settings.name.idle_close_seconds": {"en": "Idle close", "ru": "Автозакрытие"},
    "settings.name.tournament_buy_in": {"en": "Tournament buy-in", "ru": "Взнос турнира"},
    "settings.name.tournament_chips": {"en": "Tournament chips", "ru": "Фишки турнира"},
    "settings.name.level_minutes": {"en": "Level length", "ru": "Длина уровня"},
    "settings.name.payouts": {"en": "Prizes", "ru": "Призы"},
    "settings.name.chips_schedule": {"en": "Point price by level", "ru": "Цена очка по уровням"},
    # a kush label in other than Latin letters, as a reader of English sees it: what was saved
    # and what they read instead (kush_word)
    "settings.label_as": {
        "en": '{saved} (readers of English see "{shown}")',
        "ru": "{saved} (читающие по-английски видят «{shown}»)",
    },
    "settings.label_english": {
        "en": 'Readers of English see "kush" instead: a label in Latin letters ("coins") or a '
        "sign (🪙, ₽) reads the same for everyone.",
        "ru": "Читающие по-английски видят вместо него «kush»: название латиницей («coins») "
        "или значок (🪙, ₽) все читают одинаково.",
    },
    "settings.on": {"en": "on", "ru": "вкл"},
    "settings.off": {"en": "off", "ru": "выкл"},
    "settings.auto": {"en": "auto", "ru": "авто"},
    # the short list (/settings alone): the settings that differ from their defaults, then
    # how many others there are and how to see every one
    "settings.others_default": {
        "en": "The other {n} settings of {game} are at their defaults: /settings all lists every one{with_buttons}; /settings <name> explains one.",
        "ru": "Остальные настройки игры «{game}» ({n}) — по умолчанию: /settings all покажет все{with_buttons}; /settings <имя> объясняет одну.",
    },
    "settings.all_default": {
        "en": "Every setting of {game} is at its default: /settings all lists them{with_buttons}; /settings <name> <value> changes one.",
        "ru": "Все настройки игры «{game}» — по умолчанию: /settings all покажет их{with_buttons}; /settings <имя> <значение> меняет одну.",
    },
    # where /settings all shows buttons (not in the sandbox, which prints replies as text)
    "settings.with_buttons": {"en": ", with buttons", "ru": ", с кнопками"},
    "settings.all_button": {"en": "⚙ All settings", "ru": "⚙ Все настройки"},
    "settings.game_apart": {
        "en": "Game of new tables (game): {value}. This table plays {table} until it closes.",
        "ru": "Игра новых столов (игра): {value}. Этот стол играет в «{table}», пока не закрыт.",
    },
    "settings.footer": {
        "en": "Shown: what applies to {game}. /settings <name> explains a setting; /settings <name> <value> sets it (or default, for its default).",
        "ru": "Показано то, что действует в игре «{game}». /settings <имя> объясняет настройку, /settings <имя> <значение> меняет её (или по умолчанию — сбрасывает).",
    },
    "settings.help": {
        "en": "{name}: {about}\n{range}.\nGames: {games}. Now: {value}.",
        "ru": "{name}: {about}\n{range}.\nИгры: {games}. Сейчас: {value}.",
    },
    # a setting of the whole group (its language, time zone, kush label, ...), not of games
    # /settings <name> for a setting with a value stored: how to drop it
    "settings.reset_hint": {
        "en": "/settings {name} default gives it back its default.",
        "ru": "/settings {name} по умолчанию — вернуть значение по умолчанию.",
    },
    "settings.help_group": {
        "en": "{name}: {about}\n{range}.\nNow: {value}.",
        "ru": "{name}: {about}\n{range}.\nСейчас: {value}.",
    },
    "settings.range.whole": {
        "en": "{name} takes a whole number{unit} from {low} to {high}",
        "ru": "{name}: целое число{unit} от {low} до {high}",
    },
    # an amount of kush: the label (any text an admin chose) after the number, as amounts read
    "settings.range.whole_kush": {
        "en": "{name} takes a whole number from {low} to {high} {label}",
        "ru": "{name}: целое число от {low} до {high} {label:gen}",
    },
    "settings.range.number": {
        "en": "{name} takes a number{unit} from {low} to {high} (a fraction like {example} is fine)",
        "ru": "{name}: число{unit} от {low} до {high} (дробное — через запятую или точку: {example})",
    },
    "settings.range.switch": {"en": "{name} is on or off", "ru": "{name}: on или off (вкл/выкл)"},
    "settings.range.choice": {
        "en": "{name} is one of: {choices}",
        "ru": "{name}: одно из значений {choices}",
    },
    "settings.range.text": {
        "en": "{name} is text of {low} to {high} characters (at least one visible), "
        "without control characters",
        "ru": "{name}: текст от {low} до {high:символа|символов|символов} (хотя бы один видимый), "
        "без управляющих символов",
    },
    # a time typed with its unit ("2m" for a setting in seconds): what it is in the setting's
    # unit, and to type that number alone; beyond the setting's range, only what it is
    "settings.in_unit.seconds": {
        "en": "“{typed}” is {value:second|seconds}: type {value}.",
        "ru": "«{typed}» — это {value:секунда|секунды|секунд}: наберите {value}.",
    },
    "settings.in_unit.minutes": {
        "en": "“{typed}” is {value:minute|minutes}: type {value}.",
        "ru": "«{typed}» — это {value:минута|минуты|минут}: наберите {value}.",
    },
    "settings.in_unit.hours": {
        "en": "“{typed}” is {value:hour|hours}: type {value}.",
        "ru": "«{typed}» — это {value:час|часа|часов}: наберите {value}.",
    },
    "settings.in_unit_out.seconds": {
        "en": "“{typed}” is {value:second|seconds}.",
        "ru": "«{typed}» — это {value:секунда|секунды|секунд}.",
    },
    "settings.in_unit_out.minutes": {
        "en": "“{typed}” is {value:minute|minutes}.",
        "ru": "«{typed}» — это {value:минута|минуты|минут}.",
    },
    "settings.in_unit_out.hours": {
        "en": "“{typed}” is {value:hour|hours}.",
        "ru": "«{typed}» — это {value:час|часа|часов}.",
    },
    # a time zone off the quarter hours ("5.7", "5:40", "0.0000001"): every zone is whole
    # quarter hours from UTC
    "settings.zone_quarters": {
        "en": "Time zones go by quarter hours: 5.75 or 5:45 is 5 h 45 min.",
        "ru": "Пояса идут четвертями часа: 5,75 или 5:45 — это 5 ч 45 мин.",
    },
    # a timer's value in the settings list and answers, with its unit in short
    "settings.short.seconds": {"en": "{value} s", "ru": "{value} с"},
    "settings.short.minutes": {"en": "{value} min", "ru": "{value} мин"},
    "settings.unit.seconds": {"en": " of seconds", "ru": " секунд"},
    "settings.unit.kush": {"en": " of {label}", "ru": " {label}"},
    "settings.unit.points": {"en": " of points", "ru": " очков"},
    "settings.unit.hours": {"en": " of hours", "ru": " часов"},
    "settings.unit.minutes": {"en": " of minutes", "ru": " минут"},
    "settings.unit.chips": {"en": " of chips", "ru": " фишек"},
    "settings.top_up_auto": {
        "en": "auto — 5 × buy-in = {value}",
        "ru": "авто — 5 × взнос = {value}",
    },
    # a time zone never set (or set back to auto): the group's language's (R8.1)
    "settings.zone_auto": {"en": "auto — {value}", "ru": "авто — {value}"},
    "settings.choice.one_six": {"en": "1 a box, scoop 6", "ru": "1 за бокс, скуп 6"},
    "settings.choice.two_per_row": {"en": "2 a box", "ru": "2 за бокс"},
    "settings.choice.en": {"en": "English", "ru": "английский"},
    "settings.choice.ru": {"en": "Russian", "ru": "русский"},
    "settings.is_default": {"en": "{value} (default)", "ru": "{value} (по умолчанию)"},
    # a rule option stored at this game's default: every game it applies to plays it
    "settings.pinned_each": {
        "en": "{value} (saved for every game; defaults: {each})",
        "ru": "{value} (сохранено для всех игр; по умолчанию: {each})",
    },
    # a rule option the group's game has not, nothing stored: each game's own default
    "settings.each_default": {
        "en": "{each} (each game's default)",
        "ru": "{each} (у каждой игры своё по умолчанию)",
    },
    "settings.pinned": {
        "en": "{value} (saved; the default)",
        "ru": "{value} (сохранено; как по умолчанию)",
    },
    "settings.with_default": {
        "en": "{value} (default {default})",
        "ru": "{value} (по умолчанию {default})",
    },
    "settings.list_digits": {
        "en": "{name}: whole numbers (digits 0–9, at most 9 each) separated by commas, spaces or semicolons, e.g. “{example}”, or “default”",
        "ru": "{name}: целые числа (цифры 0–9, до 9 в каждом) через запятую, пробел или точку с запятой, например «{example}», или «по умолчанию»",
    },
    "settings.range.list": {
        "en": "{name}: whole numbers (digits 0–9, at most 9 each) separated by commas, spaces or semicolons, e.g. “{example}”, or “default”; at most {high} characters in all",
        "ru": "{name}: целые числа (цифры 0–9, до 9 в каждом) через запятую, пробел или точку с запятой, например «{example}», или «по умолчанию»; всего не больше {high:символа|символов|символов}",
    },
    # a list with a place left empty ("50,,50", "100;;"): a number left out, not nothing;
    # {sep} is the separator the admin typed there ("between commas" was said of semicolons);
    # each list told in its own terms: a prize place of payouts, a level of chips_schedule
    # (whose "10,,20" was told of "a place in the list", "50,,50")
    "settings.payouts_empty": {
        "en": "{name}: a prize place has no percentage (“50{sep}{sep}50”): write one for each place",
        "ru": "{name}: у призового места нет процента («50{sep}{sep}50»): укажите процент каждого места",
    },
    "settings.schedule_empty": {
        "en": "{name}: a level has no chips per point (“10{sep}{sep}20”): write one for each level",
        "ru": "{name}: у уровня нет цены очка («10{sep}{sep}20»): укажите цену каждого уровня",
    },
    "settings.payouts_sum": {
        "en": "payouts: the percentages must add up to 100; these add up to {total}",
        "ru": "призы: проценты должны давать в сумме 100, а эти дают {total}",
    },
    "settings.payouts_zero": {
        "en": "payouts: every place listed wins something; leave out the places at 0: {example}",
        "ru": "призы: каждое указанное место что-то выигрывает; уберите места с 0: {example}",
    },
    "settings.payouts_order": {
        "en": "payouts: best place first; a worse place cannot get more than a better one",
        "ru": "призы: сначала первое место; худшее место не может получать больше лучшего",
    },
    "settings.schedule_least": {
        "en": "chips_schedule: every level's chips per point is at least 1",
        "ru": "цена_по_уровням: цена очка на каждом уровне — не меньше 1 фишки",
    },
    "settings.schedule_order": {
        "en": "chips_schedule: chips per point cannot fall from one level to the next",
        "ru": "цена_по_уровням: цена очка в фишках не может падать от уровня к уровню",
    },
    "settings.schedule_over_chips": {
        "en": "chips_schedule: a point of the first level ({first}) cannot cost more than the starting chips (tournament_chips: {chips}): nobody could pay one point",
        "ru": "цена_по_уровням: очко первого уровня ({first}) не может стоить больше стартовых фишек (фишки_турнира: {chips}): никто не оплатит и одного очка",
    },
    # a tournament setting an older version saved that opens no tournament (R8.7), found
    # when another one changes or a tournament opens (bot.service.settings.tournament_refusal)
    "settings.tournament_saved": {
        "en": "{name}: the saved value {value} opens no tournament: set it again, or back to its default (/settings {name} default)",
        "ru": "{name}: сохранённое значение {value} не подходит для турнира: задайте новое или верните по умолчанию (/settings {name} по умолчанию)",
    },
    # a change refused for another tournament setting saved earlier ({reason} names it)
    "settings.tournament_other": {
        "en": "{name}: a saved tournament setting is wrong — {reason}",
        "ru": "{name}: одна из сохранённых настроек турнира неверна — {reason}",
    },
    "settings.tournament_bad": {
        "en": "the tournament settings do not fit together: /settings all lists them",
        "ru": "настройки турнира не сочетаются друг с другом: все настройки — /settings all",
    },
    # /tournament refused: the group's saved tournament settings open none (R8.7)
    "reply.tournament_settings_bad": {
        "en": "No tournament opened — {error}.",
        "ru": "Турнир не открыт — {error}.",
    },
    "settings.buy_in_order": {
        "en": "max_buy_in ({max_buy_in}) cannot be below min_buy_in ({min_buy_in}): keep min_buy_in ≤ max_buy_in, or set max_buy_in to 0 (5 × min_buy_in)",
        "ru": "макс_стек ({max_buy_in}) не может быть меньше, чем взнос ({min_buy_in}): нужно взнос ≤ макс_стек, или поставьте макс_стек 0 (5 × взнос)",
    },
    "settings.idle_over_ready": {
        "en": "an idle table would close ({idle} s, idle_close_seconds) before the ready timer ends ({ready} s, ready_seconds). Keep idle_close_seconds > ready_seconds",
        "ru": "стол без раздач закроется ({idle} с) раньше конца таймера готовности ({ready} с). Нужно закрытие_без_игры > таймер_готовности",
    },
    "settings.point_over_buy_in": {
        "en": "a point ({point} kush_per_point) cannot cost more than the buy-in ({min_buy_in} min_buy_in): a stack below one point is never dealt in. Keep kush_per_point ≤ min_buy_in",
        "ru": "очко ({point}, куш_за_очко) не может стоить больше взноса ({min_buy_in}, взнос): стек меньше одного очка не играет. Нужно куш_за_очко ≤ взнос",
    },
    "settings.conflict_option": {
        "en": "{option} exists only in {games}, and these settings are for {game} (/settings game) whatever table is open: switch it first (/settings game {first})",
        "ru": "{option} есть только в {games}, а эти настройки — для игры «{game}» (/settings игра) при любом столе: сначала смените её (/settings игра {first})",
    },
    "settings.conflict_game": {
        "en": "{option} is on and exists only in {games}, not in {game}: turn it off first (/settings {option} off)",
        "ru": "настройка {option} включена, а она есть только в {games}, не в «{game}»: сначала выключите её (/settings {option} выкл)",
    },
    "settings.elsewhere": {
        "en": " (it applies to {games}; this group's game is {game})",
        "ru": " (действует в {games}; игра группы — «{game}»)",
    },
    "settings.elsewhere.discord": {
        "en": " (it applies to {games}; this server's game is {game})",
        "ru": " (действует в {games}; игра сервера — «{game}»)",
    },
    # the games a setting applies to, after «в» in the three notes above and the conflicts
    # (:func:`bot.service.settings.in_games`): «в игре «Классический OFC»», «в играх
    # «Ананас (OFC)» и «Классический OFC»» (it read «в игре «Ананас (OFC), Классический OFC»»)
    "settings.in_game": {"en": "{games}", "ru": "игре {games}"},
    "settings.in_games": {"en": "{games}", "ru": "играх {games}"},
    "settings.elsewhere_table": {
        "en": " (it applies to {games}; this table's game is {game})",
        "ru": " (действует в {games}; игра этого стола — «{game}»)",
    },
    "settings.next_match": {
        "en": "It applies from the next hand (after any Fantasyland hands this one earns).",
        "ru": "Действует со следующей раздачи (после раздач Фантазии, если эта их принесёт).",
    },
    "settings.in_force_match": {
        "en": " (in play: {value} till the match ends)",
        "ru": " (в игре: {value} до конца матча)",
    },
    # the settings list: a value waiting for the match's end, then its one line saying so
    "settings.in_force_brief": {"en": " (in play: {value})", "ru": " (в игре: {value})"},
    "settings.in_force_legend": {
        "en": "In play: what the open table plays till its match ends.",
        "ru": "В игре: что действует за открытым столом до конца матча.",
    },
    "settings.in_force_hand": {
        "en": " (in play: {value} till the hand ends)",
        "ru": " (в игре: {value} до конца раздачи)",
    },
    "settings.next_hand": {
        "en": "It applies from the next hand.",
        "ru": "Действует со следующей раздачи.",
    },
    "settings.target_next_hand": {
        "en": "The game under way plays to {target} from the next hand; if a player has "
        "{target} points or more when this hand ends, the game is over then and settled.",
        "ru": "Идущая игра со следующей раздачи играется до {target:очка|очков|очков}; если "
        "к концу этой раздачи у игрока будет {target:очко|очка|очков} или больше, игра на этом "
        "окончена и рассчитывается.",
    },
    "settings.point_ends_game": {
        "en": "It applies from the next hand: the game under way ends with this hand and is "
        "settled at the points' old price; the next hand begins a new game.",
        "ru": "Действует со следующей раздачи: идущая игра заканчивается этой раздачей и "
        "рассчитывается по прежней цене очка; следующая раздача начинает новую игру.",
    },
    # after a raised min_buy_in: players who pressed Ready at the old one for a hand not
    # dealt yet keep the stack they paid (R8.2; a lowered one gives the difference back)
    "settings.buy_in_kept": {
        "en": "Bought in for less before, they keep their stacks: {stacks}; ➕ or /topup adds more.",
        "ru": "Раньше внесли меньше и остаются со своими стеками: {stacks}; докупить — ➕ или /topup.",
    },
    "settings.start_below_buy_in": {
        "en": "⚠️ The starting balance ({balance} {label}) is below the buy-in ({buy_in}): new players cannot buy in.",
        "ru": "⚠️ Стартовый баланс ({balance} {label}) меньше взноса ({buy_in}): новые игроки не смогут сесть за стол.",
    },
    "settings.bank_new_seats": {
        "en": "It applies to players who sit down from now on; seated players keep the time "
        "bank they have.",
        "ru": "Это для тех, кто сядет за стол с этого момента; у уже сидящих остаётся их "
        "тайм-банк.",
    },
    "settings.game_next_table": {
        "en": "The open table stays {table}: {game} comes with the next /newtable (an admin closes this one first: /closetable).",
        "ru": "Открытый стол остаётся игрой «{table}»: «{game}» будет со следующего /newtable (сначала админ закрывает этот: /closetable).",
    },
}

#: Discord's slash commands in Russian (its ``ru`` and ``uk`` locales): the Russian of each
#: English description in bot/discord/adapter.py (commands, groups, parameters), published as
#: its ``description_localizations`` (at most 100 characters each)
DISCORD_DESCRIPTIONS_RU: dict[str, str] = {
    "Open-Face Chinese Poker (Pineapple)": "Открытый китайский покер (Ананас)",
    "Open-Face Chinese Poker: admin commands": "Открытый китайский покер: команды админов",
    "Open a table in this channel": "Открыть стол в этом канале",
    "the game (default: this server's setting)": "игра (по умолчанию — настройка сервера)",
    "the game (default: this table's)": "игра (по умолчанию — игра этого стола)",
    "Open a sit-and-go tournament here": "Открыть здесь турнир (sit-and-go)",
    "Take a seat at this channel's table": "Сесть за стол этого канала",
    "Buy in and get ready": "Внести взнос (кнопка «Готов»)",
    "Leave the table": "Встать из-за стола",
    "Seat a computer player (the house pays its buy-in)": "Посадить компьютерного игрока (взнос платит заведение)",
    "easy, normal or strong (default normal)": "лёгкий, средний или сильный (по умолчанию средний)",
    "Stand a computer player up": "Убрать компьютерного игрока",
    "which one, e.g. Anna (default: the last one seated)": "какого, например Анна (по умолчанию — севшего последним)",
    "Top up your stack (asked during your hand: added when it ends)": (
        "Докупить в стек (во время вашей раздачи — пройдёт после неё)"
    ),
    "how much to add (default: the minimum buy-in)": "сколько докупить (по умолчанию — взнос)",
    "Skip hands, keeping your seat": "Пропускать раздачи, не вставая из-за стола",
    "Come back after sitting out": "Вернуться в игру после пропуска",
    "Your balance": "Ваш баланс",
    "The leaderboard": "Рейтинг игроков",
    "by winnings in a period (default: balance plus stacks)": "по выигрышу за период (по умолчанию — баланс со стеками)",
    "Statistics of this server or a player": "Статистика сервера или игрока",
    "whose (default: the server's and yours)": "чья (по умолчанию — сервера и ваша)",
    "which period": "за какой период",
    "Replay one of your hands street by street": "Повтор вашей раздачи по улицам",
    "the hand's #number from /ofc history": "#номер раздачи из /ofc history",
    "Your last hands": "Ваши последние раздачи",
    "how many of your last hands, 1–20 (default 5)": "сколько последних раздач, 1–20 (по умолчанию 5)",
    "Rules of this table's game": "Правила игры за этим столом",
    "Take the daily bonus": "Получить ежедневный бонус",
    "Your board as a picture (only you see it)": "Ваша доска картинкой (видна только вам)",
    "What the bot can do": "Что умеет бот",
    "Admins: buy-in, point price, timers, language": "Админам: взнос, цена очка, таймеры, язык",
    "the setting to change": "какую настройку менять",
    "its new value": "новое значение",
    "Admins: close this channel's table": "Админам: закрыть стол этого канала",
    "Admins: add to (or take from) a balance": "Админам: пополнить (или уменьшить) баланс",
    "who gets it": "кому",
    "how much (negative takes)": "сколько (минус — забрать)",
    "Admins: stand a player up, or unregister them from a tournament not started": (
        "Админам: поднять игрока из-за стола или снять с регистрации в турнире до старта"
    ),
    "who stands up (or is unregistered)": "кого поднять (или снять с регистрации)",
}

_ERROR_KEYS = {k[4:] for k in TEXTS if k.startswith("err.")}

#: the default kush label's Russian forms after a number (1 куш, 2 куша, 5 кушей); after a
#: number in the genitive (``{n} {label:gen}``) they are (куша, кушей, кушей): до 1 куша, до
#: 5 кушей; alone, кушей (стек 0 кушей), :func:`_agree_kush`
_KUSH_RU = ("куш", "куша", "кушей")
_FRACTION = re.compile(r"\d[.,]\d")
#: a number's format spec before the noun forms (``+d``, ``,``, ``.1f``, or nothing)
_NUMBER_SPEC = re.compile(r"[<>=^]?[+\- ]?#?0?\d*[,_]?(\.\d+)?[bcdeEfFgGnosxX%]?")
#: ``{amount} {label}`` / ``{amount:+d} {label:gen}`` in a template: the label agrees with it
#: (``{label:acc}``: in the accusative, after «на»: на 1 фишку)
_NUMBER_LABEL = re.compile(r"\{(\w+)(?::([^{}|]*))?\} \{label(:gen|:acc)?\}")
#: the accusative after a number of one (на 1 фишку) of a feminine unit of :data:`_RU_UNITS`
#: (a masculine one, like куш, reads as its nominative: на 1 куш)
_RU_ACC = {"фишка": "фишку", "монета": "монету", "монетка": "монетку", "звезда": "звезду"}


def plural(n: object, *forms: str) -> str:
    """The form of a noun that agrees with the number ``n``.

    Russian takes three forms, ``(one, few, many)``: ``plural(1, "куш", "куша", "кушей")`` is
    ``"куш"``, 2–4 (not 12–14) give ``"куша"``, the rest ``"кушей"``; a fraction (``"1.5"``)
    takes ``few`` (1,5 куша). English takes two, ``(one, other)``. ``n`` may be an int or an
    already formatted number (``"+3"``, ``"−5"``, ``"1 000"``, ``"2.5"``).

    :raises ValueError: unless two or three forms are given.
    """
    if len(forms) not in (2, 3):
        raise ValueError("plural takes (one, other) or (one, few, many)")
    text = str(n)
    digits = "".join(ch for ch in text if ch.isdigit())
    fraction = _FRACTION.search(text) is not None
    if len(forms) == 2:
        return forms[0] if digits.lstrip("0") == "1" and not fraction else forms[1]
    one, few, many = forms
    if fraction:
        return few
    value = int(digits or 0)
    if 11 <= value % 100 <= 14:
        return many
    return {1: one, 2: few, 3: few, 4: few}.get(value % 10, many)


class _Formatter(string.Formatter):
    """``str.format`` plus two specs: ``{n:карта|карты|карт}`` (``{n:+d|очко|очка|очков}`` with
    a number format first) gives the number and its agreeing noun (:func:`plural`); English
    takes ``{n:card|cards}``. ``{label:gen}`` is the label itself when no number precedes it."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            parts = format_spec.split("|")
            spec = ""
            if len(parts) in (3, 4) and _NUMBER_SPEC.fullmatch(parts[0]):
                spec, parts = parts[0], parts[1:]
            return f"{format(value, spec)} {plural(value, *parts)}"
        if format_spec in ("gen", "acc") and isinstance(value, str):
            return value
        return str(super().format_field(value, format_spec))


_FORMATTER = _Formatter()


def kush_word(label: str, lang: str | None, n: object = None) -> str:
    """``label`` as a player reading ``lang`` sees it: the default ``"kush"`` is ``"куш"`` in
    Russian, agreeing with the number ``n`` when one is given (2 куша, 5 кушей), as a common
    Russian unit the admins chose does (:data:`_RU_UNITS`: 5 фишек); another label the admins
    chose (``/settings kush_label``) is shown as they wrote it, after a number in Russian as
    a name that needs no agreement when it is a word (:func:`_after_number`). A reader of
    English sees the default (``"kush"``) for a label written in other letters than Latin
    ones (:func:`latin_only`: «монеты», «кушей» read nothing to them); a sign or an emoji
    (₽, 🪙) and a Latin word ("coins") read the same in both languages (R8.1)."""
    if lang != "ru" and not latin_only(label):
        label = DEFAULT_KUSH_LABEL
    if lang == "ru" and label in (DEFAULT_KUSH_LABEL, "куш"):
        return "куш" if n is None else plural(n, *_KUSH_RU)
    if n is not None and lang == "ru" and (forms := _ru_forms(label)) is not None:
        return plural(n, *forms)
    if n is not None and lang == "ru" and _inflected(label):
        return _after_number(label)
    return label


def latin_only(label: str) -> bool:
    """Whether every letter of a kush ``label`` is a Latin one ("coins", "crédits"), or it has
    none (₽, 🪙): a reader of English reads it as it is, else sees the default label
    (:func:`kush_word`)."""
    return all(unicodedata.name(ch, "").startswith("LATIN ") for ch in label if ch.isalpha())


#: Russian units a group may well choose as its kush label (the settings' example is
#: «монеты»), by any of the forms an admin writes (one, many, or as "500 монет" ends), with
#: their forms after a number (one, few, many): «500 фишек», not «500 ед. «фишки»»
#: (:func:`_after_number`)
_RU_UNITS: dict[str, tuple[str, str, str]] = {
    form: forms
    for forms, plural_form in (
        (("фишка", "фишки", "фишек"), "фишки"),
        (("монета", "монеты", "монет"), "монеты"),
        (("монетка", "монетки", "монеток"), "монетки"),
        (("жетон", "жетона", "жетонов"), "жетоны"),
        (("кредит", "кредита", "кредитов"), "кредиты"),
        (("балл", "балла", "баллов"), "баллы"),
        (("рубль", "рубля", "рублей"), "рубли"),
        (("доллар", "доллара", "долларов"), "доллары"),
        (("бакс", "бакса", "баксов"), "баксы"),
        (("алмаз", "алмаза", "алмазов"), "алмазы"),
        (("кристалл", "кристалла", "кристаллов"), "кристаллы"),
        (("звезда", "звезды", "звёзд"), "звёзды"),
        (("звезда", "звезды", "звёзд"), "звезды"),
    )
    for form in (forms[0], plural_form, forms[2])
}


def _ru_forms(label: str) -> tuple[str, str, str] | None:
    """The forms after a number of a label the admins chose that is one of :data:`_RU_UNITS`,
    written in lower case or capitalized («Фишки»: 5 фишек, as a sentence writes it)."""
    if label not in (label.lower(), label.capitalize()):
        return None
    return _RU_UNITS.get(label.lower())


def _inflected(label: str) -> bool:
    """Whether a kush label the admins chose ends with a Russian word, which a Russian reader
    expects to agree with the number before it ("100 фишка", "1 фишек"): it is never
    inflected (a word of any gender, or a phrase, may be chosen), so it is named instead
    (:func:`_after_number`). A sign ("₽", "💰"), an abbreviation ("руб.") or a Latin word
    ("chips") reads well after any number as it is."""
    last = label.rstrip()[-1:]
    return last.isalpha() and "\u0400" <= last <= "\u04ff"


def _after_number(label: str) -> str:
    """A Russian kush label the admins chose as it follows a number (:func:`_inflected`):
    named in quotes after «ед.» (units), which agrees with any number: «100 ед. «фишка»»."""
    return f"ед. «{label}»"


@functools.cache  # (a pure function of one of the finitely many templates)
def _name_kush(template: str) -> str:
    """A Russian template for a kush label the admins chose that is a word
    (:func:`_inflected`): every ``{label}`` follows an amount there (``{n} {label}``,
    ``{n} {label:gen}``, "стек 0 {label}"), and is named as :func:`_after_number` names it."""
    return re.sub(r"\{label(?::gen|:acc)?\}", _after_number("{label}"), template)


@functools.cache  # (a pure function of one of the finitely many templates)
def _agree_kush(template: str, forms: tuple[str, str, str] = _KUSH_RU) -> str:
    """A Russian template for the default kush label (or a unit of :data:`_RU_UNITS`, its
    ``forms``): ``{n} {label}`` → the number with the agreeing form, ``{n} {label:gen}`` →
    the genitive (до 5 кушей), a lone ``{label}`` → ``кушей`` (стек 0 кушей)."""
    one, few, many = forms
    gen = (few, many, many)  # (до 1 куша, до 2 кушей; до 1 фишки, до 2 фишек)
    acc = (_RU_ACC.get(one, one), few, many)  # (на 1 фишку, на 2 фишки, на 5 фишек)

    def number(m: re.Match[str]) -> str:
        agree = {":gen": gen, ":acc": acc}.get(m.group(3) or "", forms)
        return "{" + m.group(1) + ":" + (m.group(2) or "") + "|" + "|".join(agree) + "}"

    template = _NUMBER_LABEL.sub(number, template)
    for lone in ("{label:gen}", "{label:acc}", "{label}"):
        template = template.replace(lone, many)
    return template


class _UnsignedZero(int):
    """Zero written without the sign a ``+d`` spec gives it: "0 pts", not "+0 pts"."""

    def __format__(self, spec: str) -> str:
        return format(0, spec.replace("+", "", 1))


_UNSIGNED_ZERO = _UnsignedZero(0)

#: The minus sign of every negative number a player reads, U+2212 ("−15 pts", "−60 kush",
#: "from −1000 to 1000"), as the showdown pictures draw it (as wide as the plus; a hyphen is
#: not). What players type is read with either (:data:`bot.service.numbers.MINUSES`).
MINUS = "\u2212"


def minus(text: str) -> str:
    """A formatted number ``text`` with its leading hyphen-minus (after any padding) written
    as :data:`MINUS`: ``"-15"`` → ``"−15"``, ``"-1.5"`` → ``"−1.5"``; any other unchanged."""
    head = text.lstrip()
    if head[:1] != "-":
        return text
    return text[: len(text) - len(head)] + MINUS + head[1:]


class _Negative:
    """A negative number in a template, formatted as its spec says, then with :data:`MINUS`
    for its sign (:func:`minus`): ``{points:+d}`` of -15 is "−15"."""

    __slots__ = ("value",)

    def __init__(self, value: float) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return minus(format(self.value, spec))

    def __str__(self) -> str:
        return minus(str(self.value))


def _is_negative(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0


def _is_zero(value: object) -> bool:
    return type(value) is int and value == 0


def tr(lang: str | None, key: str, **values: Any) -> str:
    """The text ``key`` in ``lang`` (``"en"``/``"ru"``), formatted with ``values``; a
    ``label`` value is the kush label, shown by :func:`kush_word` (in Russian the default
    label agrees with the number before it: 1 куш, 2 куша, 5 кушей). Templates may write
    ``{n:one|few|many}`` for a number with its agreeing noun (:class:`_Formatter`). A signed
    number (``{n:+d}``) that is zero is written without its sign: "0 pts", "0 kush".

    :raises KeyError: for an unknown key (a programming error).
    """
    entry = TEXTS[key]
    template = entry.get(lang or "en") or entry["en"]
    if not values:
        return template
    if ":+" in template:  # a signed number: zero is written without a sign ("0 pts")
        values = {k: _UNSIGNED_ZERO if _is_zero(v) else v for k, v in values.items()}
    # the amounts are named in the template as written: the default label's agreement turns
    # "{lost} {label}" into "{lost:|куш|куша|кушей}", no longer an amount before a label
    values = _amounts(template, values, lang)
    if any(_is_negative(v) for v in values.values()):  # "−15 pts", as the pictures draw it
        values = {k: _Negative(v) if _is_negative(v) else v for k, v in values.items()}
    label = values.get("label")
    if isinstance(label, str):
        if lang == "ru" and label in (DEFAULT_KUSH_LABEL, "куш") and entry.get("ru"):
            template = _agree_kush(template)
        elif lang == "ru" and entry.get("ru") and (forms := _ru_forms(label)) is not None:
            template = _agree_kush(template, forms)  # (500 фишек)
        elif lang == "ru" and entry.get("ru") and _inflected(label):
            template = _name_kush(template)  # ("100 фишка": named, "100 ед. «фишка»")
        values["label"] = kush_word(label, lang)
    if "|" not in template and ":gen}" not in template and ":acc}" not in template:
        return template.format(**values)  # (str.format: a tenth of the formatter's time)
    return _FORMATTER.format(template, **values)


def on(platform: str | None, key: str) -> str:
    """The key of ``key``'s wording on ``platform`` where it has one of its own
    (``<key>.discord``: Discord calls a group a server, and a table lives in a channel),
    else ``key``. A wording of its own differs in more than command names and writes
    Telegram's (``/closetable``): the Discord adapter renames them all
    (:func:`bot.discord.components.discord_commands`, the one list of Discord's names)."""
    own = f"{key}.{platform}"
    return own if platform and own in TEXTS else key


def error_text(lang: str | None, code: str) -> str:
    """The short notice for a refused action with the core error ``code``."""
    return tr(lang, f"err.{code}" if code in _ERROR_KEYS else "err.game_error")


#: Russian: whole numbers from this size up are written with their thousands grouped
#: (``12 000``); smaller ones as they are (``5000``), as Russian typography writes them
GROUP_FROM = 10_000
#: English: whole numbers from this size up are grouped (``1,000``; ``9,880``), as English
#: writes every number of four digits and more ("Anna 10,120, Bob 9880" mixed the two)
GROUP_FROM_EN = 1_000


def group_from(lang: str | None) -> int:
    """From what size up :func:`grouped` groups a whole number's thousands in ``lang``:
    :data:`GROUP_FROM` (10 000) in Russian, :data:`GROUP_FROM_EN` (1,000) otherwise."""
    return GROUP_FROM if lang == "ru" else GROUP_FROM_EN


def grouped(value: int, lang: str | None) -> str:
    """A whole number as players read it, the one format of an amount of kush (buy-ins,
    stacks, balances, settlements, ranges) and of every whole number a text groups: its
    thousands grouped as the language writes them, in English from four digits up
    (``1,000``, ``12,000``), in Russian from five (``12 000``, a no-break space: a comma is
    the decimal sign there; ``5000`` as it is, Russian typography's convention,
    :func:`group_from`); a smaller one as it is (``999``)."""
    if abs(value) < group_from(lang):
        return str(value)
    text = f"{value:,}"
    return text.replace(",", "\u00a0") if lang == "ru" else text


def grouped_tenths(value: float, lang: str | None, *, sign: bool = False) -> str:
    """A number to one decimal (an average: ``/stats``'s points or kush a hand) as readers of
    ``lang`` write it: ``1.5``, in Russian ``1,5``; its thousands grouped as
    :func:`grouped`'s, from :func:`group_from` up, as rounded (``999.95`` is ``1,000.0``;
    Russian ``12 000,0``, a no-break space), below it as it is (``5000,0`` in Russian).
    ``sign``: a ``+`` before a positive one or zero (``+1,5``); a negative one is written
    with :data:`MINUS` (``−12,000.0``)."""
    plus = "+" if sign else ""
    text = f"{value:{plus}.1f}"
    if abs(float(text)) >= group_from(lang):
        text = f"{value:{plus},.1f}"
    text = minus(text)
    return text.replace(",", "\u00a0").replace(".", ",") if lang == "ru" else text


def decimal(value: float, lang: str | None) -> str:
    """A number that may have a fraction (a setting's value, an example or a bound of
    ``/settings``, a tournament's ``level_minutes``: R8.7) as readers of ``lang`` write it:
    ``7.5``, in Russian ``7,5`` (both read back by ``/settings``,
    :func:`bot.service.numbers.read_fraction`); a whole one without a fraction (``5``), its
    digits not grouped. Rounded to ten significant digits (Python's ``.10g``: the float's
    exact binary value to the nearest, a tie to the even digit), trailing zeros dropped, and
    written in plain digits, never an exponent (``0.0000001``; "1e-07" is refused by
    ``/settings``). A negative one keeps the hyphen-minus, as typed back. The one format of
    such numbers: the tournament's line wrote ``f"{value:g}"`` (six digits, an exponent from
    1e-05) where ``/settings`` wrote ten."""
    text = format(Decimal(f"{value:.10g}"), "f")
    return text.replace(".", ",") if lang == "ru" else text


def signed(value: int, lang: str | None, *, drawn: bool = False) -> str:
    """An amount with its sign (``+12,000``, ``−50``, ``+0``), grouped as :func:`grouped`, a
    negative one with the typographic minus (:data:`MINUS`: ``−12 000``, as the pictures
    draw it; a caption's "-60 kush" beside a picture's "−6"). ``drawn``: as a picture draws
    it, a zero without a sign (``0``)."""
    if drawn and not value:
        return "0"
    return minus(format(_Amount(value, lang), "+d"))


class _Amount(int):
    """An amount of kush in a template: formatted as its spec says (``+d`` too), its digits
    then grouped as :func:`grouped` groups them."""

    lang: str | None

    def __new__(cls, value: int, lang: str | None) -> _Amount:
        self = super().__new__(cls, value)
        self.lang = lang
        return self

    def __format__(self, spec: str) -> str:
        text = format(int(self), spec)
        if "," in spec or "_" in spec:
            return text
        digits = grouped(abs(int(self)), self.lang)
        return re.sub(r"\d+", lambda m: digits, text, count=1)


#: the values that are amounts of kush (or chips) wherever a template names them; a value
#: written just before ``{label}`` is one too (:func:`_amount_names`). A whole number only
#: (a name of the same field, "{other}" in ``reply.grant_which``, is left as it is). One
#: left out stayed bare beside grouped ones: "1,200 kush on balance, … 1500 at other tables"
_AMOUNT_NAMES = frozenset(
    {"amount", "kush", "prize", "stack", "max", "balance", "delta", "limit", "pool", "buy_in",
     "room", "point", "won", "have", "need", "added", "before", "min_buy_in", "chips",
     "other", "taken", "kept", "max_buy_in", "cpp", "paid"}
)  # fmt: skip


@functools.cache  # (a pure function of one of the finitely many templates)
def _amount_names(template: str) -> frozenset[str]:
    fields = set(re.findall(r"\{(\w+)", template))
    before_label = {m.group(1) for m in _NUMBER_LABEL.finditer(template)}
    return frozenset((fields & _AMOUNT_NAMES) | before_label)


def _amounts(template: str, values: dict[str, Any], lang: str | None) -> dict[str, Any]:
    """``values`` with each large whole amount of kush in ``template`` grouped."""
    big = [
        k
        for k in _amount_names(template)
        if type(values.get(k)) is int and abs(values[k]) >= group_from(lang)
    ]
    if not big:
        return values
    return {**values, **{k: _Amount(values[k], lang) for k in big}}


def language_of(code: str | None) -> str:
    """``"ru"`` for Russian-speaking users (``ru``, ``uk``, ``be``, ``kk``), else ``"en"``."""
    if code and code.split("-")[0].lower() in RUSSIAN_READERS:
        return "ru"
    return "en"
