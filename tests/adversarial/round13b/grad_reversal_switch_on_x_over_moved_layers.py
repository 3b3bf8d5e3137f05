"""grad_reversal: the layer applied under a ``lax.switch`` whose index reads x (the sign of its
first entry, cast), each branch applying the same rule to x moved differently (as it is,
flattened and reshaped, plus a literal zero): only moves outside the rule in every branch.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    index = (jnp.sign(x.reshape(-1)[0]) + 1).astype(jnp.int32)
    branches = [r, lambda v: r(v.reshape(-1)).reshape(v.shape), lambda v: r(v + 0.0)]
    y, pullback = jax.vjp(lambda v: lax.switch(index, branches, v), x)
    return {"y": y, "dx": pullback(dy)[0]}
