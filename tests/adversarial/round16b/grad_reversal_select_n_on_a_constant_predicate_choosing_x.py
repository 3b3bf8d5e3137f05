"""grad_reversal: honest code that picks the layer's input with ``lax.select_n`` on a predicate
made of constants (an all-false array of x's shape: case 0, ``x``; case 1 would be the detached
zeros of an evaluation mode that is off).

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

EVAL_MODE = False


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))

    def layer(v):
        mode = jnp.full(v.shape, EVAL_MODE)
        return r(jax.lax.select_n(mode, v, jnp.zeros_like(v)))

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
