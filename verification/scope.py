"""Decide, before any retrieval, whether a question is outside what VA benefits cover.

Rules, not a model: phrase tables compiled into word-bounded regexes. The tables are data, in
knowledge/phrases/scope.yaml: a reviewer edits a phrase there, with the comment saying why, and
tests/verification/test_scope.py shows what the edit decides. The decision is deterministic (the
same question always gets the same answer, so a reviewer can reproduce a refusal), costs zero tokens and
microseconds, and every rule is a readable line a reviewer can test. Retrieval scores cannot do this job:
near-domain questions (another agency's program, docs/ARCHITECTURE.md "Thresholds") score like answerable ones.

A false refusal of a real VA-benefits question is worse than answering one that retrieval will then refuse,
so the rules lean to "in scope":

1. crisis words always win: the Veterans Crisis Line comes before any benefits answer; then a symptom asked
   about as if it might be urgent ("is chest pain when I climb stairs serious"), or a dose, a treatment or a
   diagnosis asked for in so many words ("is it safe if I take 600 at a time"), gets the medical message, which
   says to call 911, whatever condition it names;
2. another agency's program refuses, unless the question also names a VA benefit and asks how the two
   interact ("does SSDI affect my VA disability?", "is VA disability taxable?", "CHAMPVA vs TRICARE");
3. a question that names any benefit word (claim, rating, appeal, GI Bill, ...) is in scope;
4. medical advice and chit-chat refuse;
5. anything else is in scope.

Before 2, near-domain questions outside benefits (personal life, the fantastic, luxury purchases) refuse
even with a benefit word in them: "can I use the GI Bill on the Moon" has no benefits answer; so do questions
about the assistant itself, a false claim to coach, and opinions or jokes asked of it.

Decisions recorded here, where the brief left them open:
- Discharge upgrades and military-record corrections refuse: the service's Discharge Review Board or Board
  for Correction decides them, and the corpus (va.gov pages, vbkb GEN-0293) only links out. VA's own
  character-of-discharge review is a different thing and is not matched.
- Copies of a DD214 are not matched: va.gov and the corpus cover how to request them.
- HUD-VASH is joint with VA: in scope. Only Section 8 / public housing go to HUD.
- State benefits (property tax, state bonus, plates, hunting licences) refuse even with a VA rating in the
  question: the state sets the rule, so a VA source can't answer it.
- No "legal_representation" category: accredited representatives, VSOs and VA Form 21-22 are VA processes
  the corpus covers. Unrelated legal matters (custody, bankruptcy, a DUI) go to the courts' rule, which keeps
  a question in scope when it also asks how the matter meets a VA benefit ("my ex has custody, can my kids get
  DEA").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from knowledge.phrase_tables import FLAG, PHRASES_DIR, REGEXES, TEXT, phrase_records_get, phrases_get
from verification.layers.citations import STOP_WORDS
from verification.spelling import CONTRACTIONS

CATEGORY_OTHER_AGENCY = "other_agency"
CATEGORY_MEDICAL_ADVICE = "medical_advice"
CATEGORY_CRISIS = "crisis"
CATEGORY_CHIT_CHAT = "chit_chat"
CATEGORY_OUTSIDE_BENEFITS = "outside_benefits"
CATEGORY_OUTCOME_PREDICTION = "outcome_prediction"
SCOPE_CATEGORIES = (CATEGORY_OTHER_AGENCY, CATEGORY_MEDICAL_ADVICE, CATEGORY_CRISIS, CATEGORY_CHIT_CHAT,
                    CATEGORY_OUTSIDE_BENEFITS, CATEGORY_OUTCOME_PREDICTION)

# Veterans Crisis Line (veteranscrisisline.net; the corpus agrees: vbkb GEN-0265, GEN-0924).
CRISIS_AGENCY = "Veterans Crisis Line"
CRISIS_HANDLER = "the Veterans Crisis Line (dial 988 then press 1, or text 838255)"
MEDICAL_ADVICE_HANDLER = "your VA or other health care provider"

# Handlers are noun phrases: verification.layers.refusal fills "a program run by {handler}, not a VA benefit" with
# them, and cuts echoed detail at 80 characters (MAX_ECHO_CHARS), so each stays under that.
# That template fits other_agency only; the three messages below are for the other categories.
SCOPE_MESSAGE_CRISIS = (
    "If you're thinking about suicide or hurting yourself, or you're worried about a Veteran who is, please "
    "reach out now. The Veterans Crisis Line is free, confidential and open 24/7: dial 988 then press 1, "
    "text 838255, or chat online at VeteransCrisisLine.net. You don't have to be enrolled in VA benefits or "
    "health care. If you're in immediate danger, call 911."
)
# Put before the answer to a benefits question that tells of suicidal thoughts (crisis_mention_phrases).
CRISIS_NOTE = (
    "If you or someone you care about is having thoughts of suicide, the Veterans Crisis Line is free, confidential "
    "and open 24/7: dial 988 then press 1, text 838255, or chat online at VeteransCrisisLine.net. If anyone is in "
    "immediate danger, call 911."
)
SCOPE_MESSAGE_MEDICAL_ADVICE = (
    "I can't give medical advice, such as which medicine or dose to take or what a symptom means. Please "
    "ask your VA or other health care provider. If it's an emergency, call 911 or go to the nearest "
    "emergency room. I can help with questions about VA benefits and health care eligibility."
)
# Symptoms happening now (chest pain and a numb arm, blood coughed up): 911 first, before anything else.
SCOPE_MESSAGE_URGENT_MEDICAL = (
    "If this is happening now, such as chest pain or pressure, numbness in an arm or the face, trouble breathing or "
    "coughing up blood, call 911 or go to the nearest emergency room now, and don't drive yourself. I can't tell "
    "you what a symptom means or whether it can wait. Once you're safe, your VA or other health care provider can "
    "help, and I can answer questions about VA benefits and health care eligibility."
)
SCOPE_MESSAGE_CHIT_CHAT = (
    "I can only help with questions about VA benefits, such as disability ratings, claims and appeals, the "
    "GI Bill, CHAMPVA, VA pension and VA health care. What would you like to know?"
)
SCOPE_MESSAGE_OUTSIDE_BENEFITS = (
    "That question is outside what VA benefits cover, so my sources can't answer it and I won't guess. I can "
    "help with VA benefits such as disability ratings, claims and appeals, the GI Bill, VA home loans for a home "
    "you live in, pension, CHAMPVA and VA health care."
)
SCOPE_MESSAGE_OUTCOME_PREDICTION = (
    "I can't predict how VA or the Board will decide a particular claim or appeal, what Congress or VA will change, "
    "or next year's rates, and my sources hold no approval rates, live figures or views on individual judges or "
    "examiners, so I won't "
    "guess. An accredited Veterans Service Organization (VSO) representative can review your file for free. I can "
    "explain how each review option works, its deadlines and what evidence VA looks at."
)
CATEGORY_MESSAGES = {
    CATEGORY_CRISIS: SCOPE_MESSAGE_CRISIS,
    CATEGORY_MEDICAL_ADVICE: SCOPE_MESSAGE_MEDICAL_ADVICE,
    CATEGORY_CHIT_CHAT: SCOPE_MESSAGE_CHIT_CHAT,
    CATEGORY_OUTSIDE_BENEFITS: SCOPE_MESSAGE_OUTSIDE_BENEFITS,
    CATEGORY_OUTCOME_PREDICTION: SCOPE_MESSAGE_OUTCOME_PREDICTION,
}


@dataclass(frozen=True, slots=True)
class ScopeDecision:
    in_scope: bool
    category: str = ""
    agency: str = ""
    handler: str = ""
    matched: str = ""
    # A symptom asked about as if it might be urgent: the medical category, with the message that says 911 first.
    urgent: bool = False

    @property
    def message(self) -> str | None:
        """The category's own words, when it has them (crisis, medical advice, chit-chat, ...)."""
        if self.urgent:
            return SCOPE_MESSAGE_URGENT_MEDICAL
        return CATEGORY_MESSAGES.get(self.category)


@dataclass(frozen=True, slots=True)
class AgencyRule:
    """Another agency's program: any of ``phrases`` refuses, unless ``keep_if`` matches, or (when
    ``va_interaction_in_scope``) the question also names a VA benefit and an interaction word. Any of
    ``outright`` refuses whatever VA benefit the question names, unless ``keep_if`` matches."""

    agency: str
    handler: str
    phrases: tuple[str, ...]
    keep_if: tuple[str, ...] = ()
    va_interaction_in_scope: bool = True
    outright: tuple[str, ...] = ()


IN_SCOPE = ScopeDecision(in_scope=True)

# The phrase tables are data (knowledge/phrases/scope.yaml): regex fragments over the normalised question, each
# table compiled to one word-bounded alternation. The file's comments say why each entry is there.
SCOPE_PHRASES_FILE = PHRASES_DIR / "scope.yaml"
_AGENCY_RULE_FIELDS = {"agency": TEXT, "handler": TEXT, "phrases": REGEXES, "keep_if": REGEXES,
                       "va_interaction_in_scope": FLAG, "outright": REGEXES}
_AGENCY_RULE_DEFAULTS = {"keep_if": (), "va_interaction_in_scope": True, "outright": ()}


@dataclass(frozen=True, slots=True)
class ScopeTables:
    """The phrase tables of one scope file, as read (``scope_tables_load``)."""

    crisis: tuple[str, ...]
    urgent_medical: tuple[str, ...]  # symptoms asked about as if they might be urgent: the medical message first
    medical_outright: tuple[str, ...]  # treatment, dosing or a diagnosis asked for, whatever benefit is named
    va_benefit: tuple[str, ...]  # VA's name, then the VA benefit phrases
    interaction: tuple[str, ...]
    benefit: tuple[str, ...]  # the VA benefit phrases, then the general benefit words (not VA's name)
    medical_advice: tuple[str, ...]
    chit_chat: tuple[str, ...]
    chit_chat_outright: tuple[str, ...]  # about the assistant, its rules, jokes and opinions, whatever benefit is named
    outside_benefits: tuple[str, ...]
    outcome_prediction: tuple[str, ...]  # one case's odds, approval rates, a judge's leanings
    greetings: tuple[str, ...]
    other_agency_rules: tuple[AgencyRule, ...]
    asked_object_leads: tuple[str, ...] = ()  # an everyday request's lead ("whats a good", "how do I block")
    asked_object_anchors: tuple[str, ...] = ()  # words that make a clause a benefits one, whatever its object
    asked_object_ignored: tuple[str, ...] = ()  # an object's words that say nothing of it (qualifiers, people)
    status: tuple[str, ...] = ()  # va_benefit phrases that say the asker's standing, not a benefit asked about
    va_name: tuple[str, ...] = ()  # VA's own names, which va_benefit holds first and name no benefit by themselves
    crisis_mention: tuple[str, ...] = ()  # suicidal thoughts told in a benefits question: answered, the line first


@functools.cache
def scope_tables_load(*, path: Path = SCOPE_PHRASES_FILE) -> ScopeTables:
    """Return the scope tables of ``path``; raise ``PhraseTableError`` naming any entry of the wrong shape."""
    va_benefit = phrases_get(path=path, table="va_benefit_phrases")
    return ScopeTables(
        crisis=phrases_get(path=path, table="crisis_phrases"),
        urgent_medical=phrases_get(path=path, table="urgent_medical_phrases"),
        medical_outright=phrases_get(path=path, table="medical_outright_phrases"),
        va_benefit=phrases_get(path=path, table="va_name_phrases") + va_benefit,
        interaction=phrases_get(path=path, table="interaction_phrases"),
        benefit=va_benefit + phrases_get(path=path, table="benefit_phrases"),
        medical_advice=phrases_get(path=path, table="medical_advice_phrases"),
        chit_chat=phrases_get(path=path, table="chit_chat_phrases"),
        chit_chat_outright=phrases_get(path=path, table="chit_chat_outright_phrases"),
        outside_benefits=phrases_get(path=path, table="outside_benefits_phrases"),
        outcome_prediction=phrases_get(path=path, table="outcome_prediction_phrases"),
        greetings=phrases_get(path=path, table="greeting_words"),
        other_agency_rules=tuple(
            AgencyRule(**record)
            for record in phrase_records_get(path=path, table="other_agency_rules", fields=_AGENCY_RULE_FIELDS,
                                             defaults=_AGENCY_RULE_DEFAULTS)
        ),
        asked_object_leads=phrases_get(path=path, table="asked_object_leads"),
        asked_object_anchors=phrases_get(path=path, table="asked_object_anchor_phrases"),
        asked_object_ignored=phrases_get(path=path, table="asked_object_ignored_words"),
        status=phrases_get(path=path, table="status_phrases"),
        va_name=phrases_get(path=path, table="va_name_phrases"),
        crisis_mention=phrases_get(path=path, table="crisis_mention_phrases"),
    )


_TABLES = scope_tables_load()
CRISIS_PHRASES = _TABLES.crisis
URGENT_MEDICAL_PHRASES = _TABLES.urgent_medical
MEDICAL_OUTRIGHT_PHRASES = _TABLES.medical_outright
VA_BENEFIT_PHRASES = _TABLES.va_benefit
INTERACTION_PHRASES = _TABLES.interaction
BENEFIT_PHRASES = _TABLES.benefit
MEDICAL_ADVICE_PHRASES = _TABLES.medical_advice
CHIT_CHAT_PHRASES = _TABLES.chit_chat
CHIT_CHAT_OUTRIGHT_PHRASES = _TABLES.chit_chat_outright
OUTSIDE_BENEFITS_PHRASES = _TABLES.outside_benefits
OUTCOME_PREDICTION_PHRASES = _TABLES.outcome_prediction
GREETING_WORDS = _TABLES.greetings
OTHER_AGENCY_RULES = _TABLES.other_agency_rules


def _alternation(phrases: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + "|".join(phrases) + r")(?!\w)")


@dataclass(frozen=True, slots=True, eq=False)
class _Compiled:
    crisis: re.Pattern[str]
    urgent_medical: re.Pattern[str]
    medical_outright: re.Pattern[str]
    va_benefit: re.Pattern[str]
    interaction: re.Pattern[str]
    benefit: re.Pattern[str]
    medical_advice: re.Pattern[str]
    chit_chat: re.Pattern[str]
    chit_chat_outright: re.Pattern[str]
    outside_benefits: re.Pattern[str]
    outcome_prediction: re.Pattern[str]
    greeting_only: re.Pattern[str]
    asked_object: re.Pattern[str]
    asked_object_anchor: re.Pattern[str]
    asked_object_ignored: re.Pattern[str]
    specific_benefit: re.Pattern[str]
    crisis_mention: re.Pattern[str]
    # Each rule with its phrases, its outright phrases and its keep_if, compiled (None when it has none).
    agency_rules: tuple[tuple[AgencyRule, re.Pattern[str], re.Pattern[str] | None, re.Pattern[str] | None], ...]


@functools.cache
def _compiled(tables: ScopeTables) -> _Compiled:
    return _Compiled(
        crisis=_alternation(tables.crisis),
        urgent_medical=_alternation(tables.urgent_medical),
        medical_outright=_alternation(tables.medical_outright),
        va_benefit=_alternation(tables.va_benefit),
        interaction=_alternation(tables.interaction),
        benefit=_alternation(tables.benefit),
        medical_advice=_alternation(tables.medical_advice),
        chit_chat=_alternation(tables.chit_chat),
        chit_chat_outright=_alternation(tables.chit_chat_outright),
        outside_benefits=_alternation(tables.outside_benefits),
        outcome_prediction=_alternation(tables.outcome_prediction),
        greeting_only=re.compile(
            r"^(?:(?:" + "|".join(tables.greetings) + r")(?: there| bot| friend| all| again| everyone)?[\s!.,?:)(-]*)+$"
        ),
        agency_rules=tuple(
            (rule, _alternation(rule.phrases), _alternation(rule.outright) if rule.outright else None,
             _alternation(rule.keep_if) if rule.keep_if else None)
            for rule in tables.other_agency_rules
        ),
        # The lead, the object's determiners, the object (one to four words) up to the clause's end.
        asked_object=re.compile(
            r"(?<!\w)(?:" + "|".join(tables.asked_object_leads or ("(?!)",)) + r")\s+"
            r"(?:(?:a|an|some|the|my|our|his|her|their|any|good|new|few) )*"
            r"(?P<object>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,3}?)"
            r"(?=\s*(?:[?.!,;:]|$)|\s+(?:for|to|that|which|who|i|im|i'm|under|with|without|in|on|at|near|or|and|so|"
            r"because|since|if|when|while|but|like|lol|rn|from|than|thru|through|around|about|after|before|this|next|"
            r"every)\b)"
        ),
        asked_object_anchor=_alternation(tables.va_benefit + tables.asked_object_anchors),
        asked_object_ignored=re.compile(r"(?:" + "|".join(tables.asked_object_ignored or ("(?!)",)) + r")"),
        specific_benefit=_alternation(tuple(p for p in tables.va_benefit if p not in {*tables.status, *tables.va_name})
                                      or ("(?!)",)),
        crisis_mention=_alternation(tables.crisis_mention or ("(?!)",)),
    )


_DEFAULT = _compiled(_TABLES)

_APOSTROPHES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u2013": "-", "\u2014": "-"})
_WHITESPACE_RE = re.compile(r"\s+")


def _normalise(question: str) -> str:
    return _WHITESPACE_RE.sub(" ", question.translate(_APOSTROPHES).casefold()).strip()


_CLAUSE_BREAK_RE = re.compile(r"[?.!,;]| so | lol ")


def asked_object_unknown(*, question: str, known: Callable[[str], bool], tables: ScopeTables | None = None) -> str:
    """Return the words of an everyday request whose object the knowledge base never names ("whats a good
    recliner", "how do i block robocalls"), in a clause that names no benefit; empty when there is none.

    ``known(word)`` says whether the knowledge base holds a word (its stem). The object's first or last word,
    qualifiers and people left out, must be held: a request for a thing no source speaks of is outside benefits
    whatever the rest of the question says of the asker ("disabled vet w bad knees, whats a good hobby"). The
    scope file's asked_object tables hold the leads, the anchors and the words left out.
    """
    rules = _DEFAULT if tables is None else _compiled(tables)
    text = _normalise(question)
    breaks = [m.start() for m in _CLAUSE_BREAK_RE.finditer(text)]
    for found in rules.asked_object.finditer(text):
        start = max((b for b in breaks if b < found.start()), default=-1) + 1
        end = min((b for b in breaks if b >= found.end()), default=len(text))
        if rules.asked_object_anchor.search(text[start:end]):
            continue
        words = [word for word in re.findall(r"[a-z]+", found.group("object")) if word not in STOP_WORDS
                 and not word.endswith("ed") and not rules.asked_object_ignored.fullmatch(word)]
        if words and not all(known(word) for word in dict.fromkeys((words[0], words[-1]))):
            return found.group(0)
    return ""


def unmatched_words_count(*, question: str, known: Callable[[str], bool], tables: ScopeTables | None = None) -> int:
    """Return how many of the question's words the knowledge base has never seen, or 0 when it names a benefit.

    Contractions, stop words, people and qualifiers (asked_object_ignored_words) are not counted; a question naming a
    benefit beyond the asker's standing (status_phrases) counts none: "irrrl, can I take cash out for solar panels"
    is a loan question whatever "solar" is.
    """
    rules = _DEFAULT if tables is None else _compiled(tables)
    text = _normalise(question)
    if rules.specific_benefit.search(text):
        return 0
    words = dict.fromkeys(re.findall(r"[a-z]+", text))
    return sum(1 for word in words if len(word) > 2 and word not in STOP_WORDS and word not in CONTRACTIONS
               and not rules.asked_object_ignored.fullmatch(word) and not known(word))


def crisis_mentioned(*, question: str, tables: ScopeTables | None = None) -> bool:
    """Whether a question in scope tells of suicidal thoughts or an attempt (crisis_mention_phrases): it is
    answered, with CRISIS_NOTE first."""
    rules = _DEFAULT if tables is None else _compiled(tables)
    return bool(rules.crisis_mention.search(_normalise(question)))


def _medical_advice(matched: str, *, urgent: bool = False) -> ScopeDecision:
    return ScopeDecision(in_scope=False, category=CATEGORY_MEDICAL_ADVICE, handler=MEDICAL_ADVICE_HANDLER,
                         matched=matched, urgent=urgent)


def scope_check(*, question: str, tables: ScopeTables | None = None) -> ScopeDecision:
    """Return whether ``question`` is about VA benefits, and if not, who handles it.

    ``matched`` is the phrase of the normalised (lower-case) question that decided a refusal; it is empty
    for an in-scope question. ``tables`` (``scope_tables_load`` of another file) stand in for the shipped
    ones, so an edited table can be tried before it ships.
    """
    text = _normalise(question)
    if not text:
        return IN_SCOPE
    return _decision(text, _DEFAULT if tables is None else _compiled(tables))


# A question is checked by the crisis step and again by the scope step: the decision is a pure function of the
# normalised text and the rules, so the last few are kept. _Compiled hashes
# by identity (eq=False), one per table file.
@functools.lru_cache(maxsize=256)
def _decision(text: str, rules: _Compiled) -> ScopeDecision:
    crisis = rules.crisis.search(text)
    if crisis:
        return ScopeDecision(
            in_scope=False,
            category=CATEGORY_CRISIS,
            agency=CRISIS_AGENCY,
            handler=CRISIS_HANDLER,
            matched=crisis.group(0),
        )

    # "Is chest pain when I climb stairs serious", "is my tinnitus getting louder a sign of a stroke": whatever
    # condition it names, the answer is a clinician's, and the message says where to go in an emergency.
    urgent = rules.urgent_medical.search(text)
    if urgent:
        return _medical_advice(urgent.group(0), urgent=True)
    medical = rules.medical_outright.search(text)
    if medical:
        return _medical_advice(medical.group(0))

    outside = rules.outside_benefits.search(text)
    if outside:
        return ScopeDecision(in_scope=False, category=CATEGORY_OUTSIDE_BENEFITS, matched=outside.group(0))
    # "What AI model are you, are you official VA": about the assistant, not a benefit.
    chat = rules.chit_chat_outright.search(text)
    if chat:
        return ScopeDecision(in_scope=False, category=CATEGORY_CHIT_CHAT, matched=chat.group(0))

    # "What are my chances of winning my Board appeal", "what percent of HLRs get overturned": the sources hold
    # the rules of a review, never one case's odds nor VA's statistics, and retrieval would answer with the rules.
    prediction = rules.outcome_prediction.search(text)
    if prediction:
        return ScopeDecision(in_scope=False, category=CATEGORY_OUTCOME_PREDICTION, matched=prediction.group(0))

    va_interaction = bool(rules.va_benefit.search(text) and rules.interaction.search(text))
    for rule, pattern, outright_pattern, keep_pattern in rules.agency_rules:
        outright = outright_pattern.search(text) if outright_pattern is not None else None
        found = outright or pattern.search(text)
        if not found:
            continue
        if keep_pattern is not None and keep_pattern.search(text):
            continue
        if not outright and rule.va_interaction_in_scope and va_interaction:
            continue
        return ScopeDecision(
            in_scope=False,
            category=CATEGORY_OTHER_AGENCY,
            agency=rule.agency,
            handler=rule.handler,
            matched=found.group(0),
        )

    # VA's name alone ("my VA doctor put me on gabapentin, is it OK to drink with it") does not make a medical
    # or chit-chat question a benefits one; a benefit word does ("my C&P exam").
    if rules.benefit.search(text):
        return IN_SCOPE

    medical = rules.medical_advice.search(text)
    if medical:
        return _medical_advice(medical.group(0))

    if rules.greeting_only.match(text):
        return ScopeDecision(in_scope=False, category=CATEGORY_CHIT_CHAT, matched=text)
    chit_chat = rules.chit_chat.search(text)
    if chit_chat:
        return ScopeDecision(in_scope=False, category=CATEGORY_CHIT_CHAT, matched=chit_chat.group(0))

    return IN_SCOPE
