"""The admin login resists password guessing (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one
account from one address, that account is paused for the cool-off, even with the right password; another
address or account is not blocked by it."""

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/?next=/admin/"
PASSWORD = "a-long-and-correct-password-1"


@pytest.fixture
def reviewer_account():
    return get_user_model().objects.create_user(username="rita", password=PASSWORD, is_staff=True)


def attempt(client, password: str, *, address: str = "203.0.113.7", username: str = "rita"):
    return client.post(LOGIN, {"username": username, "password": password, "next": "/admin/"},
                       REMOTE_ADDR=address, secure=True)


def test_wrong_passwords_lock_the_account_for_that_address(client, reviewer_account, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, "guess").status_code == 200  # the form again, with its error
    locked = attempt(client, "guess")
    assert locked.status_code == 429 and b"Sign-in paused" in locked.content
    # The right password does not get through while paused.
    again = attempt(client, PASSWORD)
    assert again.status_code == 429 and "_auth_user_id" not in client.session


def test_the_lock_is_per_account_and_address(client, reviewer_account, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "guess")
    elsewhere = attempt(client, PASSWORD, address="198.51.100.20")
    assert elsewhere.status_code == 302 and elsewhere["Location"] == "/admin/"


def test_a_good_login_before_the_limit_resets_the_count(client, reviewer_account, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt(client, "guess")
    assert attempt(client, PASSWORD).status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, "guess").status_code == 200
