"""hvp_tanh: honest code with the closed form in a class with ``__call__``: for
``f(x) = sum(tanh(W x))`` the Hessian is ``W^T diag(-2 tanh(z) sech(z)^2) W`` with ``z = W x``,
so ``H v = W^T (-2 t (1 - t^2) * (W v))``; ``jax.numpy`` imported as ``np``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as np


class TanhLayerCurvature:
    def __init__(self, W):
        self.W = W

    def __call__(self, x, v):
        t = np.tanh(self.W @ x)
        curvature = -2.0 * t * (1.0 - t * t)
        return self.W.T @ (curvature * (self.W @ v))


def hvp(W, x, v):
    return TanhLayerCurvature(W)(x, v)
