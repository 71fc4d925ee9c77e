"""The message catalogue: every text the table scrolls, in each language it speaks (`[table] language`).

A message is a key with one text per `Language`; `say` picks the table's and fills in its fields.
Texts are written in capitals, as the card displays show them.

>>> say("invite", Language.DE)
'DER ROSENKÖNIG: DRÜCKE EINE TASTE'
>>> say("invite", "xx")
Traceback (most recent call last):
...
ValueError: 'xx' is not a valid Language
"""
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType


class Language(StrEnum):
    """The languages of the table: English, German (the game's home), Danish and Spanish (its rule sheets)."""

    EN = "en"
    DE = "de"
    DA = "da"
    ES = "es"


EN, DE, DA, ES = Language.EN, Language.DE, Language.DA, Language.ES

CATALOGUE: Mapping[str, Mapping[Language, str]] = MappingProxyType({
    "invite": {EN: "THE ROSE KING: PRESS ANY BUTTON", DE: "DER ROSENKÖNIG: DRÜCKE EINE TASTE",
               DA: "ROSENKONGEN: TRYK PÅ EN KNAP", ES: "EL REY DE LAS ROSAS: PULSA UN BOTÓN"},
})
"""Message key → its text in each language, with `{field}`s that `say` fills in."""


def say(key: str, language: Language | str, **fields: object) -> str:
    """The text of message `key` in `language`, its `{field}`s filled in; KeyError for an unknown key."""
    return CATALOGUE[key][Language(language)].format(**fields)
