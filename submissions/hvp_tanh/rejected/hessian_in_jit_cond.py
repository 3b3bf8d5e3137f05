"""The Hessian hides in a jitted helper and in one branch of lax.cond whose predicate is always
false at run time; the other branch is an honest product. The traced program still holds the
d x d branch.

Expected verdict: rejected (an intermediate of d * d elements).
"""
import jax
import jax.numpy as jnp
from jax import lax


def _f(W, z):
    return jnp.sum(jnp.tanh(W @ z))


@jax.jit
def _via_hessian(W, x, v):
    return jax.hessian(_f, argnums=1)(W, x) @ v


@jax.jit
def _via_jvp(W, x, v):
    return jax.jvp(lambda z: jax.grad(_f, argnums=1)(W, z), (x,), (v,))[1]


def hvp(W, x, v):
    return lax.cond(jnp.sum(v) > jnp.inf, _via_hessian, _via_jvp, W, x, v)
