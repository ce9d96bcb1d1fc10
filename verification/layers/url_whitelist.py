"""Layer 3: every link in an answer points to a whitelisted domain, or it goes.

A URL off the whitelist is replaced by the URL of the source cited in the same sentence (the model most
likely meant that page), else removed; a markdown link keeps its text. A host name with a path
("ssa.gov/apply") or "www." ("www.example.com") counts as a link, because chat renderers auto-link it; a
plain domain name used as a word ("Login.gov", "sign in at VA.gov") is a name, left alone and not reported:
the chat pages link only whitelisted domains.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from urllib.parse import urlsplit

from verification.layers.citations import MIN_CLAIM_WORDS, content_words
from verification.layers.cleanup import (
    citations_used,
    removal_gap,
    sentences_split,
    text_tidy,
)
from verification.layers.types import SourceChunk, UrlCheck

# "[text](target)" and "[text](target "title")"; the target may be anything, even "javascript:".
_MARKDOWN_LINK_RE = re.compile(
    r"\[(?P<text>[^\]\n]*)\]\(\s*<?(?P<target>(?:[^()\s<>]|\([^()\s]*\))+)>?(?:\s+\"[^\"\n]*\")?\s*\)"
)
_ANGLE_LINK_RE = re.compile(r"<(?P<target>(?:https?://|www\.)[^>\s]+)>", re.IGNORECASE)
# Backslashes are kept in the URL: browsers read "https://va.gov\@evil.com" as a link to evil.com.
_URL_RE = re.compile(r"(?<![\w@/])(?:https?://|//|www\.)[^\s<>\"'`\[\]{}|^]+", re.IGNORECASE)
_BARE_HOST_RE = re.compile(
    r"(?<![\w@./:-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+"
    r"(?:com|org|net|gov|mil|edu|io|info)"
    r"(?![\w-])/[^\s<>\"'`\[\]{}|^]*",
    re.IGNORECASE,
)
# "javascript:", "mailto:", "https:"; not "va.gov:443", where the colon starts a port.
_SCHEME_RE = re.compile(r"[a-z][a-z0-9+.-]*:(?!\d)", re.IGNORECASE)
_TRAILING_PUNCTUATION = ".,;:!?*_'\""
_PLACEHOLDER_RE = re.compile("\x00(\\d+)\x00")
# Once its link is gone, "apply online at https://x.example." reads "apply online."
_DANGLING_WORD_RE = re.compile(r"[ \t]+(?:at|on|via|from|to|see|visit|here)(?=[ \t]*(?:[.!?,;:]|$))", re.IGNORECASE)



def _domain_allowed(host: str, domains: Collection[str]) -> bool:
    host = host.lower().rstrip(".")
    return any(host == domain or host.endswith("." + domain) for domain in domains)


def url_allowed(url: str, *, whitelisted_domains: Collection[str]) -> bool:
    """Return whether ``url`` is an http(s) (or scheme-less) link to a whitelisted domain or its subdomain."""
    domains = {domain.lower().strip().strip(".") for domain in whitelisted_domains if domain.strip()}
    candidate = url.strip()
    if candidate.startswith("//"):
        candidate = "https:" + candidate
    elif not _SCHEME_RE.match(candidate):
        candidate = "https://" + candidate
    try:
        parts = urlsplit(candidate)
        host = parts.hostname
    except ValueError:
        return False
    if parts.scheme.lower() not in {"http", "https"} or not host or "\\" in parts.netloc:
        return False
    return _domain_allowed(host, domains)


def _url_trim(url: str) -> str:
    """Drop sentence punctuation and an unbalanced closing bracket from the end of a matched URL."""
    while url:
        if url[-1] in _TRAILING_PUNCTUATION or (url[-1] == ")" and url.count(")") > url.count("(")):
            url = url[:-1]
        else:
            break
    return url


def _replacement_url(sentence: str, *, chunks_by_number: dict[int, SourceChunk], domains: Collection[str]) -> str:
    for number in citations_used(sentence):
        chunk = chunks_by_number.get(number)
        if chunk and chunk.url and url_allowed(chunk.url, whitelisted_domains=domains):
            return chunk.url
    return ""


def _sentence_enforce(
    sentence: str,
    *,
    before: str,
    domains: Collection[str],
    chunks_by_number: dict[int, SourceChunk],
    invalid: list[str],
) -> str:
    replacement = _replacement_url(sentence, chunks_by_number=chunks_by_number, domains=domains)
    protected: list[str] = []

    def _protect(text: str) -> str:
        protected.append(text)
        return f"\x00{len(protected) - 1}\x00"

    def _report(url: str) -> None:
        if url not in invalid:
            invalid.append(url)

    def _markdown(match: re.Match[str]) -> str:
        target = match.group("target")
        if url_allowed(target, whitelisted_domains=domains):
            return _protect(match.group())
        _report(target)
        if replacement:
            return _protect(f"[{match.group('text')}]({replacement})")
        return match.group("text")

    def _link(match: re.Match[str]) -> str:
        url = match.group("target") if "target" in match.groupdict() else _url_trim(match.group())
        rest = "" if "target" in match.groupdict() else match.group()[len(url) :]
        if not url:
            return match.group()
        if url_allowed(url, whitelisted_domains=domains):
            return _protect(match.group()[: len(match.group()) - len(rest)]) + rest
        _report(url)
        return (_protect(replacement) if replacement else "") + rest

    reported_before = len(invalid)
    original = sentence
    sentence = _MARKDOWN_LINK_RE.sub(_markdown, sentence)
    sentence = _ANGLE_LINK_RE.sub(_link, sentence)
    sentence = _URL_RE.sub(_link, sentence)
    sentence = _BARE_HOST_RE.sub(_link, sentence)
    if len(invalid) > reported_before and not replacement:
        body = text_tidy(_DANGLING_WORD_RE.sub("", sentence))
        # Left with too little to be a claim ("See for details."), the sentence goes.
        if len(content_words(body)) < MIN_CLAIM_WORDS and not citations_used(body) and "\x00" not in body:
            return removal_gap(before=before, sentence=original)
        sentence = body + original[len(original.rstrip()) :]
    return _PLACEHOLDER_RE.sub(lambda match: protected[int(match.group(1))], sentence)


def urls_enforce(
    *, answer: str, whitelisted_domains: Collection[str], chunks: Sequence[SourceChunk]
) -> UrlCheck:
    """Return the answer with every off-whitelist link replaced or removed, and the links reported.

    ``whitelisted_domains`` admits each domain and its subdomains: "va.gov" admits "benefits.va.gov" but
    neither "va.gov.evil.com" nor "notva.gov".
    """
    domains = {domain.lower().strip().strip(".") for domain in whitelisted_domains if domain.strip()}
    chunks_by_number = {chunk.number: chunk for chunk in chunks}
    invalid: list[str] = []
    text = ""
    for sentence in sentences_split(answer):
        text += _sentence_enforce(
            sentence, before=text, domains=domains, chunks_by_number=chunks_by_number, invalid=invalid
        )
    return UrlCheck(text=text_tidy(text) if invalid else text, invalid_urls=tuple(invalid))
