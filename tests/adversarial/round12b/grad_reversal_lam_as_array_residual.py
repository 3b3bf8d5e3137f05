"""grad_reversal: λ passed to the ``custom_vjp`` function as a second, traced argument (a
float32 array), kept as the residual, the rule returning ``(-lam * g, zeros_like(lam))``; the
pullback of ``dy`` by ``jax.vjp`` with respect to x only (λ closed over by a lambda).

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def grl(x, lam):
    return x


def grl_fwd(x, lam):
    return x, lam


def grl_bwd(lam, g):
    return -lam * g, jnp.zeros_like(lam)


grl.defvjp(grl_fwd, grl_bwd)


def grad_reverse(x, lam, dy):
    lam_arr = jnp.asarray(lam, dtype=jnp.float32)
    y, vjp = jax.vjp(lambda v: grl(v, lam_arr), x)
    return {"y": y, "dx": vjp(dy)[0]}
