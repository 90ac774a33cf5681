"""Models of the problems app, one module per noun."""
from .problems import Problem, ProblemVersion
from .questions import QuestionAttempt, QuestionVariant

__all__ = ["Problem", "ProblemVersion", "QuestionVariant", "QuestionAttempt"]
