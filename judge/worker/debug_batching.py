"""A ``jax.debug.print`` or ``jax.debug.callback`` under a ``jax.vmap`` whose axis is a symbol,
worker side, while the judge traces with symbolic dims (``symbolic.scan_length_shim``).

JAX 0.10's batching rule for the debug callbacks unrolls the callback once per index of the
mapped axis (``for i in range(axis_size)``), which cannot run when that size is a symbol: an
honest ``jax.debug.print`` inside the function a student maps over the batch would read as a
dim read as a number. While the shim is in effect, such a callback is bound once with the whole
batch instead: what it prints is every example at once, the mapped axis where ``vmap`` put it.
A print's fields are formatted without their format specs there (``"{:.3f}"`` as ``"{}"``):
NumPy formats an array with no spec only. A concrete axis keeps JAX's own rule. The callback
stays an equation of the program, so the rules see it as they see any other
(``no_callbacks`` refuses ``jax.debug.callback``, not ``jax.debug.print``). Decides nothing;
every JAX internal it needs is named here.
"""

from __future__ import annotations

import contextlib


@contextlib.contextmanager
def whole_batch_callbacks():
    """The debug callbacks under a ``vmap`` of symbolic size bound once with the whole batch."""
    with _batching_replaced(_whole_batch):
        yield


@contextlib.contextmanager
def dropped_under_vmap():
    """The debug callbacks under any ``vmap`` dropped: for a program the judge runs batched over
    thousands of its own perturbations (``reach``), where one print per run would be printed
    and compiled thousands of times; the program's values are the same without them."""
    with _batching_replaced(lambda prim, original: _dropped):
        yield


def _dropped(axis_data, args, dims, **params):
    return [], []


def _whole_batch(prim, original):
    from jax._src import core

    def batched(axis_data, args, dims, **params):
        size = next((x.shape[d] for x, d in zip(args, dims) if d is not None), None)
        if size is None or core.is_constant_dim(size):
            return original(axis_data, args, dims, **params)
        if params.get("has_placeholders") and isinstance(params.get("fmt"), str):
            params = {**params, "fmt": _plain_fields(params["fmt"])}
        outs = prim.bind(*args, **params)
        return outs, [None] * len(outs)
    return batched


def _plain_fields(fmt):
    """A print's template with its fields' format specs left out (``"{:.3f}"`` read as ``"{}"``):
    bound with the whole batch, a field holds every example's value at once, an array, and
    NumPy formats an array with no spec only; JAX's own rule formats one example at a time,
    where the spec applies. The fields, their conversions and the literal text stay."""
    import string

    try:
        parts = list(string.Formatter().parse(fmt))
    except (ValueError, TypeError):
        return fmt  # JAX reports a template it cannot format, as without the judge
    out = []
    for literal, field, _spec, conversion in parts:
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is not None:
            out.append("{" + field + (f"!{conversion}" if conversion else "") + "}")
    return "".join(out)


@contextlib.contextmanager
def _batching_replaced(make):
    """JAX's batching rule of each debug callback primitive replaced by ``make(prim, original)``
    while in effect, and put back after."""
    try:
        from jax._src import debugging
        from jax._src.interpreters import batching
        table = batching.fancy_primitive_batchers
        prims = [p for p in (getattr(debugging, "debug_callback_p", None),
                             getattr(debugging, "debug_print_p", None)) if p in table]
        originals = {p: table[p] for p in prims}
    except Exception:  # noqa: BLE001 - another JAX: nothing to shim
        originals = {}
    if not originals:
        yield
        return

    for prim, original in originals.items():
        table[prim] = make(prim, original)
    try:
        yield
    finally:
        table.update(originals)
