"""Glyphs: one distinct 8 × 8 picture per name, arrows that turn with their direction,
cards that show the distance as pips, and text that scrolls round."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.frame import BLANK, bitmap_from_rows, bitmap_rows
from hardware.glyphs import DIRECTIONS, DISTANCES, NAMES, glyph, hero, number, scroll, scroll_length


def turned_clockwise(bitmap):
    rows = bitmap_rows(bitmap)
    return bitmap_from_rows(["".join(rows[7 - y][x] for y in range(8)) for x in range(8)])


def lit(bitmap, columns=range(8)):
    return sum(1 for row in bitmap for x in columns if row & (0x80 >> x))


def test_every_name_has_its_own_picture():
    expected = set(DIRECTIONS) | set(DISTANCES) | {d + n for d in DIRECTIONS for n in DISTANCES} | \
        {"empty"} | {f"hero{n}" for n in range(10)}
    assert set(NAMES) == expected
    pictures = [glyph(n) for n in NAMES]
    assert len(set(pictures)) == len(pictures)
    assert BLANK not in pictures
    assert all(len(p) == 8 and all(0 <= row <= 255 for row in p) for p in pictures)


@pytest.mark.parametrize("i", range(8))
def test_arrows_turn_with_their_direction(i):
    a, b = DIRECTIONS[i], DIRECTIONS[(i + 2) % 8]     # 90° clockwise apart
    assert turned_clockwise(glyph(a)) == glyph(b)
    assert turned_clockwise(glyph(a + "1")) != glyph(b + "1")   # pips stay on the right


def test_arrows_point_where_they_say():
    north = bitmap_rows(glyph("N"))
    assert north[0].count("#") < north[3].count("#")      # a head at the top…
    assert north[7].count("#") == 2                        # …and a shaft below
    assert bitmap_rows(glyph("NE"))[0].endswith("#") and bitmap_rows(glyph("NE"))[7].startswith("#")


STEPS_ON_SCREEN = {"N": (-1, 0), "NE": (-1, 1), "E": (0, 1), "SE": (1, 1), "S": (1, 0), "SW": (1, -1), "W": (0, -1),
                   "NW": (-1, -1)}
"""Each direction as a (row, column) step on a picture drawn as the board is seen from the south (rank 9 up)."""


def pointing(bitmap):
    """The directions a card's small arrow (rows 1–5, columns 0–4) points: its head lit with both barbs,
    its tail without; a card that is drawn right points exactly one way."""
    rows = bitmap_rows(bitmap)

    def lit(r, c):
        return 0 <= r < 8 and 0 <= c < 8 and rows[r][c] == "#"
    out = []
    for name, (dr, dc) in STEPS_ON_SCREEN.items():
        head, tail, across = (3 + 2 * dr, 2 + 2 * dc), (3 - 2 * dr, 2 - 2 * dc), (dc, -dr)
        barbs = [(head[0] - dr + s * across[0], head[1] - dc + s * across[1]) for s in (1, -1)]
        tail_barbs = [(tail[0] + dr + s * across[0], tail[1] + dc + s * across[1]) for s in (1, -1)]
        if lit(*head) and all(lit(*b) for b in barbs) and not any(lit(*b) for b in tail_barbs):
            out.append(name)
    return out


@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize("distance", DISTANCES)
def test_a_cards_arrow_head_lies_in_its_direction(direction, distance):
    assert pointing(glyph(direction + distance)) == [direction]


@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize("distance", DISTANCES)
def test_cards_show_the_distance_as_pips(direction, distance):
    card = glyph(direction + distance)
    assert lit(card, range(6, 8)) == 4 * int(distance)    # 2 × 2 pips in the right two columns
    assert lit(card, [5]) == 0                             # a gap between arrow and pips


def test_hero_counts():
    assert [hero(n) for n in range(5)] == [glyph(f"hero{n}") for n in range(5)]
    assert bitmap_rows(hero(2))[:2] == bitmap_rows(hero(4))[:2]    # the same crown
    with pytest.raises(KeyError):
        glyph("hero10")


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789:-", min_size=1, max_size=12),
       st.integers(0, 500), st.integers(1, 5))
def test_scrolling_wraps_round(text, offset, count):
    period = scroll_length(text)
    window = scroll(text, offset, count)
    assert len(window) == count
    assert window == scroll(text, offset + period, count)
    # one display further along shows what the next display showed
    assert scroll(text, offset + 8, count)[:-1] == window[1:]


def test_scrolling_text_starts_with_the_first_letter():
    first = scroll("I", 0)[0]
    assert first != BLANK
    assert scroll("I", -8)[0] == BLANK     # the gap before the text comes round


def test_every_count_of_seconds_up_to_99_fits_one_display_and_each_is_its_own():
    """Two digits of the text's font take 14 columns and would scroll: from 10 on, two tiny digits."""
    pictures = [number(n) for n in range(100)]
    assert len(set(pictures)) == 100 and all(any(p) for p in pictures)
    assert all(number(n) == scroll(str(n), 0)[0] for n in range(10))
    with pytest.raises(ValueError):
        number(100)
