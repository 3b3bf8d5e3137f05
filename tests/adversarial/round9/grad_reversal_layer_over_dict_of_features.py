"""grad_reversal: the custom_vjp layer takes a dict of features (``{"h": x}``, as a model that
passes named activations would), its backward rule maps ``-lam * g`` over the dict's leaves with
``jax.tree.map``; the pullback by ``jax.vjp`` of a dict cotangent.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def grl(feats):
        return feats

    def fwd(feats):
        return feats, None

    def bwd(_, g):
        return (jax.tree.map(lambda t: -lam * t, g),)

    grl.defvjp(fwd, bwd)
    y, pullback = jax.vjp(grl, {"h": x})
    (dx,) = pullback({"h": dy})
    return {"y": y["h"], "dx": dx["h"]}
