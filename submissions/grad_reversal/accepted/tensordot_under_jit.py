"""The weighted sum as jnp.tensordot over every axis, under jax.jit with lam static (a
nondiff argument of the rule); the reversal inside the custom_vjp rule."""
import functools
import jax
import jax.numpy as jnp


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def r(z, lam):
    return z


def fwd(z, lam):
    return z, None


def bwd(lam, _, g):
    return (-lam * g,)


r.defvjp(fwd, bwd)


@functools.partial(jax.jit, static_argnums=1)
def grad_reverse(x, lam, dy):
    dx = jax.grad(lambda z: jnp.tensordot(r(z, lam), dy, axes=z.ndim))(x)
    return {"y": r(x, lam), "dx": dx}
