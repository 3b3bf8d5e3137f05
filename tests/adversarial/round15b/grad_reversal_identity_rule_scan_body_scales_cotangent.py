"""grad_reversal: a cheat: an identity rule (the cotangent passed unchanged) run per row in a
``jax.lax.scan``, with -lambda applied in the scan's body outside the rule (``y`` made from
stopped values plus -lam times the rule's output minus its stopped value): the sign and lambda
are outside the backward rule.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def ident(row):
        return row

    ident.defvjp(lambda row: (row, None), lambda _, g: (g,))
    sg = jax.lax.stop_gradient

    def body(c, row):
        r = ident(row)
        return c, sg(r) + (-lam) * (r - sg(r))

    def layer(v):
        return jax.lax.scan(body, None, jnp.atleast_2d(v))[1].reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
