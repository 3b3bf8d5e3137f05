"""The progress line of a long command (`judge batch`, `check`, `generate`, `mutants`).

On a terminal it is one status line, redrawn in place and cut to the terminal's width, on
stderr; it is cleared (or kept, ``keep``) before the command's own output. Anywhere else it
writes nothing, so logs and pipes get only the command's output, except the ``plain`` lines a
command asks for there instead (`judge batch`: one line per graded submission).
Safe to call from several threads.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time


class Progress:
    """``total`` and ``done`` count the items of a command that works through a known number;
    calling the object with a text (``progress(text)``, the hook the library functions take)
    shows ``  .. text``."""

    def __init__(self, total: int = 0, stream=None):
        self.total, self.done = total, 0
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.started = time.monotonic()
        self._lock = threading.Lock()
        self._shown = False  # a status line is on the screen

    def __call__(self, text: str) -> None:
        self.show(f"  .. {text}")

    def show(self, text: str, plain: str | None = None) -> None:
        """On a terminal, ``text`` replaces the status line; elsewhere ``plain``, if given, is
        written as a line of its own."""
        if self.tty:
            width = max(20, shutil.get_terminal_size((120, 24)).columns - 1)
            self._write("\r\x1b[K" + text[:width], shown=True)
        elif plain is not None:
            self._write(plain + "\n", shown=False)

    def rate(self) -> float:
        """Items done per second so far."""
        return self.done / max(time.monotonic() - self.started, 1e-9)

    def clear(self) -> None:
        """Remove the status line (before the command writes its own output)."""
        self._write("\r\x1b[K", shown=False, only_if_shown=True)

    def keep(self) -> None:
        """End the status line, leaving it on the screen."""
        self._write("\n", shown=False, only_if_shown=True)

    def _write(self, data: str, shown: bool, only_if_shown: bool = False) -> None:
        with self._lock:
            if only_if_shown and not self._shown:
                return
            self.stream.write(data)
            self.stream.flush()
            self._shown = shown
