"""An empty stand-in for Blinka's Pi PWM package (roseking uses no PWM)."""
