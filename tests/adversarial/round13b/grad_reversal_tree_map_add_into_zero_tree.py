"""grad_reversal: gradients accumulated over a tree the way an optimizer loop does, with
``jax.tree_util.tree_map(jnp.add, zeros, grads)`` on a dict holding the input; the layer applied
to the dict's leaf.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(x):
        return x

    def fwd(x):
        return x, None

    def bwd(_, g):
        return (jnp.negative(g) * lam,)

    r.defvjp(fwd, bwd)
    params = {"features": x}
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    out, pullback = jax.vjp(lambda p: r(p["features"]), params)
    (grads,) = pullback(dy)
    total = jax.tree_util.tree_map(jnp.add, zeros, grads)
    return {"y": out, "dx": total["features"]}
