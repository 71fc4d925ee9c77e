"""Files written whole or not at all: a temporary file beside the target, then a rename."""
import contextlib
import os
import tempfile

from firmware_py.errors import UsageError


@contextlib.contextmanager
def atomic_writer(path):
    """A text file to write; it replaces `path` only when the block ends without error."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", dir=folder)
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
