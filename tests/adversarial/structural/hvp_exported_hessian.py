"""hvp(W, x, v) as jax.hessian(f)(x) @ v, compiled apart with jax.export and called from the
traced program: the program holds one call_exported equation, and the Hessian inside it is
StableHLO, not a jaxpr the summary can walk.

Expected: RJ forbidden_construct                     (the gate on: jax.export is refused)
Expected with the gate off: RJ (any reason: the program calls code the judge cannot read)
"""

import jax
import jax.numpy as jnp


def _f(W, y):
    return jnp.sum(jnp.tanh(W @ y))


def _full(W, x, v):
    return jax.hessian(_f, 1)(W, x) @ v


def hvp(W, x, v):
    shapes = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in (W, x, v)]
    return jax.export.export(jax.jit(_full))(*shapes).call(W, x, v)
