"""Dropping a finished epoch's data iterator without making training wait for it.

Destroying a tf.data iterator joins its autotuning thread, which in TensorFlow 2.21 notices only at its
next scheduled wake-up (seconds, doubling as the epoch runs; BENCHMARKS.md, "An epoch's end"). The wait
releases the GIL, so the last reference is dropped on a thread of its own while the next epoch trains.
The thread is not a daemon, so an iterator is never torn down while TensorFlow is being unloaded; a
trainer that has written everything ends at once instead of waiting for it (engine.train.task.end_process).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Generator
from typing import Any

THREAD_NAME = "iterator-retirer"


def retire(held: list[Any]) -> None:
    """Empty `held` on a thread of its own.

    `held` must hold the only references to what it holds (the caller used them only through
    `held[0]`): whoever drops the last reference runs the destructor and waits.
    """
    threading.Thread(target=held.clear, name=THREAD_NAME).start()


@contextlib.contextmanager
def retired(held: list[Any]) -> Generator[list[Any], None, None]:
    """`held`, handed to retire() when the block ends however it ends: `with retired([iter(data)]) as held:`,
    then only `held[0]` inside (a name bound to the iterator would keep it alive in the caller)."""
    try:
        yield held
    finally:
        retire(held)


def retiring() -> bool:
    """True while an iterator handed to retire() is still being destroyed."""
    return any(t.name == THREAD_NAME and t.is_alive() for t in threading.enumerate())
