"""Answers and corpus text reach the page as safe HTML: no tag from a model or a corpus survives, links go only
to whitelisted domains, and [n] markers link to the numbered sources."""

from html.parser import HTMLParser

import pytest

from chat.presenters import CONFIDENCE_GOOD, CONFIDENCE_STRONG, CONFIDENCE_WEAK, confidence_note
from verification.rendering import ALLOWED_TAGS, domain_allowed, markdown_render

DOMAINS = ["va.gov", "ecfr.gov"]


class Elements(HTMLParser):
    """The tags and attributes a browser would build from the HTML (text that merely looks like HTML is text)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))


def render(text: str, count: int = 2) -> str:
    return str(markdown_render(text, domains=DOMAINS, anchor_prefix="t7-s", citation_count=count))


@pytest.mark.parametrize("attack", [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">click</a>',
    "[click](javascript:alert(1))",
    '<iframe src="https://evil.example"></iframe>',
    "<svg onload=alert(1)>",
    '<p style="position:fixed">x</p>',
])
def test_no_html_from_a_model_or_corpus_is_trusted(attack):
    elements = Elements(render(f"Tinnitus is rated 10% [1]. {attack}")).elements
    assert {tag for tag, _ in elements} <= ALLOWED_TAGS
    attributes = {(name, value) for _, attrs in elements for name, value in attrs.items()}
    assert not any(name.startswith("on") or name == "style" or "javascript" in (value or "")
                   for name, value in attributes)


def test_links_only_to_whitelisted_domains_with_noopener():
    html = render("See [the page](https://www.va.gov/disability/) and [this](https://evil.example/x).")
    assert '<a href="https://www.va.gov/disability/" rel="noopener noreferrer">the page</a>' in html
    assert "evil.example" not in html


def test_citation_markers_link_to_their_sources_and_only_those_that_exist():
    html = render("Rated 10% [1], see also [2] and [5].")
    assert '<a href="#t7-s1" aria-label="Source 1"' in html and '<a href="#t7-s2"' in html
    assert "[5]" in html and "#t7-s5" not in html


def test_lists_and_emphasis_render_but_table_and_heading_syntax_does_not():
    html = render("**Levels:**\n\n- 10% [1]\n- 30% [2]\n\n# Heading\n\n| a | b |\n|---|---|\n| 1 | 2 |")
    assert "<strong>Levels:</strong>" in html and html.count("<li>") == 2
    assert "<h1" not in html and "<table" not in html


@pytest.mark.parametrize(("url", "allowed"), [
    ("https://www.va.gov/x", True), ("https://ecfr.gov/y", True), ("https://va.gov.evil.com/", False),
    ("https://evilva.gov/", False), ("ftp://www.va.gov/", False), ("//www.va.gov/", False), ("not a url", False),
])
def test_domain_allowed(url, allowed):
    assert domain_allowed(url, DOMAINS) is allowed


@pytest.mark.parametrize(("confidence", "note"), [(0.9, CONFIDENCE_STRONG), (0.75, CONFIDENCE_STRONG),
                                                  (0.7, CONFIDENCE_GOOD), (0.63, CONFIDENCE_WEAK), (0.0, CONFIDENCE_WEAK)])
def test_confidence_is_said_in_plain_words(confidence, note):
    assert confidence_note(confidence) == note
