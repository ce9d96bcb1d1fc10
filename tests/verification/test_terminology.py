import dataclasses
import threading

import pytest

from verification import terminology
from verification.terminology import (
    GLOSSARY_CACHE_MAXSIZE,
    GLOSSARY_CACHE_TTL_SECONDS,
    MAX_SUGGESTIONS,
    STATUS_AMBIGUOUS,
    STATUS_FOUND,
    STATUS_NOT_FOUND,
    TermMatch,
    TtlLruCache,
    definition_passage_find,
    definition_sentence_find,
    definitional_term_extract,
    glossary_cache,
    glossary_index_build,
    term_candidates,
    term_context,
    term_key,
    term_lookup_cached,
    term_match,
)

GLOSSARY = {
    "nexus letter": ["nexus opinion", "medical nexus letter"],
    "tdiu": ["total disability individual unemployability", "individual unemployability", "iu"],
    "permanent and total": ["p&t", "p and t", "permanent and total disability"],
    "buddy statement": ["lay statement", "statement in support of claim"],
    "service connection": ["service-connected", "service connected"],
    "special monthly compensation": ["smc"],
    "bilateral factor": [],
    "aggravation": ["aggravated condition"],
    "c&p exam": ["compensation and pension exam", "c and p exam"],
    "dependency and indemnity compensation": ["dic"],
    "presumptive condition": ["presumptive"],
    "sc": [],
    "supplemental claim": ["sc"],
    "secondary condition": ["sc"],
    "higher-level review": ["hlr"],
    "veterans' preference": [],
}

DEFINITIONAL = [
    ("What is a nexus letter?", "nexus letter"),
    ("what's TDIU", "tdiu"),
    ("What's TDIU?", "tdiu"),
    ("whats tdiu", "tdiu"),
    ("What does P&T mean?", "p&t"),
    ("What does the acronym SMC stand for?", "smc"),
    ("what's P&T mean", "p&t"),
    ("define service connection", "service connection"),
    ("Define: service connection.", "service connection"),
    ("meaning of SMC", "smc"),
    ("SMC meaning?", "smc"),
    ("what is meant by 'aggravation'?", "aggravation"),
    ("What is meant by \u201caggravation\u201d?", "aggravation"),
    ("what are buddy statements", "buddy statements"),
    ("explain the bilateral factor", "bilateral factor"),
    ("Can you explain what a nexus letter is?", "nexus letter"),
    ("Please tell me what TDIU means", "tdiu"),
    ("What is the PACT Act?", "pact act"),
    ("What is an intent to file?", "intent to file"),
    ("What is the definition of service connection?", "service connection"),
    ("What is the meaning of SMC?", "smc"),
    ("What does SC mean in VA terms?", "sc"),
    ("What does P&T mean on a VA decision letter?", "p&t"),
    # Where the term was seen is context; a trailing "status" names the kind of term.
    ("What does P&T mean on my rating letter?", "p&t"),
    ("what does VBX status mean on my claim", "vbx"),
    ("What does pending mean on my claim status page?", "pending"),
    # Earlier sentences say where the term was seen; the last one asks what it means.
    ("My decision letter says P&T. What does P&T mean?", "p&t"),
    ("my tracker shows a QRD flag next to one condition. what does QRD stand for??", "qrd"),
    ("What is a C&P exam?", "c&p exam"),
    ("What is Chapter 35?", "chapter 35"),
    ("What is the Post-9/11 GI Bill?", "post-9/11 gi bill"),
    ("Hi, what is a fully developed claim?", "fully developed claim"),
    ("what is a higher-level review", "higher-level review"),
    ("What is DIC?", "dic"),
    ("What are presumptive conditions?", "presumptive conditions"),
    ("what is the term nexus", "nexus"),
    ("  WHAT   IS   A   BUDDY STATEMENT  ??", "buddy statement"),
    ("Describe a claim for increase", "claim for increase"),
    ("What is Section 107 (Location-Based Housing Allowance)?", "section 107"),
    ("What\u2019s \u201cDuty to Assist\u201d?", "duty to assist"),
    ("What\u2019s a penalty period?", "penalty period"),
]

NOT_DEFINITIONAL = [
    "what is the buddy statement form number",  # the form asked for, not the term
    "What is the rating for tinnitus?",
    "What is the deadline to appeal?",
    "What is my effective date if I file now?",
    "What is my effective date?",
    "How much is a 70% rating?",
    "How long does a supplemental claim take?",
    "What is 70% PTSD rating pay?",
    "What is the income limit for pension?",
    "What are the presumptive conditions under the PACT Act?",
    "What is the difference between a HLR and a supplemental claim?",
    "What is the status of my claim?",
    "What is the best way to win an appeal?",
    "What is the VA phone number?",
    "What is the next step after a C&P exam?",
    "What is a nexus letter and how do I get one?",
    "explain how TDIU works",
    "explain my rating decision",
    "What is the rate for a veteran with a spouse?",
    "I have tinnitus in both ears. What is the rating?",
    "I got a letter from VA. What does it mean?",
    "My rating went up. What is my effective date?",
    "what's the VA math for 50 and 30",
    "What is DC 6260?",
    "What is VA Form 21-526EZ?",
    "What is 38 CFR 3.310?",
    "What is the criteria for 70% PTSD?",
    "What is the current COLA?",
    "What is the process for filing a claim?",
    "What does it mean?",
    "What does that mean for my claim?",
    "What does SC mean for my back pay?",
    "What does service connection mean when I have two conditions?",
    "Can I get TDIU?",
    "TDIU?",
    "nexus letter",
    "How do I get a nexus letter?",
    "What is the funding fee for a second use?",
    "What's included in a rehabilitation plan?",
    "What\u2019s covered under VEAP education benefits?",
    "What was in the drinking water at Camp Lejeune?",
    "What's new with the PACT Act?",
    "What's going on with my appeal?",
    "whats the point of a 0 percent rating",
    "What's the purpose of an intent to file?",
    "what's the catch with a VA loan",
    "What is VA Form 21-0781?",
    "What is a 70% rating?",
    "What is the PTSD rating at 70 percent?",
    "what is the knee rating at 10 percent",
    "What is $171?",
    "What is \u00a7 3.310?",
    "What should I bring to my C&P exam?",
    "What is the maximum amount of time I have to appeal a rating decision made by the regional office?",
    "whats the max coverage for VGLI",
    "What is the minimum rating for VA health care?",
    "what's the highest premium",
    "whats the full rating chart for back problems",
    "",
    "?",
]


@pytest.mark.parametrize(("question", "term"), DEFINITIONAL)
def test_definitional_questions_give_the_term(question, term):
    assert definitional_term_extract(question=question) == term


@pytest.mark.parametrize("question", NOT_DEFINITIONAL)
def test_fact_questions_are_not_definitional(question):
    assert definitional_term_extract(question=question) is None


@pytest.mark.parametrize(
    ("term", "canonical"),
    [
        ("nexus letter", "nexus letter"),
        ("Nexus Letter", "nexus letter"),
        ("nexus letters", "nexus letter"),
        ("a nexus letter", "nexus letter"),
        ("medical nexus letter", "nexus letter"),
        ("tdiu", "tdiu"),
        ("TDIU", "tdiu"),
        ("individual unemployability", "tdiu"),
        ("p&t", "permanent and total"),
        ("P&T", "permanent and total"),
        ("P and T", "permanent and total"),
        ("p & t", "permanent and total"),
        ("P.T.", "permanent and total"),
        ("buddy statements", "buddy statement"),
        ("Buddy Statement", "buddy statement"),
        ("lay statements", "buddy statement"),
        ("service-connected", "service connection"),
        ("Service Connected", "service connection"),
        ("smc", "special monthly compensation"),
        ("SMC", "special monthly compensation"),
        ("bilateral factor", "bilateral factor"),
        ("aggravation", "aggravation"),
        ("c&p exam", "c&p exam"),
        ("C and P exam", "c&p exam"),
        ("C&P exams", "c&p exam"),
        ("dic", "dependency and indemnity compensation"),
        ("presumptive conditions", "presumptive condition"),
        ("higher level review", "higher-level review"),
        ("HLR", "higher-level review"),
        ("veterans preference", "veterans' preference"),
        ("veteran's preference", "veterans' preference"),
        # The canonical name outranks an alias of other terms.
        ("SC", "sc"),
    ],
)
def test_term_match_finds_the_canonical_term(term, canonical):
    assert term_match(term=term, glossary=GLOSSARY) == TermMatch(status=STATUS_FOUND, terms=(canonical,))


def test_several_terms_matching_equally_are_ambiguous():
    glossary = {"supplemental claim": ["sc"], "secondary condition": ["sc"], "service connection": ["sc"]}
    result = term_match(term="SC", glossary=glossary)
    assert result.status == STATUS_AMBIGUOUS
    assert result.terms == ("secondary condition", "service connection", "supplemental claim")
    assert result.suggestions == ()


def test_one_concept_entered_twice_is_not_ambiguous():
    # The fuller entry lists the shorter one's name among its spellings: a key both share names it alone.
    glossary = {
        "tdiu": ["iu", "individual unemployability"],
        "total disability based on individual unemployability (tdiu)": ["tdiu", "iu", "individual unemployability"],
        "permanent and total": ["p&t"],
        "permanent and total (p&t) disability": ["p&t", "permanent and total"],
    }
    fuller = "total disability based on individual unemployability (tdiu)"
    assert term_match(term="IU", glossary=glossary) == TermMatch(status=STATUS_FOUND, terms=(fuller,))
    assert term_match(term="P&T", glossary=glossary).terms == ("permanent and total (p&t) disability",)
    # Its own name still finds each entry.
    assert term_match(term="tdiu", glossary=glossary).terms == ("tdiu",)
    # Entries that do not name each other stay ambiguous.
    assert term_match(term="SC", glossary=GLOSSARY).status == STATUS_FOUND
    assert term_match(term="lay statement", glossary={"buddy statement": ["lay statement"],
                                                      "lay evidence": ["lay statement"]}).status == STATUS_AMBIGUOUS


def test_suggestions_are_those_the_full_similarity_ratio_gives():
    # The quick ratios only rule keys out early; the suggestions must be what ratio() on every key gives.
    import difflib

    from verification.terminology import SUGGESTION_MIN_SIMILARITY, SUGGESTION_SUBSET_SIMILARITY

    index = glossary_index_build(glossary=GLOSSARY)

    def by_full_ratio(key: str) -> tuple[str, ...]:
        best: dict[str, float] = {}
        for candidate, entries in index.by_key.items():
            score = difflib.SequenceMatcher(None, key, candidate).ratio()
            if set(key.split()) < set(candidate.split()):
                score = max(score, SUGGESTION_SUBSET_SIMILARITY)
            if score >= SUGGESTION_MIN_SIMILARITY:
                for _, canonical in entries:
                    best[canonical] = max(score, best.get(canonical, 0.0))
        return tuple(c for c, _ in sorted(best.items(), key=lambda item: (-item[1], item[0]))[:MAX_SUGGESTIONS])

    keys = [key[:i] + key[i + 1:] for key in index.by_key for i in range(len(key))]  # every one-letter slip
    keys += [key.split()[0] for key in index.by_key] + ["qrd", "vbx", "halvorsen continuity credit"]
    unknown = [k for k in keys if term_key(k) and term_key(k) not in index.by_key]
    assert len(unknown) > 100
    assert [term_match(term=k, glossary=GLOSSARY).suggestions for k in unknown] == \
        [by_full_ratio(term_key(k)) for k in unknown]


def test_not_found_suggests_close_terms():
    result = term_match(term="nexus leter", glossary=GLOSSARY)
    assert result.status == STATUS_NOT_FOUND
    assert result.terms == ()
    assert result.suggestions[0] == "nexus letter"
    assert len(result.suggestions) <= MAX_SUGGESTIONS


def test_not_found_suggests_the_longer_term_that_contains_it():
    assert term_match(term="nexus", glossary=GLOSSARY).suggestions[0] == "nexus letter"
    assert "bilateral factor" in term_match(term="bilateral", glossary=GLOSSARY).suggestions


def test_not_found_without_anything_close():
    assert term_match(term="quantum chromodynamics", glossary=GLOSSARY) == TermMatch(status=STATUS_NOT_FOUND)
    assert term_match(term="", glossary=GLOSSARY) == TermMatch(status=STATUS_NOT_FOUND)
    assert term_match(term="tdiu", glossary={}) == TermMatch(status=STATUS_NOT_FOUND)


def test_suggestions_are_at_most_three_distinct_canonical_terms():
    glossary = {f"claim type {letter}": [f"claim kind {letter}"] for letter in "abcdef"}
    result = term_match(term="claim typ", glossary=glossary)
    assert result.status == STATUS_NOT_FOUND
    assert len(result.suggestions) == MAX_SUGGESTIONS
    assert len(set(result.suggestions)) == MAX_SUGGESTIONS


def test_a_bare_string_alias_is_one_alias_not_characters():
    glossary = {"special monthly compensation": "smc"}
    assert term_match(term="smc", glossary=glossary).terms == ("special monthly compensation",)
    assert term_match(term="s", glossary=glossary).status == STATUS_NOT_FOUND


@pytest.mark.parametrize(
    ("spellings", "key"),
    [
        (("P&T", "p and t", "p & t", "P.T."), "p t"),
        (("buddy statements", "Buddy Statement", "the buddy statement"), "buddy statement"),
        (("service-connected", "service connected"), "service connected"),
        (("disabilities", "disability"), "disability"),
        (("diagnosis",), "diagnosis"),
        (("status",), "status"),
        (("losses", "loss"), "loss"),
        (("veterans' preference", "veteran's preference", "veterans preference"), "veteran preference"),
    ],
)
def test_term_key(spellings, key):
    assert {term_key(spelling) for spelling in spellings} == {key}


def test_extract_then_match_end_to_end():
    for question, canonical in [
        ("What are buddy statements?", "buddy statement"),
        ("What does P & T mean?", "permanent and total"),
        ("What's SMC?", "special monthly compensation"),
    ]:
        term = definitional_term_extract(question=question)
        assert term is not None
        assert term_match(term=term, glossary=GLOSSARY).terms == (canonical,)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_ttl_lru_cache_expires_entries():
    clock = FakeClock()
    cache = TtlLruCache(maxsize=10, ttl=300, timer=clock)
    cache["a"] = 1
    clock.now += 299
    assert cache["a"] == 1 and "a" in cache
    clock.now += 1
    assert cache.get("a") is None and "a" not in cache
    with pytest.raises(KeyError):
        cache["a"]


def test_ttl_lru_cache_evicts_least_recently_used():
    clock = FakeClock()
    cache = TtlLruCache(maxsize=2, ttl=300, timer=clock)
    cache["a"] = 1
    cache["b"] = 2
    assert cache.get("a") == 1  # "a" is now the most recently used
    cache["c"] = 3
    assert "b" not in cache
    assert cache.get("a") == 1 and cache.get("c") == 3
    assert len(cache) == 2
    cache.clear()
    assert len(cache) == 0


def test_ttl_lru_cache_rejects_nonsense_sizes():
    with pytest.raises(ValueError):
        TtlLruCache(maxsize=0, ttl=300)
    with pytest.raises(ValueError):
        TtlLruCache(maxsize=10, ttl=0)


def test_module_cache_uses_the_documented_limits():
    assert (glossary_cache.maxsize, glossary_cache.ttl) == (GLOSSARY_CACHE_MAXSIZE, GLOSSARY_CACHE_TTL_SECONDS)
    assert (GLOSSARY_CACHE_MAXSIZE, GLOSSARY_CACHE_TTL_SECONDS) == (1024, 300)


class CountingLoader:
    def __init__(self, glossary) -> None:
        self.glossary = glossary
        self.calls = 0

    def __call__(self):
        self.calls += 1
        return self.glossary


def test_term_lookup_cached_loads_each_version_once():
    cache = TtlLruCache(maxsize=100, ttl=300, timer=FakeClock())
    loader = CountingLoader(GLOSSARY)
    first = term_lookup_cached(term="TDIU", glossary_version=1, loader=loader, cache=cache)
    assert first == TermMatch(status=STATUS_FOUND, terms=("tdiu",))
    # Other spellings of the same term, and other terms, reuse the loaded glossary.
    assert term_lookup_cached(term="tdiu", glossary_version=1, loader=loader, cache=cache) == first
    assert term_lookup_cached(term="P & T", glossary_version=1, loader=loader, cache=cache).terms == (
        "permanent and total",
    )
    assert loader.calls == 1

    edited = CountingLoader({"tdiu": [], "total disability": ["tdiu"]})
    assert term_lookup_cached(term="tdiu", glossary_version=2, loader=edited, cache=cache).terms == ("tdiu",)
    assert term_lookup_cached(term="P&T", glossary_version=2, loader=edited, cache=cache).status == (
        STATUS_NOT_FOUND
    )
    assert edited.calls == 1


def test_term_lookup_cached_reloads_after_the_ttl():
    clock = FakeClock()
    cache = TtlLruCache(maxsize=100, ttl=300, timer=clock)
    loader = CountingLoader(GLOSSARY)
    term_lookup_cached(term="smc", glossary_version="v1", loader=loader, cache=cache)
    clock.now += 301
    assert term_lookup_cached(term="smc", glossary_version="v1", loader=loader, cache=cache).status == STATUS_FOUND
    assert loader.calls == 2


def test_term_lookup_cached_empty_term_needs_no_glossary():
    loader = CountingLoader(GLOSSARY)
    cache = TtlLruCache(maxsize=10, ttl=300)
    assert term_lookup_cached(term=" ?! ", glossary_version=1, loader=loader, cache=cache) == TermMatch(
        status=STATUS_NOT_FOUND
    )
    assert loader.calls == 0


def test_term_lookup_cached_defaults_to_the_module_cache():
    glossary_cache.clear()
    try:
        loader = CountingLoader(GLOSSARY)
        term_lookup_cached(term="dic", glossary_version="test-default", loader=loader)
        term_lookup_cached(term="DIC", glossary_version="test-default", loader=loader)
        assert loader.calls == 1
        assert ("index", "test-default") in glossary_cache
    finally:
        glossary_cache.clear()


def test_cache_is_safe_across_threads():
    cache = TtlLruCache(maxsize=50, ttl=300)
    errors = []

    def work(offset: int) -> None:
        try:
            for number in range(500):
                cache[(offset, number % 80)] = number
                cache.get((offset, (number * 7) % 80))
        except (KeyError, RuntimeError) as error:  # pragma: no cover - only on a failure
            errors.append(error)

    threads = [threading.Thread(target=work, args=(offset,)) for offset in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(cache) <= 50


def test_results_are_frozen_and_keyword_only():
    result = term_match(term="tdiu", glossary=GLOSSARY)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.status = STATUS_NOT_FOUND  # type: ignore[misc]
    with pytest.raises(TypeError):
        term_match("tdiu", GLOSSARY)  # type: ignore[misc]
    with pytest.raises(TypeError):
        definitional_term_extract("What is TDIU?")  # type: ignore[misc]


def test_index_is_reusable():
    index = glossary_index_build(glossary=GLOSSARY)
    assert index.by_key["p t"] == ((1, "permanent and total"),)
    assert terminology.STATUS_FOUND == "found"


@pytest.mark.parametrize(
    ("term", "text", "sentence"),
    [
        ("nexus letter", "Get records first. A nexus letter is a medical opinion linking a condition to service. It "
         "helps.", "A nexus letter is a medical opinion linking a condition to service."),
        ("tinnitus", "Tinnitus, a ringing or buzzing in the ears, is rated under DC 6260. The only rating is 10%.",
         "Tinnitus, a ringing or buzzing in the ears, is rated under DC 6260."),
        ("p&t", "P&T means permanent and total.", "P&T means permanent and total."),
        ("c-file", "Your claims file, called a C-file, holds every document.",
         "Your claims file, called a C-file, holds every document."),
        ("dbq", "DBQs (Disability Benefits Questionnaires) are the forms examiners fill out.",
         "DBQs (Disability Benefits Questionnaires) are the forms examiners fill out."),
        ("dro", "Before 2019, a Decision Review Officer (DRO) was a senior reviewer. The DRO decided.",
         "Before 2019, a Decision Review Officer (DRO) was a senior reviewer."),
        ("widows tax", "The SBP annuity was cut by the DIC amount, often called the widow's tax. It ended in 2023.",
         "The SBP annuity was cut by the DIC amount, often called the widow's tax."),
    ],
)
def test_a_sources_defining_sentence_is_found(term, text, sentence):
    assert definition_sentence_find(term=term, text=text) == sentence


@pytest.mark.parametrize(("term", "text"), [
    ("tinnitus", "Tinnitus (DC 6260) is rated on the symptom itself."),  # a fact about it, not what it is
    ("widget", "Nothing here defines it. A widget appears in passing."),
    ("nexus", "The nexus letters were sent."),
])
def test_a_sentence_that_only_uses_the_term_is_not_a_definition(term, text):
    assert definition_sentence_find(term=term, text=text) is None


@pytest.mark.parametrize(("question", "candidates"), [
    ("what was a DRO in the old appeals system", ("dro in the old appeals system", "dro")),
    ("what is a MET for heart ratings", ("met for heart ratings", "met")),
    ("what is a presumptive condition in plain english", ("presumptive condition",)),
    ("what is the statement of the case", ("statement of the case",)),
    ("what is aggravation of a preexisting condition", ("aggravation of a preexisting condition", "aggravation")),
    ("what is the character of discharge", ("character of discharge",)),
    # A kind-of-thing noun after the term: the glossary and the sources name the term alone.
    ("what is a permanent and total rating", ("permanent and total rating", "permanent and total")),
    ("what is VALife insurance", ("valife insurance", "valife")),
    ("what does the ITF status mean on my claim", ("itf",)),
])
def test_a_term_is_tried_whole_then_without_the_context_after_it(question, candidates):
    assert term_candidates(term=definitional_term_extract(question=question)) == candidates


def test_the_context_after_a_term_is_what_follows_its_head():
    # "The funding fee on an IRRRL": the context names another benefit, so the question asks a fact about it.
    assert term_context(term="funding fee on an irrrl") == "irrrl"
    assert term_context(term="dro in the old appeals system") == "old appeals system"
    assert term_context(term="character of discharge") == term_context(term="funding fee") == ""


def test_a_definition_keeps_the_sentence_after_it_when_it_fits():
    text = ("Pay was cut by the DIC amount, often called the widow's tax. The offset ended in 2023. "
            "Other rules apply.")
    assert definition_passage_find(term="widows tax", text=text) == (
        "Pay was cut by the DIC amount, often called the widow's tax.", "The offset ended in 2023.")
    table = "A MET is a unit of energy. Levels:\n10% — more than 7 METs"
    assert definition_passage_find(term="met", text=table) == ("A MET is a unit of energy.",)
    assert definition_passage_find(term="widget", text=text) == ()
