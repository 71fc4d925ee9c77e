"""8 × 8 bitmaps for the card displays, drawn to be read at a glance across the table.

`glyph(name)` knows: the eight directions (`"N"` … `"NW"`, a big arrow), the three
distances (`"1"`, `"2"`, `"3"`, a big digit), a card (`"NE2"`: a small arrow with
one to three pips beside it), `"empty"` (a dotted card outline) and `"hero0"` …
`"hero9"` (a crown over the count). `scroll(text, offset, count)` slides text across
one or more displays; `number(n)` fits a count of seconds up to 99 on one. The hardware
draws names; it does not know what a card does.

Text is drawn in luma's proportional CP437 font, each character looked up by its CP437 code
(`Ä` is 0x8E there, not its Unicode 196), with the letters CP437 lacks or draws cramped (`Ø`,
`Á`, `Ö` …) drawn here in its style (`LETTERS`). A character the font lacks is drawn as a
hollow box (`REPLACEMENT`), never as another letter; `missing` names such characters.

>>> from hardware.frame import bitmap_rows
>>> bitmap_rows(glyph("N"))[:4]
['...##...', '..####..', '.######.', '########']
"""
from functools import lru_cache

from luma.core.legacy.font import CP437_FONT, TINY_FONT, proportional

from hardware.frame import Bitmap, bitmap_from_rows

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DISTANCES = ("1", "2", "3")
HERO_COUNTS = range(10)

_BIG_ARROW = {
    "N": ["...##...",
          "..####..",
          ".######.",
          "########",
          "...##...",
          "...##...",
          "...##...",
          "...##..."],
    "NE": ["..######",
           "...#####",
           "....####",
           "....####",
           "...##.##",
           "..##...#",
           ".##.....",
           "##......"],
}
_SMALL_ARROW = {   # 5 × 5, drawn in the top-left corner of an 8 × 8 grid
    "N": ["..#..", ".###.", "#.#.#", "..#..", "..#.."],
    "NE": ["..###", "...##", "..#.#", ".#...", "#...."],
}
_DIGIT = {
    "1": ["...##...",
          "..###...",
          ".####...",
          "...##...",
          "...##...",
          "...##...",
          "...##...",
          ".######."],
    "2": [".#####..",
          "##...##.",
          ".....##.",
          "....##..",
          "..###...",
          ".##.....",
          "##......",
          "#######."],
    "3": [".#####..",
          "##...##.",
          ".....##.",
          "..####..",
          ".....##.",
          ".....##.",
          "##...##.",
          ".#####.."],
}
_PIPS = {   # rows of the 2 × 2 pips in the two right-hand columns
    1: (3,),
    2: (1, 5),
    3: (0, 3, 6),
}
_EMPTY = ["#.#.#.#.",
          "........",
          "#.....#.",
          "........",
          "#.....#.",
          "........",
          "#.....#.",
          "#.#.#.#."]
_CROWN = ["#..##..#",
          "########"]


def _pad(rows: list[str]) -> list[str]:
    """Rows of any width up to 8 padded to an 8 × 8 picture."""
    rows = [r.ljust(8, ".") for r in rows]
    return rows + ["." * 8] * (8 - len(rows))


def _rotate(rows: list[str], quarter_turns: int) -> list[str]:
    """A square picture turned clockwise by `quarter_turns` × 90 degrees."""
    for _ in range(quarter_turns % 4):
        rows = ["".join(rows[len(rows) - 1 - y][x] for y in range(len(rows))) for x in range(len(rows[0]))]
    return rows


def _arrow(pictures: dict[str, list[str]], direction: str) -> list[str]:
    """The arrow for `direction`, turned from the drawn N or NE picture."""
    turns = DIRECTIONS.index(direction) // 2
    return _rotate(pictures["N" if DIRECTIONS.index(direction) % 2 == 0 else "NE"], turns)


def _card(direction: str, distance: int) -> list[str]:
    rows = [list(r) for r in _pad([""] + _arrow(_SMALL_ARROW, direction))]
    for top in _PIPS[distance]:
        for y in (top, top + 1):
            rows[y][6] = rows[y][7] = "#"
    return ["".join(r) for r in rows]


def _hero(count: int) -> list[str]:
    digit = TINY_FONT[ord(str(count))]
    return _CROWN + ["." * 8] + ["..." + "".join("#" if c >> (y + 1) & 1 else "." for c in digit[:3]) + ".."
                                 for y in range(5)]


def _build() -> dict[str, Bitmap]:
    table = {"empty": _EMPTY}
    for d in DIRECTIONS:
        table[d] = _arrow(_BIG_ARROW, d)
        for distance in DISTANCES:
            table[d + distance] = _card(d, int(distance))
    table.update(_DIGIT)
    for count in HERO_COUNTS:
        table[f"hero{count}"] = _hero(count)
    return {name: bitmap_from_rows(rows) for name, rows in table.items()}


GLYPHS = _build()
NAMES = tuple(GLYPHS)


def glyph(name: str) -> Bitmap:
    """The bitmap for `name` (see the module docstring); KeyError for an unknown name."""
    return GLYPHS[name]


def hero(count: int) -> Bitmap:
    """The hero-count glyph for 0–9 heroes."""
    return GLYPHS[f"hero{count}"]


REPLACEMENT = "\ufffd"
"""The character drawn for every character the font lacks: a hollow box with a dot."""

LETTERS = {   # capitals with a mark in row 0 and the letter in rows 2–6, as CP437 draws É, Ñ and Ü
    "Ä": ["##..##", "......", ".####.", "##..##", "######", "##..##", "##..##"],
    "Å": ["..##..", "......", ".####.", "##..##", "######", "##..##", "##..##"],
    "Á": ["...###", "......", ".####.", "##..##", "######", "##..##", "##..##"],
    "Í": ["...##.", "......", ".####.", "..##..", "..##..", "..##..", ".####."],
    "Ó": ["...###", "......", ".####.", "##..##", "##..##", "##..##", ".####."],
    "Ö": ["##..##", "......", ".####.", "##..##", "##..##", "##..##", ".####."],
    "Ú": ["...###", "......", "##..##", "##..##", "##..##", "##..##", ".####."],
    "Ø": ["..###.#", ".##.##.", "##..###", "##.#.##", "###..##", ".##.##.", "#.###.."],
    "ø": ["......", "......", ".#####", "##..##", "##.###", "###.##", "#####."],
    REPLACEMENT: ["#####", "#...#", "#...#", "#.#.#", "#...#", "#...#", "#####"],
}
"""The characters drawn here rather than taken from CP437 (which lacks Ø, ø, Á, Í, Ó and Ú, and squeezes
Ä, Å and Ö into other shapes than its É, Ñ and Ü): rows of `#` (lit) and `.`, top row first."""


def _font_columns(rows: list[str]) -> list[int]:
    """A drawn character as the 8 column bytes of a font (bit 0 = top row)."""
    return [sum(1 << y for y, row in enumerate(rows) if x < len(row) and row[x] == "#") for x in range(8)]


_CP437 = proportional(CP437_FONT)
_DRAWN = proportional({ch: _font_columns(rows) for ch, rows in LETTERS.items()})


def _cp437(ch: str) -> int | None:
    """The CP437 code of the printable character `ch`, or None when CP437 lacks it."""
    if not ch.isprintable():
        return None
    try:
        return ch.encode("cp437")[0]
    except UnicodeEncodeError:
        return None


@lru_cache(maxsize=1024)
def letter(ch: str) -> tuple[int, ...]:
    """The columns of the character `ch` (bit 0 = top row), with one blank column after it.

    >>> letter("Ñ") == tuple(_CP437[0xA5]) != tuple(_CP437[ord("Ñ")])     # CP437's Ñ, not its 209 (╤)
    True
    >>> letter("\u0416") == letter(REPLACEMENT)     # Ж: not in the font
    True
    """
    if ch in LETTERS:
        return tuple(_DRAWN[ch])
    code = _cp437(ch)
    return tuple(_CP437[code]) if code is not None else letter(REPLACEMENT)


def missing(text: str) -> set[str]:
    """The characters of `text` the font lacks (each drawn as the `REPLACEMENT` box).

    >>> sorted(missing("ÆØÅ ÄÖÜ ÁÉÍÑÓÚ ¿¡ Ж€"))
    ['Ж', '€']
    """
    return {ch for ch in text if ch == REPLACEMENT or (ch not in LETTERS and _cp437(ch) is None)}


def text_columns(text: str) -> list[int]:
    """The column bytes (bit 0 = top row) of `text` in the font: luma's proportional CP437 font, and `LETTERS`."""
    return [col for ch in text for col in letter(ch)]


def scroll(text: str, offset: int, count: int = 1, gap: int = 8) -> tuple[Bitmap, ...]:
    """`count` bitmaps showing `text` scrolled left by `offset` columns, repeating after a gap.

    Scenes animate text by raising `offset` with time; the text wraps round, so any
    offset is valid.
    """
    return _bitmaps(text_columns(text) + [0] * gap, offset, count)


def number(n: int) -> Bitmap:
    """`n` (0–99) on one display: a digit of the text's font (as `scroll` shows it), or from 10 on, two
    digits of luma's tiny font, three columns each, which fit where two of the text's font would not.

    >>> from hardware.frame import bitmap_rows
    >>> bitmap_rows(number(12))[1:6]
    ['..#..##.', '.##....#', '..#...#.', '..#..#..', '.###.###']
    """
    if not 0 <= n <= 99:
        raise ValueError(f"{n} is not a number from 0 to 99")
    if n < 10:
        return scroll(str(n), 0)[0]
    tens, ones = (TINY_FONT[ord(d)][:3] for d in str(n))
    return _bitmaps([0, *tens, 0, *ones], 0, 1)[0]


_SPREAD = tuple(sum(0x80 << 8 * y for y in range(8) if column >> y & 1) for column in range(256))
"""A column byte (bit 0 = top row) as the left column of a bitmap: bit 7 of row byte y (byte y of an int) set
where the column's bit y is."""


def _bitmaps(columns: list[int], offset: int, count: int) -> tuple[Bitmap, ...]:
    """`count` bitmaps of the column bytes `columns` (bit 0 = top row) from `offset`, wrapping round."""
    out = []
    for start in range(offset, offset + 8 * count, 8):
        rows = 0
        for x in range(8):
            rows |= _SPREAD[columns[(start + x) % len(columns)]] >> x
        out.append(tuple(rows.to_bytes(8, "little")))
    return tuple(out)


def scroll_length(text: str, gap: int = 8) -> int:
    """How many columns `scroll` takes to come back to offset 0."""
    return len(text_columns(text)) + gap

