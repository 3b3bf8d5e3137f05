"""grad_reversal: the training-loop habit of accumulating gradients: ``dx`` starts as
``jnp.zeros_like(x)`` and the pullback's result is added to it (one micro-batch here). Adding
zeros moves nothing: the cotangent still reaches ``dx`` only through the backward rule.

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

    r.defvjp(lambda x: (x, None), lambda _, g: (-lam * g,))
    accum = jnp.zeros_like(x)
    y, pullback = jax.vjp(r, x)
    (g,) = pullback(dy)
    accum = accum + g
    return {"y": y, "dx": accum}
