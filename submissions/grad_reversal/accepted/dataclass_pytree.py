"""A frozen dataclass holds lam; the input travels as a dict pytree through the custom_vjp
function, and the backward rule maps the reversal over the tree.

Expected verdict: accepted.
"""
from dataclasses import dataclass

import jax


@dataclass(frozen=True)
class Reversal:
    lam: float

    def build(self):
        @jax.custom_vjp
        def rev(tree):
            return tree

        def fwd(tree):
            return tree, None

        def bwd(_, g):
            return (jax.tree_util.tree_map(lambda t: -self.lam * t, g),)

        rev.defvjp(fwd, bwd)
        return rev


def grad_reverse(x, lam, dy):
    rev = Reversal(lam).build()
    out, pullback = jax.vjp(rev, {"features": x})
    (grads,) = pullback({"features": dy})
    return {"y": out["features"], "dx": grads["features"]}
