"""warmup_cosine: ``optax``'s schedules written by hand and joined the way ``join_schedules``
does (the second schedule sees ``step - boundary``): a linear schedule from 0 to base_lr over the
warmup, a cosine decay clamped at its length, and zero after ``total_steps``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def linear_schedule(init_value, end_value, transition_steps):
    def schedule(count):
        if transition_steps <= 0:
            return jnp.asarray(end_value, jnp.float32)
        frac = jnp.clip(count / transition_steps, 0.0, 1.0)
        return init_value + frac * (end_value - init_value)
    return schedule


def cosine_decay_schedule(init_value, decay_steps):
    def schedule(count):
        count = jnp.minimum(count, decay_steps)
        return init_value * 0.5 * (1 + jnp.cos(jnp.pi * count / decay_steps))
    return schedule


def join_schedules(schedules, boundaries):
    def schedule(step):
        out = schedules[0](step)
        for s, boundary in zip(schedules[1:], boundaries):
            out = jnp.where(step < boundary, out, s(step - boundary))
        return out
    return schedule


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    sched = join_schedules(
        [linear_schedule(0.0, base_lr, warmup_steps),
         cosine_decay_schedule(base_lr, total_steps - warmup_steps)],
        [warmup_steps])
    s = step.astype(jnp.float32)
    return jnp.where(step > total_steps, 0.0, sched(s)).astype(jnp.float32)
