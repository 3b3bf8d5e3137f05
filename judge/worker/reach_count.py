"""How many elements of the output a loop reaches, counted from the hits of the batched runs
``reach.measure`` makes (``reached``): which runs changed which output elements, which carries'
elements each step wrote, and what each step computed. Pure NumPy and SciPy: runs nothing."""

from __future__ import annotations

import numpy as np


def reached(found, sources: int, size: int, steps: int) -> int:
    """The elements of the output matched both ways (``reach.measure``) in one batched run's
    results: ``(hits, flags, seen, snap, t)`` over its rows, in the order the runs were laid out:
    the run without a NaN or a move, one per source, one per result, then four per step (its
    data all NaN; moved far up; moved far down; nothing moved, keeping the step's carries)."""
    return together([edges(found, sources, size, steps)])


def together(found: list) -> int:
    """The elements of the output matched both ways by several loops taken together: each
    ``(by_carry, by_result)`` of ``edges``, one per loop, its rows stacked on the others' (a
    source or result of one loop is never another's), so that no output element, source or
    result is used twice across them."""
    if not found:
        return 0
    return min(matching(np.concatenate([f[0] for f in found])),
               matching(np.concatenate([f[1] for f in found])))


def edges(found, sources: int, size: int, steps: int) -> tuple:
    """``(by_carry, by_result)``: the rows of the recurrent sources some step computes from its
    data, by the output elements they reach, and the rows of the loop's results those sources
    reach, by the output elements that show them (``reached``)."""
    hits, flags, seen, snap, _ = found
    hits, flags, seen, snap = np.asarray(hits), np.asarray(flags), np.asarray(seen), np.asarray(snap)
    hits, flags = hits & ~hits[:1], flags & ~flags[:1]
    nan_rows = 1 + sources + size
    up, down, kept = (nan_rows + steps * n for n in (1, 2, 3))
    # the steps whose data, moved far up or far down, change the output: a step that computes
    # nothing from its data shows none of it
    shows = hits[up:up + steps].any(axis=1) | hits[down:down + steps].any(axis=1)
    # the carries' elements some step computes from its data: NaN in its data reaches them, or
    # moving its data changes what it writes there (where a comparison of the data picks the
    # update, NaN takes the other side); a buffer's elements the loop only carries along are not
    base = snap[kept:kept + steps]
    moved = _differ(snap[up:up + steps], base) | _differ(snap[down:down + steps], base)
    written = seen[nan_rows:nan_rows + steps].any(axis=0) | moved.any(axis=0)
    updated = np.tile(written, steps) & np.repeat(shows, sources // steps)
    # the sources among them, and the loop's results they reach
    recurrent_results = flags[1:1 + sources][updated].any(axis=0)
    return hits[1:1 + sources][updated], hits[1 + sources:1 + sources + size][recurrent_results]


def _differ(a, b):
    """Where two arrays of values differ as values (``-0.0`` is ``0.0``, NaN is NaN)."""
    return ~((a == b) | (np.isnan(a) & np.isnan(b)))


def matching(hits) -> int:
    """The size of a largest matching in the bipartite graph whose edges are ``hits``
    (sources by output elements)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    if not hits.size or not hits.any():
        return 0
    matched = maximum_bipartite_matching(csr_matrix(hits.astype(np.int8)), perm_type="column")
    return int((matched >= 0).sum())
