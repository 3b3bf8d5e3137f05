import jax


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    # starts the average at x[0] instead of at zeros
    _, rest = jax.lax.scan(step, x[0], x[1:])
    return jax.numpy.concatenate([x[:1], rest])
