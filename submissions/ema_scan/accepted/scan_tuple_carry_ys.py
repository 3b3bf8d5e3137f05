import jax


def ema(x, decay):
    def step(m, xt):
        m = decay * m + (1 - decay) * xt
        return m, m
    _, ms = jax.lax.scan(step, jax.numpy.zeros_like(x[0]), x)
    return ms
