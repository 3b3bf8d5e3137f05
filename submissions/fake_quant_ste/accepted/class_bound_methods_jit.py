import jax
import jax.numpy as jnp


class FakeQuant:
    def __init__(self, scale, qmin, qmax):
        self.scale, self.qmin, self.qmax = scale, qmin, qmax
        self.fn = jax.custom_vjp(self._forward)
        self.fn.defvjp(self._fwd, self._bwd)

    def _forward(self, x):
        return jnp.clip(jnp.round(x / self.scale), self.qmin, self.qmax) * self.scale

    def _fwd(self, x):
        return self._forward(x), (x,)

    def _bwd(self, res, g):
        (x,) = res
        r = x / self.scale
        return (jnp.where((r < self.qmin) | (r > self.qmax), jnp.zeros_like(g), g),)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    fq = FakeQuant(scale, qmin, qmax)
    values, vjp_fn = jax.vjp(jax.jit(fq.fn), x)
    (grads,) = vjp_fn(cotangent)
    return {"values": values, "grads": grads}
