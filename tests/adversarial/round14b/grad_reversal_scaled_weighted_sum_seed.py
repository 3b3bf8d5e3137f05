"""grad_reversal: a cheat whose rule passes g through unchanged and whose ``jax.grad`` is taken of
``-lam`` times the weighted sum ``vdot(r(x), dy)``: -λ is applied outside the rule, in the seed of
the reverse pass.

Problem: grad_reversal
Expected: RJ
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(x):
        return x

    r.defvjp(lambda x: (x, ()), lambda _, g: (g,))
    dx = jax.grad(lambda x: -lam * jnp.vdot(r(x), dy))(x)
    return {"y": r(x), "dx": dx}
