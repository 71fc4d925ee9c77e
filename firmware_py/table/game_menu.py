"""The game menu, opened with MENU during a game: the state of the game, the last move again, a hint,
a takeback and a new game, one on each card display, the game kept as it is.

On panels with fewer cards than items, the last card turns the page (MORE). A takeback
between people waits `AGREE_SECONDS` for each colour a person plays to press TAKE BACK
too (unless `[table] takeback_agree = false`).

>>> menu = GameMenu(cards=3, hint=True, takeback=True)
>>> menu.labels()
['SCORE', 'LAST MOVE', 'MORE']
>>> menu.press(3), menu.labels()
(None, ['HINT', 'TAKE BACK', 'MORE'])
>>> menu.press(2)
'takeback'
"""
from dataclasses import dataclass

from firmware_py.table.menu import Refusal

ITEMS = {"score": "SCORE", "last": "LAST MOVE", "hint": "HINT", "takeback": "TAKE BACK", "new": "NEW GAME"}
MORE = "MORE"
AGREE_SECONDS = 9.0          # one digit to count down
INFO_SECONDS = 20.0         # the state or the last move, shown until a press or for this long
IDLE_SECONDS = 30.0         # a game menu nobody presses goes back to the game


@dataclass(frozen=True)
class Info:
    """What the game menu is showing since `since`: `score` (the state of the game) or `last` (the last move)."""
    kind: str
    since: float


@dataclass(frozen=True)
class Pending:
    """A takeback of `count` moves asked at `since`, agreed so far by the colours (0 red, 1 white) in `agreed`."""
    count: int
    agreed: frozenset[int]
    since: float

    def left(self, now: float) -> float | None:
        """Seconds left for the other colours to agree, or None once the time is over."""
        left = self.since + AGREE_SECONDS - now
        return left if left >= 0 else None


class GameMenu:
    """The game menu's page, what it shows and the takeback being agreed."""

    def __init__(self, cards: int, hint: bool, takeback: bool) -> None:
        self.cards = cards
        self.items = [i for i in ITEMS if (i != "hint" or hint) and (i != "takeback" or takeback)]
        self.open(0.0)

    def open(self, now: float) -> None:
        """Show the first page, nothing chosen yet."""
        self.page, self.touched = 0, now
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

    def labels(self) -> list[str]:
        """The text of each card display on this page."""
        return [ITEMS.get(i, MORE) if i is not None else "" for i in self.page_items()]

    def press(self, card: int) -> str | None:
        """The item of card button `card` (1…), or None (nothing there, or the page turned)."""
        item = self.page_items()[card - 1] if card <= self.cards else None
        if item == MORE:
            self.page = (self.page + 1) % len(self._pages())
            return None
        return item
