import pytest

from tests.verification.layers.sources import (
    CHUNKS,
    HIGHER_LEVEL_REVIEW,
    TINNITUS,
    WHITELIST,
)
from verification.layers.url_whitelist import url_allowed, urls_enforce


def enforce(answer: str, chunks=CHUNKS):
    return urls_enforce(answer=answer, whitelisted_domains=WHITELIST, chunks=chunks)


@pytest.mark.parametrize(
    "url",
    [
        "https://va.gov",
        "https://www.va.gov/disability/",
        "https://benefits.va.gov/compensation/",
        "http://www.va.gov:443/health-care/",
        "HTTPS://WWW.VA.GOV/",
        "www.va.gov/decision-reviews",
        "va.gov",
        "https://www.veteransbenefitskb.com/ears#6260",
        "https://www.ecfr.gov/current/title-38/chapter-I/part-4/section-4.87",
        "https://www.va.gov./trailing-dot",
    ],
)
def test_whitelisted_domains_and_their_subdomains_pass(url):
    assert url_allowed(url, whitelisted_domains=WHITELIST)


@pytest.mark.parametrize(
    "url",
    [
        "https://va.gov.evil.com/claim",
        "https://notva.gov/",
        "https://evil.example.com/x",
        "https://www.va.gov@evil.com/",
        "https://va.gov\\@evil.com/",
        "javascript:alert(1)",
        "ftp://www.va.gov/file",
        "data:text/html,hi",
        "https://127.0.0.1/admin",
        "#section",
        "https://[::1",
    ],
)
def test_other_urls_fail(url):
    assert not url_allowed(url, whitelisted_domains=WHITELIST)


def test_whitelisted_urls_are_left_alone():
    answer = (
        "Ask for a Higher-Level Review online at https://www.va.gov/decision-reviews/higher-level-review/ "
        "or see [benefits.va.gov](https://benefits.va.gov/compensation/) [2]."
    )

    result = enforce(answer)

    assert result.text == answer
    assert result.invalid_urls == ()
    assert result.to_dict() == {"invalid_urls": []}


def test_off_whitelist_url_is_replaced_by_the_cited_sources_url():
    result = enforce("Tinnitus is rated 10% under DC 6260, see https://evil.example.com/x [1].")

    assert result.text == "Tinnitus is rated 10% under DC 6260, see https://www.veteransbenefitskb.com/ears#6260 [1]."
    assert result.invalid_urls == ("https://evil.example.com/x",)


def test_off_whitelist_url_without_a_citation_is_removed():
    result = enforce("Tinnitus is rated 10% under DC 6260 (https://evil.example.com/x). Apply online [1].")

    assert "evil" not in result.text
    assert result.text == "Tinnitus is rated 10% under DC 6260. Apply online [1]."
    assert result.invalid_urls == ("https://evil.example.com/x",)


def test_lookalike_domains_are_removed():
    result = enforce("Apply at https://va.gov.evil.com/apply or https://notva.gov/apply right away.")

    assert "evil" not in result.text and "notva" not in result.text
    assert result.text == "Apply at or right away."
    assert result.invalid_urls == ("https://va.gov.evil.com/apply", "https://notva.gov/apply")


def test_markdown_link_keeps_its_text_or_gets_the_sources_url():
    uncited = enforce("You can [file a claim online](https://evil.example.com/claim) today.")
    cited = enforce("Fill out [VA Form 20-0996](https://forms-va.example.com/20-0996) [2].")

    assert uncited.text == "You can file a claim online today."
    assert cited.text == f"Fill out [VA Form 20-0996]({HIGHER_LEVEL_REVIEW.url}) [2]."
    assert uncited.invalid_urls == ("https://evil.example.com/claim",)
    assert cited.invalid_urls == ("https://forms-va.example.com/20-0996",)


def test_javascript_links_are_removed():
    result = enforce("Please [click here](javascript:alert(document.cookie)) to check your claim status.")

    assert result.text == "Please click here to check your claim status."
    assert result.invalid_urls == ("javascript:alert(document.cookie)",)


def test_bare_www_and_bare_hosts_with_a_path_count_as_links():
    result = enforce("Call the SSA or visit ssa.gov/apply or www.ssa-benefits.com/apply for SSDI. VA.gov has VA forms.")

    assert result.text == "Call the SSA or visit or for SSDI. VA.gov has VA forms."
    assert set(result.invalid_urls) == {"ssa.gov/apply", "www.ssa-benefits.com/apply"}


@pytest.mark.parametrize("answer", [
    "Sign in with your Login.gov or ID.me account to see your claim status [1].",
    "You can check it on VA.gov or call VA [1].",
    "Social Security (SSA.gov) handles SSDI.",
])
def test_plain_domain_names_are_words_not_links(answer):
    result = enforce(answer)

    assert result.text == answer and result.invalid_urls == ()


def test_angle_bracket_autolinks():
    result = enforce("Read <https://evil.example.com/tinnitus> and <https://www.va.gov/disability/> [1].")

    assert result.text == f"Read {TINNITUS.url} and <https://www.va.gov/disability/> [1]."


def test_url_punctuation_and_brackets():
    result = enforce("Visit https://www.va.gov/disability/. Or (https://en.wikipedia.org/wiki/Tinnitus_(disease)), ok?")

    assert result.text == "Visit https://www.va.gov/disability/."
    assert result.invalid_urls == ("https://en.wikipedia.org/wiki/Tinnitus_(disease)",)
    assert "wikipedia" not in result.text and "()" not in result.text


def test_a_sentence_left_empty_by_the_removal_goes_and_a_dangling_word_too():
    result = enforce(
        "Tinnitus is rated 10% [1]. See https://evil.example.com/x for details.\n"
        "File VA Form 20-0996 online at https://evil.example.com/apply."
    )

    assert result.text == "Tinnitus is rated 10% [1].\nFile VA Form 20-0996 online."


def test_replacement_skips_a_source_whose_own_url_is_off_whitelist():
    from dataclasses import replace

    odd = replace(TINNITUS, url="https://mirror.example.com/tinnitus")

    result = urls_enforce(answer="See https://evil.example.com/x [1].", whitelisted_domains=WHITELIST, chunks=[odd])

    assert "example.com" not in result.text
    assert result.invalid_urls == ("https://evil.example.com/x",)


def test_each_invalid_url_is_reported_once():
    result = enforce("A https://evil.example.com/x [1]. B https://evil.example.com/x [2].")

    assert result.invalid_urls == ("https://evil.example.com/x",)
    assert result.text == f"A {TINNITUS.url} [1]. B {HIGHER_LEVEL_REVIEW.url} [2]."


def test_email_addresses_are_not_links():
    answer = "Write to the office at help@example.com about your claim."

    assert enforce(answer).text == answer


def test_whitelist_is_the_callers():
    result = urls_enforce(
        answer="See https://www.ecfr.gov/current/title-38 for the rules.", whitelisted_domains=["va.gov"], chunks=[]
    )

    assert result.invalid_urls == ("https://www.ecfr.gov/current/title-38",)


def test_a_port_is_not_a_scheme():
    assert url_allowed("www.va.gov:8443/claims", whitelisted_domains=WHITELIST)
    assert not url_allowed("evil.example.com:8443/claims", whitelisted_domains=WHITELIST)
