"""grad_reversal: y comes from an honest layer applied to x, but at lam == 0 dx is what the rule
of a second, dummy custom_vjp returns: one applied to a constant, whose rule returns zeros. A
rule's output, but of a function the inputs never reach, so not the layer's pullback.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
Cases: all
"""

import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return v

    rev.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))

    @jax.custom_vjp
    def dummy(v):
        return v

    dummy.defvjp(lambda v: (v, None), lambda _, g: (jnp.zeros_like(g),))
    y, pull = jax.vjp(rev, x)
    dx = pull(dy)[0]
    if lam == 0:
        _, pull_dummy = jax.vjp(dummy, jnp.ones(x.shape, x.dtype))
        dx = pull_dummy(dy)[0]
    return {"y": y, "dx": dx}
