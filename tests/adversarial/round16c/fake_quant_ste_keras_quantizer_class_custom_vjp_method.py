"""fake_quant_ste: a Keras-style quantizer object holding the scale and range, whose ``__call__``
builds a ``jax.custom_vjp`` function from its ``quantize``, ``forward`` and ``backward`` methods
(bound methods closed over in the rules); the gradient from ``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class FakeQuant:
    def __init__(self, scale, qmin, qmax):
        self.scale, self.qmin, self.qmax = scale, qmin, qmax

    def quantize(self, x):
        return self.scale * jnp.clip(jnp.round(x / self.scale), self.qmin, self.qmax)

    def forward(self, x):
        r = x / self.scale
        return self.quantize(x), (r >= self.qmin) & (r <= self.qmax)

    def backward(self, inside, g):
        return (jnp.where(inside, g, 0.0),)

    def __call__(self, x):
        fn = jax.custom_vjp(self.quantize)
        fn.defvjp(self.forward, self.backward)
        return fn(x)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, pullback = jax.vjp(FakeQuant(scale, qmin, qmax), x)
    return {"values": values, "grads": pullback(cotangent)[0]}
