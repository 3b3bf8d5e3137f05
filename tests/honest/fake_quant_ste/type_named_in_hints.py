"""Type hints that name type (dtype: type = jnp.float32)."""
from __future__ import annotations
from typing import Callable, Optional, Tuple, Union, Any
import jax
import jax.numpy as jnp

Array = jax.Array
QuantFn = Callable[[Array], Array]


def make_quant(scale: float, qmin: int, qmax: int, dtype: type = jnp.float32) -> QuantFn:
    @jax.custom_vjp
    def quant(v: Array) -> Array:
        return (scale * jnp.clip(jnp.round(v / scale), qmin, qmax)).astype(dtype)

    def fwd(v: Array) -> Tuple[Array, Array]:
        u = v / scale
        return quant(v), (u >= qmin) & (u <= qmax)

    def bwd(mask: Array, g: Array) -> Tuple[Array]:
        return (jnp.where(mask, g, 0.0),)

    quant.defvjp(fwd, bwd)
    return quant


def fake_quant_ste(x: Array, scale: float, qmin: int, qmax: int, cotangent: Array) -> dict[str, Array]:
    kind: type[float] = float
    q = make_quant(kind(scale), qmin, qmax)
    values, pullback = jax.vjp(q, x)
    (grads,) = pullback(cotangent)
    extra: Optional[Union[int, Any]] = None
    return {"values": values, "grads": grads}
