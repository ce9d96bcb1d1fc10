"""Answers and corpus text as safe HTML: Markdown rendered without raw HTML, then cleaned by nh3 (ammonia),
keeping a few text tags, links only to whitelisted domains (rel="noopener noreferrer"), and the answer's
[n] markers turned into links to its numbered sources."""

from __future__ import annotations

import re
from collections.abc import Collection
from urllib.parse import urlsplit

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

ALLOWED_TAGS = {"p", "ul", "ol", "li", "strong", "em", "a", "code", "br", "sup"}
ALLOWED_ATTRIBUTES = {"a": {"href", "class", "aria-label"}, "sup": {"class"}, "ol": {"start"}}
CITE_LABEL = "Source {n}"

# CommonMark with raw HTML off: a model or a corpus can write emphasis and lists, never tags. Tables and
# headings are not answer syntax; headings render as emphasis-free paragraphs' text.
_markdown = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).disable(
    ["heading", "lheading", "html_block", "html_inline", "image", "table", "code_block", "fence"],
    ignoreInvalid=True,
)
_CITATION_RE = re.compile(r"\[(\d{1,2})\](?!\()")


def domain_allowed(url: str, domains: Collection[str]) -> bool:
    """Whether ``url`` is an https (or http) link to one of ``domains`` or a subdomain of one."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    return parts.scheme in ("https", "http") and any(host == d or host.endswith(f".{d}") for d in domains)


def markdown_render(text: str, *, domains: Collection[str], anchor_prefix: str = "",
                    citation_count: int = 0) -> SafeString:
    """Return ``text`` (Markdown) as sanitized HTML; [n] with 1 ≤ n ≤ citation_count links to #{prefix}{n}."""
    html = _markdown.render(text or "")
    if anchor_prefix and citation_count:
        html = _CITATION_RE.sub(lambda m: _citation_link(m, anchor_prefix, citation_count), html)

    def keep(tag: str, attribute: str, value: str) -> str | None:
        if tag == "a" and attribute == "href":
            if value.startswith("#"):
                return value if anchor_prefix and value.startswith(f"#{anchor_prefix}") else None
            return value if domain_allowed(value, domains) else None
        return value

    return mark_safe(nh3.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES, attribute_filter=keep,
                               link_rel="noopener noreferrer", url_schemes={"https", "http"}))


def _citation_link(match: re.Match[str], prefix: str, count: int) -> str:
    number = int(match.group(1))
    if not 1 <= number <= count:
        return match.group(0)
    label = CITE_LABEL.format(n=number)
    return f'<sup class="cite"><a href="#{prefix}{number}" aria-label="{label}">[{number}]</a></sup>'

