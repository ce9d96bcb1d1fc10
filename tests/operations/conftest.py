from tests.review.conftest import reviewer, second_reviewer  # noqa: F401  (the reviewers' fixtures)
