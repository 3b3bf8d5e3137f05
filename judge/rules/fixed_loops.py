"""A loop padded to a fixed count over a dim, as ``no_unrolling`` keyed on that dim reads it:
a live ``scan`` or ``while`` whose count is a number (the program traced with the dim as a
symbol, so the count never read it), held by no loop whose count reads a dim, whose body
indexes an axis of the dim's extent by its counter (``Loop.steps_over``,
``judge.worker.loop_index``): a ``fori_loop`` of 8 trips each taking one example of a batch
of at most 8 (``dynamic_index_in_dim``, ``jnp.take``, a mask or one-hot product chosen by the
counter) runs over the examples one at a time, padded to a count that does not grow with
them. A loop over the dim itself (``lax.map``, a ``scan`` over the rows: its count is the
dim), and a fixed loop that works on the whole batch at each trip (a fixed number of
refinement steps), are not such loops.

Such a loop written out in Python has no loop primitive: each of its steps takes a row, or a
chunk of rows, of the dim at an index written in the program (``x[3]``, ``where(rows == 3,
...)``, ``jnp.take(x, arange(16) + 16 * k)``, ``.at[3].set``). ``Program.picks`` counts the
distinct places of the dim's axes so picked (``judge.worker.picks``); ``PLACES`` of them or more
are a loop over the dim written out and padded to a count; so are places at one unknown read
from the data plus such numbers (``x[i + zero]``, ``judge.worker.shifted``), two or more at one
unknown counted. A batched program picks none, or
one or two (``x[0]`` as a scan's first carry, the first row and the rest), whatever it does
along its other axes (a fixed number of heads or classes, ``jnp.split`` into parts).
Reads the judge's typed summary of a program only."""

from __future__ import annotations

from judge.rules.base import Breach, at_line, number
from judge.rules.loop_trips import OVER_A_DIM, trip_count


#: how many distinct places of a dim, picked at indices written in the program, are a loop over
#: it written out
PLACES = 3


def padded_breach(rule: dict, trace) -> Breach | None:
    """``unrolled_loop`` where a fixed loop of ``trace``'s program steps over ``rule['dim']``,
    as a loop primitive or written out."""
    program = trace.program
    dim = rule.get("dim")
    if program is None or dim is None:
        return None
    picked = getattr(program, "picks", {}).get(dim)
    if picked is not None and picked.places >= PLACES:
        return Breach("unrolled_loop",
                      f"{trace.label}: the program takes {number(picked.places)} different rows or "
                      f"chunks of {dim} at indices written in it (x[3], where(rows == 3, ...), a "
                      f"take of fixed indices{at_line(picked.line, '; most at line')})"
                      f": a loop over {dim} written "
                      f"out and padded to a fixed count; batch it with jax.vmap or array "
                      f"operations, or loop over {dim} itself (lax.map, lax.scan over the rows)")
    loops = program.loops
    for loop in loops:
        count = trip_count(loop.length)
        if dim not in loop.steps_over or count is None or count is OVER_A_DIM \
                or not _fixed_holders(loops, loop):
            continue
        return Breach("unrolled_loop",
                      f"{trace.label}: a {loop.primitive} of a fixed {number(count)} trips{at_line(loop)} takes one "
                      f"index of {dim} a trip by its counter: a loop over {dim} padded to a fixed "
                      f"count; batch it with jax.vmap or array operations, or loop over {dim} "
                      f"itself (lax.map, lax.scan over the rows)")
    return None


def _fixed_holders(loops, loop) -> bool:
    """Whether every loop holding ``loop`` runs a fixed count too (a fixed loop inside a loop
    over chunks of the dim walks one chunk, and the loop holding it grows with the dim)."""
    seen = 0
    while loop.within is not None and seen < len(loops):
        loop = loops[loop.within]
        count = trip_count(loop.length)
        if count is None or count is OVER_A_DIM:
            return False
        seen += 1
    return True
