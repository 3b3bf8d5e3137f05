"""grad_reversal: the layer written for flat feature vectors; x is raveled and cast (a no-op
float32 cast) on the way in, the output reshaped back, and the cotangent raveled before the
pullback and dx reshaped after: only plumbing outside the rule.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _layer(lam):
    @jax.custom_vjp
    def r(flat):
        return flat

    r.defvjp(lambda flat: (flat, None), lambda _, g: (jnp.negative(g) * lam,))
    return r


def grad_reverse(x, lam, dy):
    r = _layer(lam)
    flat = jnp.ravel(x).astype(jnp.float32)
    y_flat, pull = jax.vjp(r, flat)
    (dflat,) = pull(jnp.ravel(dy))
    return {"y": y_flat.reshape(x.shape), "dx": dflat.reshape(x.shape)}
