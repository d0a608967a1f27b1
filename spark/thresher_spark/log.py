"""Progress lines on standard error, timed from the job's start."""

import sys
import time

START = time.monotonic()
NAME = ["thresher"]


def log(message):
    print(f"{NAME[0]}: {time.monotonic() - START:7.1f} s  {message}", file=sys.stderr)


class JobError(Exception):
    """A problem with the job's input or configuration; the entry points print it and exit 2."""
