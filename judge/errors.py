"""The judge's own errors: one base class, caught once by the CLI and printed as one line."""


class JudgeError(Exception):
    """A problem the user can fix (bad spec, missing file, bad option). Exit status 2."""


class SpecError(JudgeError):
    """A problem spec that cannot be loaded. The message names the file and the field."""

    def __init__(self, path, field: str | None, problem: str):
        self.path, self.field, self.problem = str(path), field, problem
        where = f"{self.path}: {field}" if field else self.path
        super().__init__(f"{where}: {problem}")
