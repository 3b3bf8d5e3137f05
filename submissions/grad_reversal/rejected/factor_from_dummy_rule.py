"""The formula -lam * dy multiplied by the pullback of ones through a dummy custom_vjp whose
backward rule returns ones: whatever the judge does to backward rules reaches dx through that
factor, but dy reaches dx through the formula, around every rule.

Expected verdict: rejected (dx does not come from a backward rule).
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def dummy(v):
    return v


dummy.defvjp(lambda v: (v, None), lambda _, g: (jnp.ones_like(g),))


def grad_reverse(x, lam, dy):
    factor = jax.vjp(dummy, x)[1](jnp.ones_like(x))[0]
    return {"y": dummy(x), "dx": -lam * dy * factor}
