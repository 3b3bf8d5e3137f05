import jax.numpy as jnp


def ema(x, decay):
    # m = W @ x with W[t, s] = (1 - decay) * decay^(t - s) for s <= t: a T x T matrix
    T = x.shape[0]
    t = jnp.arange(T)
    lag = t[:, None] - t[None, :]
    W = jnp.where(lag >= 0, (1 - decay) * decay ** jnp.maximum(lag, 0), 0.0)
    return (W @ x).astype(jnp.float32)
