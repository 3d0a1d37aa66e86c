"""Names of hands for display, in English and Russian (R1.2, R1.3).

``hand_name(strength, "en")`` gives e.g. ``"full house, kings over twos"``;
``hand_name(strength, "ru")`` gives ``"фулл-хаус из королей и двоек"``. Pure data, no I/O:
the adapters put these names into their messages.
"""

from __future__ import annotations

from game.evaluator import HandCategory, category_of, ranks_of

__all__ = ["LANGUAGES", "hand_name"]

LANGUAGES = ("en", "ru")

_EN_ONE = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
           9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}  # fmt: skip
_EN_MANY = {2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens",
            8: "eights", 9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings",
            14: "aces"}  # fmt: skip
# Russian: nominative plural, genitive plural, genitive singular. Jacks in the plural are
# «вальты», «вальтов», as card players say them («пара вальтов»; «валеты» is the courtiers).
_RU_MANY = {2: "двойки", 3: "тройки", 4: "четвёрки", 5: "пятёрки", 6: "шестёрки",
            7: "семёрки", 8: "восьмёрки", 9: "девятки", 10: "десятки", 11: "вальты",
            12: "дамы", 13: "короли", 14: "тузы"}  # fmt: skip
_RU_GEN_MANY = {2: "двоек", 3: "троек", 4: "четвёрок", 5: "пятёрок", 6: "шестёрок",
                7: "семёрок", 8: "восьмёрок", 9: "девяток", 10: "десяток", 11: "вальтов",
                12: "дам", 13: "королей", 14: "тузов"}  # fmt: skip
_RU_GEN_ONE = {2: "двойки", 3: "тройки", 4: "четвёрки", 5: "пятёрки", 6: "шестёрки",
               7: "семёрки", 8: "восьмёрки", 9: "девятки", 10: "десятки", 11: "валета",
               12: "дамы", 13: "короля", 14: "туза"}  # fmt: skip
_RU_ONE = {2: "двойка", 3: "тройка", 4: "четвёрка", 5: "пятёрка", 6: "шестёрка",
           7: "семёрка", 8: "восьмёрка", 9: "девятка", 10: "десятка", 11: "валет",
           12: "дама", 13: "король", 14: "туз"}  # fmt: skip
_RU_MASCULINE = frozenset({11, 13, 14})  # валет, король, туз; the others are feminine


def hand_name(strength: int, lang: str = "en") -> str:
    """The display name of a packed strength (see :mod:`game.evaluator`) in ``lang``
    (``"en"`` or ``"ru"``; anything else falls back to English)."""
    cat = category_of(strength)
    r = ranks_of(strength) or (0,)
    if lang == "ru":
        return _ru(cat, r)
    return _en(cat, r)


def _en(cat: HandCategory, r: tuple[int, ...]) -> str:
    if cat is HandCategory.HIGH_CARD:
        return f"{_EN_ONE[r[0]]} high"
    if cat is HandCategory.PAIR:
        return f"pair of {_EN_MANY[r[0]]}"
    if cat is HandCategory.TWO_PAIR:
        return f"two pair, {_EN_MANY[r[0]]} and {_EN_MANY[r[1]]}"
    if cat is HandCategory.TRIPS:
        return f"three of a kind, {_EN_MANY[r[0]]}"
    if cat is HandCategory.STRAIGHT:
        return f"straight, {_EN_ONE[r[0]]} high"
    if cat is HandCategory.FLUSH:
        return f"flush, {_EN_ONE[r[0]]} high"
    if cat is HandCategory.FULL_HOUSE:
        return f"full house, {_EN_MANY[r[0]]} over {_EN_MANY[r[1]]}"
    if cat is HandCategory.QUADS:
        return f"four of a kind, {_EN_MANY[r[0]]}"
    if cat is HandCategory.STRAIGHT_FLUSH:
        return f"straight flush, {_EN_ONE[r[0]]} high"
    return "royal flush"


def _ru(cat: HandCategory, r: tuple[int, ...]) -> str:
    if cat is HandCategory.HIGH_CARD:
        # «старшая десятка», «старший туз»: one phrase, no dash of its own, since the
        # screens already put the name after "cards — " (R1.3)
        return f"{'старший' if r[0] in _RU_MASCULINE else 'старшая'} {_RU_ONE[r[0]]}"
    if cat is HandCategory.PAIR:
        return f"пара {_RU_GEN_MANY[r[0]]}"
    if cat is HandCategory.TWO_PAIR:
        return f"две пары, {_RU_MANY[r[0]]} и {_RU_MANY[r[1]]}"
    if cat is HandCategory.TRIPS:
        return f"сет {_RU_GEN_MANY[r[0]]}"
    if cat is HandCategory.STRAIGHT:
        return f"стрит до {_RU_GEN_ONE[r[0]]}"
    if cat is HandCategory.FLUSH:
        return f"флеш до {_RU_GEN_ONE[r[0]]}"
    if cat is HandCategory.FULL_HOUSE:
        # «фулл-хаус из восьмёрок и вальтов»: the three, then the two (R1.2), as Russian
        # players say it («восьмёрки на валетах» is a word-for-word "eights over jacks")
        return f"фулл-хаус из {_RU_GEN_MANY[r[0]]} и {_RU_GEN_MANY[r[1]]}"
    if cat is HandCategory.QUADS:
        return f"каре {_RU_GEN_MANY[r[0]]}"
    if cat is HandCategory.STRAIGHT_FLUSH:
        return f"стрит-флеш до {_RU_GEN_ONE[r[0]]}"
    return "роял-флеш"
