"""The chat page as veterans use it: in headless Chromium against the served app, with and without
JavaScript, by mouse and by keyboard alone."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from chat.presenters import THANKS_NOT_HELPFUL
from tests.browser.conftest import ADMIN_PASSWORD, ADMIN_USER, axe_violations, save_full_page

pytestmark = pytest.mark.browser

TINNITUS = "What is the VA rating for tinnitus?"
PTSD = "What is the VA rating for PTSD?"
PTSD_FOLLOW_UP = "and at 70 percent?"
UNKNOWN_TERM = "what does a qrd letter mean"
WAIT = 90  # seconds: a first answer loads the embedding model in a fresh worker on a busy machine


def wait(driver, seconds: float = WAIT) -> WebDriverWait:
    return WebDriverWait(driver, seconds)


def turns(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#conversation article.turn")


def ask(driver, question: str) -> object:
    """Type a question, press Ask, and return the new answer once it is on the page."""
    before = len(turns(driver))
    box = driver.find_element(By.ID, "question")
    box.clear()
    box.send_keys(question)
    driver.find_element(By.CSS_SELECTOR, "#ask-form button[type=submit]").click()
    wait(driver).until(lambda d: len(turns(d)) > before)
    return turns(driver)[-1]


def test_ask_and_read_a_cited_answer(server, browser, output_dir):
    browser.get(server.url + "/")
    assert "Veterans Crisis Line" in browser.find_element(By.CSS_SELECTOR, "aside.crisis").text
    assert "800-827-1000" in browser.find_element(By.TAG_NAME, "footer").text
    turn = ask(browser, TINNITUS)

    assert "10%" in turn.find_element(By.CSS_SELECTOR, ".answer-text").text
    sources = turn.find_elements(By.CSS_SELECTOR, "ol.sources a")
    assert sources and all(urlsplit(a.get_attribute("href")).hostname.endswith(("va.gov", "ecfr.gov")) for a in sources)
    assert all(a.get_attribute("rel") == "noopener noreferrer" for a in sources)
    marker = turn.find_element(By.CSS_SELECTOR, ".answer-text sup.cite a")
    assert browser.find_element(By.CSS_SELECTOR, marker.get_attribute("hash")).tag_name == "li"
    assert turn.find_element(By.CSS_SELECTOR, ".confidence").text
    # Focus moved to the new answer, so a screen reader reads it and the keyboard goes on from there.
    assert browser.switch_to.active_element == turn.find_element(By.CSS_SELECTOR, "h3.question")
    assert browser.find_element(By.ID, "question").get_attribute("value") == ""

    # 320 CSS px is WCAG's reflow width (1280 px at 400% zoom); 640 is 1280 px at 200% zoom.
    for width in (320, 390, 640, 1280):
        browser.set_window_size(width, 1000)
        viewport = browser.execute_script("return document.documentElement.clientWidth")
        scroll_width = browser.execute_script("return document.documentElement.scrollWidth")
        assert scroll_width <= viewport, f"the page scrolls sideways at {width} px"
        if width in (390, 1280):
            save_full_page(browser, output_dir / f"chat-answer-{width}.png")


def test_empty_page_and_answer_have_no_serious_accessibility_violations(server, browser, output_dir):
    browser.get(server.url + "/")
    assert axe_violations(browser) == []
    save_full_page(browser, output_dir / "chat-empty-1280.png")
    ask(browser, TINNITUS)
    assert axe_violations(browser) == []


def test_refusal_offers_suggestions_and_a_click_asks_one(server, browser):
    browser.get(server.url + "/")
    turn = ask(browser, UNKNOWN_TERM)
    buttons = turn.find_elements(By.CSS_SELECTOR, ".suggestions button")
    assert buttons, turn.text
    suggestion = buttons[0].text
    buttons[0].click()
    wait(browser).until(lambda d: len(turns(d)) == 2)
    assert turns(browser)[-1].find_element(By.CSS_SELECTOR, "h3.question").text.endswith(suggestion)


def test_follow_up_is_understood_from_the_conversation(server, browser):
    browser.get(server.url + "/")
    ask(browser, PTSD)
    turn = ask(browser, PTSD_FOLLOW_UP)
    understood = turn.find_element(By.CSS_SELECTOR, ".rewritten").text
    assert "PTSD" in understood and "70" in understood
    assert "9411" in turn.find_element(By.CSS_SELECTOR, ".answer-text").text  # answered about PTSD, not in general
    # A new conversation forgets it.
    browser.find_element(By.CSS_SELECTOR, ".new-conversation button").click()
    wait(browser).until(lambda d: not turns(d))


def test_not_helpful_with_a_reason_reaches_the_reviewers_queue(server, browser):
    browser.get(server.url + "/")
    question = "How long do I have to file a Higher-Level Review?"
    turn = ask(browser, question)
    turn.find_element(By.CSS_SELECTOR, ".feedback button[value='0']").click()
    wait(browser).until(ec.presence_of_element_located((By.CSS_SELECTOR, ".feedback input[name='reason']")))
    legend = browser.find_element(By.CSS_SELECTOR, ".feedback legend")
    assert "What was wrong" in legend.text
    wait(browser, 10).until(lambda d: d.switch_to.active_element == legend)
    browser.find_element(By.CSS_SELECTOR, ".feedback input[value='missing'] + label").click()
    browser.find_element(By.CSS_SELECTOR, ".feedback textarea").send_keys("It does not say the deadline. Call me at 555-123-4567")
    browser.find_element(By.CSS_SELECTOR, ".feedback button[type=submit]").click()
    wait(browser).until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, ".feedback .thanks"), THANKS_NOT_HELPFUL))

    browser.get(server.url + "/admin/login/?next=/admin/knowledge/answeredquestion/%3Fneeds_review__exact%3D1")
    browser.find_element(By.ID, "id_username").send_keys(ADMIN_USER)
    browser.find_element(By.ID, "id_password").send_keys(ADMIN_PASSWORD + Keys.ENTER)
    wait(browser).until(ec.presence_of_element_located((By.ID, "result_list")))
    assert question in browser.find_element(By.ID, "result_list").text

    browser.get(server.url + "/admin/chat/answerfeedback/")
    listing = browser.find_element(By.ID, "result_list").text
    assert "It does not say the deadline" in listing and "555-123-4567" not in listing


def test_the_whole_flow_by_keyboard_alone(server, browser):
    browser.get(server.url + "/")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)  # the skip link comes first
    active = browser.switch_to.active_element
    assert active.get_attribute("class") == "skip-link"
    assert active.value_of_css_property("outline-style") != "none"  # focus is visible
    active.send_keys(Keys.ENTER)
    box = browser.switch_to.active_element
    assert box.get_attribute("id") == "question"
    box.send_keys(TINNITUS)
    box.send_keys(Keys.TAB)
    ask_button = browser.switch_to.active_element
    assert ask_button.text == "Ask"
    ask_button.send_keys(Keys.ENTER)
    wait(browser).until(lambda d: len(turns(d)) == 1)
    heading = turns(browser)[0].find_element(By.CSS_SELECTOR, "h3.question")
    wait(browser, 10).until(lambda d: d.switch_to.active_element == heading)
    # Tab on through the answer's links to the feedback buttons and answer "yes".
    for _ in range(30):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        if browser.switch_to.active_element.text == "Yes":
            break
    assert browser.switch_to.active_element.text == "Yes"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait(browser).until(ec.presence_of_element_located((By.CSS_SELECTOR, ".feedback .thanks")))


def test_without_javascript_the_form_posts_and_the_page_shows_the_answer(server, browser_without_js, output_dir):
    browser = browser_without_js
    browser.get(server.url + "/")
    box = browser.find_element(By.ID, "question")
    box.send_keys(TINNITUS)
    browser.find_element(By.CSS_SELECTOR, "#ask-form button[type=submit]").click()
    wait(browser).until(lambda d: len(turns(d)) == 1)
    turn = turns(browser)[0]
    assert urlsplit(browser.current_url).fragment == turn.get_attribute("id")
    assert "10%" in turn.find_element(By.CSS_SELECTOR, ".answer-text").text
    turn.find_element(By.CSS_SELECTOR, ".feedback button[value='0']").click()
    wait(browser).until(ec.presence_of_element_located((By.CSS_SELECTOR, ".feedback input[name='reason']")))
    browser.find_element(By.CSS_SELECTOR, ".feedback input[value='unclear'] + label").click()
    browser.find_element(By.CSS_SELECTOR, ".feedback button[type=submit]").click()
    wait(browser).until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, ".feedback .thanks"), THANKS_NOT_HELPFUL))
    save_full_page(browser, output_dir / "chat-no-javascript-1280.png")


def test_first_load_is_small_and_makes_no_outside_request(server, browser):
    browser.get(server.url + "/")
    entries = browser.execute_script(
        "return [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]"
        ".map(e => ({name: e.name, size: e.transferSize}))"
    )
    assert all(urlsplit(e["name"]).netloc == urlsplit(server.url).netloc for e in entries), entries
    total = sum(e["size"] for e in entries)
    assert 0 < total <= 100 * 1024, entries


def test_page_sends_a_content_security_policy_without_inline_code(server, browser):
    import urllib.request

    with urllib.request.urlopen(server.url + "/") as response:
        policy = response.headers["Content-Security-Policy"]
        html = response.read().decode()
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert "<script>" not in html and " style=" not in html and "<style" not in html
    browser.get(server.url + "/")
    ask(browser, TINNITUS)
    errors = [e for e in browser.get_log("browser") if "Content Security Policy" in e["message"]]
    assert errors == []
