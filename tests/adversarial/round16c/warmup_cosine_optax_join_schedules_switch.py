"""warmup_cosine: ported from ``optax.join_schedules``: a list of schedules and a list of
boundaries, the index of the current one ``jnp.sum(step >= jnp.array(boundaries))``, the
schedule run by ``jax.lax.switch`` on the step counted from its boundary.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def linear_schedule(init_value, end_value, transition_steps):
    def schedule(count):
        frac = jnp.clip(count / transition_steps, 0.0, 1.0)
        return init_value + frac * (end_value - init_value)
    return schedule


def cosine_decay_schedule(init_value, decay_steps):
    def schedule(count):
        frac = jnp.minimum(count / decay_steps, 1.0)
        return 0.5 * init_value * (1.0 + jnp.cos(jnp.pi * frac))
    return schedule


def join_schedules(schedules, boundaries):
    def schedule(step):
        index = jnp.sum(step >= jnp.array(boundaries, dtype=jnp.int32))
        starts = jnp.array([0] + list(boundaries), dtype=jnp.int32)
        local = (step - starts[index]).astype(jnp.float32)
        return jax.lax.switch(index, schedules, local)
    return schedule


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    if warmup_steps == 0:
        return cosine_decay_schedule(base_lr, total_steps)(step.astype(jnp.float32))
    fn = join_schedules([linear_schedule(0.0, base_lr, warmup_steps),
                         cosine_decay_schedule(base_lr, total_steps - warmup_steps)],
                        [warmup_steps])
    return jnp.asarray(fn(step), jnp.float32)
