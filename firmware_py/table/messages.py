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
    # Exhibit mode (firmware_py.table.exhibit): the walk-away warning, after hours, the staff menu, how to play.
    "walk_away": {EN: "STILL PLAYING? PRESS ANY BUTTON", DE: "NOCH DA? DRÜCKE EINE TASTE",
                  DA: "SPILLER I STADIG? TRYK PÅ EN KNAP", ES: "¿SIGUE LA PARTIDA? PULSA UN BOTÓN"},
    "after_hours": {EN: "CLOSED: ONE GAME, THEN SLEEP", DE: "GESCHLOSSEN: NUR NOCH EIN SPIEL",
                    DA: "LUKKET: KUN ET SPIL", ES: "CERRADO: SOLO UNA PARTIDA"},
    "staff": {EN: "STAFF MENU", DE: "PERSONALMENÜ", DA: "PERSONALEMENU", ES: "MENÚ DEL PERSONAL"},
    "staff_new": {EN: "NEW GAME", DE: "NEUES SPIEL", DA: "NYT SPIL", ES: "PARTIDA NUEVA"},
    "staff_light": {EN: "LIGHT {percent}%", DE: "LICHT {percent}%", DA: "LYS {percent}%", ES: "LUZ {percent}%"},
    "staff_off": {EN: "SHUT DOWN", DE: "AUSSCHALTEN", DA: "SLUK", ES: "APAGAR"},
    "staff_confirm": {EN: "SHUT DOWN? PRESS AGAIN", DE: "AUSSCHALTEN? NOCHMAL DRÜCKEN", DA: "SLUK? TRYK IGEN",
                      ES: "¿APAGAR? PULSA OTRA VEZ"},
    "shutting_down": {EN: "SHUTTING DOWN", DE: "WIRD AUSGESCHALTET", DA: "SLUKKER", ES: "APAGANDO"},
    "shutdown_failed": {EN: "SHUTDOWN FAILED", DE: "AUSSCHALTEN FEHLGESCHLAGEN", DA: "SLUKNING MISLYKKEDES",
                        ES: "NO SE PUDO APAGAR"},
    "howto_move": {EN: "A CARD MOVES THE CROWN: YOUR STONE GOES WHERE IT LANDS",
                   DE: "EINE KARTE ZIEHT DIE KRONE: DEIN STEIN KOMMT AUF IHR FELD",
                   DA: "ET KORT FLYTTER KRONEN: DIN BRIK LANDER PÅ DENS FELT",
                   ES: "UNA CARTA MUEVE LA CORONA: TU FICHA VA DONDE CAE"},
    "howto_hero": {EN: "HERO: LAND ON THE OTHER COLOUR'S STONE AND TURN IT",
                   DE: "HELD: AUF EINEN STEIN DER ANDEREN FARBE ZIEHEN UND IHN UMDREHEN",
                   DA: "HELT: LAND PÅ DEN ANDEN FARVES BRIK OG VEND DEN",
                   ES: "HÉROE: CAE EN UNA FICHA DEL OTRO COLOR Y DALE LA VUELTA"},
    "howto_draw": {EN: "DRAW: TAKE A CARD WHILE YOU HOLD FEWER THAN 5",
                   DE: "NACHZIEHEN: EINE KARTE NEHMEN, SOLANGE DU WENIGER ALS 5 HAST",
                   DA: "TRÆK: TAG ET KORT, NÅR DU HAR FÆRRE END 5",
                   ES: "ROBAR: TOMA UNA CARTA SI TIENES MENOS DE 5"},
    "howto_score": {EN: "REGIONS SCORE SIZE TIMES SIZE: 3 STONES = 9 POINTS",
                    DE: "GEBIETE ZÄHLEN GRÖSSE MAL GRÖSSE: 3 STEINE = 9 PUNKTE",
                    DA: "OMRÅDER GIVER STØRRELSE GANGE STØRRELSE: 3 BRIKKER = 9 POINT",
                    ES: "CADA REGIÓN VALE SU TAMAÑO AL CUADRADO: 3 FICHAS = 9 PUNTOS"},
})
"""Message key → its text in each language, with `{field}`s that `say` fills in."""


def say(key: str, language: Language | str, **fields: object) -> str:
    """The text of message `key` in `language`, its `{field}`s filled in; KeyError for an unknown key."""
    return CATALOGUE[key][Language(language)].format(**fields)
