"""grad_reversal: ``make_reversal(lam)`` builds the ``custom_vjp`` layer at each call, and the
layer is wrapped in ``jax.named_call`` then ``jax.jit``; ``dx`` from ``jax.vjp``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax


def make_reversal(lam: float):
    @jax.custom_vjp
    def grl(x):
        return x

    def grl_fwd(x):
        return x, ()

    def grl_bwd(res, g):
        return (-lam * g,)

    grl.defvjp(grl_fwd, grl_bwd)
    return jax.jit(jax.named_call(grl, name="gradient_reversal"))


def grad_reverse(x, lam, dy):
    layer = make_reversal(lam)
    y, vjp_fn = jax.vjp(layer, x)
    (dx,) = vjp_fn(dy)
    return {"y": y, "dx": dx}
