"""The message catalogue: every text the table scrolls, in each language it speaks (`[table] language`).

A message is a key with one text per `Language`; `say` picks the table's and fills in its fields.
Texts are written in capitals, as the card displays show them, and short: whatever does not fit
its displays scrolls, and is shown as long as it takes to read (`firmware_py.table.reading`).
Card names (`NE2`), moves (`H+NE2`) and numbers are the same in every language. The game's
words are its rule sheets': Held (de), helt (da), héroe (es) for a hero; Stein, rosensten,
piedra for a stone. What the operator reads (the terminal's caption, the web page, the log)
is English prose, not from here.

>>> say("invite", Language.DE)
'DER ROSENKÖNIG: DRÜCKE EINE TASTE'
>>> say("passes", "es", seat=say("red", "es"))
'ROJO PASA'
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
                   DE: "NACHZIEHEN: EINE KARTE NEHMEN, SOLANGE DU WENIGER ALS 5 HAST",
                   DA: "TRÆK: TAG ET KORT, NÅR DU HAR FÆRRE END 5",
                   ES: "ROBAR: TOMA UNA CARTA SI TIENES MENOS DE 5"},
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
    word = seat.rstrip("0123456789")
    return f"{say(word, language)} {seat[len(word):]}".rstrip()
