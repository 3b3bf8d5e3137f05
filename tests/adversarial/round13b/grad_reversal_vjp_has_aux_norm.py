"""grad_reversal: ``jax.vjp`` with ``has_aux=True``, the function returning the layer's output
and the input's norm as auxiliary data (logged at trace time, not used); the rule's residual
λ as a float32 array.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(x):
        return x

    def fwd(x):
        return x, jnp.float32(lam)

    def bwd(lam_arr, g):
        return (-lam_arr * g,)

    r.defvjp(fwd, bwd)

    def with_norm(x):
        return r(x), jnp.linalg.norm(x)

    y, pullback, norm = jax.vjp(with_norm, x, has_aux=True)
    print("input norm traced as", norm.shape)
    (dx,) = pullback(dy)
    return {"y": y, "dx": dx}
