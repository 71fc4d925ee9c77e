"""The game menu, opened with MENU during a game: the state of the game, the last move again, a hint,
a takeback and a new game, one on each card display, the game kept as it is.

On panels with fewer cards than items, the last card turns the page (MORE); each page's
titles start at their first letter (`since`). A takeback between people waits for each
colour a person plays to press TAKE BACK too (unless `[table] takeback_agree = false`):
`AGREE_SECONDS`, or as long as its question takes to read.

>>> menu = GameMenu(cards=3, hint=True, takeback=True)
>>> menu.labels(Language.EN)
['SCORE', 'LAST MOVE', 'MORE']
>>> menu.press(3, 1.0), menu.labels(Language.DA), menu.since
(None, ['TIP', 'FORTRYD', 'MERE'], 1.0)
>>> menu.press(2, 2.0)
'takeback'
"""
from dataclasses import dataclass

from firmware_py.table.game import HUMAN, Game
from firmware_py.table.menu import Refusal, level_name
from firmware_py.table.messages import Language, Phrase, say, seat_title

ITEMS = ("score", "last", "hint", "takeback", "new")
"""The game menu's items in order; each is titled by its message `item-…`."""
MORE = "more"
AGREE_SECONDS = 9.0          # the least time for the other colour to agree
INFO_SECONDS = 20.0         # the state or the last move, shown until a press, or this long (at least one round)
IDLE_SECONDS = 30.0         # a game menu nobody presses goes back to the game


@dataclass(frozen=True)
class Info:
    """What the game menu is showing from `since` to `until`: `score` (the state of the game) or `last`
    (the last move), in `lines` shown one after the other."""
    kind: str
    lines: tuple[str, ...]
    since: float
    until: float


@dataclass(frozen=True)
class Pending:
    """A takeback of `count` moves asked at `since`, agreed so far by the colours (0 red, 1 white) in
    `agreed`, open `until`."""
    count: int
    agreed: frozenset[int]
    since: float
    until: float

    def left(self, now: float) -> float | None:
        """Seconds left for the other colours to agree, or None once the time is over."""
        return self.until - now if now <= self.until else None


def undo_question(count: int, agreed: bool, language: Language) -> str:
    """What a colour's displays say in `language` while a takeback of `count` moves waits: the question, or,
    once that colour has `agreed`, that it waits for the other.

    >>> undo_question(2, agreed=False, language=Language.EN), undo_question(2, agreed=True, language=Language.EN)
    ('UNDO 2? PRESS TAKE BACK', 'UNDO 2: WAITING')
    """
    return say("undo-waiting" if agreed else "undo-ask", language, count=count)


def readout(game: Game, language: Language) -> list[str]:
    """The state of the game in `language`, in the lines the displays show one after the other: each colour's
    score now (R18), heroes left (per seat in teams), stones left in the supply, cards in the draw pile, the
    computer."""
    pos, score = game.pos, game.score()
    names = [seat_title(n, language) for n in pos.variant.seats]
    colours = [say("red", language), say("white", language)]
    lines = [say("points", language, colour=colours[0], points=score.red.score),
             say("points", language, colour=colours[1], points=score.white.score)]
    if len(names) == 2:
        lines.append(say("heroes", language, counts=f"{colours[0]} {pos.heroes[0]} {colours[1]} {pos.heroes[1]}"))
    else:
        lines += [say("team-heroes", language, team=team,
                      counts=", ".join(f"{n} {h}" for n, h in list(zip(names, pos.heroes))[colour::2]))
                  for colour, team in enumerate(colours)]
    lines += [say("stones-left", language, count=pos.supply), say("pile", language, count=len(pos.pile))]
    computers = sorted({p for p in game.players if p != HUMAN})
    if computers:
        lines.append(say("computer", language, levels=" ".join(level_name(c, language) for c in computers)))
    return lines


class GameMenu:
    """The game menu's page, what it shows and the takeback being agreed."""

    def __init__(self, cards: int, hint: bool, takeback: bool) -> None:
        self.cards = cards
        self.items = [i for i in ITEMS if (i != "hint" or hint) and (i != "takeback" or takeback)]
        self.open(0.0)

    def open(self, now: float) -> None:
        """Show the first page at `now`, nothing chosen yet."""
        self.page, self.touched, self.since = 0, now, now
        self.info: Info | None = None
        self.pending: Pending | None = None
        self.refusal: Refusal | None = None

    def _pages(self) -> list[list[str]]:
        if len(self.items) <= self.cards:
            return [self.items]
        per = self.cards - 1
        return [self.items[i:i + per] for i in range(0, len(self.items), per)]

    def page_items(self) -> list[str | None]:
        """The item under each card button on this page (None: nothing; `MORE` on the last turns the page)."""
        pages = self._pages()
        items: list[str | None] = [*pages[self.page]] + [None] * self.cards
        if len(pages) > 1:
            return items[:self.cards - 1] + [MORE]
        return items[:self.cards]

    def labels(self, language: Language) -> list[str]:
        """The text of each card display on this page, in `language`."""
        return [words.say(language) if words is not None else "" for words in self.words()]

    def words(self) -> list[Phrase | None]:
        """The words of each card display on this page (None: it shows nothing)."""
        return [Phrase(f"item-{i}") if i is not None else None for i in self.page_items()]

    def press(self, card: int, now: float) -> str | None:
        """The item of card button `card` (1…), or None (nothing there, or the page turned at `now`)."""
        item = self.page_items()[card - 1] if card <= self.cards else None
        if item == MORE:
            self.page, self.since = (self.page + 1) % len(self._pages()), now
            return None
        return item
