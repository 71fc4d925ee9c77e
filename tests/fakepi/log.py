"""What the fake hardware was asked to do, one JSON line each, to $FAKE_PI_LOG."""
import json
import os


def record(*event):
    path = os.environ.get("FAKE_PI_LOG")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps(event) + "\n")
