"""grad_reversal: ``jax.jacrev`` of the layer (its rule pulls back each basis vector, giving
-lam I), then dx = dy contracted with that Jacobian: the rule runs, but dy itself reaches dx
through a product outside it, which the statement refuses.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(a):
        return a

    r.defvjp(lambda a: (a, None), lambda _, g: (-lam * g,))
    flat = x.reshape(-1)
    jac = jax.jacrev(r)(flat)
    dx = (dy.reshape(-1) @ jac).reshape(x.shape)
    return {"y": r(x), "dx": dx}
