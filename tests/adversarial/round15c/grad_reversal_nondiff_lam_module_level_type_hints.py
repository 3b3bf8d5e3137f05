"""grad_reversal: ``from __future__ import annotations``, a module-level ``custom_vjp`` layer with
``lam`` as a ``nondiff_argnums`` argument, a backward rule that negates with ``jnp.negative``
of ``jnp.float32(lam) * g``, the pullback taken through ``jax.vjp`` of a lambda.

Problem: grad_reversal
Expected: AC
Cases: all
"""
from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def reverse_layer(x: jax.Array, lam: float) -> jax.Array:
    return x


def _fwd(x: jax.Array, lam: float) -> tuple[jax.Array, None]:
    return x, None


def _bwd(lam: float, _res: None, g: jax.Array) -> tuple[jax.Array]:
    return (jnp.negative(jnp.float32(lam) * g),)


reverse_layer.defvjp(_fwd, _bwd)


def grad_reverse(x: jax.Array, lam: float, dy: jax.Array) -> dict[str, jax.Array]:
    y, pull = jax.vjp(lambda a: reverse_layer(a, lam), x)
    (dx,) = pull(dy)
    return {"y": y, "dx": dx}
