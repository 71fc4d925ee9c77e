"""What the table service is handed at start-up, whichever backend it is."""


class Devices:
    """`.lights` (9 × 9 board), `.displays` (card matrices, `.slots`), `.buttons` (event queue).

    `show(frame)` puts a whole `Frame` on the board and the displays; `close()` turns
    everything off and releases it. Also a context manager.
    """

    def __init__(self, backend, lights, displays, buttons, closers=()):
        self.backend, self.lights, self.displays, self.buttons = backend, lights, displays, buttons
        self._closers = list(closers)

    @property
    def slots(self):
        """The display slot names, in chain order."""
        return self.displays.slots

    def show(self, frame):
        """Show `frame` on the board and every display."""
        self.lights.show(frame.board)
        self.displays.show(frame.displays)

    def close(self):
        """Release the buttons, blank and release the displays and the lights."""
        for close in [self.buttons.close, self.displays.close, self.lights.close] + self._closers:
            close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
