"""The message catalogue: every text the table scrolls, in each language it speaks (`[table] language`).

A message is a key with one text per `Language`; `say` picks the table's and fills in its fields.
Texts are written in capitals, as the card displays show them, and short: whatever does not fit
its displays scrolls, and is shown as long as it takes to read (`firmware_py.table.reading`).
Card names (`NE2`), moves (`H+NE2`) and numbers are the same in every language. The game's
words are its rule sheets': Held (de), helt (da), héroe (es) for a hero; Stein, rosensten,
piedra for a stone. The web pages' words, prose in the table's language, are the second part of
the catalogue (`PAGE_CATALOGUE`); what the operator reads (the terminal's caption, the log) is
English prose, not from here.

>>> say("invite", Language.DE)
'DER ROSENKÖNIG: DRÜCKE EINE TASTE'
>>> say("passes", "es", seat=say("red", "es"))
'ROJO PASA'
>>> say("invite", "xx")
Traceback (most recent call last):
...
ValueError: 'xx' is not a valid Language

What the table says is kept as a `Phrase` where a page may say it in another language than the
table's (the last move, a note, a menu's cards, the end): its keys and fields, said when asked.
"""
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Union


class Language(StrEnum):
    """The languages of the table: English, German (the game's home), Danish and Spanish (its rule sheets)."""

    EN = "en"
    DE = "de"
    DA = "da"
    ES = "es"


EN, DE, DA, ES = Language.EN, Language.DE, Language.DA, Language.ES
LANGUAGE_NAMES = MappingProxyType({EN: "English", DE: "German", DA: "Danish", ES: "Spanish"})
"""Each language's name in English, for the operator (`roseking config check`)."""

CATALOGUE: Mapping[str, Mapping[Language, str]] = MappingProxyType({
    "invite": {EN: "THE ROSE KING: PRESS ANY BUTTON", DE: "DER ROSENKÖNIG: DRÜCKE EINE TASTE",
               DA: "ROSENKONGEN: TRYK PÅ EN KNAP", ES: "EL REY DE LAS ROSAS: PULSA UN BOTÓN"},

    # --- the colours, and the seats named by them (`RED`, `WHITE 2`)
    "red": {EN: "RED", DE: "ROT", DA: "RØD", ES: "ROJO"},
    "white": {EN: "WHITE", DE: "WEISS", DA: "HVID", ES: "BLANCO"},

    # --- the new-game menu: one title and value on each card display, the last one starts
    "menu-mode": {EN: "MODE {mode}", DE: "MODUS {mode}", DA: "SPILFORM {mode}", ES: "MODO {mode}"},
    "mode-humans": {EN: "2 PLAYERS", DE: "2 SPIELER", DA: "2 SPILLERE", ES: "2 JUGADORES"},
    "mode-vs-computer": {EN: "COMPUTER", DE: "GEGEN COMPUTER", DA: "MOD COMPUTEREN", ES: "CONTRA LA MÁQUINA"},
    "mode-demo": {EN: "DEMO", DE: "VORFÜHRUNG", DA: "DEMO", ES: "DEMOSTRACIÓN"},
    "mode-teams": {EN: "TEAMS", DE: "TEAMS", DA: "HOLD", ES: "EQUIPOS"},
    "menu-level": {EN: "LEVEL {level}", DE: "STUFE {level}", DA: "NIVEAU {level}", ES: "NIVEL {level}"},
    "level-easy": {EN: "EASY", DE: "LEICHT", DA: "LET", ES: "FÁCIL"},
    "level-medium": {EN: "MEDIUM", DE: "MITTEL", DA: "MIDDEL", ES: "MEDIO"},
    "level-hard": {EN: "HARD", DE: "SCHWER", DA: "SVÆR", ES: "DIFÍCIL"},
    "level-max": {EN: "MAX", DE: "MAXIMAL", DA: "MAKS", ES: "MÁXIMO"},
    "menu-no-computer": {EN: "NO COMPUTER", DE: "OHNE COMPUTER", DA: "UDEN COMPUTER", ES: "SIN MÁQUINA"},
    "menu-red-you": {EN: "RED YOU", DE: "ROT: DU", DA: "RØD: DIG", ES: "ROJO: TÚ"},
    "menu-red-computer": {EN: "RED COMPUTER", DE: "ROT: COMPUTER", DA: "RØD: COMPUTEREN", ES: "ROJO: MÁQUINA"},
    "menu-red-person": {EN: "RED PERSON", DE: "ROT: MENSCH", DA: "RØD: MENNESKE", ES: "ROJO: PERSONA"},
    "menu-start": {EN: "START", DE: "START", DA: "START", ES: "JUGAR"},
    "menu-resume": {EN: "RESUME LAST GAME", DE: "LETZTES SPIEL WEITER", DA: "FORTSÆT SIDSTE SPIL",
                    ES: "SEGUIR LA ÚLTIMA PARTIDA"},
    "leave": {EN: "LEAVE THIS GAME? PRESS START AGAIN", DE: "DIESES SPIEL VERLASSEN? NOCHMAL START DRÜCKEN",
              DA: "FORLAD DETTE SPIL? TRYK START IGEN", ES: "¿DEJAR ESTA PARTIDA? PULSA JUGAR OTRA VEZ"},
    "not-started": {EN: "NOT STARTED", DE: "NICHT GESTARTET", DA: "IKKE STARTET", ES: "SIN EMPEZAR"},
    "teams-need-seats": {EN: "TEAMS NEED 4 SEATS", DE: "TEAMS BRAUCHEN 4 PLÄTZE", DA: "HOLD KRÆVER 4 PLADSER",
                         ES: "LOS EQUIPOS NECESITAN 4 PUESTOS"},
    "two-need-cards": {EN: "TWO PLAYERS NEED 5 CARDS", DE: "2 SPIELER BRAUCHEN 5 KARTEN",
                       DA: "2 SPILLERE KRÆVER 5 KORT", ES: "2 JUGADORES NECESITAN 5 CARTAS"},

    # --- the game menu (MENU during a game) and its takeback
    "item-score": {EN: "SCORE", DE: "STAND", DA: "STILLING", ES: "MARCADOR"},
    "item-last": {EN: "LAST MOVE", DE: "LETZTER ZUG", DA: "SIDSTE TRÆK", ES: "ÚLTIMA JUGADA"},
    "item-hint": {EN: "HINT", DE: "TIPP", DA: "TIP", ES: "PISTA"},
    "item-takeback": {EN: "TAKE BACK", DE: "ZURÜCK", DA: "FORTRYD", ES: "DESHACER"},
    "item-new": {EN: "NEW GAME", DE: "NEUES SPIEL", DA: "NYT SPIL", ES: "NUEVA PARTIDA"},
    "item-more": {EN: "MORE", DE: "MEHR", DA: "MERE", ES: "MÁS"},
    "undo-ask": {EN: "UNDO {count}? PRESS TAKE BACK", DE: "{count} ZURÜCKNEHMEN? ZURÜCK DRÜCKEN",
                 DA: "FORTRYD {count}? TRYK FORTRYD", ES: "¿DESHACER {count}? PULSA DESHACER"},
    "undo-waiting": {EN: "UNDO {count}: WAITING", DE: "{count} ZURÜCKNEHMEN: WARTEN", DA: "FORTRYD {count}: VENTER",
                     ES: "DESHACER {count}: ESPERANDO"},
    "undone": {EN: "UNDO {count}", DE: "ZURÜCKGENOMMEN: {count}", DA: "FORTRUDT: {count}",
               ES: "DESHECHAS: {count}"},
    "not-agreed": {EN: "NOT AGREED", DE: "NICHT ZUGESTIMMT", DA: "IKKE GODKENDT", ES: "NO ACEPTADO"},
    "nothing-to-undo": {EN: "NOTHING TO TAKE BACK", DE: "NICHTS ZURÜCKZUNEHMEN", DA: "INTET AT FORTRYDE",
                        ES: "NADA QUE DESHACER"},

    # --- the state of the game (SCORE) and the last move (LAST MOVE)
    "points": {EN: "{colour} {points} PTS", DE: "{colour} {points} PUNKTE", DA: "{colour} {points} POINT",
               ES: "{colour} {points} PUNTOS"},
    "heroes": {EN: "HEROES {counts}", DE: "HELDEN {counts}", DA: "HELTE {counts}", ES: "HÉROES {counts}"},
    "team-heroes": {EN: "{team} HEROES: {counts}", DE: "HELDEN {team}: {counts}", DA: "HELTE {team}: {counts}",
                    ES: "HÉROES {team}: {counts}"},
    "stones-left": {EN: "{count} STONES LEFT", DE: "NOCH {count} STEINE", DA: "{count} ROSENSTEN TILBAGE",
                    ES: "QUEDAN {count} PIEDRAS"},
    "pile": {EN: "PILE {count} CARDS", DE: "STAPEL {count} KARTEN", DA: "BUNKE {count} KORT",
             ES: "PILA {count} CARTAS"},
    "computer": {EN: "COMPUTER {levels}", DE: "COMPUTER {levels}", DA: "COMPUTER {levels}", ES: "MÁQUINA {levels}"},
    "last": {EN: "LAST: {move}", DE: "ZULETZT: {move}", DA: "SIDST: {move}", ES: "ÚLTIMA: {move}"},
    "no-move-yet": {EN: "NO MOVE YET", DE: "NOCH KEIN ZUG", DA: "INTET TRÆK ENDNU", ES: "AÚN SIN JUGADAS"},
    "moved-hero": {EN: "{seat} HERO {move}", DE: "{seat} HELD {move}", DA: "{seat} HELT {move}",
                   ES: "{seat} HÉROE {move}"},
    "drew": {EN: "{seat} DREW {card}", DE: "{seat} ZOG {card}", DA: "{seat} TRAK {card}", ES: "{seat} ROBÓ {card}"},
    "passed": {EN: "{seat} PASSED", DE: "{seat} PASSTE", DA: "{seat} STOD OVER", ES: "{seat} PASÓ"},

    # --- the play screen: refusals and their reasons (R10–R13), what happens
    "wait": {EN: "WAIT", DE: "WARTEN", DA: "VENT", ES: "ESPERA"},
    "empty": {EN: "EMPTY", DE: "LEER", DA: "TOM", ES: "VACÍO"},
    "off-board": {EN: "OFF BOARD", DE: "ÜBER DEN RAND", DA: "UDEN FOR BRÆTTET", ES: "FUERA DEL TABLERO"},
    "own-stone": {EN: "OWN STONE", DE: "EIGENER STEIN", DA: "EGEN ROSENSTEN", ES: "PIEDRA PROPIA"},
    "no-hero": {EN: "NO HERO", DE: "KEIN HELD", DA: "INGEN HELT", ES: "SIN HÉROE"},
    "card-first": {EN: "CARD FIRST", DE: "ERST EINE KARTE", DA: "FØRST ET KORT", ES: "PRIMERO UNA CARTA"},
    "hero-not-needed": {EN: "NO HERO NEEDED: PRESS THE CARD AGAIN", DE: "KEIN HELD NÖTIG: KARTE NOCHMAL DRÜCKEN",
                        DA: "INGEN HELT NØDVENDIG: TRYK KORTET IGEN",
                        ES: "NO HACE FALTA HÉROE: PULSA LA CARTA OTRA VEZ"},
    "hand-full": {EN: "HAND FULL", DE: "HAND VOLL", DA: "FULD HÅND", ES: "MANO LLENA"},
    "hero-ask": {EN: "HERO?", DE: "HELD?", DA: "HELT?", ES: "¿HÉROE?"},
    "hero": {EN: "HERO", DE: "HELD", DA: "HELT", ES: "HÉROE"},
    "draw": {EN: "DRAW", DE: "KARTE ZIEHEN", DA: "TRÆK KORT", ES: "ROBAR CARTA"},
    "menu": {EN: "MENU", DE: "MENÜ", DA: "MENU", ES: "MENÚ"},
    "pass": {EN: "PASS", DE: "PASSEN", DA: "STÅ OVER", ES: "PASAR"},
    "passes": {EN: "{seat} PASSES", DE: "{seat} PASST", DA: "{seat} STÅR OVER", ES: "{seat} PASA"},

    # --- the end of a game (R16, R17, R19)
    "end-last-stone": {EN: "LAST STONE PLACED", DE: "LETZTER STEIN GESETZT", DA: "SIDSTE ROSENSTEN LAGT",
                       ES: "ÚLTIMA PIEDRA COLOCADA"},
    "end-blockade": {EN: "BLOCKADE: NOBODY CAN MOVE", DE: "BLOCKADE: KEINER KANN ZIEHEN",
                     DA: "BLOKADE: INGEN KAN FLYTTE", ES: "BLOQUEO: NADIE PUEDE MOVER"},
    "tie": {EN: "A DRAW", DE: "UNENTSCHIEDEN", DA: "UAFGJORT", ES: "EMPATE"},
    "wins": {EN: "{winner} WINS", DE: "{winner} GEWINNT", DA: "{winner} VINDER", ES: "GANA {winner}"},
    "wins-larger": {EN: "{winner} WINS ON THE LARGER REGION", DE: "{winner} GEWINNT MIT DEM GRÖSSEREN GEBIET",
                    DA: "{winner} VINDER PÅ DET STØRSTE LANDOMRÅDE", ES: "GANA {winner} POR EL TERRITORIO MAYOR"},
    "wins-stones": {EN: "{winner} WINS ON MORE STONES", DE: "{winner} GEWINNT MIT MEHR STEINEN",
                    DA: "{winner} VINDER PÅ FLEST ROSENSTEN", ES: "GANA {winner} POR MÁS PIEDRAS"},

    # --- announcements when the table starts
    "resumed": {EN: "RESUMED", DE: "FORTGESETZT", DA: "GENOPTAGET", ES: "PARTIDA REANUDADA"},
    "old-archived": {EN: "OLD GAME ARCHIVED", DE: "ALTES SPIEL ARCHIVIERT", DA: "GAMMELT SPIL ARKIVERET",
                     ES: "PARTIDA ANTERIOR ARCHIVADA"},
    "old-not-archived": {EN: "OLD GAME NOT ARCHIVED", DE: "ALTES SPIEL NICHT ARCHIVIERT",
                         DA: "GAMMELT SPIL IKKE ARKIVERET", ES: "PARTIDA ANTERIOR NO ARCHIVADA"},
    "save-set-aside": {EN: "OLD SAVE SET ASIDE", DE: "ALTER SPIELSTAND BEISEITEGELEGT",
                       DA: "GAMMELT GEMT SPIL LAGT TIL SIDE", ES: "PARTIDA GUARDADA APARTADA"},
    "not-saving": {EN: "NOT SAVING: STAFF PLEASE CHECK", DE: "SPEICHERN GEHT NICHT: BITTE PERSONAL RUFEN",
                   DA: "GEMMER IKKE: PERSONALET BEDES TJEKKE", ES: "NO SE GUARDA: AVISE AL PERSONAL"},

    # --- faults, said on whatever still works
    "fault-lights": {EN: "BOARD LIGHTS FAULT: STAFF PLEASE CHECK",
                     DE: "STÖRUNG DER BRETTBELEUCHTUNG: BITTE PERSONAL RUFEN",
                     DA: "FEJL I BRÆTTETS LYS: PERSONALET BEDES TJEKKE",
                     ES: "FALLO EN LAS LUCES DEL TABLERO: AVISE AL PERSONAL"},
    "fault-computer": {EN: "COMPUTER UNAVAILABLE", DE: "COMPUTER NICHT VERFÜGBAR", DA: "COMPUTEREN ER UTILGÆNGELIG",
                       ES: "MÁQUINA NO DISPONIBLE"},

    # Exhibit mode (firmware_py.table.exhibit): the walk-away warning, after hours, the staff menu, how to play.
    "walk-away": {EN: "STILL PLAYING? PRESS ANY BUTTON", DE: "NOCH DA? DRÜCKE EINE TASTE",
                  DA: "SPILLER I STADIG? TRYK PÅ EN KNAP", ES: "¿SIGUE LA PARTIDA? PULSA UN BOTÓN"},
    "after-hours": {EN: "CLOSED: ONE GAME, THEN SLEEP", DE: "GESCHLOSSEN: NUR NOCH EIN SPIEL",
                    DA: "LUKKET: KUN ET SPIL", ES: "CERRADO: SOLO UNA PARTIDA"},
    "staff": {EN: "STAFF MENU", DE: "PERSONALMENÜ", DA: "PERSONALEMENU", ES: "MENÚ DEL PERSONAL"},
    "staff-new": {EN: "NEW GAME", DE: "NEUES SPIEL", DA: "NYT SPIL", ES: "PARTIDA NUEVA"},
    "staff-light": {EN: "LIGHT {percent}%", DE: "LICHT {percent}%", DA: "LYS {percent}%", ES: "LUZ {percent}%"},
    "staff-off": {EN: "SHUT DOWN", DE: "AUSSCHALTEN", DA: "SLUK", ES: "APAGAR"},
    "staff-hold": {EN: "HOLD TO SHUT DOWN", DE: "ZUM AUSSCHALTEN GEDRÜCKT HALTEN", DA: "HOLD NEDE FOR AT SLUKKE",
                   ES: "MANTÉN PULSADO PARA APAGAR"},
    "staff-held-short": {EN: "NOT SHUT DOWN: HOLD IT {seconds} SECONDS",
                         DE: "NICHT AUSGESCHALTET: {seconds} SEKUNDEN HALTEN",
                         DA: "IKKE SLUKKET: HOLD DEN NEDE I {seconds} SEKUNDER",
                         ES: "NO SE APAGÓ: MANTENLO PULSADO {seconds} SEGUNDOS"},
    "shutting-down": {EN: "SHUTTING DOWN", DE: "WIRD AUSGESCHALTET", DA: "SLUKKER", ES: "APAGANDO"},
    "shutdown-failed": {EN: "SHUTDOWN FAILED", DE: "AUSSCHALTEN FEHLGESCHLAGEN", DA: "SLUKNING MISLYKKEDES",
                        ES: "NO SE PUDO APAGAR"},
    "howto-move": {EN: "A CARD MOVES THE CROWN: YOUR STONE GOES WHERE IT LANDS",
                   DE: "EINE KARTE ZIEHT DIE KRONE: DEIN STEIN KOMMT AUF IHR FELD",
                   DA: "ET KORT FLYTTER KRONEN: DIN ROSENSTEN LANDER PÅ DENS FELT",
                   ES: "UNA CARTA MUEVE LA CORONA: TU PIEDRA VA DONDE CAE"},
    "howto-hero": {EN: "HERO: LAND ON THE OTHER COLOUR'S STONE AND TURN IT",
                   DE: "HELD: AUF EINEN STEIN DER ANDEREN FARBE ZIEHEN UND IHN UMDREHEN",
                   DA: "HELT: LAND PÅ DEN ANDEN FARVES ROSENSTEN OG VEND DEN",
                   ES: "HÉROE: CAE EN UNA PIEDRA DEL OTRO COLOR Y DALE LA VUELTA"},
    "howto-draw": {EN: "DRAW: TAKE A CARD WHILE YOU HOLD FEWER THAN 5",
                   DE: "KARTE ZIEHEN: EINE KARTE NEHMEN, SOLANGE DU WENIGER ALS 5 HAST",
                   DA: "TRÆK KORT: TAG ET KORT, NÅR DU HAR FÆRRE END 5",
                   ES: "ROBAR CARTA: TOMA UNA CARTA SI TIENES MENOS DE 5"},
    "howto-score": {EN: "REGIONS SCORE SIZE TIMES SIZE: 3 STONES = 9 POINTS",
                    DE: "GEBIETE ZÄHLEN GRÖSSE MAL GRÖSSE: 3 STEINE = 9 PUNKTE",
                    DA: "OMRÅDER GIVER STØRRELSE GANGE STØRRELSE: 3 ROSENSTEN = 9 POINT",
                    ES: "CADA REGIÓN VALE SU TAMAÑO AL CUADRADO: 3 PIEDRAS = 9 PUNTOS"},
})
"""Message key → its text in each language, with `{field}`s that `say` fills in."""


def say(key: str, language: Language | str, **fields: object) -> str:
    """The text of message `key` in `language`, its `{field}`s filled in; KeyError for an unknown key."""
    return CATALOGUE[key][Language(language)].format(**fields)


def seat_title(seat: str, language: Language | str) -> str:
    """A seat's name as the displays write it, in `language`: `red` → `RED`, `white2` → `WHITE 2` (`WEISS 2`).

    >>> seat_title("white2", Language.DE), seat_title("red", Language.EN)
    ('WEISS 2', 'RED')
    """
    return seat_words(seat).say(language)


Words = Union["Phrase", str, int]
"""What a phrase holds: a phrase, or a text or a number that is the same in every language (a card, a move)."""


@dataclass(frozen=True)
class Phrase:
    """Words of the catalogue, to be said in any language: the message `key` with its `fields`, or (no key) its
    `parts` one after the other, `sep` between them; a field or a part is a phrase itself, said in the same
    language, or the same in every language.

    >>> passes = Phrase.of("passes", seat=seat_words("white2"))
    >>> passes.say(Language.DE), passes.say(Language.ES), passes.key
    ('WEISS 2 PASST', 'BLANCO 2 PASA', 'passes')
    """
    key: str = ""
    fields: tuple[tuple[str, Words], ...] = ()
    parts: tuple[Words, ...] = ()
    sep: str = " "

    @classmethod
    def of(cls, key: str, **fields: Words) -> "Phrase":
        return cls(key, tuple(fields.items()))

    @classmethod
    def joined(cls, *parts: Words, sep: str = " ") -> "Phrase":
        return cls(parts=parts, sep=sep)

    def say(self, language: Language | str) -> str:
        """The words in `language`."""
        if not self.key:
            return self.sep.join(say_words(part, language) for part in self.parts)
        return say(self.key, language, **{name: say_words(value, language) for name, value in self.fields})


def say_words(words: Words, language: Language | str) -> str:
    """`words` in `language`: a phrase said, a text or a number as it is."""
    return words.say(language) if isinstance(words, Phrase) else str(words)


def seat_words(seat: str) -> Phrase:
    """A seat's name as a phrase: its colour, and its number for a teams seat (`white2`)."""
    word = seat.rstrip("0123456789")
    return Phrase(word) if word == seat else Phrase.joined(Phrase(word), seat[len(word):])


PAGE_CATALOGUE: Mapping[str, Mapping[Language, str]] = MappingProxyType({
    # The web pages' words (`firmware_py.web.language`): prose, written as sentences are, in the table's
    # language; the displays' own words (HERO, WAIT, the menus' cards) come from `CATALOGUE` above.
    "game-name": {EN: "The Rose King", DE: "Der Rosenkönig", DA: "Rosenkongen", ES: "El Rey de las Rosas"},
    "title-table": {EN: "the table", DE: "der Tisch", DA: "bordet", ES: "la mesa"},
    "title-operator": {EN: "the operator's page", DE: "Betreiberseite", DA: "operatørens side",
                       ES: "página del operador"},
    "title-club": {EN: "the club ladder", DE: "Vereinsrangliste", DA: "klubbens rangliste",
                   ES: "clasificación del club"},
    "title-replay": {EN: "Replay", DE: "Nachspielen", DA: "Genafspilning", ES: "Repetición"},
    "nav-label": {EN: "Pages", DE: "Seiten", DA: "Sider", ES: "Páginas"},
    "nav-table": {EN: "Table", DE: "Tisch", DA: "Bord", ES: "Mesa"},
    "nav-operator": {EN: "Operator", DE: "Betrieb", DA: "Operatør", ES: "Operador"},
    "nav-club": {EN: "Club ladder", DE: "Rangliste", DA: "Rangliste", ES: "Clasificación"},
    "language": {EN: "Language", DE: "Sprache", DA: "Sprog", ES: "Idioma"},
    "language-en": {EN: "English", DE: "English", DA: "English", ES: "English"},
    "language-de": {EN: "Deutsch", DE: "Deutsch", DA: "Deutsch", ES: "Deutsch"},
    "language-da": {EN: "Dansk", DE: "Dansk", DA: "Dansk", ES: "Dansk"},
    "language-es": {EN: "Español", DE: "Español", DA: "Español", ES: "Español"},

    # --- the connection
    "connecting": {EN: "connecting…", DE: "verbinde…", DA: "forbinder…", ES: "conectando…"},
    "live": {EN: "live", DE: "live", DA: "direkte", ES: "en directo"},
    "stale": {EN: "no news from the table for {seconds} s", DE: "seit {seconds} s nichts vom Tisch",
              DA: "intet nyt fra bordet i {seconds} s", ES: "sin noticias de la mesa desde hace {seconds} s"},
    "reconnecting": {EN: "connection lost: trying again in {seconds} s",
                     DE: "Verbindung verloren: neuer Versuch in {seconds} s",
                     DA: "forbindelsen er tabt: prøver igen om {seconds} s",
                     ES: "conexión perdida: nuevo intento en {seconds} s"},
    "no-answer": {EN: "the table does not answer", DE: "der Tisch antwortet nicht", DA: "bordet svarer ikke",
                  ES: "la mesa no responde"},
    "unreachable": {EN: "the table cannot be reached", DE: "der Tisch ist nicht erreichbar",
                    DA: "bordet kan ikke nås", ES: "no se puede llegar a la mesa"},
    "no-answer-now": {EN: "no answer from the table ({why})", DE: "keine Antwort vom Tisch ({why})",
                      DA: "intet svar fra bordet ({why})", ES: "la mesa no contesta ({why})"},
    "error-watch-only": {EN: "This page only watches: a real table's buttons are pressed at the table.",
                         DE: "Diese Seite schaut nur zu: Die Tasten eines echten Tisches drückt man am Tisch.",
                         DA: "Denne side ser kun på: et rigtigt bords knapper trykkes ved bordet.",
                         ES: "Esta página solo mira: los botones de una mesa real se pulsan en la mesa."},
    "error-too-fast": {EN: "Too many presses at once: wait a moment.", DE: "Zu viele Drücke auf einmal: kurz warten.",
                       DA: "For mange tryk på én gang: vent et øjeblik.",
                       ES: "Demasiadas pulsaciones a la vez: espera un momento."},
    "error-wrong-token": {EN: "That is not the operator's token: the page only watches (the operator's page takes "
                               "the token again).",
                          DE: "Das ist nicht der Token des Betreibers: die Seite schaut nur zu (die Betreiberseite "
                              "nimmt den Token neu).",
                          DA: "Det er ikke operatørens token: siden ser kun på (operatørens side tager imod tokenet "
                              "igen).",
                          ES: "Ese no es el token del operador: la página solo mira (la página del operador acepta "
                              "el token de nuevo)."},

    # --- the mirror: the table and the game in words
    "table-label": {EN: "The table seen from above", DE: "Der Tisch von oben", DA: "Bordet set ovenfra",
                    ES: "La mesa vista desde arriba"},
    "board-label": {EN: "The board", DE: "Das Brett", DA: "Brættet", ES: "El tablero"},
    "words-label": {EN: "The game in words", DE: "Das Spiel in Worten", DA: "Spillet i ord",
                    ES: "La partida en palabras"},
    "colour-red": {EN: "Red", DE: "Rot", DA: "Rød", ES: "Rojo"},
    "colour-white": {EN: "White", DE: "Weiß", DA: "Hvid", ES: "Blanco"},
    "a-person": {EN: "a person", DE: "ein Mensch", DA: "et menneske", ES: "una persona"},
    "the-computer": {EN: "the computer ({level})", DE: "der Computer ({level})", DA: "computeren ({level})",
                     ES: "la máquina ({level})"},
    "to-move": {EN: "to move", DE: "am Zug", DA: "i trækket", ES: "juega"},
    "card-n": {EN: "card {n}", DE: "Karte {n}", DA: "kort {n}", ES: "carta {n}"},
    "card-short": {EN: "card", DE: "Karte", DA: "kort", ES: "carta"},
    "empty-slot": {EN: "empty", DE: "leer", DA: "tom", ES: "vacía"},
    "no-card": {EN: "no card", DE: "keine Karte", DA: "intet kort", ES: "sin carta"},
    "previewed": {EN: "chosen: press again to play", DE: "gewählt: nochmal drücken zum Spielen",
                  DA: "valgt: tryk igen for at spille", ES: "elegida: pulsa otra vez para jugar"},
    "reach-play": {EN: "to {square}", DE: "nach {square}", DA: "til {square}", ES: "a {square}"},
    "reach-hero": {EN: "to {square} with a hero", DE: "nach {square} mit einem Helden", DA: "til {square} med en helt",
                   ES: "a {square} con un héroe"},
    "reach-no": {EN: "{square}: cannot be played", DE: "{square}: nicht spielbar", DA: "{square}: kan ikke spilles",
                 ES: "{square}: no se puede jugar"},
    "reach-off": {EN: "off the board", DE: "über den Rand", DA: "uden for brættet", ES: "fuera del tablero"},
    "summary-menu": {EN: "The new-game menu: choose the game with the cards, the last card starts it.",
                     DE: "Das Menü für ein neues Spiel: mit den Karten wählen, die letzte Karte startet.",
                     DA: "Menuen til et nyt spil: vælg med kortene, det sidste kort starter spillet.",
                     ES: "El menú de partida nueva: elige con las cartas; la última empieza la partida."},
    "summary-attract": {EN: "The computer plays itself while nobody plays: press any button to begin.",
                        DE: "Der Computer spielt gegen sich selbst, solange niemand spielt: eine Taste drücken.",
                        DA: "Computeren spiller mod sig selv, mens ingen spiller: tryk på en knap.",
                        ES: "La máquina juega sola mientras nadie juega: pulsa un botón para empezar."},
    "summary-asleep": {EN: "The table is asleep outside its opening hours: any button wakes it.",
                       DE: "Der Tisch schläft außerhalb der Öffnungszeiten: eine Taste weckt ihn.",
                       DA: "Bordet sover uden for åbningstiden: en knap vækker det.",
                       ES: "La mesa duerme fuera del horario: cualquier botón la despierta."},
    "summary-staff": {EN: "The staff menu is open at the table.", DE: "Am Tisch ist das Personalmenü offen.",
                      DA: "Personalemenuen er åben ved bordet.", ES: "El menú del personal está abierto en la mesa."},
    "summary-over": {EN: "Game over: {result}.", DE: "Spiel vorbei: {result}.", DA: "Spillet er slut: {result}.",
                     ES: "Fin de la partida: {result}."},
    "summary-play": {EN: "{seat} to move ({who}). Red {red}, White {white}.",
                     DE: "{seat} ist am Zug ({who}). Rot {red}, Weiß {white}.",
                     DA: "{seat} er i trækket ({who}). Rød {red}, Hvid {white}.",
                     ES: "Juega {seat} ({who}). Rojo {red}, Blanco {white}."},
    "summary-last": {EN: "Last move: {move}.", DE: "Letzter Zug: {move}.", DA: "Sidste træk: {move}.",
                     ES: "Última jugada: {move}."},
    "summary-options": {EN: "The game menu is open.", DE: "Das Spielmenü ist offen.", DA: "Spilmenuen er åben.",
                        ES: "El menú de la partida está abierto."},
    "score": {EN: "Score", DE: "Punkte", DA: "Point", ES: "Puntos"},
    "turn": {EN: "Turn", DE: "Am Zug", DA: "I trækket", ES: "Turno"},
    "nobody-over": {EN: "nobody: the game is over", DE: "niemand: das Spiel ist vorbei", DA: "ingen: spillet er slut",
                    ES: "nadie: la partida ha terminado"},
    "stones-left": {EN: "Stones left", DE: "Steine übrig", DA: "Rosensten tilbage", ES: "Piedras restantes"},
    "pile": {EN: "Pile", DE: "Stapel", DA: "Bunke", ES: "Pila"},
    "cards-count": {EN: "{n} cards", DE: "{n} Karten", DA: "{n} kort", ES: "{n} cartas"},
    "empty-count": {EN: "{n} empty", DE: "{n} leer", DA: "{n} tomme", ES: "{n} vacías"},
    "moves": {EN: "Moves", DE: "Züge", DA: "Træk", ES: "Jugadas"},
    "mode": {EN: "Mode", DE: "Modus", DA: "Spilform", ES: "Modo"},
    "mode-humans": {EN: "two players", DE: "zwei Spieler", DA: "to spillere", ES: "dos jugadores"},
    "mode-vs-computer": {EN: "against the computer", DE: "gegen den Computer", DA: "mod computeren",
                         ES: "contra la máquina"},
    "mode-demo": {EN: "demonstration", DE: "Vorführung", DA: "demonstration", ES: "demostración"},
    "mode-teams": {EN: "teams", DE: "Teams", DA: "hold", ES: "equipos"},
    "heroes-cards": {EN: "Heroes {heroes} · cards {cards}", DE: "Helden {heroes} · Karten {cards}",
                     DA: "Helte {heroes} · kort {cards}", ES: "Héroes {heroes} · cartas {cards}"},
    "watch-only": {EN: "This page watches the table.", DE: "Diese Seite schaut dem Tisch zu.",
                   DA: "Denne side ser bordet.", ES: "Esta página mira la mesa."},
    "keys": {EN: "Keys: {keys}. Hold a key or a button to hold it.",
             DE: "Tasten: {keys}. Halte eine Taste gedrückt, um sie zu halten.",
             DA: "Taster: {keys}. Hold en tast nede for at holde knappen.",
             ES: "Teclas: {keys}. Mantén una tecla para mantener el botón."},
    "flip": {EN: "Turn the board", DE: "Brett drehen", DA: "Vend brættet", ES: "Girar el tablero"},
    "back-to-game": {EN: "Back to the game", DE: "Zurück zum Spiel", DA: "Tilbage til spillet",
                     ES: "Volver a la partida"},
    "looking-back": {EN: "Looking back (the game goes on):", DE: "Rückblick (das Spiel geht weiter):",
                     DA: "Tilbageblik (spillet fortsætter):", ES: "Mirando atrás (la partida sigue):"},

    # --- what the displays say of a press, in words (R10–R14)
    "said-preview": {EN: "{seat} chose {move}: the crown would go to {square}. Press the same card (or the square) "
                          "again to play it.",
                     DE: "{seat} wählte {move}: die Krone ginge nach {square}. Dieselbe Karte (oder das Feld) "
                         "nochmal drücken, um zu spielen.",
                     DA: "{seat} valgte {move}: kronen ville gå til {square}. Tryk på samme kort (eller feltet) "
                         "igen for at spille.",
                     ES: "{seat} eligió {move}: la corona iría a {square}. Pulsa la misma carta (o la casilla) "
                         "otra vez para jugar."},
    "said-hero": {EN: "{seat}: {@hero-ask} {move} lands on a stone of the other colour at {square}: press {@hero} (or "
                       "the square again) to play it with a hero, which turns that stone (R12).",
                  DE: "{seat}: {@hero-ask} {move} landet auf einem Stein der anderen Farbe auf {square}: {@hero} (oder "
                      "das Feld nochmal) drücken, um mit einem Helden zu spielen, der den Stein umdreht (R12).",
                  DA: "{seat}: {@hero-ask} {move} lander på en rosensten i den anden farve på {square}: tryk {@hero} "
                      "(eller feltet igen) for at spille med en helt, som vender rosenstenen (R12).",
                  ES: "{seat}: {@hero-ask} {move} cae en una piedra del otro color en {square}: pulsa {@hero} (o la "
                      "casilla otra vez) para jugarla con un héroe, que le da la vuelta (R12)."},
    "said-passes": {EN: "{seat} cannot move and passes (R14).", DE: "{seat} kann nicht ziehen und passt (R14).",
                    DA: "{seat} kan ikke flytte og står over (R14).", ES: "{seat} no puede mover y pasa (R14)."},
    "said-hero-played": {EN: "A hero turned a stone (R12).", DE: "Ein Held hat einen Stein umgedreht (R12).",
                         DA: "En helt vendte en rosensten (R12).", ES: "Un héroe dio la vuelta a una piedra (R12)."},
    "why-wait": {EN: "Not now: it is {seat}'s turn, or the table is showing a move.",
                 DE: "Jetzt nicht: {seat} ist am Zug, oder der Tisch zeigt gerade einen Zug.",
                 DA: "Ikke nu: det er {seat}s tur, eller bordet viser et træk.",
                 ES: "Ahora no: es el turno de {seat}, o la mesa está mostrando una jugada."},
    "why-empty": {EN: "That button holds no card: {@draw} fills it (R11).",
                  DE: "Auf dieser Taste liegt keine Karte: {@draw} füllt sie (R11).",
                  DA: "Den knap har intet kort: {@draw} fylder den (R11).",
                  ES: "Ese botón no tiene carta: {@draw} la llena (R11)."},
    "why-off-board": {EN: "That card would take the crown off the board (R10).",
                      DE: "Diese Karte würde die Krone über den Rand ziehen (R10).",
                      DA: "Det kort ville flytte kronen ud over brættet (R10).",
                      ES: "Esa carta sacaría la corona del tablero (R10)."},
    "why-own-stone": {EN: "That card lands on one of your own stones (R13).",
                      DE: "Diese Karte landet auf einem eigenen Stein (R13).",
                      DA: "Det kort lander på en af dine egne rosensten (R13).",
                      ES: "Esa carta cae en una piedra tuya (R13)."},
    "why-no-hero": {EN: "That card lands on the other colour's stone, and no hero is left to turn it (R12).",
                    DE: "Diese Karte landet auf einem fremden Stein, und kein Held ist übrig, um ihn umzudrehen (R12).",
                    DA: "Det kort lander på den anden farves rosensten, og der er ingen helt tilbage til at vende den "
                        "(R12).",
                    ES: "Esa carta cae en una piedra del otro color y no queda ningún héroe para darle la vuelta "
                        "(R12)."},
    "why-card-first": {EN: "Choose a card first, then {@hero} plays it with a hero (R12).",
                       DE: "Erst eine Karte wählen, dann spielt {@hero} sie mit einem Helden (R12).",
                       DA: "Vælg først et kort, så spiller {@hero} det med en helt (R12).",
                       ES: "Elige primero una carta; luego {@hero} la juega con un héroe (R12)."},
    "why-hand-full": {EN: "Five cards in hand: drawing is only for a smaller hand (R11).",
                      DE: "Fünf Karten auf der Hand: nachziehen nur mit weniger (R11).",
                      DA: "Fem kort på hånden: man trækker kun med færre (R11).",
                      ES: "Cinco cartas en la mano: solo se roba con menos (R11)."},

    # --- how to play, and the menus' cards
    "howto-title": {EN: "How to play", DE: "So wird gespielt", DA: "Sådan spiller man", ES: "Cómo se juega"},
    "howto-card": {EN: "Press one of your cards: the square it sends the crown to blinks on the board. Press the "
                        "same card again to play it: the crown moves there and your stone is placed (R10).",
                   DE: "Eine eigene Karte drücken: das Feld, auf das sie die Krone schickt, blinkt. Dieselbe Karte "
                       "nochmal drücken, um sie zu spielen: die Krone zieht dorthin, dein Stein wird gesetzt (R10).",
                   DA: "Tryk på et af dine kort: feltet, kortet sender kronen til, blinker. Tryk på samme kort igen "
                       "for at spille det: kronen flytter derhen, og din rosensten lægges (R10).",
                   ES: "Pulsa una de tus cartas: parpadea la casilla a la que envía la corona. Pulsa la misma carta "
                       "otra vez para jugarla: la corona va allí y se coloca tu piedra (R10)."},
    "howto-square": {EN: "On this page you may also click a marked square: the first click chooses the card that "
                          "reaches it, the second plays it.",
                     DE: "Auf dieser Seite kann man auch ein markiertes Feld anklicken: der erste Klick wählt die "
                         "Karte, die es erreicht, der zweite spielt sie.",
                     DA: "På denne side kan du også klikke på et markeret felt: første klik vælger kortet, der når "
                         "det, andet klik spiller det.",
                     ES: "En esta página también puedes pulsar una casilla marcada: el primer clic elige la carta "
                         "que llega a ella, el segundo la juega."},
    "howto-hero": {EN: "{@hero}: a card that lands on the other colour's stone asks {@hero-ask}; press {@hero} to play "
                        "it with one of your heroes, and that stone turns to your colour (R12).",
                   DE: "{@hero}: landet eine Karte auf einem Stein der anderen Farbe, fragt der Tisch {@hero-ask}; "
                       "{@hero} drücken spielt sie mit einem deiner Helden, und der Stein wird deiner (R12).",
                   DA: "{@hero}: lander et kort på den anden farves rosensten, spørger bordet {@hero-ask}; tryk "
                       "{@hero} for at spille det med en af dine helte, og rosenstenen skifter til din farve (R12).",
                   ES: "{@hero}: si una carta cae en una piedra del otro color, la mesa pregunta {@hero-ask}; pulsa "
                       "{@hero} para jugarla con uno de tus héroes y la piedra pasa a tu color (R12)."},
    "howto-draw": {EN: "{@draw} takes a card from the pile while you hold fewer than five (R11).",
                   DE: "{@draw} nimmt eine Karte vom Stapel, solange du weniger als fünf hast (R11).",
                   DA: "{@draw} tager et kort fra bunken, når du har færre end fem (R11).",
                   ES: "{@draw} toma una carta de la pila mientras tengas menos de cinco (R11)."},
    "howto-pass": {EN: "A player who can neither play nor draw passes; the table does it (R14).",
                   DE: "Wer weder spielen noch nachziehen kann, passt; der Tisch erledigt das (R14).",
                   DA: "Den, der hverken kan spille eller trække, står over; bordet gør det (R14).",
                   ES: "Quien no puede jugar ni robar pasa; la mesa lo hace (R14)."},
    "howto-score": {EN: "The game ends with the last stone or when nobody can move; each region of your stones "
                         "scores its size squared: three stones side by side, 9 points (R16–R19).",
                    DE: "Das Spiel endet mit dem letzten Stein oder wenn keiner ziehen kann; jedes Gebiet deiner "
                        "Steine zählt seine Größe mal sich selbst: drei nebeneinander, 9 Punkte (R16–R19).",
                    DA: "Spillet slutter med den sidste rosensten, eller når ingen kan flytte; hvert område af dine "
                        "rosensten giver størrelsen i anden: tre side om side, 9 point (R16–R19).",
                    ES: "La partida acaba con la última piedra o cuando nadie puede mover; cada región de tus "
                        "piedras vale su tamaño al cuadrado: tres juntas, 9 puntos (R16–R19)."},
    "howto-menu": {EN: "{@menu} during a game opens the game menu on the cards: score, last move, hint, take back, new "
                        "game; {@menu} again goes back to the game.",
                   DE: "{@menu} öffnet während eines Spiels das Spielmenü auf den Karten: Stand, letzter Zug, Tipp, "
                       "zurücknehmen, neues Spiel; {@menu} nochmal führt zurück ins Spiel.",
                   DA: "{@menu} under et spil åbner spilmenuen på kortene: stilling, sidste træk, tip, fortryd, nyt "
                       "spil; {@menu} igen går tilbage til spillet.",
                   ES: "{@menu} durante una partida abre su menú en las cartas: marcador, última jugada, pista, "
                       "deshacer, partida nueva; {@menu} otra vez vuelve a la partida."},
    "howto-new": {EN: "In the new-game menu each card shows a choice: press it to change it; the last card starts "
                       "the game.",
                  DE: "Im Menü für ein neues Spiel zeigt jede Karte eine Wahl: drücken ändert sie; die letzte Karte "
                      "startet das Spiel.",
                  DA: "I menuen til et nyt spil viser hvert kort et valg: tryk for at ændre det; det sidste kort "
                      "starter spillet.",
                  ES: "En el menú de partida nueva cada carta muestra una opción: púlsala para cambiarla; la última "
                      "empieza la partida."},
    "new-game-menu": {EN: "The new-game menu", DE: "Das Menü für ein neues Spiel", DA: "Menuen til et nyt spil",
                      ES: "El menú de partida nueva"},
    "game-menu": {EN: "The game menu", DE: "Das Spielmenü", DA: "Spilmenuen", ES: "El menú de la partida"},
    "menu-card-1": {EN: "press to change the mode", DE: "drücken ändert den Modus", DA: "tryk for at skifte spilform",
                    ES: "púlsala para cambiar el modo"},
    "menu-card-2": {EN: "press to change the computer's level", DE: "drücken ändert die Stufe des Computers",
                    DA: "tryk for at skifte computerens niveau", ES: "púlsala para cambiar el nivel de la máquina"},
    "menu-card-3": {EN: "press to change who plays Red", DE: "drücken ändert, wer Rot spielt",
                    DA: "tryk for at skifte, hvem der spiller rød", ES: "púlsala para cambiar quién juega con rojo"},
    "menu-card-start": {EN: "starts the game", DE: "startet das Spiel", DA: "starter spillet",
                        ES: "empieza la partida"},
    "new-game-menu-note": {EN: "Leaving a game in progress asks for the last card twice.",
                           DE: "Wer ein laufendes Spiel verlässt, drückt die letzte Karte zweimal.",
                           DA: "At forlade et igangværende spil kræver to tryk på det sidste kort.",
                           ES: "Para dejar una partida en curso hay que pulsar dos veces la última carta."},
    "game-menu-note": {EN: "{@menu} again goes back to the game.", DE: "{@menu} nochmal führt zurück ins Spiel.",
                       DA: "{@menu} igen går tilbage til spillet.", ES: "{@menu} otra vez vuelve a la partida."},
    "item-score-does": {EN: "says the score", DE: "sagt den Stand", DA: "viser stillingen", ES: "dice el marcador"},
    "item-last-does": {EN: "shows the last move again", DE: "zeigt den letzten Zug nochmal",
                       DA: "viser det sidste træk igen", ES: "muestra otra vez la última jugada"},
    "item-hint-does": {EN: "previews the computer's advice", DE: "zeigt den Rat des Computers",
                       DA: "viser computerens råd", ES: "muestra el consejo de la máquina"},
    "item-takeback-does": {EN: "takes the last move back (both colours agree)",
                           DE: "nimmt den letzten Zug zurück (beide Farben stimmen zu)",
                           DA: "fortryder det sidste træk (begge farver skal sige ja)",
                           ES: "deshace la última jugada (los dos colores de acuerdo)"},
    "item-new-does": {EN: "opens the new-game menu", DE: "öffnet das Menü für ein neues Spiel",
                      DA: "åbner menuen til et nyt spil", ES: "abre el menú de partida nueva"},
    "item-more-does": {EN: "shows the other items", DE: "zeigt die übrigen Punkte", DA: "viser de andre punkter",
                       ES: "muestra las demás opciones"},

    # --- the moves, looking back, sharing
    "moves-title": {EN: "Moves", DE: "Züge", DA: "Træk", ES: "Jugadas"},
    "no-moves": {EN: "No move yet.", DE: "Noch kein Zug.", DA: "Intet træk endnu.", ES: "Aún no hay jugadas."},
    "step-back": {EN: "One move back", DE: "Einen Zug zurück", DA: "Et træk tilbage", ES: "Una jugada atrás"},
    "step-on": {EN: "One move on", DE: "Einen Zug vor", DA: "Et træk frem", ES: "Una jugada adelante"},
    "to-start": {EN: "To the start", DE: "Zum Anfang", DA: "Til starten", ES: "Al principio"},
    "to-end": {EN: "To the end", DE: "Zum Ende", DA: "Til slutningen", ES: "Al final"},
    "move-slider": {EN: "Move", DE: "Zug", DA: "Træk", ES: "Jugada"},
    "download-record": {EN: "Download the record", DE: "Partie herunterladen", DA: "Hent partiet",
                        ES: "Descargar la partida"},
    "share-link": {EN: "Link", DE: "Link", DA: "Link", ES: "Enlace"},
    "copy": {EN: "Copy", DE: "Kopieren", DA: "Kopiér", ES: "Copiar"},
    "copied": {EN: "Copied", DE: "Kopiert", DA: "Kopieret", ES: "Copiado"},
    "the-start": {EN: "The start", DE: "Der Anfang", DA: "Starten", ES: "El principio"},
    "move-of": {EN: "Move {n} of {last}: {seat} {move}", DE: "Zug {n} von {last}: {seat} {move}",
                DA: "Træk {n} af {last}: {seat} {move}", ES: "Jugada {n} de {last}: {seat} {move}"},
    "ply-words": {EN: "{what}. Red {red}, White {white}; {stones} stones left; the crown on {crown}.",
                  DE: "{what}. Rot {red}, Weiß {white}; {stones} Steine übrig; die Krone auf {crown}.",
                  DA: "{what}. Rød {red}, Hvid {white}; {stones} rosensten tilbage; kronen på {crown}.",
                  ES: "{what}. Rojo {red}, Blanco {white}; quedan {stones} piedras; la corona en {crown}."},
    "replay-of": {EN: "Replay of game {line}", DE: "Partie {line} nachspielen", DA: "Genafspilning af parti {line}",
                  ES: "Repetición de la partida {line}"},
    "replay-board-label": {EN: "The board after the move shown", DE: "Das Brett nach dem gezeigten Zug",
                           DA: "Brættet efter det viste træk", ES: "El tablero tras la jugada mostrada"},
    "no-such-game": {EN: "There is no game {line} in the table's archive.",
                     DE: "Im Archiv des Tisches gibt es keine Partie {line}.",
                     DA: "Der er intet parti {line} i bordets arkiv.",
                     ES: "No hay ninguna partida {line} en el archivo de la mesa."},
    "no-game-asked": {EN: "No game was asked for.", DE: "Es wurde keine Partie gewählt.",
                      DA: "Der blev ikke valgt noget parti.",
                      ES: "No se pidió ninguna partida."},
    "unfinished": {EN: "unfinished", DE: "nicht beendet", DA: "ikke afsluttet", ES: "sin terminar"},
    "result-won": {EN: "{seat} won ({why})", DE: "{seat} gewann ({why})", DA: "{seat} vandt ({why})",
                   ES: "ganó {seat} ({why})"},
    "result-draw": {EN: "a draw ({why})", DE: "unentschieden ({why})", DA: "uafgjort ({why})", ES: "empate ({why})"},
    "reason-last-stone": {EN: "the last stone", DE: "letzter Stein", DA: "sidste rosensten", ES: "última piedra"},
    "reason-blockade": {EN: "a blockade", DE: "Blockade", DA: "blokade", ES: "bloqueo"},
    "reason-unfinished": {EN: "unfinished", DE: "nicht beendet", DA: "ikke afsluttet", ES: "sin terminar"},

    # --- the board in words
    "text-board-title": {EN: "The board in words", DE: "Das Brett in Worten", DA: "Brættet i ord",
                         ES: "El tablero en palabras"},
    "rank": {EN: "Rank", DE: "Reihe", DA: "Række", ES: "Fila"},
    "stone-red": {EN: "red stone", DE: "roter Stein", DA: "rød rosensten", ES: "piedra roja"},
    "stone-white": {EN: "white stone", DE: "weißer Stein", DA: "hvid rosensten", ES: "piedra blanca"},
    "crown": {EN: "the crown", DE: "die Krone", DA: "kronen", ES: "la corona"},
    "empty": {EN: "empty", DE: "leer", DA: "tomt", ES: "vacía"},
    "none": {EN: "none", DE: "keine", DA: "ingen", ES: "ninguna"},
    "on-red-stone": {EN: "on a red stone", DE: "auf einem roten Stein", DA: "på en rød rosensten",
                     ES: "sobre una piedra roja"},
    "on-white-stone": {EN: "on a white stone", DE: "auf einem weißen Stein", DA: "på en hvid rosensten",
                       ES: "sobre una piedra blanca"},
    "on-empty": {EN: "on an empty square", DE: "auf einem leeren Feld", DA: "på et tomt felt",
                 ES: "en una casilla vacía"},
    "board-words": {EN: "The board: {nred} red stones ({red}); {nwhite} white stones ({white}); the crown on {crown}, "
                         "{on}.",
                    DE: "Das Brett: {nred} rote Steine ({red}); {nwhite} weiße Steine ({white}); die Krone auf "
                        "{crown}, {on}.",
                    DA: "Brættet: {nred} røde rosensten ({red}); {nwhite} hvide rosensten ({white}); kronen på "
                        "{crown}, {on}.",
                    ES: "El tablero: {nred} piedras rojas ({red}); {nwhite} piedras blancas ({white}); la corona en "
                        "{crown}, {on}."},

    # --- the operator's page
    "health-title": {EN: "The table", DE: "Der Tisch", DA: "Bordet", ES: "La mesa"},
    "log-title": {EN: "Last errors and notes", DE: "Letzte Fehler und Hinweise", DA: "Seneste fejl og noter",
                  ES: "Últimos errores y avisos"},
    "no-log": {EN: "Nothing has gone wrong since the table started.", DE: "Seit dem Start ist nichts schiefgegangen.",
               DA: "Intet er gået galt, siden bordet startede.", ES: "Nada ha fallado desde que arrancó la mesa."},
    "refused-title": {EN: "Refused to the network", DE: "Vom Netz abgewiesen", DA: "Afvist fra netværket",
                      ES: "Rechazado a la red"},
    "refused-none": {EN: "Nothing refused.", DE: "Nichts abgewiesen.", DA: "Intet afvist.", ES: "Nada rechazado."},
    "refused-count": {EN: "{n} requests refused since the start ({kinds}); the last ones:",
                      DE: "{n} Anfragen seit dem Start abgewiesen ({kinds}); die letzten:",
                      DA: "{n} forespørgsler afvist siden start ({kinds}); de seneste:",
                      ES: "{n} peticiones rechazadas desde el arranque ({kinds}); las últimas:"},
    "from": {EN: "from", DE: "von", DA: "fra", ES: "desde"},
    "up-for": {EN: "Up for", DE: "Läuft seit", DA: "Kørt i", ES: "En marcha desde hace"},
    "screen-starting": {EN: "starting", DE: "startet", DA: "starter", ES: "arrancando"},
    "screen-menu": {EN: "the new-game menu", DE: "Menü für ein neues Spiel", DA: "menuen til et nyt spil",
                    ES: "menú de partida nueva"},
    "screen-play": {EN: "playing", DE: "im Spiel", DA: "spiller", ES: "en juego"},
    "screen-options": {EN: "the game menu", DE: "Spielmenü", DA: "spilmenuen", ES: "menú de la partida"},
    "screen-over": {EN: "the game's end", DE: "Spielende", DA: "spillets slutning", ES: "fin de la partida"},
    "screen-attract": {EN: "attract mode", DE: "Vorführmodus", DA: "demotilstand", ES: "modo de exhibición"},
    "screen-staff": {EN: "the staff menu", DE: "Personalmenü", DA: "personalemenuen", ES: "menú del personal"},
    "screen-asleep": {EN: "asleep", DE: "schläft", DA: "sover", ES: "dormida"},
    "started": {EN: "Started", DE: "Gestartet", DA: "Startet", ES: "Arrancó"},
    "backend": {EN: "Backend", DE: "Geräte", DA: "Enheder", ES: "Dispositivos"},
    "backend-pi": {EN: "the Raspberry Pi's devices", DE: "die Geräte des Raspberry Pi", DA: "Raspberry Pi'ens enheder",
                   ES: "los dispositivos de la Raspberry Pi"},
    "backend-sim": {EN: "the simulated table", DE: "der simulierte Tisch", DA: "det simulerede bord",
                    ES: "la mesa simulada"},
    "games-today": {EN: "Games today ({day})", DE: "Partien heute ({day})", DA: "Partier i dag ({day})",
                    ES: "Partidas hoy ({day})"},
    "games-started-finished": {EN: "{started} started, {finished} finished",
                               DE: "{started} begonnen, {finished} beendet",
                               DA: "{started} startet, {finished} afsluttet",
        ES: "{started} empezadas, {finished} terminadas"},
    "frames-per-second": {EN: "Frames per second", DE: "Bilder pro Sekunde", DA: "Billeder i sekundet",
                          ES: "Imágenes por segundo"},
    "frames-shown": {EN: "{fps} ({frames} shown in all)", DE: "{fps} ({frames} insgesamt)",
                     DA: "{fps} ({frames} i alt)",
                     ES: "{fps} ({frames} en total)"},
    "brightness": {EN: "Brightness", DE: "Helligkeit", DA: "Lysstyrke", ES: "Brillo"},
    "at-fault": {EN: "At fault", DE: "Gestört", DA: "Fejl", ES: "Con fallos"},
    "nothing": {EN: "nothing", DE: "nichts", DA: "intet", ES: "nada"},
    "watchdog": {EN: "Watchdog", DE: "Watchdog", DA: "Watchdog", ES: "Vigilante"},
    "watchdog-pinged": {EN: "armed, last ping {at}", DE: "aktiv, zuletzt {at}", DA: "aktiv, sidst {at}",
                        ES: "activo, último aviso {at}"},
    "watchdog-armed": {EN: "armed", DE: "aktiv", DA: "aktiv", ES: "activo"},
    "watchdog-off": {EN: "not armed (not run by systemd)", DE: "nicht aktiv (nicht von systemd gestartet)",
                     DA: "ikke aktiv (ikke kørt af systemd)", ES: "inactivo (no lo arranca systemd)"},
    "watching": {EN: "Watching", DE: "Zuschauer", DA: "Ser med", ES: "Mirando"},
    "pages-count": {EN: "{n} pages", DE: "{n} Seiten", DA: "{n} sider", ES: "{n} páginas"},
    "pages-count-one": {EN: "1 page", DE: "1 Seite", DA: "1 side", ES: "1 página"},
    "free-space": {EN: "Free space", DE: "Freier Platz", DA: "Ledig plads", ES: "Espacio libre"},
    "free-unknown": {EN: "unknown (the data directory cannot be read)",
                     DE: "unbekannt (das Datenverzeichnis ist nicht lesbar)",
                     DA: "ukendt (datamappen kan ikke læses)",
        ES: "desconocido (no se puede leer la carpeta de datos)"},
    "data-directory": {EN: "Data directory", DE: "Datenverzeichnis", DA: "Datamappe", ES: "Carpeta de datos"},
    "days-hours": {EN: "{d} d {h} h", DE: "{d} T {h} h", DA: "{d} d {h} t", ES: "{d} d {h} h"},
    "hours-minutes": {EN: "{h} h {m} min", DE: "{h} h {m} min", DA: "{h} t {m} min", ES: "{h} h {m} min"},
    "minutes-seconds": {EN: "{m} min {s} s", DE: "{m} min {s} s", DA: "{m} min {s} s", ES: "{m} min {s} s"},
    "seconds": {EN: "{s} s", DE: "{s} s", DA: "{s} s", ES: "{s} s"},
    "games-title": {EN: "Recent games", DE: "Letzte Partien", DA: "Seneste partier", ES: "Partidas recientes"},
    "games-note": {EN: "The last finished games of the archive, newest first; a game's number opens its replay.",
                   DE: "Die zuletzt beendeten Partien des Archivs, neueste zuerst; die Nummer öffnet die Partie.",
                   DA: "Arkivets senest afsluttede partier, nyeste først; et partis nummer åbner genafspilningen.",
                   ES: "Las últimas partidas terminadas del archivo, la más nueva primero; el número abre su "
                       "repetición."},
    "download-all": {EN: "Download records.jsonl (every game)", DE: "records.jsonl herunterladen (alle Partien)",
                     DA: "Hent records.jsonl (alle partier)", ES: "Descargar records.jsonl (todas las partidas)"},
    "players": {EN: "Players", DE: "Spieler", DA: "Spillere", ES: "Jugadores"},
    "result": {EN: "Result", DE: "Ergebnis", DA: "Resultat", ES: "Resultado"},
    "no-games": {EN: "No game has been finished yet.", DE: "Noch keine Partie beendet.",
                 DA: "Intet parti er afsluttet endnu.",
                 ES: "Aún no ha terminado ninguna partida."},
    "teams-game": {EN: "Red team – White team", DE: "Team Rot – Team Weiß", DA: "Rødt hold – hvidt hold",
                   ES: "Equipo rojo – equipo blanco"},
    "operator-title": {EN: "Operator", DE: "Betrieb", DA: "Operatør", ES: "Operador"},
    "token-label": {EN: "Operator token", DE: "Betreiber-Token", DA: "Operatørens token", ES: "Token del operador"},
    "token-keep": {EN: "Keep for this tab", DE: "Für diesen Tab merken", DA: "Husk i denne fane",
                   ES: "Guardar en esta pestaña"},
    "token-forget": {EN: "Forget", DE: "Vergessen", DA: "Glem", ES: "Olvidar"},
    "token-none": {EN: "no token kept", DE: "kein Token gemerkt", DA: "ingen token husket",
                   ES: "ningún token guardado"},
    "token-kept": {EN: "the operator's token is kept for this tab",
                   DE: "das Betreiber-Token ist für diesen Tab gemerkt",
                   DA: "operatørens token er husket i denne fane",
        ES: "el token del operador está guardado en esta pestaña"},
    "token-wrong": {EN: "this is not the operator's token", DE: "das ist nicht das Betreiber-Token",
                    DA: "det er ikke operatørens token", ES: "este no es el token del operador"},
    "token-note": {EN: "The token is the [web] token of the table's configuration. It is needed to name the players "
                        "(unless naming is open to them), for the actions below and, on a real table, to press its "
                        "buttons from the page. It stays in this browser tab only.",
                   DE: "Das Token ist das [web] token der Konfiguration des Tisches. Man braucht es, um die Spieler "
                       "zu benennen (falls das nicht allen offen steht), für die Aktionen unten und, an einem echten "
                       "Tisch, um seine Tasten von der Seite aus zu drücken. Es bleibt nur in diesem Tab.",
                   DA: "Token er [web] token i bordets konfiguration. Det skal bruges til at navngive spillerne "
                       "(medmindre det er åbent for dem), til handlingerne herunder og, ved et rigtigt bord, til at "
                       "trykke på dets knapper fra siden. Det bliver kun i denne fane.",
                   ES: "El token es el [web] token de la configuración de la mesa. Hace falta para nombrar a los "
                       "jugadores (salvo que esté abierto a ellos), para las acciones de abajo y, en una mesa real, "
                       "para pulsar sus botones desde la página. Solo se guarda en esta pestaña."},
    "actions-title": {EN: "Actions", DE: "Aktionen", DA: "Handlinger", ES: "Acciones"},
    "as-the-menu-says": {EN: "as the menu says", DE: "wie im Menü", DA: "som i menuen", ES: "como dice el menú"},
    "new-game": {EN: "New game", DE: "Neues Spiel", DA: "Nyt spil", ES: "Partida nueva"},
    "new-game-note": {EN: "the game on the table is archived first, as the menu's START does",
                      DE: "die Partie auf dem Tisch wird vorher archiviert, wie mit START im Menü",
                      DA: "partiet på bordet arkiveres først, som menuens START gør",
                      ES: "la partida de la mesa se archiva antes, como hace JUGAR en el menú"},
    "new-game-dealt": {EN: "A new game is on the table: {mode}.", DE: "Ein neues Spiel liegt auf dem Tisch: {mode}.",
                       DA: "Et nyt spil er på bordet: {mode}.", ES: "Hay una partida nueva en la mesa: {mode}."},
    "set": {EN: "Set", DE: "Setzen", DA: "Sæt", ES: "Aplicar"},
    "brightness-note": {EN: "0: board dark and displays off", DE: "0: Brett dunkel und Anzeigen aus",
                        DA: "0: brættet mørkt og skærmene slukket", ES: "0: tablero oscuro y pantallas apagadas"},
    "brightness-set": {EN: "The brightness is {percent}%.", DE: "Die Helligkeit ist {percent} %.",
                       DA: "Lysstyrken er {percent} %.", ES: "El brillo es del {percent} %."},
    "shut-down": {EN: "Shut the table down", DE: "Tisch ausschalten", DA: "Sluk bordet", ES: "Apagar la mesa"},
    "shut-down-note": {EN: "a clean shutdown of the machine; the game is saved",
                       DE: "ein sauberes Herunterfahren; die Partie ist gespeichert",
                       DA: "en ren nedlukning af maskinen; partiet er gemt",
                       ES: "un apagado limpio de la máquina; la partida queda guardada"},
    "shut-down-confirm": {EN: "Shut the table down? It needs its power switched off and on to start again.",
                          DE: "Den Tisch ausschalten? Zum Neustart muss der Strom aus- und eingeschaltet werden.",
                          DA: "Sluk bordet? Strømmen skal slås fra og til, før det starter igen.",
                          ES: "¿Apagar la mesa? Para arrancar de nuevo hay que cortar y dar la corriente."},
    "shutting-down": {EN: "The table is shutting down.", DE: "Der Tisch fährt herunter.", DA: "Bordet lukker ned.",
                      ES: "La mesa se está apagando."},

    # --- the club's ladder
    "at-the-table": {EN: "At the table", DE: "Am Tisch", DA: "Ved bordet", ES: "En la mesa"},
    "name-the-seats": {EN: "Name the seats", DE: "Plätze benennen", DA: "Navngiv pladserne", ES: "Nombrar los puestos"},
    "naming-needs-token": {EN: "Naming the players needs the operator's token (enter it on the operator's page).",
                           DE: "Zum Benennen der Spieler braucht man das Betreiber-Token (auf der Betreiberseite).",
                           DA: "Navngivning af spillerne kræver operatørens token (indtast det på operatørens side).",
                           ES: "Para nombrar a los jugadores hace falta el token del operador (en su página)."},
    "naming-not-now": {EN: "Not now: a game is in progress ({moves} moves). Name the seats before the next game.",
                       DE: "Jetzt nicht: ein Spiel läuft ({moves} Züge). Benenne die Plätze vor dem nächsten Spiel.",
                       DA: "Ikke nu: et spil er i gang ({moves} træk). Navngiv pladserne før næste spil.",
                       ES: "Ahora no: hay una partida en curso ({moves} jugadas). Nombra los puestos antes de la "
                           "próxima."},
    "naming-how": {EN: "Name who sits at each seat before the game (a seat left empty is not named). The names stay "
                        "for the games that follow, until they are changed.",
                   DE: "Vor dem Spiel benennen, wer an jedem Platz sitzt (ein leerer Platz bleibt unbenannt). Die "
                       "Namen gelten für die folgenden Spiele, bis sie geändert werden.",
                   DA: "Navngiv, hvem der sidder ved hver plads, før spillet (en tom plads navngives ikke). Navnene "
                       "gælder for de følgende spil, til de ændres.",
                   ES: "Nombra a quien se sienta en cada puesto antes de la partida (un puesto vacío no se nombra). "
                       "Los nombres valen para las partidas siguientes, hasta que se cambien."},
    "named": {EN: "Named: {names}.", DE: "Benannt: {names}.", DA: "Navngivet: {names}.", ES: "Nombrados: {names}."},
    "named-nobody": {EN: "No seat is named now.", DE: "Jetzt ist kein Platz benannt.",
                     DA: "Ingen plads er navngivet nu.",
                     ES: "Ahora no hay ningún puesto nombrado."},
    "names-demo": {EN: "The table plays demonstrations (the computer at both seats): they record no names; the "
                        "names are kept for the next game people play.",
                   DE: "Der Tisch spielt Vorführungen (der Computer an beiden Plätzen): sie speichern keine Namen; "
                       "die Namen gelten für das nächste Spiel von Menschen.",
                   DA: "Bordet spiller demonstrationer (computeren ved begge pladser): de gemmer ingen navne; navnene "
                       "gælder for næste spil, som mennesker spiller.",
                   ES: "La mesa juega demostraciones (la máquina en los dos puestos): no guardan nombres; los nombres "
                       "se guardan para la próxima partida de personas."},
    "names-recorded": {EN: "The game on the table ({mode}) records {names}.",
                       DE: "Das Spiel auf dem Tisch ({mode}) speichert {names}.",
                       DA: "Spillet på bordet ({mode}) gemmer {names}.",
                       ES: "La partida de la mesa ({mode}) guarda {names}."},
    "names-none-recorded": {EN: "The game on the table ({mode}) records no names: only the seats people play are "
                                "named.",
                            DE: "Das Spiel auf dem Tisch ({mode}) speichert keine Namen: nur Plätze von Menschen "
                                "werden benannt.",
                            DA: "Spillet på bordet ({mode}) gemmer ingen navne: kun pladser, som mennesker spiller, "
                                "navngives.",
                            ES: "La partida de la mesa ({mode}) no guarda nombres: solo se nombran los puestos de "
                                "personas."},
    "names-next-game": {EN: "They are for the next game.", DE: "Sie gelten für das nächste Spiel.",
                        DA: "De gælder for næste spil.", ES: "Valen para la próxima partida."},
    "ladder-title": {EN: "The ladder", DE: "Die Rangliste", DA: "Ranglisten", ES: "La clasificación"},
    "ladder-note": {EN: "Members ranked by Elo (mean 0) with its 95% interval, the same fit as roseking report, from "
                         "the finished two-player games in which both seats were named. Open a member to see their "
                         "games and replay them.",
                    DE: "Mitglieder nach Elo (Mittel 0) mit 95-%-Intervall, dieselbe Rechnung wie roseking report, "
                        "aus den beendeten Zwei-Spieler-Partien mit zwei benannten Plätzen. Ein Mitglied öffnen "
                        "zeigt seine Partien zum Nachspielen.",
                    DA: "Medlemmer efter Elo (middel 0) med 95 %-interval, samme beregning som roseking report, ud "
                        "fra afsluttede partier for to, hvor begge pladser var navngivet. Åbn et medlem for at se og "
                        "genafspille dets partier.",
                    ES: "Miembros por Elo (media 0) con su intervalo del 95 %, el mismo cálculo que roseking report, "
                        "de las partidas de dos terminadas con los dos puestos nombrados. Abre un miembro para ver y "
                        "repetir sus partidas."},
    "member": {EN: "Member", DE: "Mitglied", DA: "Medlem", ES: "Miembro"},
    "games": {EN: "Games", DE: "Partien", DA: "Partier", ES: "Partidas"},
    "won-drawn-lost": {EN: "Won–drawn–lost", DE: "S–U–N", DA: "V–U–T", ES: "G–E–P"},
    "no-ladder": {EN: "No game between named members has been finished yet: name the seats before a game.",
                  DE: "Noch keine beendete Partie zwischen benannten Mitgliedern: benenne die Plätze vor einem Spiel.",
                  DA: "Intet parti mellem navngivne medlemmer er afsluttet endnu: navngiv pladserne før et spil.",
                  ES: "Aún no ha terminado ninguna partida entre miembros nombrados: nombra los puestos antes."},
    "member-games": {EN: "{name}: {n} games", DE: "{name}: {n} Partien", DA: "{name}: {n} partier",
                     ES: "{name}: {n} partidas"},
    "member-games-one": {EN: "{name}: 1 game", DE: "{name}: 1 Partie", DA: "{name}: 1 parti", ES: "{name}: 1 partida"},
    "colour": {EN: "Colour", DE: "Farbe", DA: "Farve", ES: "Color"},
    "opponent": {EN: "Opponent", DE: "Gegner", DA: "Modstander", ES: "Rival"},
    "member-won": {EN: "won", DE: "gewonnen", DA: "vundet", ES: "ganada"},
    "member-draw": {EN: "draw", DE: "unentschieden", DA: "uafgjort", ES: "empate"},
    "member-lost": {EN: "lost", DE: "verloren", DA: "tabt", ES: "perdida"},
})
"""The web pages' words, key → its text in each language, with `{field}`s their scripts fill in."""
