import jax
import jax.numpy as jnp


def ema(x, decay):
    # a scan makes the kernel (1 - decay) decay^k, then each column is convolved with it:
    # a closed form of the recurrence, with no T x T matrix
    T = x.shape[0]
    _, kernel = jax.lax.scan(lambda p, _: (p * decay, (1 - decay) * p), jnp.float32(1.0), None, length=T)
    return jax.vmap(lambda col: jnp.convolve(col, kernel)[:T], in_axes=1, out_axes=1)(x)
