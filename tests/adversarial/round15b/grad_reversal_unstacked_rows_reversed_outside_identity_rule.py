"""grad_reversal: a cheat beside ``grad_reversal_python_loop_over_unstacked_rows.py``: the rows
unstacked, an identity rule (the cotangent passed unchanged) applied to each, and -lambda
applied to each row's output before the rows are stacked back (a stopped value plus -lam times
the rule's output minus its stopped value): the reversal is outside the backward rule.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def ident(v):
        return v

    ident.defvjp(lambda v: (v, None), lambda _, g: (g,))
    sg = jax.lax.stop_gradient

    def reversed_row(row):
        out = ident(row)
        return sg(out) - lam * (out - sg(out))

    def layer(v):
        rows = jnp.unstack(jnp.atleast_2d(v))
        return jnp.stack([reversed_row(row) for row in rows]).reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
