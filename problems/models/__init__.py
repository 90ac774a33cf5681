"""Models of the problems app, one module per noun."""
from .problems import Problem, ProblemVersion

__all__ = ["Problem", "ProblemVersion"]
