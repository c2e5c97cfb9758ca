"""Folder work that ends with its request: walks and reads ask a :data:`Stop` between steps, and
:func:`off_the_loop` runs them in a worker thread whose ``stop`` says yes once the calling task is cancelled."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread

__all__ = ["Interrupted", "Stop", "never", "off_the_loop"]

Stop = Callable[[], bool]
"""Asked between steps of a walk or a read: True when the request the work serves has ended."""


def never() -> bool:
    """A :data:`Stop` for work that nothing interrupts."""
    return False


class Interrupted(Exception):
    """Raised inside a walk, a read or a payload build when its :data:`Stop` said the request has ended."""


_Result = TypeVar("_Result")


async def off_the_loop(work: Callable[[Stop], _Result]) -> _Result:
    """Run blocking folder ``work`` in a worker thread, handing it a :data:`Stop` that says True once the calling
    task is cancelled (the request ended), so that the thread's walks and reads end promptly.

    The thread is not abandoned: a cancelled caller waits for it to notice, which takes at most one directory
    entry, one read chunk or one chunk of records, so no work outlives its request.
    """
    cancelled = anyio.get_cancelled_exc_class()

    def stop() -> bool:
        try:
            anyio.from_thread.check_cancelled()
        except cancelled:
            return True
        return False

    try:
        return await anyio.to_thread.run_sync(work, stop)
    except Interrupted:
        # The thread ended because of a cancellation that is pending here: let it take its ordinary course.
        await anyio.lowlevel.checkpoint_if_cancelled()
        raise
