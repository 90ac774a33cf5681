"""Models of the problems app, one module per noun."""
from .problems import Problem, ProblemKind, ProblemVersion

__all__ = ["Problem", "ProblemKind", "ProblemVersion"]
