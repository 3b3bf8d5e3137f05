"""spectral_norm: only u is carried through a ``fori_loop`` of K - 1 trips (its body a
``jax.tree_util.Partial`` closing over W), and the last step is written out after it (v from
u, then u from v), so the last v is at hand for sigma.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.tree_util import Partial


def _unit(a):
    return a / jnp.sqrt(jnp.sum(a * a))


def _u_step(W, i, u):
    return _unit(W @ _unit(W.T @ u))


def spectral_norm(W, u0, K):
    Wd = jax.lax.stop_gradient(W)
    u = jax.lax.fori_loop(0, K - 1, Partial(_u_step, Wd), u0)
    v = _unit(Wd.T @ u)
    u = _unit(Wd @ v)
    return jnp.dot(u, W @ v)
