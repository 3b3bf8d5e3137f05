"""grad_reversal: the honest layer differentiated at jnp.where(|x| > 1e30, x, 0): x is chosen
nowhere on any case, so the layer runs at zeros, a value that reads x (the pullback of an
identity does not depend on the point) but is not x moved.

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
    _, pull = jax.vjp(r, jnp.where(jnp.abs(x) > 1e30, x, 0.0))
    return {"y": x, "dx": pull(dy)[0]}
