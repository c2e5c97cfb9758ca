"""Progress on stderr while a run goes: a line per section, and a bar per measurement.

On a terminal the bar is redrawn in place; elsewhere (CI logs) a line is written at each quarter, so logs stay
short. stdout is left alone for the report.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Bar", "Progress"]

_WIDTH = 24


class Bar:
    """Progress of one measurement of ``total`` steps."""

    def __init__(self, stream: TextIO, tty: bool, label: str, total: int) -> None:
        self._stream = stream
        self._tty = tty
        self._label = label
        self._total = max(1, total)
        self._done = 0
        self._quarter = -1
        self._draw()

    def advance(self, steps: int = 1) -> None:
        self._done = min(self._total, self._done + steps)
        self._draw()

    def close(self) -> None:
        if self._tty:
            self._stream.write("\n")
            self._stream.flush()

    def _draw(self) -> None:
        filled = self._done * _WIDTH // self._total
        text = f"    {self._label} [{'#' * filled}{'.' * (_WIDTH - filled)}] {self._done}/{self._total}"
        if self._tty:
            self._stream.write("\r" + text)
        else:
            quarter = self._done * 4 // self._total
            if quarter == self._quarter:
                return
            self._quarter = quarter
            self._stream.write(text + "\n")
        self._stream.flush()


class Progress:
    """The progress display of a whole run of ``sections`` sections."""

    def __init__(self, sections: int, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stderr
        self._tty = self._stream.isatty()
        self._sections = sections
        self._index = 0
        self._started = time.perf_counter()

    def section(self, title: str) -> None:
        self._index += 1
        self.say(f"[{self._index}/{self._sections}] {title}")

    def bar(self, label: str, total: int) -> Bar:
        return Bar(self._stream, self._tty, label, total)

    def say(self, text: str) -> None:
        elapsed = time.perf_counter() - self._started
        self._stream.write(f"{elapsed:6.1f}s {text}\n")
        self._stream.flush()
