# What the Python drivers of test/Bundle (capi.py, variants.py,
# fastlaunch.py) print: one line per step, in order with the fake driver's
# own lines, for FileCheck.
import ctypes
import sys

from tilegym import TileGymError

libc = ctypes.CDLL(None)


def out(text):
    libc.fflush(None)  # The fake driver prints through C's stdio.
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def attempt(label, fn):
    """LABEL: ok [RESULT], or LABEL: STATUS: MESSAGE when fn raises."""
    try:
        result = fn()
        out(f"{label}: ok {result if result is not None else ''}".rstrip())
        return result
    except TileGymError as e:
        out(f"{label}: {e.status}: {e.message}")
