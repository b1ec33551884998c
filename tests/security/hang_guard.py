"""A hang guard for the hostile-input suite: a case that runs past a generous bound fails instead of
holding the run.

This is not a speed test (tests never assert timings; speed is measured in bench/): the bound is many
times what a case takes on a busy machine, and it only turns a hang (a loop over a cycle of links, a
bomb unpacked whole) into a failure that names the case. SIGALRM, so it works in the main thread, on
POSIX, and interrupts Python code between bytecodes.
"""
from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator

BOUND_SECONDS = 10  # a hostile case takes well under a second; ten allows for 2 cores shared by 7 runs


class HangGuardTripped(BaseException):
    """BaseException, so no `except Exception` of the code under test turns it into a message."""


@contextmanager
def hang_guard(what: str, seconds: float = BOUND_SECONDS) -> Iterator[None]:
    def trip(signum, frame):
        raise HangGuardTripped(f"{what}: still running after {seconds} s (a hang guard, not a timing)")

    previous = signal.signal(signal.SIGALRM, trip)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
