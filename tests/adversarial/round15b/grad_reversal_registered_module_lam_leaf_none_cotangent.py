"""grad_reversal: an equinox-like module: a dataclass registered as a pytree with lambda as an
array leaf, the ``custom_vjp`` taking ``(module, x)`` and its backward rule returning ``None`` for
the module and ``-lam * g`` for x; ``__call__`` applies it.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class GRL:
    lam: jax.Array

    def __call__(self, x):
        return _reverse(self, x)


@jax.custom_vjp
def _reverse(module, x):
    return x


def _fwd(module, x):
    return x, module.lam


def _bwd(lam, g):
    return None, -lam * g


_reverse.defvjp(_fwd, _bwd)


def grad_reverse(x, lam, dy):
    layer = GRL(jnp.float32(lam))
    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
