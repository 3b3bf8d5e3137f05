"""fake_quant_ste: honest code in a typed style: a ``typing.Protocol`` for quantizers, a class
with ``__call__`` holding the levels as plain attributes (no pytree registration), and
``jax.numpy`` imported as ``np``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from typing import Protocol

import jax
import jax.numpy as np


class Quantizer(Protocol):
    def __call__(self, v: jax.Array) -> jax.Array: ...


class UniformQuantizer:
    """A uniform quantizer on the grid ``scale * k`` for ``qmin <= k <= qmax``."""

    def __init__(self, scale: float, qmin: int, qmax: int) -> None:
        self.scale = scale
        self.qmin = qmin
        self.qmax = qmax
        self._fn = self._build()

    def _build(self):
        scale, qmin, qmax = self.scale, self.qmin, self.qmax

        @jax.custom_vjp
        def q(v):
            return scale * np.clip(np.round(v / scale), qmin, qmax)

        def fwd(v):
            return q(v), v / scale

        def bwd(r, g):
            return (g * ((r >= qmin) & (r <= qmax)).astype(g.dtype),)

        q.defvjp(fwd, bwd)
        return q

    def __call__(self, v: jax.Array) -> jax.Array:
        return self._fn(v)


def apply(quantizer: Quantizer, x, cotangent):
    values, pullback = jax.vjp(quantizer, x)
    return values, pullback(cotangent)[0]


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, grads = apply(UniformQuantizer(scale, qmin, qmax), x, cotangent)
    return {"values": values, "grads": grads}
