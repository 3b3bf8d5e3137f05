"""The indexing operations the evaluator (``evaluate``) computes in NumPy, with XLA's CPU results
bit for bit where they answer (None where they decline, and JAX computes the operation):
``iota``, ``gather`` and ``scatter-add`` (``exact_ops.table`` holds them beside the others).

* ``iota`` of int32 or float32: the indices along one axis, each an integer that float32 holds
  exactly (an array computed here has at most 2**20 elements).
* ``gather`` only moves bits: each result element is an operand element (XLA copies a
  subnormal or a NaN as it is, and so does NumPy). A window's start is clamped into the
  operand as XLA clamps it (``CLIP`` and ``PROMISE_IN_BOUNDS``); a ``FILL_OR_DROP`` gather with
  a window out of bounds is declined (the fill is a value of JAX's making).
* ``scatter-add`` of float32 only where no operand element receives more than one update: each
  result is then the operand's element, or that element plus one update, rounded once, whatever
  order XLA adds in; with two or more updates to an element the order would matter, and it is
  declined. Of int32, any updates (sums wrap modulo 2**32 in any order), but repeated ones
  under a promise that none repeats (``unique_indices``), which XLA may keep as it likes. A
  window out of bounds is declined, but under ``CLIP``, whose indices JAX clamps before XLA
  sees them, as here. Only a scatter whose update is JAX's ``add`` of the two values.

The caller (``evaluate``) checks the float inputs for subnormals and NaN before and the results
after, as for every operation it computes. ``tests/test_evaluator_indexing.py`` compares each
with XLA.
"""

from __future__ import annotations

import math
import types

import numpy

#: NumPy's names as they were when the worker loaded this module, before any submission.
np = types.SimpleNamespace(**vars(numpy))

_I32, _F32 = np.dtype(np.int32), np.dtype(np.float32)
#: The modes JAX lowers to XLA's own clamping gather (and scatter); others are declined.
_MODES = frozenset({"CLIP", "PROMISE_IN_BOUNDS", "FILL_OR_DROP"})


def _mode(mode) -> str | None:
    name = getattr(mode, "name", None)
    module = getattr(type(mode), "__module__", "") or ""
    return name if name in _MODES and module.startswith("jax.") else None


def _ints(values) -> tuple:
    return tuple(int(v) for v in values)


def iota(dtype, shape, dimension, sharding=None):
    """XLA's ``iota``: 0, 1, 2, ... along ``dimension``, broadcast along the other axes."""
    dtype = np.dtype(dtype)
    if sharding is not None or dtype not in (_I32, _F32):
        return None
    shape, dimension = _ints(shape), int(dimension)
    if not 0 <= dimension < len(shape):
        return None
    line = np.arange(shape[dimension], dtype=np.int32).astype(dtype)
    expanded = [1] * len(shape)
    expanded[dimension] = shape[dimension]
    return np.broadcast_to(line.reshape(expanded), shape).copy()


def _placed(array, positions, rank):
    """``array`` (whose axes go, in order, to the ascending ``positions``) reshaped to ``rank``
    axes, of extent 1 elsewhere."""
    shape = [1] * rank
    for position, extent in zip(positions, array.shape):
        shape[position] = extent
    return array.reshape(shape)


def _along(extent, position, rank):
    """0 .. extent-1 along axis ``position`` of ``rank`` axes."""
    shape = [1] * rank
    shape[position] = extent
    return np.arange(extent, dtype=np.intp).reshape(shape)


def gather(operand, indices, dimension_numbers, slice_sizes, mode, fill_value=None):
    """XLA's ``gather`` with JAX's index vector the last axis of ``indices``."""
    name = _mode(mode)
    if name is None or indices.dtype != _I32 or indices.ndim < 1:
        return None
    dn = dimension_numbers
    offset_dims, collapsed = _ints(dn.offset_dims), _ints(dn.collapsed_slice_dims)
    start_map, operand_batch = _ints(dn.start_index_map), _ints(dn.operand_batching_dims)
    index_batch, sizes = _ints(dn.start_indices_batching_dims), _ints(slice_sizes)
    batch_shape = indices.shape[:-1]
    window = [d for d in range(operand.ndim) if d not in collapsed and d not in operand_batch]
    rank = len(batch_shape) + len(offset_dims)
    batch_positions = [p for p in range(rank) if p not in offset_dims]
    if len(sizes) != operand.ndim or indices.shape[-1] != len(start_map) or len(window) != len(offset_dims) \
            or len(batch_positions) != len(batch_shape) or list(offset_dims) != sorted(set(offset_dims)) \
            or any(not 0 <= p < rank for p in offset_dims) or len(operand_batch) != len(index_batch) \
            or len(set(start_map)) != len(start_map) or any(d in operand_batch for d in start_map) \
            or any(not 0 <= d < operand.ndim for d in (*start_map, *collapsed, *operand_batch)) \
            or any(not 0 <= d < len(batch_shape) for d in index_batch) \
            or any(sizes[d] != 1 for d in (*collapsed, *operand_batch)) \
            or any(not 0 <= s <= n for s, n in zip(sizes, operand.shape)):
        return None
    for d, i in zip(operand_batch, index_batch):
        if operand.shape[d] != batch_shape[i]:
            return None
    out_shape = [0] * rank
    for position, extent in zip(batch_positions, batch_shape):
        out_shape[position] = extent
    for position, d in zip(offset_dims, window):
        out_shape[position] = sizes[d]
    out_shape = tuple(out_shape)
    if math.prod(out_shape) == 0:
        return np.zeros(out_shape, operand.dtype)
    upper = np.array([operand.shape[d] - sizes[d] for d in start_map], dtype=np.int64)
    starts = indices.astype(np.int64)
    if name == "FILL_OR_DROP" and ((starts < 0) | (starts > upper)).any():
        return None  # a window filled with JAX's value
    starts = np.clip(starts, 0, upper)  # XLA's clamping: the whole window within the operand
    index = []
    for d in range(operand.ndim):
        at = np.zeros((1,) * rank, dtype=np.intp)
        if d in start_map:
            at = _placed(starts[..., start_map.index(d)].astype(np.intp), batch_positions, rank)
        elif d in operand_batch:
            at = _along(batch_shape[index_batch[operand_batch.index(d)]],
                        batch_positions[index_batch[operand_batch.index(d)]], rank)
        if d in window:
            at = at + _along(sizes[d], offset_dims[window.index(d)], rank)
        index.append(np.broadcast_to(at, out_shape))
    return operand[tuple(index)]


def _is_add(update_jaxpr, update_consts) -> bool:
    """Whether a scatter's update is JAX's ``add`` of the operand's value and the update's."""
    try:
        if update_consts or update_jaxpr is None or update_jaxpr.constvars or update_jaxpr.effects:
            return False
        eqns, invars, outvars = update_jaxpr.eqns, list(update_jaxpr.invars), list(update_jaxpr.outvars)
        if len(eqns) != 1 or len(invars) != 2 or invars[0] is invars[1]:
            return False
        eqn = eqns[0]
        return eqn.primitive.name == "add" and not eqn.params and not eqn.effects \
            and list(eqn.invars) == invars and len(outvars) == 1 and outvars[0] is eqn.outvars[0] \
            and all(type(v).__name__ == "Var" for v in (*invars, *outvars))
    except Exception:  # noqa: BLE001 - a program of another form: JAX's
        return False


def scatter_add(operand, indices, updates, dimension_numbers, mode, update_jaxpr=None, update_consts=(),
                unique_indices=False):
    """XLA's ``scatter`` with an ``add`` update, where the order of the adds cannot matter (the
    module's notes); JAX's index vector is the last axis of ``indices``. Indices promised
    unique (``unique_indices``) that are not are declined: XLA may then update as it likes."""
    name = _mode(mode)
    if name is None or indices.dtype != _I32 or indices.ndim < 1 or operand.dtype not in (_F32, _I32) \
            or updates.dtype != operand.dtype or not _is_add(update_jaxpr, update_consts):
        return None
    dn = dimension_numbers
    window_dims, inserted = _ints(dn.update_window_dims), _ints(dn.inserted_window_dims)
    to_operand, operand_batch = _ints(dn.scatter_dims_to_operand_dims), _ints(dn.operand_batching_dims)
    index_batch = _ints(dn.scatter_indices_batching_dims)
    batch_shape = indices.shape[:-1]
    scatter_dims = [d for d in range(updates.ndim) if d not in window_dims]
    window = [d for d in range(operand.ndim) if d not in inserted and d not in operand_batch]
    if indices.shape[-1] != len(to_operand) or len(window) != len(window_dims) \
            or list(window_dims) != sorted(set(window_dims)) or any(not 0 <= p < updates.ndim for p in window_dims) \
            or tuple(updates.shape[d] for d in scatter_dims) != batch_shape \
            or len(operand_batch) != len(index_batch) or len(set(to_operand)) != len(to_operand) \
            or any(d in operand_batch for d in to_operand) \
            or any(not 0 <= d < operand.ndim for d in (*to_operand, *inserted, *operand_batch)) \
            or any(not 0 <= d < len(batch_shape) for d in index_batch):
        return None
    sizes = [1] * operand.ndim
    for d, position in zip(window, window_dims):
        sizes[d] = updates.shape[position]
    if any(s > n for s, n in zip(sizes, operand.shape)):
        return None
    for d, i in zip(operand_batch, index_batch):
        if operand.shape[d] != batch_shape[i]:
            return None
    if updates.size == 0:
        return operand.copy()
    upper = np.array([operand.shape[d] - sizes[d] for d in to_operand], dtype=np.int64)
    starts = indices.astype(np.int64)
    if name == "CLIP":  # JAX clamps the indices before XLA scatters
        starts = np.clip(starts, 0, upper)
    elif ((starts < 0) | (starts > upper)).any():
        return None  # XLA drops the window: declined
    rank = updates.ndim
    index = []
    for d in range(operand.ndim):
        at = np.zeros((1,) * rank, dtype=np.intp)
        if d in to_operand:
            at = _placed(starts[..., to_operand.index(d)].astype(np.intp), scatter_dims, rank)
        elif d in operand_batch:
            i = index_batch[operand_batch.index(d)]
            at = _along(batch_shape[i], scatter_dims[i], rank)
        if d in window:
            at = at + _along(sizes[d], window_dims[window.index(d)], rank)
        index.append(np.broadcast_to(at, updates.shape))
    flat = np.ravel_multi_index(tuple(index), operand.shape).reshape(-1)
    out = operand.copy().reshape(-1)
    repeated = np.unique(flat).size != flat.size
    if repeated and (unique_indices or operand.dtype != _I32):
        return None  # two updates of one element: XLA's order would decide (or its promise)
    if repeated:
        np.add.at(out, flat, updates.reshape(-1))  # int32: wraps, in any order
    else:
        out[flat] = np.add(out[flat], updates.reshape(-1))
    return out.reshape(operand.shape)
