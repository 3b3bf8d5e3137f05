"""grad_reversal: the layer takes lambda as a second array argument (as in libraries whose
layer carries a schedule); the backward rule returns ``(-lam * g, None)``, ``None`` for lambda;
``dx`` the pullback with respect to x alone (the pullback of a lambda closing over it).

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def reverse_gradient(x, lam):
    return x


def _fwd(x, lam):
    return x, lam


def _bwd(lam, g):
    return (-lam * g, None)


reverse_gradient.defvjp(_fwd, _bwd)


def grad_reverse(x, lam, dy):
    coef = jnp.asarray(lam, dtype=jnp.float32)
    y, pullback = jax.vjp(lambda v: reverse_gradient(v, coef), x)
    return {"y": y, "dx": pullback(dy)[0]}
