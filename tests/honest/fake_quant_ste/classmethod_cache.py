"""A class with a classmethod cache of quantizers and super().__init__."""
import jax
import jax.numpy as jnp


class Quant:
    _cache = {}

    @classmethod
    def get(cls, scale, qmin, qmax):
        key = (scale, qmin, qmax)
        if key not in cls._cache:
            cls._cache[key] = cls._build(scale, qmin, qmax)
        return cls._cache[key]

    @staticmethod
    def _build(scale, qmin, qmax):
        @jax.custom_vjp
        def f(v):
            return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

        def f_fwd(v):
            return f(v), v

        def f_bwd(v, g):
            r = v / scale
            return (g * ((r >= qmin) & (r <= qmax)),)

        f.defvjp(f_fwd, f_bwd)
        return f


class Base:
    def __init__(self, name):
        self.name = name


class Runner(Base):
    def __init__(self, scale, qmin, qmax):
        super().__init__("runner")
        self.fn = Quant.get(scale, qmin, qmax)

    def run(self, x, c):
        y, pb = jax.vjp(self.fn, x)
        return y, pb(c)[0]


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, grads = Runner(scale, qmin, qmax).run(x, cotangent)
    return {"values": values, "grads": grads}
