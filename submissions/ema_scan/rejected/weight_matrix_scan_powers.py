import jax
import jax.numpy as jnp


def ema(x, decay):
    # the decay powers come from a scan, but the answer is still a T x T matrix times x
    T = x.shape[0]
    _, powers = jax.lax.scan(lambda p, _: (p * decay, p), jnp.float32(1.0), None, length=T)
    W = jnp.tril(powers[jnp.abs(jnp.arange(T)[:, None] - jnp.arange(T)[None, :])])
    return (1 - decay) * (W @ x)
