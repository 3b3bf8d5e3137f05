"""Replaces numpy.maximum through an alias, so that the judge's own evaluation of the program
calls the submission's code on concrete values: a callback the traced program does not show.

The traced program is an identity straight-through rule (grads = cotangent, no mask) with two
no-op maxima against -inf: one on x, one on the gradient. Where the judge computes max in
NumPy, the replaced function sees x (and keeps it), then the gradient, and multiplies the
gradient by the clipping mask it computes from the concrete x.

The source gate lets it through: ``_numpy`` is a variable, and the gate cannot tell an
assignment to a module held in one from an assignment to the submission's own object.

Problem: fake_quant_ste
Expected: RJ instrument_tampered (the worker watches NumPy's attributes from before the import;
without that watch: AC under the NumPy evaluator, WA under JAX's, since the program XLA runs has
no mask)
"""
import jax
import jax.numpy as jnp
import numpy as np

_numpy = np
_original = np.maximum
_seen = []


def _maximum(a, b, *rest, **kwargs):
    out = _original(a, b, *rest, **kwargs)
    if np.ndim(b) == 0 and np.isneginf(b) and np.ndim(a) > 0 and _SETTINGS:
        if not _seen:
            _seen.append(np.array(a))
        else:
            scale, qmin, qmax = _SETTINGS[-1]
            u = _seen.pop() / np.float32(scale)
            out = np.where((u >= qmin) & (u <= qmax), out, np.float32(0)).astype(np.float32)
    return out


_numpy.maximum = _maximum
_SETTINGS = []


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    _SETTINGS.append((scale, qmin, qmax))
    _seen.clear()
    x = jnp.maximum(x, -jnp.inf)

    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        return quant(v), None

    def quant_bwd(_, g):
        return (g,)

    quant.defvjp(quant_fwd, quant_bwd)
    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": jnp.maximum(grads, -jnp.inf)}
