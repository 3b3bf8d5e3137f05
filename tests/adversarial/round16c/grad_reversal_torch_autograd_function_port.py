"""grad_reversal: ported from a PyTorch ``autograd.Function``: a class with static ``forward``
and ``backward`` (the saved ``ctx`` a dict holding ``lam``) and an ``apply`` that builds the
``custom_vjp`` function for the given ``lam``; ``dx`` from ``jax.vjp``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax


class GradReverse:
    @staticmethod
    def forward(ctx, x, lam):
        ctx["lam"] = lam
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return -ctx["lam"] * grad_output

    @classmethod
    def apply(cls, lam):
        ctx = {}

        @jax.custom_vjp
        def fn(x):
            return cls.forward(ctx, x, lam)

        def fwd(x):
            return fn(x), None

        def bwd(_, g):
            return (cls.backward(ctx, g),)

        fn.defvjp(fwd, bwd)
        return fn


def grad_reverse(x, lam, dy):
    layer = GradReverse.apply(lam)
    y, pullback = jax.vjp(layer, x)
    (dx,) = pullback(dy)
    return {"y": y, "dx": dx}
