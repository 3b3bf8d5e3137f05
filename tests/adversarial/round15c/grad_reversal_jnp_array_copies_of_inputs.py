"""grad_reversal: defensive copies as a NumPy habit, ``jnp.array(x)`` and ``jnp.array(dy)`` before
use, ``y`` and ``dx`` from ``jax.vjp`` of the layer at the copy.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    x, dy = jnp.array(x), jnp.array(dy)

    @jax.custom_vjp
    def flip(v):
        return v

    def flip_fwd(v):
        return v, None

    def flip_bwd(_, g):
        return (-lam * g,)

    flip.defvjp(flip_fwd, flip_bwd)
    y, pull = jax.vjp(flip, x)
    return {"y": y, "dx": pull(dy)[0]}
