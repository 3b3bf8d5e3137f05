"""The judge's own errors: one base class, caught once by the CLI and printed as one line."""


class JudgeError(Exception):
    """A problem the user can fix (bad spec, missing file, bad option). Exit status 2."""


class SandboxError(JudgeError):
    """The requested sandbox cannot be used (exit status 2 from the CLI)."""


class WorkerImportError(JudgeError):
    """The workers' Python would not import the JAX and NumPy the judge found (exit status 2)."""


def field_path(steps) -> str:
    """``hidden[2].input.x`` for the steps ``["hidden", 2, "input", "x"]``; ``(top level)`` for
    none."""
    out = ""
    for step in steps:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "(top level)"


class SpecError(JudgeError):
    """A problem spec (or another YAML file of a problem package) that cannot be loaded.

    ``steps`` are the keys and list positions from the top of the file to the faulty value
    (``["hidden", 2, "input", "x"]``; ``[]`` for the top level; None when the error is about the
    whole file), ``line`` is its 1-based line where known, ``problem`` what is wrong. The text is
    ``<path>: <field> (line N): <problem>``, or ``<path>: <problem>`` without steps (a line then
    belongs in ``problem``, as in a YAML syntax error)."""

    def __init__(self, path, steps=None, line: int | None = None, problem: str = ""):
        self.path = str(path)
        self.steps = None if steps is None else tuple(steps)
        self.line, self.problem = line, problem
        super().__init__(f"{self.path}: {self.field}: {problem}" if self.field
                         else f"{self.path}: {problem}")

    @property
    def where(self) -> str | None:
        """The field as a path (``hidden[2].input.x``), or None."""
        return None if self.steps is None else field_path(self.steps)

    @property
    def field(self) -> str | None:
        """The field and its line as shown: ``hidden[2].input.x (line 40)``, or None."""
        if self.steps is None:
            return None
        return self.where + (f" (line {self.line})" if self.line else "")
