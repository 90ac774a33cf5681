from tests.authoring.conftest import bank_problem, client_for, courses, fast_password_hasher, people, problem  # noqa: F401
