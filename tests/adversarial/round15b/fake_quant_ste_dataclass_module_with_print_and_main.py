"""fake_quant_ste: a student's module: a frozen dataclass ``FakeQuant`` whose ``__call__``
applies a ``custom_vjp`` built from its fields, a ``print`` of the shapes at trace time, an
assert on the shapes, and an ``if __name__ == "__main__"`` block that tries it on an example.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class FakeQuant:
    scale: float
    qmin: int
    qmax: int

    def ratio(self, v):
        return v / self.scale

    def __call__(self, v):
        @jax.custom_vjp
        def f(v):
            return self.scale * jnp.clip(jnp.round(self.ratio(v)), self.qmin, self.qmax)

        def f_fwd(v):
            return f(v), self.ratio(v)

        def f_bwd(r, g):
            return (g * (r >= self.qmin) * (r <= self.qmax),)

        f.defvjp(f_fwd, f_bwd)
        return f(v)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    assert x.shape == cotangent.shape, (x.shape, cotangent.shape)
    print("fake_quant_ste on", x.shape, x.dtype)
    layer = FakeQuant(scale, qmin, qmax)
    values, vjp_fn = jax.vjp(layer, x)
    (grads,) = vjp_fn(cotangent)
    return {"values": values, "grads": grads.astype(jnp.float32)}


if __name__ == "__main__":
    out = fake_quant_ste(jnp.array([0.3, 1.25, -0.75, 2.6, -3.0]), 0.5, -4, 3, jnp.ones(5))
    print(out)
