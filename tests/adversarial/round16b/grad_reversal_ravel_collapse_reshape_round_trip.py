"""grad_reversal: honest code that applies the layer to ``x`` flattened by ``lax.collapse`` (or
``ravel``), then reshapes the output back; the rule reads ``lam`` from a residual stored in a
tuple tree.

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

    def fwd(v):
        return v, (jnp.float32(lam), (v.shape[0],))

    def bwd(res, g):
        factor, _ = res
        return (-factor * g,)

    r.defvjp(fwd, bwd)

    def layer(v):
        flat = jax.lax.collapse(v, 0, v.ndim) if v.ndim > 1 else jnp.ravel(v)
        return r(flat).reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
