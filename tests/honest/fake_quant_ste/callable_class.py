"""A Quantizer class (with __init__ and __call__) holding scale and bounds, its custom_vjp built in __init__."""
import jax
import jax.numpy as jnp


class Quantizer:
    def __init__(self, scale, qmin, qmax):
        self.scale, self.qmin, self.qmax = scale, qmin, qmax
        self.op = jax.custom_vjp(self.forward)
        self.op.defvjp(self.fwd, self.bwd)

    def forward(self, v):
        return self.scale * jnp.clip(jnp.round(v / self.scale), self.qmin, self.qmax)

    def fwd(self, v):
        return self.forward(v), v

    def bwd(self, v, g):
        u = v / self.scale
        return (g * ((u >= self.qmin) & (u <= self.qmax)).astype(g.dtype),)

    def __call__(self, v):
        return self.op(v)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    quantizer = Quantizer(scale, qmin, qmax)
    values, pullback = jax.vjp(quantizer, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
