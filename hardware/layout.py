"""Where each board cell sits on the LED chain.

The chain is described as a builder sees the LED panel from the front, before it is
mounted: `start` is the corner of LED 0, the chain runs along rows from there, and
`serpentine` means every other row runs back. `rotation` is how far the panel is
turned clockwise when mounted under the board (a chain that runs along columns is a
row chain turned by 90 or 270 degrees).

>>> order = led_of_cell("bottom-left", True, 0)
>>> order[72], order[80], order[71]   # a1 is LED 0, i1 is LED 8, i2 is LED 9
(0, 8, 9)
"""
from hardware.frame import SIZE

CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
ROTATIONS = (0, 90, 180, 270)
SIDES = ("south", "west", "north", "east")
"""The board's edges a seat can sit at, clockwise as seen from above (south is rank 1's edge)."""
VIEW_TURNS = {"south": 0, "east": 90, "north": 180, "west": 270}
"""How far (clockwise) the board as a person at each edge sees it is turned from the board as seen from the
south (rank 9 at the top): from the north it is upside down; from the east, rank 9 is on the right."""


def default_sides(count: int) -> tuple[str, ...]:
    """Where `count` seats sit, in turn order: two face each other across the board (south, north);
    more go round clockwise, so that seats two apart face each other (partners, in teams).

    >>> default_sides(2), default_sides(4)
    (('south', 'north'), ('south', 'west', 'north', 'east'))
    """
    return ("south", "north")[:count] if count <= 2 else tuple(SIDES[i % 4] for i in range(count))


def _panel_position(row: int, col: int, rotation: int) -> tuple[int, int]:
    """The panel (row, col) under board cell (row, col) when the panel is turned clockwise."""
    last = SIZE - 1
    if rotation == 0:
        return row, col
    if rotation == 90:
        return last - col, row
    if rotation == 180:
        return last - row, last - col
    return col, last - row


def _led_at(prow: int, pcol: int, start: str, serpentine: bool) -> int:
    """The LED index at panel position (prow, pcol)."""
    last = SIZE - 1
    run = prow if start.startswith("top") else last - prow
    step = pcol if start.endswith("left") else last - pcol
    if serpentine and run % 2:
        step = last - step
    return run * SIZE + step


def led_of_cell(start: str, serpentine: bool, rotation: int) -> tuple[int, ...]:
    """For each board cell (rank 9 first, file a first) the index of its LED in the chain."""
    if start not in CORNERS:
        raise ValueError(f"start must be one of {', '.join(CORNERS)}")
    if rotation not in ROTATIONS:
        raise ValueError(f"rotation must be one of {', '.join(map(str, ROTATIONS))}")
    return tuple(_led_at(*_panel_position(r, c, rotation), start, serpentine)
                 for r in range(SIZE) for c in range(SIZE))


def cell_of_led(start: str, serpentine: bool, rotation: int) -> tuple[int, ...]:
    """For each LED in chain order the index of the board cell it lights (the inverse map)."""
    leds = led_of_cell(start, serpentine, rotation)
    cells = [0] * len(leds)
    for c, led in enumerate(leds):
        cells[led] = c
    return tuple(cells)
