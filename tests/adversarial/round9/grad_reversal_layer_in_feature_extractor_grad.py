"""grad_reversal: the layer used as in a domain-adversarial model: a function
``head(features) = vdot(grl(features), dy)`` differentiated by ``jax.grad`` (the weighted sum
the statement allows), the custom_vjp defined with ``@jax.custom_vjp`` inside a factory that
closes over lam.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def make_grl(lam):
    @jax.custom_vjp
    def grl(x):
        return x

    def fwd(x):
        return x, ()

    def bwd(_, g):
        return (-lam * g,)

    grl.defvjp(fwd, bwd)
    return grl


def grad_reverse(x, lam, dy):
    grl = make_grl(lam)
    head = lambda feats: jnp.vdot(grl(feats), dy)
    return {"y": grl(x), "dx": jax.grad(head)(x)}
