"""grad_reversal: the reversal made by a stop_gradient construction before an identity
custom_vjp: z = x - (1 + lam) * (x - stop_gradient(x)) reverses and scales the gradient, then
the identity rule passes it on unchanged.

Expected: RJ grads_not_from_backward (with the rule's plumbed option)
"""

import jax


@jax.custom_vjp
def identity(x):
    return x


identity.defvjp(lambda x: (x, None), lambda _, g: (g,))


def grad_reverse(x, lam, dy):
    def f(v):
        z = jax.lax.stop_gradient(v) - lam * (v - jax.lax.stop_gradient(v))
        return identity(z)

    y, pullback = jax.vjp(f, x)
    return {"y": y, "dx": pullback(dy)[0]}
