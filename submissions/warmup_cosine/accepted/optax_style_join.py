"""Two schedules written like optax's and joined at a boundary: a linear schedule from 0 to
base_lr, then a cosine decay schedule that sees the step counted from the boundary.

Expected verdict: accepted.
"""
import jax.numpy as jnp


def linear_schedule(init_value, end_value, transition_steps):
    def schedule(count):
        if transition_steps <= 0:
            return jnp.full((), end_value, jnp.float32)
        count = jnp.clip(count, 0, transition_steps)
        frac = 1.0 - count / transition_steps
        return (init_value - end_value) * frac + end_value
    return schedule


def cosine_decay_schedule(init_value, decay_steps):
    def schedule(count):
        count = jnp.minimum(count, decay_steps)
        return init_value * (0.5 * (1.0 + jnp.cos(jnp.pi * count / decay_steps)))
    return schedule


def join_schedules(schedules, boundaries):
    def schedule(step):
        output = schedules[0](step)
        for boundary, fn in zip(boundaries, schedules[1:]):
            output = jnp.where(step < boundary, output, fn(step - boundary))
        return output
    return schedule


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    schedule = join_schedules(
        [linear_schedule(0.0, base_lr, warmup_steps),
         cosine_decay_schedule(base_lr, total_steps - warmup_steps)],
        [warmup_steps])
    return jnp.asarray(schedule(step), jnp.float32)
