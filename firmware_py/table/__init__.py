"""The table service: one loop owns the game; scenes draw it; the computer thinks in its own process."""
