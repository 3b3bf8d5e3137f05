"""grad_reversal: a student's module: a ``GradientReversal`` class whose ``apply`` method holds
the ``custom_vjp`` (``nondiff_argnums`` for lambda), a module-level step jitted with
``static_argnames=("lam",)``, a docstring, a print of the shapes and a ``__main__`` block.

Problem: grad_reversal
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


class GradientReversal:
    """Identity forward, -lam times the gradient backward."""

    @staticmethod
    @partial(jax.custom_vjp, nondiff_argnums=(1,))
    def apply(x, lam):
        return x

    @staticmethod
    def _fwd(x, lam):
        return x, None

    @staticmethod
    def _bwd(lam, _, g):
        return (-lam * g,)


GradientReversal.apply.defvjp(GradientReversal._fwd, GradientReversal._bwd)


@partial(jax.jit, static_argnames=("lam",))
def _step(x, dy, lam):
    y, pb = jax.vjp(lambda v: GradientReversal.apply(v, lam), x)
    return y, pb(dy)[0]


def grad_reverse(x, lam, dy):
    print("grad_reverse:", x.shape)
    y, dx = _step(x, dy, lam=lam)
    return {"y": y, "dx": dx}


if __name__ == "__main__":
    print(grad_reverse(jnp.array([1.0, -2.0, 0.5]), 0.5, jnp.array([1.0, 1.0, -4.0])))
