"""Entity extraction (diagnostic codes, VA forms, benefits, glossary terms) and keyword topic classification.

Names and phrases match as whole words, case-insensitively, whatever punctuation or spacing separates the
words ("post 9/11 gi bill", "dependents educational assistance"); where matches overlap the longest wins.
"""

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from knowledge.patterns import dc_codes_match, va_forms_match

__all__ = [
    "BENEFITS",
    "DEFAULT_TOPICS",
    "DEFAULT_TOPIC_KEYWORDS",
    "ExtractedEntity",
    "benefit_names_expand",
    "condition_names_build",
    "entities_extract",
    "lay_terms_expand",
    "topics_classify",
]

EntityType = Literal["dc_code", "va_form", "benefit", "term"]


@dataclass(frozen=True, slots=True)
class ExtractedEntity:
    type: EntityType
    value: str  # canonical: "6260", "21-526EZ", a benefit slug, a glossary term
    text: str  # as written in the input


# Slug → names; the first is the display name, the rest are aliases and lay wording.
BENEFITS: dict[str, tuple[str, ...]] = {
    "disability_compensation": (
        "Disability compensation",
        "VA disability compensation",
        "VA disability",
        "VA disability benefits",
        "disability benefits",
        "disability pay",
        "VA compensation",
        "service-connected compensation",
        "compensation benefits",
    ),
    "tdiu": (
        "Total disability based on individual unemployability (TDIU)",
        "total disability based on individual unemployability",
        "total disability individual unemployability",
        "TDIU",
        "individual unemployability",
        "IU",
        "unemployability",
    ),
    "smc": (
        "Special monthly compensation (SMC)",
        "special monthly compensation",
        "SMC",
    ),
    "pension": (
        "Veterans Pension",
        "veterans pension",
        "veteran's pension",
        "VA pension",
        "improved pension",
        "wartime pension",
        "survivors pension",
        "pension",
    ),
    "aid_and_attendance": (
        "Aid and Attendance",
        "aid and attendance",
        "aid & attendance",
        "A&A",
    ),
    "housebound": (
        "Housebound allowance",
        "housebound",
        "housebound benefits",
    ),
    "dic": (
        "Dependency and Indemnity Compensation (DIC)",
        "dependency and indemnity compensation",
        "DIC",
    ),
    "champva": (
        "CHAMPVA",
        "Civilian Health and Medical Program of the Department of Veterans Affairs",
        "Civilian Health and Medical Program of VA",
    ),
    "va_health_care": (
        "VA health care",
        "VA healthcare",
        "VA medical care",
        "VA medical benefits",
        "VHA",
        "Veterans Health Administration",
    ),
    "community_care": (
        "Community care",
        "community care",
        "Community Care Network",
        "MISSION Act",
        "Veterans Choice",
        "Choice program",
    ),
    "gi_bill": (
        "GI Bill",
        "G.I. Bill",
    ),
    "gi_bill_post_911": (
        "Post-9/11 GI Bill",
        "post-9/11 GI Bill",
        "post-9/11 G.I. Bill",
        "post 911 GI Bill",
        "chapter 33",
        "ch. 33",
        "ch 33",
    ),
    "gi_bill_montgomery": (
        "Montgomery GI Bill",
        "Montgomery G.I. Bill",
        "chapter 30",
        "ch. 30",
        "chapter 1606",
        "MGIB",
        "MGIB-AD",
        "MGIB-SR",
    ),
    "dea": (
        "Survivors' and Dependents' Educational Assistance (DEA)",
        "survivors' and dependents' educational assistance",
        "dependents' educational assistance",
        "dependent's educational assistance",
        "chapter 35",
        "ch. 35",
        "DEA",
    ),
    "yellow_ribbon": (
        "Yellow Ribbon Program",
        "Yellow Ribbon",
    ),
    "vre": (
        "Veteran Readiness and Employment (VR&E)",
        "veteran readiness and employment",
        "vocational rehabilitation and employment",
        "vocational rehabilitation",
        "voc rehab",
        "VR&E",
        "VRE",
        "chapter 31",
        "ch. 31",
    ),
    "home_loan": (
        "VA home loan",
        "VA home loan guaranty",
        "home loan",
        "VA loan",
        "VA mortgage",
        "certificate of eligibility",
        "COE",
        "IRRRL",
        "interest rate reduction refinance loan",
        "VA funding fee",
        "cash-out refinance",
    ),
    "pact_act": (
        "PACT Act",
        "Honoring our PACT Act",
        "Sergeant First Class Heath Robinson Honoring our Promise to Address Comprehensive Toxics Act",
        "burn pit",
        "burn pits",
        "toxic exposure screening",
    ),
    "agent_orange": (
        "Agent Orange",
        "herbicide exposure",
        "herbicide agents",
        "tactical herbicides",
    ),
    "camp_lejeune": (
        "Camp Lejeune",
        "Camp Lejeune Justice Act",
        "Lejeune",
    ),
    "blue_water_navy": (
        "Blue Water Navy",
        "Blue Water Navy Vietnam Veterans Act",
        "blue water veterans",
        "blue water",
    ),
    "gulf_war_illness": (
        "Gulf War illness",
        "Gulf War syndrome",
        "undiagnosed illness",
        "chronic multisymptom illness",
        "medically unexplained chronic multisymptom illness",
        "MUCMI",
    ),
    "burial": (
        "Burial benefits",
        "burial benefits",
        "burial allowance",
        "burial",
        "plot allowance",
        "headstone",
        "grave marker",
        "memorial benefits",
        "national cemetery",
    ),
    "caregiver": (
        "Program of Comprehensive Assistance for Family Caregivers",
        "PCAFC",
        "caregiver program",
        "caregiver support",
        "caregiver stipend",
        "family caregiver",
        "caregiver",
    ),
    "1151_claim": (
        "Section 1151 claim",
        "section 1151",
        "1151 claim",
        "1151",
    ),
    "p_and_t": (
        "Permanent and total disability (P&T)",
        "permanent and total",
        "permanently and totally disabled",
        "permanent and total disability",
        "P&T",
        "P and T",
    ),
}

DEFAULT_TOPICS: dict[str, dict] = {
    "disability_ratings": {
        "name": "Disability ratings",
        "keywords": [
            "disability rating", "rating", "rated", "percent", "combined rating", "VA math", "bilateral factor",
            "rating schedule", "schedule for rating disabilities", "diagnostic code", "rating criteria",
            "38 CFR Part 4", "increase", "increased rating", "rating increase", "100 percent", "100%",
            "compensable", "noncompensable", "pyramiding", "range of motion", "flare-up", "flare-ups",
            "tinnitus", "ringing in my ears", "ringing in the ears", "ears ringing", "hearing loss",
            "PTSD", "post-traumatic stress", "depression", "anxiety", "sleep apnea", "CPAP", "migraine",
            "migraines", "headaches", "back pain", "lower back", "knee", "knees", "shoulder", "ankle", "hip",
            "neck pain", "radiculopathy", "sciatica", "plantar fasciitis", "flat feet", "hypertension",
            "high blood pressure", "diabetes", "scars", "GERD", "IBS", "mental health rating", "TBI",
            "traumatic brain injury", "how much is my rating", "what percentage", "what rating", "TDIU",
            "individual unemployability", "unemployability", "can't work", "unable to work", "SMC",
        ],
    },
    "claims": {
        "name": "Filing a claim",
        "keywords": [
            "claim", "claims", "file a claim", "filing a claim", "file", "apply for disability",
            "intent to file", "ITF", "effective date", "back pay", "retroactive pay", "retro pay",
            "service connection", "service-connected", "service connected", "nexus", "nexus letter",
            "buddy statement", "lay statement", "lay evidence", "evidence", "C&P exam", "C&P",
            "compensation and pension exam",
            "VA exam", "exam", "DBQ", "disability benefits questionnaire", "secondary condition", "secondary",
            "aggravation", "fully developed claim", "FDC", "BDD", "benefits delivery at discharge",
            "claim status", "pending claim", "decision letter", "duty to assist", "private medical records",
            "medical records", "service treatment records", "STRs", "when will I get paid", "payment",
        ],
    },
    "appeals": {
        "name": "Decision reviews and appeals",
        "keywords": [
            "appeal", "appeals", "appealed", "appealing", "decision review", "higher-level review", "HLR",
            "supplemental claim", "new and relevant evidence", "board appeal", "Board of Veterans' Appeals",
            "BVA", "notice of disagreement", "NOD", "AMA", "Appeals Modernization Act", "legacy appeal",
            "denied", "denial", "was denied", "deny", "disagree", "disagree with decision", "reconsider",
            "CAVC", "Court of Appeals for Veterans Claims", "remand", "hearing", "veterans law judge",
            "direct review", "evidence submission", "clear and unmistakable error", "CUE",
        ],
    },
    "presumptive_conditions": {
        "name": "Presumptive conditions",
        "keywords": [
            "presumptive", "presumptive condition", "presumptive conditions", "presumption",
            "presumed", "Agent Orange", "herbicide", "Vietnam", "Thailand", "Korea DMZ", "burn pit",
            "burn pits", "PACT Act", "toxic exposure", "airborne hazards", "Gulf War", "Gulf War illness",
            "Southwest Asia", "Afghanistan", "Iraq", "Camp Lejeune", "contaminated water", "radiation",
            "atomic veteran", "ionizing radiation", "mustard gas", "Blue Water Navy", "prisoner of war",
            "POW", "chronic disease", "within one year of discharge", "one year presumption",
            "ALS", "Amyotrophic lateral sclerosis", "cancer", "exposure", "exposed",
        ],
    },
    "pension": {
        "name": "Veterans Pension",
        "keywords": [
            "pension", "veterans pension", "VA pension", "wartime veteran", "wartime service",
            "income limit", "net worth", "net worth limit", "countable income", "MAPR",
            "maximum annual pension rate", "aid and attendance", "A&A", "housebound", "low income",
            "medical expenses", "unreimbursed medical expenses", "nursing home", "assisted living",
            "age 65", "over 65", "look-back period",
        ],
    },
    "survivors_dependents": {
        "name": "Survivors and dependents",
        "keywords": [
            "survivor", "survivors", "surviving spouse", "widow", "widower", "dependent", "dependents",
            "spouse", "child", "children", "DIC", "dependency and indemnity compensation",
            "survivors pension", "death benefits", "burial", "burial allowance", "funeral", "headstone",
            "national cemetery", "add a dependent", "adding my spouse", "my husband died", "my wife died",
            "died", "death", "service-connected death", "accrued benefits", "Fry Scholarship", "CHAMPVA",
        ],
    },
    "healthcare_benefits": {
        "name": "VA health care",
        "keywords": [
            "health care", "healthcare", "VA health care", "medical care", "enroll", "enrollment",
            "priority group", "copay", "copays", "copayment", "VA hospital", "VA medical center", "VAMC",
            "clinic", "doctor", "primary care", "prescription", "prescriptions", "medication", "pharmacy",
            "community care", "MISSION Act", "urgent care", "emergency care", "mental health care",
            "Vet Center", "dental", "dental care", "vision", "hearing aids", "CHAMPVA", "TRICARE",
            "caregiver", "caregivers", "long-term care", "nursing home", "10-10EZ", "health benefits",
            "toxic exposure screening", "appointment",
        ],
    },
    "education_benefits": {
        "name": "Education benefits",
        "keywords": [
            "GI Bill", "Post-9/11 GI Bill", "chapter 33", "Montgomery GI Bill", "chapter 30", "MGIB",
            "chapter 35", "DEA", "education benefits", "school", "college", "university", "tuition",
            "housing allowance", "MHA", "BAH", "books and supplies", "book stipend", "Yellow Ribbon",
            "transfer benefits", "transfer my GI Bill", "Transfer of Entitlement", "entitlement",
            "months of entitlement", "VET TEC", "Edith Nourse Rogers STEM Scholarship", "STEM scholarship",
            "Fry Scholarship", "apprenticeship", "on-the-job training", "OJT", "degree", "certificate program",
            "certification", "training", "student", "enrollment certification", "school certifying official",
        ],
    },
    "vocational_rehabilitation": {
        "name": "Veteran Readiness and Employment",
        "keywords": [
            "VR&E", "vocational rehabilitation", "voc rehab", "Veteran Readiness and Employment",
            "chapter 31", "employment", "job training", "job", "jobs", "career", "career counseling",
            "employment handicap", "serious employment handicap", "counselor", "VRC",
            "independent living", "self-employment", "resume", "find a job", "going back to work",
            "entitlement determination", "Chapter 36", "educational and career counseling",
        ],
    },
    "home_loans": {
        "name": "VA home loans",
        "keywords": [
            "home loan", "home loans", "VA loan", "VA home loan", "mortgage", "COE",
            "certificate of eligibility", "funding fee", "IRRRL", "refinance", "cash-out refinance",
            "down payment", "lender", "buy a house", "buying a house", "buy a home", "buying a home",
            "loan limit", "entitlement", "foreclosure", "appraisal", "Native American Direct Loan",
            "NADL", "adapted housing", "SAH grant", "specially adapted housing", "SHA grant",
            "property tax", "closing costs", "26-1880",
        ],
    },
    "forms": {
        "name": "VA forms",
        "keywords": [
            "form", "forms", "VA form", "which form", "what form", "fill out", "paperwork", "application",
            "21-526EZ", "526EZ", "21-0966", "20-0995", "20-0996", "10182", "21-4138", "21-10210",
            "21-8940", "21-686c", "21P-527EZ", "21P-534EZ", "21P-530EZ", "10-10EZ", "10-10D", "22-1990",
            "22-5490", "22-1995", "28-1900", "26-1880", "DD-214", "DD214", "SF-180", "download",
            "mail", "submit", "upload", "where do I send",
        ],
    },
}

DEFAULT_TOPIC_KEYWORDS: dict[str, tuple[str, ...]] = {
    slug: tuple(spec["keywords"]) for slug, spec in DEFAULT_TOPICS.items()
}


# --- phrase matching --------------------------------------------------------------------------------------

# Text and phrases are compared as sequences of word tokens, so punctuation between words does not matter
# ("post-9/11" = "post 9/11", "dependents'" = "dependents") and a phrase never matches inside a word.
# "&" and "%" are tokens of their own: "A&A" and "100%" keep them.
_TOKEN_RE = re.compile(r"\w+|[&%]")


@dataclass(frozen=True, slots=True)
class _PhraseMatch:
    key: str
    text: str
    start: int
    end: int
    weight: int  # words in the phrase


class _PhraseIndex:
    """Phrases indexed by their first token; `find` returns every occurrence of every phrase."""

    def __init__(self, phrases: Iterable[tuple[str, str]], *, plurals: bool = False) -> None:
        self._by_first: dict[str, list[tuple[tuple[str, ...], str, int]]] = {}
        seen: set[tuple[tuple[str, ...], str]] = set()
        for phrase, key in phrases:
            tokens = tuple(token.lower() for token in _TOKEN_RE.findall(phrase))
            if not tokens:
                continue
            variants = [tokens]
            if plurals and tokens[-1].isalpha():
                variants += [(*tokens[:-1], tokens[-1] + "s"), (*tokens[:-1], tokens[-1] + "es")]
            for variant in variants:
                if (variant, key) not in seen:
                    seen.add((variant, key))
                    self._by_first.setdefault(variant[0], []).append((variant, key, len(phrase.split())))

    def find(self, text: str) -> list[_PhraseMatch]:
        spans = [(m.group().lower(), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]
        words = [word for word, _, _ in spans]
        found: list[_PhraseMatch] = []
        for i, word in enumerate(words):
            for tokens, key, weight in self._by_first.get(word, ()):
                j = i + len(tokens)
                if tuple(words[i:j]) == tokens:
                    start, end = spans[i][1], spans[j - 1][2]
                    found.append(_PhraseMatch(key=key, text=text[start:end], start=start, end=end, weight=weight))
        return found


def _longest_first(matches: Iterable[_PhraseMatch]) -> list[_PhraseMatch]:
    """Keep non-overlapping matches, longest first (then leftmost), returned in text order."""
    taken: list[_PhraseMatch] = []
    for match in sorted(matches, key=lambda m: (-(m.end - m.start), m.start)):
        if all(match.end <= t.start or match.start >= t.end for t in taken):
            taken.append(match)
    return sorted(taken, key=lambda m: m.start)


_BENEFIT_INDEX = _PhraseIndex((name, slug) for slug, names in BENEFITS.items() for name in names)


@functools.lru_cache(maxsize=16)
def _terms_index(terms: frozenset[tuple[str, str]]) -> _PhraseIndex:
    return _PhraseIndex(sorted(terms))


@functools.lru_cache(maxsize=16)
def _topics_index(topics: tuple[tuple[str, tuple[str, ...]], ...]) -> _PhraseIndex:
    return _PhraseIndex(((keyword, slug) for slug, keywords in topics for keyword in keywords), plurals=True)


# --- public -----------------------------------------------------------------------------------------------


# A schedule name shorter than this is too generic to stand for one code ("Ulcer.").
CONDITION_NAME_MIN_CHARS = 6


def condition_names_build(*, codes: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Return the rating schedule's condition names that each name one diagnostic code, lower case → code.

    ``codes`` are (code, name) pairs as in 38 CFR Part 4 ("9432", "Bipolar disorder"). Names the schedule
    gives several codes ("Neuritis.", "Paralysis of"), names of removed codes, and names written as an
    index entry ("Leg, limitation of flexion of") are left out: they do not say which code a question means.
    """
    by_name: dict[str, set[str]] = {}
    for code, name in codes:
        if "removed" in name.lower() or any(mark in name for mark in ",:()[]"):
            continue
        for part in name.split(";"):
            key = " ".join(_TOKEN_RE.findall(part.lower()))
            if len(key) >= CONDITION_NAME_MIN_CHARS:
                by_name.setdefault(key, set()).add(code)
    return {name: next(iter(found)) for name, found in by_name.items() if len(found) == 1}


@functools.lru_cache(maxsize=16)
def _conditions_index(conditions: frozenset[tuple[str, str]]) -> _PhraseIndex:
    return _PhraseIndex(sorted(conditions), plurals=True)


def entities_extract(
    *, text: str, terms: Mapping[str, str] | None = None, conditions: Mapping[str, str] | None = None
) -> list[ExtractedEntity]:
    """Return the entities in `text` in order of appearance, one per (type, value).

    `terms` maps a lowercase alias to its canonical glossary term; `conditions` maps a lowercase condition
    name of the rating schedule to its diagnostic code ("bipolar disorder" → DC 9432, from
    `condition_names_build`). Matches of different types may overlap ("TDIU" can be both a benefit and a
    term); within a type the longest match wins.
    """
    found: list[tuple[int, ExtractedEntity]] = []
    for match in dc_codes_match(text):
        found.append((match.start, ExtractedEntity(type="dc_code", value=match.value, text=match.text)))
    for match in va_forms_match(text):
        found.append((match.start, ExtractedEntity(type="va_form", value=match.value, text=match.text)))
    for phrase in _longest_first(_BENEFIT_INDEX.find(text)):
        found.append((phrase.start, ExtractedEntity(type="benefit", value=phrase.key, text=phrase.text)))
    if terms:
        index = _terms_index(frozenset((alias.lower(), term) for alias, term in terms.items()))
        for phrase in _longest_first(index.find(text)):
            found.append((phrase.start, ExtractedEntity(type="term", value=phrase.key, text=phrase.text)))
    if conditions:
        for phrase in _longest_first(_conditions_index(frozenset(conditions.items())).find(text)):
            found.append((phrase.start, ExtractedEntity(type="dc_code", value=phrase.key, text=phrase.text)))
    found.sort(key=lambda item: item[0])
    seen: set[tuple[str, str]] = set()
    entities: list[ExtractedEntity] = []
    for _, entity in found:
        if (entity.type, entity.value) not in seen:
            seen.add((entity.type, entity.value))
            entities.append(entity)
    return entities


def topics_classify(*, text: str, topics: Mapping[str, Sequence[str]]) -> list[tuple[str, float]]:
    """Score each topic by the keywords found in `text`; return those above zero, best first.

    A keyword counts once per occurrence and weighs its number of words ("ringing in my ears" is stronger
    evidence than "rating"); overlapping keywords of one topic count once, the longest. Ties keep the order
    of `topics`.
    """
    index = _topics_index(tuple((slug, tuple(keywords)) for slug, keywords in topics.items()))
    by_topic: dict[str, list[_PhraseMatch]] = {}
    for match in index.find(text):
        by_topic.setdefault(match.key, []).append(match)
    scored: list[tuple[str, float]] = []
    for slug in topics:
        score = float(sum(match.weight for match in _longest_first(by_topic.get(slug, ()))))
        if score > 0:
            scored.append((slug, score))
    scored.sort(key=lambda item: -item[1])
    return scored


# Everyday words for what the rating schedule names otherwise. The embedding model hears "my knee bends to
# 45 degrees" as close to the extension table as to the flexion one (both tables list 45 degrees), so the
# schedule's word is added to the words that search and answer selection match on.
LAY_TERMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:bend|bends|bending|bent|flex|flexes)\b", re.IGNORECASE), "flexion"),
    (re.compile(r"\b(?:straighten|straightens|straightening|straight)\b", re.IGNORECASE), "extension"),
    (re.compile(r"\b(?:ringing|buzzing|ring)\b[^.?!]{0,20}\bears?\b|\bears?\b[^.?!]{0,20}\bring(?:ing|s)?\b",
                re.IGNORECASE), "tinnitus"),
)


def lay_terms_expand(*, text: str) -> str:
    """Return ``text`` with the schedule's word for each everyday one it uses, appended once."""
    extra = [term for pattern, term in LAY_TERMS if pattern.search(text) and term not in text.lower()]
    return f"{text} {' '.join(extra)}" if extra else text


def benefit_names_expand(*, text: str, benefits: Sequence[str]) -> str:
    """Return ``text`` with the other names of each benefit it names (slugs of BENEFITS), appended once.

    A question may spell a benefit out ("dependency and indemnity compensation") where the chunk that
    answers it uses the short form ("DIC rates"), or the other way round; full-text search needs the word.
    """
    lowered = text.lower()
    extra = [name for slug in dict.fromkeys(benefits) for name in BENEFITS.get(slug, ())
             if name.lower() not in lowered]
    return " ".join([text, *dict.fromkeys(extra)]) if extra else text
