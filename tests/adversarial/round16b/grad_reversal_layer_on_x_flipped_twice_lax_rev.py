"""grad_reversal: honest code that applies the layer to ``x`` reversed twice, by ``jnp.flip`` and
then ``lax.rev`` over every axis (a helper for reversed sequences used in both directions).

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
    axes = tuple(range(x.ndim))
    point = jax.lax.rev(jnp.flip(x), axes)
    y, pb = jax.vjp(r, point)
    return {"y": y, "dx": pb(dy)[0]}
