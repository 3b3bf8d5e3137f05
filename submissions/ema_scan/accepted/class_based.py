from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class EMA:
    decay: float

    def update(self, m, row):
        m = self.decay * m + (1.0 - self.decay) * row
        return m, m

    def __call__(self, x):
        init = jnp.zeros(x.shape[1:], dtype=jnp.float32)
        _, history = jax.lax.scan(self.update, init, x)
        return history


def ema(x, decay):
    return EMA(decay)(x)
