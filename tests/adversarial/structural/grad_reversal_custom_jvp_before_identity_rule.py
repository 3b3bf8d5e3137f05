"""grad_reversal: the reversal made by a custom_jvp (tangent -lam * t) before an identity
custom_vjp, which passes the reversed cotangent on unchanged.

Expected: RJ grads_not_from_backward (with the rule's plumbed option)
"""

import jax


@jax.custom_vjp
def identity(x):
    return x


identity.defvjp(lambda x: (x, None), lambda _, g: (g,))


def grad_reverse(x, lam, dy):
    @jax.custom_jvp
    def flip(v):
        return v

    @flip.defjvp
    def _(primals, tangents):
        return primals[0], -lam * tangents[0]

    y, pullback = jax.vjp(lambda v: identity(flip(v)), x)
    return {"y": y, "dx": pullback(dy)[0]}
