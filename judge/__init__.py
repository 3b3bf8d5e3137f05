"""An online judge for JAX programming problems.

Data flows one way: problem spec (``spec``) -> cases -> worker subprocess (``runner`` on the judge
side, ``worker`` beside the submission) -> plain-data results -> comparisons (``checks``) and
rules (``rules``) -> verdicts (``verdicts``, ``grading``) -> reports (``reports``).
"""

__version__ = "0.1.0"
