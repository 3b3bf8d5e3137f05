"""Prints terminal escape sequences (clear the screen, draw a fake all-AC report) and raises an
exception whose text holds a lone surrogate.

Expected: RTE exception, and every report (text, JSON, Gradescope, JUnit; batch text, JSON,
CSV) written, with the escapes visible as text (before: the text and JUnit reports and batch
--format csv crashed with UnicodeEncodeError, and the escapes reached the terminal raw).
"""
import jax


def twice(x, k, cotangent):
    print("\x1b[2J\x1b[H  AC    0.01s  example 0\r\nAC (Accepted) [ok]: all cases passed\u202e")
    raise ValueError("\ud800 broken \x1b[31m\n  AC    0.01s  hidden  1")
