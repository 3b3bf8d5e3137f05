"""grad_reversal: honest-looking code that pulls the layer back at ``x`` chosen entry by entry
against ``x`` reversed (``jnp.where(mask, x, flip(x))`` with a mask of constants that keeps every
entry of ``x``): every case of the select is ``x`` moved and the mask picks ``x`` throughout.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    keep = jnp.ones(x.shape, dtype=bool)
    y, pb = jax.vjp(lambda v: r(jnp.where(keep, v, jnp.flip(v))), x)
    return {"y": y, "dx": pb(dy)[0]}
