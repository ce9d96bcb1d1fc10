"""A reviewer in headless Chromium: log in, filter to the queue, open an answer, read the marked evidence, flag it
with a reason, write a correction, verify it; then the API serves the corrected answer, marked verified.

The browser fixtures are this module's own (small): a live server started after the settings allow plain HTTP,
and Debian's chromium driven through chromedriver.
"""

import json
import shutil
import urllib.request

import pytest

from tests.knowledge.conftest import SMALL_CORPUS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
QUESTION = "What is the VA rating for tinnitus?"
CORRECTION = "Tinnitus is rated 10% under DC 6260, whether you hear it in one ear or both [1]."
WAIT_SECONDS = 30


@pytest.fixture
def plain_http(settings):
    settings.SECURE_SSL_REDIRECT = False
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False


@pytest.fixture
def server(plain_http, transactional_db):
    """A live server of this test's own, started once the settings above are in force."""
    from pytest_django.live_server_helper import LiveServer

    live = LiveServer("localhost")
    live._live_server_modified_settings.enable()
    yield live
    live._live_server_modified_settings.disable()
    live.stop()


@pytest.fixture
def browser(tmp_path):
    if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--window-size=1280,1800",
                 f"--user-data-dir={tmp_path / 'chromium'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.implicitly_wait(WAIT_SECONDS)
    yield driver
    driver.quit()


@pytest.fixture
def queued_answer(tmp_path, settings, reviewer):
    """The small corpus and one answer in the reviewers' queue (it carries the low-confidence warning)."""
    from knowledge.services import corpus_ingest
    from verification.services import answer_question

    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL_CORPUS))
    corpus_ingest(paths=[path])
    settings.ANSWER_THRESHOLDS = {**settings.ANSWER_THRESHOLDS,
                                  "local": {**settings.ANSWER_THRESHOLDS["local"], "warning": 0.99}}
    reviewer.set_password("reviewer-pw-123456")
    reviewer.save()
    return answer_question(question=QUESTION)


def shows(browser, element_id: str, text: str) -> bool:
    """Wait until the page (after a submit, the next one) shows ``text`` in the element; False if it never does."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(browser, WAIT_SECONDS, ignored_exceptions=(
            StaleElementReferenceException, NoSuchElementException)).until(
            lambda driver: text in driver.find_element(By.ID, element_id).text)
    except TimeoutException:
        return False


def test_a_reviewer_flags_corrects_and_verifies_and_the_api_serves_the_correction(server, browser, queued_answer):
    from selenium.webdriver.common.by import By

    browser.get(f"{server.url}/admin/login/?next=/admin/knowledge/answeredquestion/")
    browser.find_element(By.ID, "id_username").send_keys("rita")
    browser.find_element(By.ID, "id_password").send_keys("reviewer-pw-123456")
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()

    browser.find_element(By.ID, "queue-link").click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, WAIT_SECONDS).until(lambda driver: "state=queue" in driver.current_url)
    browser.find_element(By.LINK_TEXT, QUESTION).click()
    assert shows(browser, "review-state", "In the queue")

    marked = [m.text for m in browser.find_elements(By.CSS_SELECTOR, "#evidence mark.used")]
    assert any("10%" in text for text in marked), marked

    browser.find_element(By.ID, "flag-reason").send_keys("The answer leads with the warning, not the rating.")
    browser.find_element(By.ID, "flag-button").click()
    assert shows(browser, "review-state", "Flagged")

    browser.find_element(By.ID, "correct-link").click()
    text = browser.find_element(By.ID, "id_text")
    text.clear()
    text.send_keys(CORRECTION)
    browser.find_element(By.ID, "id_reason").send_keys("Lead with the rating.")
    browser.find_element(By.ID, "save-correction").click()
    assert shows(browser, "review-state", "Corrected")

    browser.find_element(By.ID, "verify-reason").send_keys("Checked against 38 CFR 4.87.")
    browser.find_element(By.ID, "verify-button").click()
    assert shows(browser, "history", "verified: Checked against 38 CFR 4.87.")
    assert shows(browser, "review-state", "Corrected")

    request = urllib.request.Request(f"{server.url}/api/v1/answer/", data=json.dumps({"question": QUESTION}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
        served = json.loads(response.read())
    assert served["answer"] == CORRECTION and served["verified"] is True and served["flagged"] is False
    assert served["id"] == queued_answer.id and served["cache"] == "exact"
