"""grad_reversal: a dataclass layer registered with ``jax.tree_util.register_dataclass``, λ a
static (meta) field; the ``custom_vjp`` function takes the layer as its first, non-
differentiable argument and reads λ from it in the backward rule.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import dataclasses
from functools import partial

import jax


@partial(jax.tree_util.register_dataclass, data_fields=[], meta_fields=["lam"])
@dataclasses.dataclass(frozen=True)
class Reversal:
    lam: float


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def apply(layer: Reversal, x):
    return x


def _fwd(layer, x):
    return x, None


def _bwd(layer, _, g):
    return (-layer.lam * g,)


apply.defvjp(_fwd, _bwd)


def grad_reverse(x, lam, dy):
    layer = Reversal(lam)
    y, vjp_fn = jax.vjp(partial(apply, layer), x)
    (dx,) = vjp_fn(dy)
    return {"y": y, "dx": dx}
