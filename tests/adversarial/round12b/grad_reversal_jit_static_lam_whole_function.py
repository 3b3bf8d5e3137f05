"""grad_reversal: the whole function under ``jax.jit`` with ``static_argnames=("lam",)``, the
layer's λ a ``nondiff_argnums`` argument, dy cast ``astype(x.dtype)`` before the pullback.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import functools

import jax


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def grl(x, lam):
    return x


def grl_fwd(x, lam):
    return grl(x, lam), None


def grl_bwd(lam, res, g):
    del res
    return (g * -lam,)


grl.defvjp(grl_fwd, grl_bwd)


@functools.partial(jax.jit, static_argnames=("lam",))
def grad_reverse(x, lam, dy):
    y, vjp_fn = jax.vjp(lambda v: grl(v, lam), x)
    return {"y": y, "dx": vjp_fn(dy.astype(x.dtype))[0]}
