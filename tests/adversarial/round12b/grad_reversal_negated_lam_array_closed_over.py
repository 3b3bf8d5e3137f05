"""grad_reversal: the factor ``-lam`` made a float32 array outside the rule
(``coef = jnp.asarray(-lam, jnp.float32)``) and closed over by the backward rule, which
returns ``coef * g``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    coef = jnp.asarray(-lam, jnp.float32)

    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (coef * g,))
    y, back = jax.vjp(r, x)
    return {"y": y, "dx": back(dy)[0]}
