"""The offline generator: cited sentences and table rows chosen from the retrieved chunks.

Nothing is written that a source does not say: every line of the answer is a sentence or table row of a
cited chunk, chosen by similarity to the question with diversity (maximal marginal relevance), kept in the
order the sources give them. Sentence vectors are made once at ingestion (a MiniLM pass costs ~6 ms a
sentence here), so answering needs only dot products.
"""

from __future__ import annotations

import datetime
import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from knowledge.extraction import BENEFIT_PARTS, ByIdentity
from knowledge.patterns import dc_codes_find, va_forms_find
from verification.generators.base import Generation, GenerationContext
from verification.layers.citations import STOP_WORDS, content_words, source_words, word_stem
from verification.layers.types import SourceChunk

MODEL_NAME = "extractive"
# Selection sizes: a phone screen's worth of answer. Four prose units read as a paragraph; a rating table
# keeps up to eight levels so every percentage stays next to its criteria.
MAX_TABLE_ROWS = 8
# A table this short (SHORT_TABLE_ROWS rows, SHORT_TABLE_CHARS with its lead) is followed by its first notes.
SHORT_TABLE_ROWS, SHORT_TABLE_CHARS, TABLE_NOTES = 2, 500, 2
MAX_CHARS = 1100
# The leading source gives up to PRIMARY_UNITS sentences scoring at least PRIMARY_FLOOR of the best; up to
# EXTRA_SOURCES other sources add their best sentences (up to EXTRA_UNITS each) when they score at least
# EXTRA_FLOOR of the best and are not a near-copy (cosine above REDUNDANT_ABOVE) of one already chosen.
# Tuned on the golden set (PRIMARY_UNITS 4, 5, 6 answered 511, 512, 512 of 529 fully; 5 keeps answers shorter).
PRIMARY_UNITS = 5
# When the rating table comes from another source, the leading source keeps this many sentences beside it.
TABLE_BESIDE_UNITS = 2
PRIMARY_FLOOR = 0.6
EXTRA_SOURCES = 2
# (EXTRA_UNITS 1, 2, 3 answered 522, 525, 526 of 539 fully; 2 keeps answers shorter.)
EXTRA_UNITS = 2
EXTRA_FLOOR = 0.75
REDUNDANT_ABOVE = 0.9
# Weights of the unit score: meaning first, then the question's own words, codes and forms, how well the
# whole chunk matched (its retrieval score and the question's words in its title), and a figure when the
# question asks for one. Tuned on the golden set (W_TITLE 0, 0.1, 0.25, 0.4 gave answered-correctly 0.871,
# 0.871, 0.885, 0.885).
W_SIM, W_LEX, W_ENTITY, W_CHUNK, W_TITLE, W_NUMBER = 0.55, 0.25, 0.25, 1.0, 0.25, 0.1
# "How do I apply for unemployability", "what form does my son use": the form is the answer, so a sentence
# naming a VA form, and the source holding one, weigh more. Tuned on the golden set (0.15/0.05 and 0.25/0.1
# gave 324 and 325 fully correct of 392, against 322 without).
W_FORM, W_FORM_CHUNK = 0.25, 0.1
# A source only on benefits other than the one the question names ("I'm P&T, can my kids get money for college"
# meets VR&E's college track) weighs less (0, 0.1 and 0.25 each gave 334 of 392 on the golden set: its place
# after the others among the sources read does the work).
W_OTHER_BENEFIT = 0.1
# Benefits nearly every source touches: naming one puts no source first ("keep my son on my compensation").
BROAD_BENEFITS = frozenset({"disability_compensation", "va_health_care"})
# A rating's status, not a program: beside a program named ("my dad is P&T, can I still use his DEA at 24") it
# says whose benefit it is, and the program's own pages answer; alone ("I'm P&T, what can my kids get") it leads.
STATUS_BENEFITS = frozenset({"p_and_t"})
# Ways a condition is presumed service connected, not programs that pay: a page only on them ("Bladder cancer ...
# added to the Agent Orange list") answers a DIC or compensation question as much as one on no benefit.
PRESUMPTIONS = frozenset({"agent_orange", "pact_act", "camp_lejeune", "blue_water_navy", "gulf_war_illness"})
STATUS_WORDS = content_words("100 percent permanent total permanently totally p&t p t rating rated disabled disability")
# Programs with nothing to do with health care: a page only on them never answers a question on VA health care.
APART_FROM_HEALTH = frozenset({"vre", "gi_bill", "gi_bill_post_911", "gi_bill_montgomery", "dea", "yellow_ribbon",
                               "home_loan", "burial", "sgli", "vgli", "fsgli", "tsgli", "valife", "sdvi", "vmli"})
_APPLY_QUESTION_RE = re.compile(
    r"\b(?:(?:how|where) (?:do|can|would|should|does|did) (?:i|we|you|my \w+|he|she|they) (?:\w+ )?"
    r"(?:apply|file|sign up|request|enroll|add|appeal|submit|claim|ask for|report|switch|transfer|convert)|"
    r"what (?:form|forms|paperwork)|which (?:form|forms)|what do (?:i|we|they) (?:file|fill out|submit|send|use)|"
    r"form (?:do|does|should|to)|"
    # "HLR form number": the form is what is asked ("form #" is read after the group, "#" having no word edge).
    r"forms? (?:number|num|no)|"
    # "Is there a special form for an increase or do I use the same one".
    r"(?:is there|do (?:i|you|we) need|need) (?:a |an |any )?(?:special |separate |different |specific |"
    r"particular |new )?(?:va )?forms?|same form)\b|\bforms? #",
    re.IGNORECASE,
)
# "Who qualifies for the caregiver program": a source written as the benefit's eligibility rules answers, not
# one that says "caregivers of veterans who do not qualify can still ...".
_ELIGIBILITY_QUESTION_RE = re.compile(
    r"\b(?:who (?:qualifies|is eligible|can (?:get|apply|use|receive))|eligib\w*|qualif(?:y|ies|ications?)|"
    r"requirements? (?:for|to get)|"
    # "Do I need a rating to get VA health care", "do you have to be 100% to use it": what a benefit requires.
    r"(?:do|does) (?:i|you|we|he|she|they|a veteran) (?:need|have to (?:be|have)) [^.?!]{1,40} to "
    r"(?:get|use|qualify|enroll|apply|receive)|"
    # "Can I get DIC if my husband died of a heart attack": whether the benefit's conditions are met.
    r"(?:can|could|would) (?:i|we|she|he|they|my \w+) (?:get|receive|qualify for) [^.?!]{1,30} if|"
    # "I'm 10% service connected, can I get VR&E": the asker's status, then whether it is enough.
    r"i'?m\b[^.?!]{1,40}?,?\s(?:can|could|would|do) (?:i|we) (?:still )?(?:get|receive|qualify for|use|apply for)|"
    # "i have 70% and my wife doesnt have insurance can she get champva": the asker's level, then whether a family
    # member's benefit follows from it.
    r"\b(?:i'?m|i have|i am)\s(?:rated\s)?\d{1,3}\s?(?:%|percent)[^.?!]{1,60}?\s(?:can|could|would|does|do) "
    r"(?:she|he|they|my (?:wife|husband|spouse|kids|children|son|daughter)) (?:still )?(?:get|receive|qualify for|use)|"
    # "im only rated 10%. can I still use voc rehab": a status ending its own sentence, then "still" (not "I'm
    # rated 70% for PTSD. Can I get sleep apnea service connected", a claim).
    r"i'?m\b[^.?!]{1,40}?\.\s+(?:can|could|would|do) (?:i|we) still (?:get|receive|qualify for|use|apply for))\b",
    re.IGNORECASE)
W_ELIGIBILITY_CHUNK = 0.25
# Questions on how a condition is connected or when it can be claimed, not on its levels: "secondary to PTSD",
# "20 years after I got out", "too late to file".
_NOT_ITS_TABLE_RE = re.compile(
    r"\bsecondary\b|\byears? (?:after|since)\b|\btoo late\b|\b(?:deadline|time limit) (?:to|for)\b|"
    # A claim or a review asked about, the condition its subject: "VA denied my hearing loss, which appeal do I
    # pick", "can I still get tinnitus with nothing in my records", "can I file without a diagnosis".
    r"\b(?:appeal\w*|denied|denial|supplemental claim|higher[- ]level review|board|remand\w*|lost cause|"
    r"clear (?:and unmistakable )?(?:error|mistake)|c-?file|presumptive\w*|(?:still|even) (?:file|get|claim)|"
    r"nothing in my (?:\w+ )?records|no (?:\w+ )?records|(?:without|no|before) (?:a |an )?diagnos\w*|"
    r"diagnos\w* first|"
    # "What evidence should I send with my claim for sleep apnea", "hearing loss was deferred, did they deny it",
    # "rated 0% for hemorrhoids, any money for that".
    r"what (?:evidence|proof|documents)|deferr(?:ed|al)|any money|"
    # "The VA surgeon nicked a nerve, now I have foot drop, can I get comp for that": harm from VA care (1151).
    r"1151|"
    # "My doc wrote it's 'possibly related', is that good enough for a nexus letter": the opinion's standard.
    r"nexus (?:letter|opinion)s?|good enough|strong enough|"
    # "I missed my C&P exam, my mom was in the ICU, am I screwed on my hearing loss claim": the exam's rules.
    r"(?:miss|missed|missing|skip|skipped|skipping|reschedul\w*|no[- ]show\w*) (?:my |the |a |an )?"
    r"(?:c&p|c and p|comp(?:ensation)? (?:and|&) pen(?:sion)?|va claim|claim|va)? ?exams?|"
    # "Is a lay statement from my wife about my migraines good evidence": the evidence rule, not the levels.
    r"(?:lay|buddy|witness)\s+(?:statements?|letters?|evidence)|good evidence|"
    # "Shoulder surgery last month, can VA pay me 100% while I recover": the convalescence rating, not the table.
    r"while (?:i|he|she) (?:recover|heal)\w*|convalesc\w*|"
    # "Does VA give hearing aids even if my hearing loss isn't service connected": a device VA provides, not the
    # condition's levels.
    r"\b(?:give|gives|provide|provides|cover|covers|pay for|pays for|get)\b[^.?!]{0,15}\b(?:hearing aids?|eye ?glasses|"
    r"contacts|contact lenses|dentures|wheelchairs?|prosthe\w*|cpap (?:machines?|supplies))|"
    # "Rated 70% for PTSD, can I work a full time job": working with compensation, not the PTSD levels.
    r"(?:can|could|may) (?:i|he|she) (?:still )?(?:work|get a job|hold a job|keep (?:my|a) job)|full[- ]time job|"
    # "Bad before I joined and the army made it worse", "not on my entrance physical", "what effective date".
    r"pre-?\s?existing|before (?:i|he|she) (?:joined|enlisted|went in|entered)|entrance (?:exam|physical)|"
    r"(?:made|make|making) (?:it|them|that|this) (?:\w+ )?worse|aggravat\w*|effective date|"
    # "Just filed for hearing loss, can VA speed it up", "my PTSD claim has been pending 8 months".
    r"speed\w* (?:it |this |things )?up|rush (?:it|this)|expedit\w*|pending|"
    # "Service connected for hearing loss for 12 years, can they take it away": the protection, not the levels.
    r"sever(?:s|ed|ing|ance)?|take (?:it |that |my \w+ )?away|taken away|revok\w*)\b",
    re.IGNORECASE)
# A condition's table, when its claim or review is asked about and not its levels.
W_UNASKED_TABLE = 0.3
# Answer from the best few sources only: lower-ranked chunks add noise more often than facts.
MAX_SOURCE_CHUNKS = 3

# A table row: a rating level ("10% — recurrent tinnitus") or a short label and its value ("Basic monthly
# rate — $1,699.36", "First use, less than 5% down — 2.15%", "Level 0 — no complaints").
_ROW_RE = re.compile(r"^\s*(?:[-•*]\s*)?(?:\d{1,3}\s?%|[^.!?\n]{1,90}? — )")
_END_PUNCT_RE = re.compile(r"[.!?;:]+[\"')\]]*$")
_DIGIT_RE = re.compile(r"\d")
_DC_RE = re.compile(r"\d{4}")  # a diagnostic code, not a form number ("21-526EZ")
# Numbers that are part of a name, not a figure: "Post-9/11", "chapter 33".
_NAME_NUMBER_RE = re.compile(r"\b9/11\b|\bchapter \d+\b", re.IGNORECASE)
# "%" is not a word character, so it stands outside the word-bounded group ("what % is that").
_QUANTITY_QUESTION_RE = re.compile(r"\b(how (much|many|long|soon|early|late)|when|what (percent|rate|amount|date)|"
                                   r"deadline|percent|rate|rating|amount|limit|cap|cost|pay)\b|%", re.IGNORECASE)
# A question for the levels themselves ("what does VA rate CFS at", "what percent"); with "how much" it is a
# rating question, which gets the leading source's table, but only a levels question borrows another's.
_LEVELS_WORDS = r"rat(?:e|ed|es|ing|ings)|percent(?:ages?|s)?|criteria|what level|evaluat\w*"
_LEVELS_QUESTION_RE = re.compile(rf"\b(?:{_LEVELS_WORDS})\b|%", re.IGNORECASE)
_RATING_QUESTION_RE = re.compile(rf"\b(?:{_LEVELS_WORDS}|how much)\b|%", re.IGNORECASE)
# A level the question asks about ("at 70 percent", "a 30% rating"): that level's criteria answer it.
# "Put 10 percent down": a down payment, not a level.
# A measurement in percent is not a level either: "DLCO 60 percent predicted", "about 60 percent of what I could
# do before", "FEV-1/FVC is 30 percent", "eczema on 25% of my body" name a finding the table turns into a level.
_LEVEL_ASKED_RE = re.compile(r"\b(\d{1,3})\s?(?:%|percent\b|per cent\b)(?!\s*(?:down\b|down payment|predicted\b|"
                             r"of (?:predicted|normal|what|my|his|her|the|their|your|body|exposed|total|pre)\b))",
                             re.IGNORECASE)
# "Does that count for anything or is it just 0%": a level the asker fears is all they get is not the level asked;
# the table says which one their facts meet.
_DOUBTED_BEFORE_RE = re.compile(r"\b(?:is it|is that|it's|its|am i|i'm|im|stuck at|be) (?:just|only|merely)\s+$",
                                re.IGNORECASE)
_MEASURED_BEFORE_RE = re.compile(r"(?:\bfev-?1|\bfvc|\bdlco|ejection fraction|\bl?v?ef|saturation|\bspo2|oxygen|"
                                 r"\bgfr)\b[^.?!%\d]{0,20}$", re.IGNORECASE)
# "What FEV-1 do I need for a 30% asthma rating": a percent the word "rating" follows is the level, whatever test
# the question named before it.
_RATING_AFTER_RE = re.compile(r"(?:\s+(?!(?:what|which|how|is|was|would|will|do|does|could|can|for|and|or|so)\b)"
                              r"[a-z/&'-]+){0,2}\s+rating\b", re.IGNORECASE)
_BARE_LEVEL_RE = re.compile(
    # "Is that 20 or 40 percent": the first of two levels offered.
    r"\b(?:for|to|get|reach|at|an?|the|that|it|either|between)\s+(\d{2,3})(?=\s+(?:or|and)\s+\d{2,3}\s?(?:%|percent\b))|"
    r"\b(?:for|to|get|reach|at|an?|the)\s+(\d{2,3})\b(?![\d,.]|\s*(?:%|percent\b|per cent\b|years?\b|yrs?\b|"
    r"months?\b|days?\b|weeks?\b|hours?\b|minutes?\b|degrees?\b|mm\b|millimeters?\b|times?\b|dollars?\b|"
    r"mets?\b|lbs?\b|pounds?\b|feet\b|ft\b|inches\b|miles?\b|db\b|decibels?\b))", re.IGNORECASE)
# "Anxiety rating chart all levels please": the whole table is asked for, so a source holding every level
# leads over one part of a table split across sources (the mental disorders formula, level by level).
_ALL_LEVELS_RE = re.compile(r"\b(?:all|every|each)(?: of)?(?: the)? (?:levels?|ratings?|percent\w*)\b|"
                            r"\b(?:rating )?(?:chart|breakdown)s?\b|\bfull (?:rating|table|chart|list|schedule)\b",
                            re.IGNORECASE)
W_ALL_LEVELS = 0.2
# "..., lowest levels:", "Highest level:": which rows of a split table follow its lead.
_ROWS_ANNOUNCED_RE = re.compile(r"(?:,\s*|\.\s*|^)(?:the\s+)?(?:lowest|highest|middle|upper|top|bottom|other)\s+levels?\s*$",
                                re.IGNORECASE)
ALL_LEVELS_ROWS = 4
# "Is 50% the highest you can get for headaches", "what's the max rating for tinnitus".
# "Is there even a higher level or is that as high as it goes": whether the table goes above the asker's level.
_HIGHEST_RE = re.compile(r"\b(?:highest|maximum|max|top (?:rating|level|percent\w*))\b|\bthe most (?:you|i|one|a vet\w*) "
                         r"(?:can|could) (?:get|receive)\b|\bas high as (?:it|they|you) (?:goes|go|gets|get|can go)\b|"
                         r"\b(?:any|a|even a) higher (?:level|rating|percent\w*)\b(?![- ]review)|\bgo (?:any )?higher\b",
                         re.IGNORECASE)  # (not "file a higher level review")
_LOWER_LEVEL_RE = re.compile(r"\b(?:lowest|minimum|min)\b(?! (?:wage|age|service|time|period))|\b(?:drop|drops|dropped|go|goes|"
                             r"come|comes|reduced?|knocked)\s+(?:back\s+)?down\s+to\b|\bdrop to\b", re.IGNORECASE)
_ROW_PERCENT_RE = re.compile(r"(\d{1,3})\s?%")
_LEVEL_WRITTEN_RE = re.compile(r"(\d{1,3})\s?(?:%|percent\b)", re.IGNORECASE)  # as askers write it: "40 percent"
_NAMED_FIGURE_RE = re.compile(r"(?<![\d$.,])(\d{1,3})(?![\d,.]\d)")
_ROW_LEVEL_RE = re.compile(r"^\s*(?:[-•*]\s*)?(\d{1,3})\s?%")
# Words that frame a question rather than name what it is about ("how long", "does it last", "can I get").
FRAME_WORDS = content_words("long last lasts much many get take takes need happen happens work start end")
# Words every rating question and table title share; a title naming the question's condition shares another.
LEVEL_WORDS = content_words("rate rated rates rating ratings percent percentage level levels criteria evaluation "
                            "disability disabilities code diagnostic dc schedule how much get")
# A source holding the asked level's row leads when it matched at least this share of the best source.
LEVEL_SOURCE_FLOOR = 0.8
# An eligibility source ranked below the best few is read for a "can I get" question when it matched at least
# this share of the best source ("can I get pension if I have a house": what counts answers, not the limit).
RULES_SOURCE_FLOOR = 0.8
W_LEVEL = 0.2
# "If the death was not service connected": a sentence only on service-connected ones answers the other case.
_NOT_CONNECTED_RE = re.compile(r"\b(?:non-?\s?service[- ]connected|not (?:been )?service[- ]connected)\b",
                               re.IGNORECASE)
_SERVICE_CONNECTED_RE = re.compile(r"\bservice[- ]connected\b", re.IGNORECASE)
# "Burial benefits for a service connected death": a sentence on a death not service connected is the other case.
_CONNECTED_DEATH_RE = re.compile(r"\bservice[- ]connected (?:death|burial)\b|\bdied (?:of|from) (?:a |his |her )?service[- ]"
                                 r"connected\b", re.IGNORECASE)
W_OTHER_POLARITY = 0.2
# "I got out of the Army last month, will they pay me back to my discharge date", "I'm 10% service connected,
# can I get VR&E": the asker has left service, so a page for those still serving (BDD, VR&E on active duty) is
# the other case.
_SEPARATED_RE = re.compile(
    r"\b(?:got out|separated|been discharged|got discharged|retired from|left (?:the )?(?:military|"
    r"service|army|navy|air force|marines?|marine corps|coast guard|active duty))\b|"
    r"\b(?:i'?m|i am)\s+(?:\d{1,3}\s?(?:%|percent)\s+)?(?:sc|service[- ]connected)\b|"
    r"\b(?:i'?m|i am)\s+(?:rated|at)\s+\d{1,3}\s?(?:%|percent)", re.IGNORECASE)
_STILL_SERVING_RE = re.compile(r"\b(?:still (?:in|on active duty|serving)|on active duty|before (?:i |you )?(?:get out|"
                               r"separat\w*|discharg\w*|retir\w*|leav\w*)|memorandum|ides|bdd)\b", re.IGNORECASE)
_SERVING_TITLE_RE = re.compile(r"\bbefore separation\b|\bdays? left on active duty\b|\bwhile still on active duty\b",
                               re.IGNORECASE)
# "I've been in the Air Guard 5 years, can I transfer my GI Bill to my son right now": the asker is serving, so a
# page for those who have left ("Can I transfer my GI Bill after I get out of the military?") is the other case.
_SERVING_NOW_RE = re.compile(
    r"\b(?:i'?ve|i have) been (?:in|serving in|with) (?:the )?(?:air |army |national )?(?:guard|reserves?|army|navy|"
    r"air force|marines?|marine corps|coast guard|space force|military)\b|"
    r"\b(?:i'?m|i am) (?:currently |still )?(?:on active duty|active duty|in the (?:guard|reserves?|military)|serving)\b|"
    r"\bstill (?:in|on active duty|serving)\b", re.IGNORECASE)
_LEFT_TITLE_RE = re.compile(r"\bafter (?:i|you) (?:get|got) out\b|\bafter (?:separation|leaving (?:the )?(?:military|"
                            r"service))\b", re.IGNORECASE)
# "About 5 months till I get out": the time left before separation, which picks the BDD page (180 to 90 days
# before) over the one for fewer than 90 days left, or that one over BDD's.
_TIME_LEFT_RE = re.compile(
    r"\b(?P<n>\d{1,3}|a few|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?P<unit>months?|weeks?|days?)\b"
    r"(?=[^.?!]{0,30}\b(?:left|out|away|until|till|til|before|to go)\b[^.?!]{0,30}\b(?:get(?:ting)? out|separat\w*|ets|"
    r"discharg\w*|retir\w*|leav\w*|civilian|active duty|end of service)\b)"
    r"|\b(?:separat\w*|getting out|get out|ets(?:ing)?|discharg\w*|retir\w*|leaving (?:the )?(?:military|service|active duty))\s+"
    r"(?:in|within)\s+(?:about |around |roughly |like |less than |under )?(?P<n2>\d{1,3}|a few|two|three|four|five|six|seven|"
    r"eight|nine|ten|eleven|twelve)\s+(?P<unit2>months?|weeks?|days?)\b", re.IGNORECASE)
_LEFT_COUNT_WORDS = {"a few": 3, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                     "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_UNIT_DAYS = {"month": 30, "week": 7, "day": 1}
_UNDER_90_TITLE_RE = re.compile(r"\bfewer than 90 days left\b", re.IGNORECASE)
_BDD_WINDOW_TITLE_RE = re.compile(r"\b180 to 90 days before\b", re.IGNORECASE)


@functools.lru_cache(maxsize=16384)  # others_case asks it of the same sources for every sentence scored
def _opening_service_branch(content: str) -> tuple[str, int] | None:
    """The date branch on when one served that the source's opening sentence states: ("after", 1998), or None."""
    branch = _SERVICE_BRANCH_RE.search(content.split(". ", 1)[0])
    return (branch.group("op"), int(branch.group("year"))) if branch else None


def _served_otherwise(year: int, content: str) -> bool:
    """Whether the source's opening sentence is a rule for those who served on the other side of a date from
    ``year``, the year the asker served."""
    branch = _opening_service_branch(content)
    if branch is None or year == branch[1]:
        return False
    return (year < branch[1]) != (branch[0] == "before")


def _days_left(question: str) -> int | None:
    """The days left before separation the question tells ("4 months out from my ETS"), or None."""
    found = _TIME_LEFT_RE.search(question)
    if not found:
        return None
    n, unit = (found.group("n"), found.group("unit")) if found.group("n") else (found.group("n2"), found.group("unit2"))
    count = int(n) if n.isdigit() else _LEFT_COUNT_WORDS[n.lower()]
    return count * _UNIT_DAYS[unit.lower().rstrip("s")]


# A hearing before a judge or a decision review officer, and the sense of hearing (a title on hearing loss).
_PROCEEDING_HEARING_RE = re.compile(r"\b(?:bva|board|judge|docket|dro|predetermination|personal|virtual|video|"
                                    r"videoconference|travel board|informal|appeals?|court)\s+hearings?\b|"
                                    r"\bhearings? (?:with|before|at|in front of) (?:the |a )?(?:board|bva|judge|vlj|dro)\b",
                                    re.IGNORECASE)
_HEARING_SENSE_RE = re.compile(r"\bhearing (?:loss|aids?|impairment|tests?|exams?)\b|\b(?:tinnitus|audiolog\w*|deaf\w*|"
                               r"ears?)\b", re.IGNORECASE)
# A page for survivors only ("Survivors Pension: who qualifies", "DIC for surviving children"), not one for
# "veterans and survivors"; and a question told by a survivor (a death, a widow) or naming a survivors' benefit.
# "Husband was at Camp Lejeune for 6 weeks in 1979 for training, now he has bladder cancer": the one at the base served
# there, so a page for family members who lived there is another's case (not "my wife and kids lived on base").
_SERVED_AT_BASE_RE = re.compile(r"\b(?:for training|stationed|served|on active duty|in the (?:marines|marine corps|army|navy|"
                                r"reserves?|guard)|deployed|boot camp|basic training|tdy|assigned)\b", re.IGNORECASE)
_LIVED_AT_BASE_RE = re.compile(r"\b(?:lived|living|grew up|born|dependents?|family members?)\b", re.IGNORECASE)
_FAMILY_MEMBER_TITLE_RE = re.compile(r"\bfamily members?\b", re.IGNORECASE)
_SURVIVORS_TITLE_RE = re.compile(r"^survivors?\b(?! and)|^(?!.*\b(?:veterans|spouses) and surviv).*\bsurviving "
                                 r"(?:spouses?|child(?:ren)?)\b|\bveteran's child\b|\bsurvivors pension\b", re.IGNORECASE)
# A page for Guard and Reserve members ("VA home loan eligibility for National Guard and Reserve members") is another's
# case unless the question speaks of that service: "how do I get my certificate of eligibility, first time buyer".
_GUARD_TITLE_RE = re.compile(r"\b(?:national guard|guard and reserve|reserve members|reservists?)\b", re.IGNORECASE)
_GUARD_ASKS_RE = re.compile(r"\b(?:guard\w*|reserves?|reservists?|drill\w*|annual training|weekend warrior|arng|ang|usar|"
                            r"usmcr|usnr|title (?:10|32)|activated|mobiliz\w*)\b", re.IGNORECASE)
# A veteran's own pension amounts ("Veterans Pension MAPR amounts for ...") are another's case for a survivor asking
# about the pension: "my mom is widow of a vet, whats the max annual pension rate for a surviving spouse".
_VETERANS_PENSION_AMOUNTS_TITLE_RE = re.compile(r"^veterans pension (?:mapr|maximum|rates?|amounts?)\b", re.IGNORECASE)
_PENSION_RE = re.compile(r"\bpension\b", re.IGNORECASE)
_SURVIVOR_ASKS_RE = re.compile(r"\b(?:die[ds]?|dying|death|dead|deceased|passed|widow\w*|surviv\w*|killed|funeral|"
                               r"buri(?:al|ed)|late (?:husband|wife|spouse|father|mother|dad|mom)|when i'?m gone|"
                               r"after i'?m gone|dic|dependency and indemnity|chapter 35|dea|fry|sbp|"
                               r"survivor benefit plan|accrued)\b", re.IGNORECASE)
# A page for appeals filed before February 19, 2019 ("Opting a legacy appeal into the AMA decision review system"),
# and a question about one: an old appeal, its Statement of the Case or Form 9, a decision of those years.
# "VA proposes to reduce my PTSD from 70 to 30, how long do I have to send evidence": 60 days to respond to the
# proposal, not the Board's 90-day evidence window; a decision review's pages are another's case unless one is named.
_PROPOSED_REDUCTION_RE = re.compile(r"\bpropos\w*\b[^.?!]{0,40}\b(?:reduc\w*|lower\w*|cut\w*|decreas\w*|stop\w*)\b",
                                    re.IGNORECASE)
_REVIEW_ASKS_RE = re.compile(r"\b(?:appeal\w*|board|bva|higher[- ]level|hlr|supplemental|decision reviews?|10182|nod|"
                             r"final decision)\b", re.IGNORECASE)
_REVIEW_TITLE_RE = re.compile(r"\b(?:board|higher-level review|supplemental claim|decision reviews?)\b", re.IGNORECASE)
_LEGACY_TITLE_RE = re.compile(r"\blegacy\b", re.IGNORECASE)
_LEGACY_ASKS_RE = re.compile(r"\b(?:legacy|old (?:appeals?|system|process)|statement of the case|s?soc|form 9|"
                             r"notice of disagreement|nod|opt\w*[- ]in|(?:19|20)\d\d|years? ago)\b", re.IGNORECASE)
# CHAMPVA's pages are for a veteran's family: "is there a yearly cap on what I pay for VA prescriptions" is not
# answered by CHAMPVA's catastrophic cap unless CHAMPVA or a family member is named.
_CHAMPVA_TITLE_RE = re.compile(r"\bchampva\b", re.IGNORECASE)
# A page for those 65 and older ("CHAMPVA for Life (age 65 and older)") or on Medicare is another's case unless the
# question speaks of age or Medicare: "i have 70% and my wife doesnt have insurance can she get champva", "im 45 and
# have insurance thru my job, can i still get champva".
_OLDER_TITLE_RE = re.compile(r"\b(?:age )?(?:6[0-9]|5[5-9]) (?:and|or) (?:older|over)\b|"
                             r"\bmedicare\b.*\b(?:under|over) (?:age )?\d\d\b", re.IGNORECASE)
_OLDER_ASKS_RE = re.compile(r"\b(?:[5-9]\d|medicare|older|elderly|senior|retire\w*|for life|age|aged|turn\w*|birthday)\b",
                            re.IGNORECASE)
_CHAMPVA_ASKS_RE = re.compile(r"\b(?:champva|spouses?|wife|husband|widow\w*|child(?:ren)?|kids?|sons?|daughters?|"
                              r"family|dependents?|survivors?|surviving|mom|mother|dad|father|parents?)\b", re.IGNORECASE)
# "I'm buying a house, what funding fee will I pay", "first va loan with 0 down" (money down is a purchase's): the
# refinance, IRRRL and assumption pages are another's case; "what is the funding fee on an IRRRL": the purchase
# pages are.
_PURCHASE_ASKS_RE = re.compile(r"\b(?:buy|buying|bought|purchas\w*|(?:new|first|next) (?:house|home)|"
                               r"build(?:ing)? a (?:house|home)|construction|down payment|"
                               r"(?:\d{1,2}(?:\.\d)?\s?(?:%|percent)|\$?0|nothing|zero|no money) down)\b", re.IGNORECASE)
_REFINANCE_ASKS_RE = re.compile(r"\b(?:refinanc\w*|refi|irrrl|streamline|cash[- ]?out|assum\w+|manufactured)\b",
                                re.IGNORECASE)
_PURCHASE_TITLE_RE = re.compile(r"\bpurchase\b", re.IGNORECASE)
_REFINANCE_TITLE_RE = re.compile(r"\b(?:refinanc\w*|irrrl|cash-out)\b", re.IGNORECASE)
# "A scar on my forehead": the pages for scars "not on the head, face or neck" (DC 7801, 7802) are another's case.
_NOT_HEAD_TITLE_RE = re.compile(r"\bnot on the head, face or neck\b", re.IGNORECASE)
_HEAD_ASKS_RE = re.compile(r"\b(?:face|facial|forehead|cheeks?|chin|scalp|head|lips?|nose|eyebrows?|eyelids?|jaw|neck)\b",
                           re.IGNORECASE)
# "How many months of GI Bill do I get": a sentence giving a number of them answers it ("Check your remaining
# months on your Post-9/11 GI Bill statement" shares more words and a "9/11", but no count).
_HOW_MANY_RE = re.compile(r"\bhow many (\w+)", re.IGNORECASE)
# "How long do I have to convert SGLI", "what's the time limit to file": asks for a time limit, which sources
# give as "within 1 year and 120 days" or "no later than 1 year".
_TIME_LIMIT_QUESTION_RE = re.compile(
    r"\bhow (?:long|much time) (?:do|does|did|will) (?:i|we|you|he|she|they|my \w+|a \w+) (?:have|get)\b|"
    r"\b(?:deadline|time limit)\b", re.IGNORECASE)
# "Is there a time limit", "is there any deadline", "do I have a deadline": whether there is one at all.
_WHETHER_LIMIT_RE = re.compile(r"\b(?:is there|are there|do (?:i|we|you) have|does (?:it|that|he|she) have|"
                               r"any)\s+(?:a\s+|an\s+|any\s+)?(?:deadlines?|time limits?)\b", re.IGNORECASE)
# "I missed the one year deadline to appeal, am I out of luck": what is left after a limit, not the limit itself.
_MISSED_LIMIT_RE = re.compile(r"\b(?:missed|miss|blew|past|passed|after|beyond|late for|too late for)\s+(?:the\s+|my\s+|that\s+)?"
                              r"(?:(?:one|1|one-year|1-year|\d+-day|\d+ day)\s+)?(?:year\s+)?(?:deadline|time limit)\b",
                              re.IGNORECASE)
_NUMBER_WORDS = r"\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty"
W_COUNT = 0.25
W_DEADLINE = 0.4
# A count or limit in a source well below the best in meaning is another process's ("VA proposes to cut my rating,
# how long do I have to respond" met the decision reviews' "within one year" fourth): it earns no bonus.
COUNT_SOURCE_FLOOR = 0.8
# "If you apply within 240 days, you need not prove good health": a condition's window, not the limit asked about
# (the limit in the main clause still counts: "If you get emergency care elsewhere, notify VA within 72 hours").
_CONDITIONAL_RE = re.compile(r"^\s*(?:if|when|once|unless)\b[^,;]*[,;]", re.IGNORECASE)


def _in_condition(text: str, position: int) -> bool:
    """Whether ``position`` falls in the conditional clause that opens ``text``."""
    opening = _CONDITIONAL_RE.match(text)
    return bool(opening) and position < opening.end()
# A source holding a word of the question that the whole corpus holds only a few times (rare_words).
W_RARE = 0.2
# A title holding three of the question's words in its order names what was asked ("Specially Adapted Housing
# (SAH) grant"); stems alone cannot tell it from "Special Housing Adaptation (SHA) grant".
W_TITLE_PHRASE = 0.1
# "My knee is 10% sc, my other knee and hip hurt from limping, what do I need to prove it's secondary": the kind of
# claim asked about names the pages on its rule ("Secondary service connection (38 CFR 3.310)"), which answer
# before a page on the knee's ratings, however close its sentences are in meaning.
# So for the review asked about: "can I send new evidence with a Higher-Level Review? I got a nexus letter" is
# answered by the Higher-Level Review's page, not the nexus letter's.
_CLAIM_KIND_RE = re.compile(
    r"\b(?:(?P<secondary>secondary)|(?P<aggravation>aggravat\w*)|(?P<presumptive>presumptive)|"
    r"(?P<hlr>higher[- ]level reviews?|hlrs?)|(?P<supplemental>supplemental claims?)|"
    r"(?P<cue>clear and unmistakable errors?|cue)|"
    # A missed or moved exam: "I missed my C&P exam because my car broke down, what happens now" is answered by the
    # page on missing one, not the one on what happens after an exam.
    r"(?P<missed>miss(?:ed|ing)?\b[^.?!]{0,40}\b(?:exams?|c ?& ?p)|reschedul\w*[^.?!]{0,40}\b(?:exams?|c ?& ?p)|"
    r"failure to report|no[- ]show|(?:don'?t|do not|didn'?t|did not|can'?t|cannot) show(?: up)?))\b", re.IGNORECASE)
W_CLAIM_KIND = 0.1
# A dollar amount asked for: "how much does chapter 35 pay per month", "how much money per month is SMC-S", "what's
# the 2025 county loan limit for San Diego", "what's the income limit for priority group 7". When no sentence
# chosen holds a dollar figure, the sources lack it: the rules beside it would read as the answer, so nothing is
# said (a refusal) rather than an amount-shaped answer with no amount.
_MONEY_ASKED_RE = re.compile(
    r"\bhow much (?:money|cash)\b"
    r"|\bhow much (?:is|are|does|do|will|would) (?:the |my |a |an )?[\w\s'/-]{0,40}?(?:premiums?|copays?|allowance|"
    r"stipend|pay|payment|cost|rate)s?(?: (?:me|us|you|him|her))? (?:per|a|each|every) (?:month|year|day)\b"
    r"|\bhow much (?:is|are) (?:the |my |a |an )?(?:[\w/-]+ ){0,4}(?:premiums?|copays?|allowance|stipend|"
    r"monthly (?:rate|payment|amount))\b"
    r"|\b(?:exact )?(?:dollar|\$) (?:amount|figure|number)\b|\bexact dollar\b"
    r"|\b(?:what(?:'s| is|s)|whats) (?:the )?(?:current |exact |new |\d{4} )*(?:[\w/-]+ ){0,4}(?:monthly (?:rate|amount|"
    r"payment)|premiums?|copays?|(?:income|loan|county loan) limit)\b",
    re.IGNORECASE)
# What the amount is of, when the question says: a sentence with a dollar figure answers only when it names it
# ("the full-time monthly rate for the Montgomery GI Bill" is not "pay reduced by $100 a month").
_MONEY_NOUN_RE = re.compile(r"\b(copay|premium|allowance|stipend|rate|limit|fee|threshold)s?\b", re.IGNORECASE)


# How an amount is figured: "half of the national average BAH", "multiplied by your eligibility percentage".
_FIGURED_RE = re.compile(r"\b(?:half|a quarter|(?:\d+|one|two) percent) of\b|\bmultiplied by\b|\bequal to\b|"
                         r"\bbased on (?:the|your)\b", re.IGNORECASE)
_EXACT_AMOUNT_RE = re.compile(r"\bexact\b|\b(?:dollar|\$) (?:amount|figure|number)\b", re.IGNORECASE)
AMOUNT_NOUN_CHARS = 30  # how near its dollar figure the sentence names what the amount is of
AMOUNT_FOR_PREFIX = 6  # "specialist" and "specialty" name the same visit: words sharing their first letters


def _names_what_for(text: str, question: str, nouns: frozenset[str]) -> bool:
    """Whether the sentence names something the question says the amount is for, beyond the amount's noun and the
    words every amount sentence shares (a word of the question, or one sharing its first AMOUNT_FOR_PREFIX
    letters)."""
    words = {w for w in _WORD_RE.findall(text.lower()) if len(w) >= 4}
    asked = {w for w in _WORD_RE.findall(question.lower()) if len(w) >= 4 and content_words(w)
             and not any(w.startswith(noun) for noun in nouns) and w not in {"much", "what", "whats", "month", "monthly"}}
    return any(w == a or (len(w) >= AMOUNT_FOR_PREFIX and len(a) >= AMOUNT_FOR_PREFIX
                          and w[:AMOUNT_FOR_PREFIX] == a[:AMOUNT_FOR_PREFIX]) for w in words for a in asked)


def _amount_of(unit: Unit, nouns: frozenset[str]) -> bool:
    """Whether the sentence holds a dollar amount of what is asked (``nouns``, named within AMOUNT_NOUN_CHARS of
    the figure: "copays are $15", not "up to $1,000 for books" some way after "housing allowance"; any amount
    when none is named)."""
    if "$" not in unit.text:
        return False
    if not nouns:
        return True
    text = unit.text.lower()
    figures = [m.start() for m in re.finditer(r"\$", text)]
    return any(abs(m.start() - at) <= AMOUNT_NOUN_CHARS for noun in nouns
               for m in re.finditer(rf"\b{noun}", text) for at in figures)


def _claim_kinds(text: str) -> frozenset[str]:
    return frozenset(found.lastgroup for found in _CLAIM_KIND_RE.finditer(text))
# A sentence announcing a list ("organizes services into five tracks", "there are three options") and the
# items after it, each a short label and a colon ("Self-Employment: support for starting a business").
_LIST_ANNOUNCED_RE = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:\w+\s+)?(?:tracks|options|ways|types|steps|"
    r"lanes|categories|groups|kinds|parts|tiers|programs|choices|paths|dockets|things|elements|requirements|"
    r"criteria)\b[^.!?]*[.:]?$", re.IGNORECASE)
_LIST_ITEM_RE = re.compile(r"^\s*(?:[-•*]\s*)?[A-Z][^:.!?\n]{1,60}:\s+\S")
_WORD_RE = re.compile(r"[a-z0-9]+(?:['’-][a-z0-9]+)*")
# "I'm rated 10 percent, can I get voc rehab": the asker's own rating is context, not a level asked about, and
# it does not make the question one about a rating table.
_OWN_RATING_RE = re.compile(
    r"\b(?:i'?m|i am|i'?ve been|i have been|been|currently|already)\s+(?:currently\s+)?rated\s+(?:at\s+)?"
    r"\d{1,3}\s?(?:%|percent\b)|\bmy (?:current |combined )?rating is \d{1,3}\s?(?:%|percent\b)?|"
    # "I just got rated 10% for tinnitus, do I still pay the funding fee", "VA rated me 30%": the asker's level.
    r"\bi (?:just |recently |finally )?(?:got|was|have been|was just) rated\s+(?:at\s+)?\d{1,3}\s?(?:%|percent\b)|"
    r"\b(?:va|they) (?:just |recently |finally )?rated me\s+(?:at\s+)?\d{1,3}\s?(?:%|percent\b)|"
    # "VA says my knee is 10% sc, my other knee hurts from limping": the level a condition of the asker's holds.
    r"\bmy (?:[\w-]+ ){1,3}(?:is|are|was|were) (?:rated |only |currently |already )*(?:at )?\d{1,3}\s?(?:%|percent\b)"
    r"(?=\s*(?:sc|service[- ]connected|rated|now|already|[,.;]|and\b|but\b|$))|"
    # "A double amputee and 100% P&T": permanent and total is a standing, never a level asked about.
    r"\b100\s?(?:%|percent\b)\s+(?:p\s?&\s?t|p and t|permanent(?:ly)? and total(?:ly)?)\b|"
    # "I'm at 90%", "if I'm 50 percent, do I pay copays", "as a 100% disabled vet": the asker's own level.
    r"\b(?:i'?m|i am|currently|already)\s+(?:(?:at|sitting at|on)\s+)?(?:an?\s+)?\d{1,3}\s?(?:%|percent\b)|"
    # "my other conditions add up to 60%", "they combine to 70 percent": the asker's own figures.
    r"\b(?:add(?:s|ed)? up to|combine(?:s|d)? (?:to|for)|come(?:s)? (?:out )?to)\s+(?:about\s+)?\d{1,3}\s?(?:%|percent\b)|"
    # "VA has me at 70 percent", "they put me at 60%": the level VA gave the asker.
    r"\b(?:has|have|had|put|puts|got)\s+me\s+(?:at|down as|as)\s+\d{1,3}\s?(?:%|percent\b)|"
    # "I drive 40 miles each way, 30% rated": the asker's own level told after the question.
    r"(?:^|[,;.]\s*|\band\s+)\d{1,3}\s?(?:%|percent)\s+(?:rated|sc|service[- ]connected|disabled)\b(?!\s+(?:for|on)\b)|"
    r"\bas an?\s+\d{1,3}\s?(?:%|percent)\s+(?:disabled\s+|service[- ]connected\s+)?(?:vet|veteran)\b|"
    r"\bi (?:have|got) (?:a |an )?\d{1,3}\s?(?:%|percent) (?:rating|combined rating)\b|"
    # "I have 10% for my knee": the level a condition of the asker's holds.
    r"\bi have (?:a |an )?\d{1,3}\s?(?:%|percent) (?:for|on) (?:my|the) [\w-]+(?=[.,;]|\s*$)|"
    # "Can VA drop my 100 percent rating", "is my 70% PTSD rating protected": the asker's own level.
    r"\bmy \d{1,3}\s?(?:%|percent)(?: [\w&-]+)? (?:rating|p&t)\b|"
    # "life insurance for my 100 percent disabled husband": a person described by a rating.
    r"\b(?:my|his|her|our|a|an)\s+\d{1,3}\s?(?:%|percent)\s+(?:disabled|service[- ]connected|p&t|p and t|rated)\s+"
    r"(?:husband|wife|spouse|dad|father|mom|mother|son|daughter|vet|veteran|brother|sister)\b|"
    # "my husband was 100% P&T for 12 years": another person's rating, told as context.
    r"\b(?:he|she|husband|wife|spouse|dad|father|mom|mother|son|daughter)\s+(?:was|is|had been|has been|gets|got|"
    r"receives|has|had)\s+(?:rated\s+)?(?:at\s+)?(?:a\s+)?\d{1,3}\s?(?:%|percent\b)|"
    # "VA just granted me a new 10% rating for hearing loss, am I too old for VALife": the rating the asker was given.
    r"\b(?:granted|awarded|gave|given)\s+(?:me|him|her|us)?\s*(?:an?\s+)?(?:new\s+)?\d{1,3}\s?(?:%|percent\b)|"
    # "Do I have to be 100% to get voc rehab": a rating as a condition of another benefit.
    r"\b(?:have to|need to|must|got to|gotta)\s+(?:be|have)\s+(?:rated\s+)?(?:at\s+)?(?:least\s+)?(?:a\s+)?"
    r"\d{1,3}\s?(?:%|percent\b)(?=\s+(?:to|before)\s+(?:get|qualify|use|apply|receive|be eligible)\b)",
    re.IGNORECASE)
# The rating a benefit requires ("a combined rating of 70% or more", "rated at least 60%"): what decides
# whether the asker's own level, told in the question, is enough.
_THRESHOLD_RE = re.compile(r"\b\d{1,3}\s?(?:%|percent)\s+or\s+(?:more|higher|above|greater)\b|"
                           r"\bat least\s+\d{1,3}\s?(?:%|percent)", re.IGNORECASE)
W_THRESHOLD = 0.15
# "I'm 40% service connected, what priority group am I in": the sentence naming the asker's own level ("rating of
# 30% or 40%") answers for them, when the question asks about no level of its own (a yes or no asked with the
# asker's level weighs the required level instead, W_THRESHOLD).
W_OWN_LEVEL = 0.15
# "Is my effective date protected if I file a Supplemental Claim within a year": the branch for filing after the
# year ("If you file more than a year after the decision ...") is the other case.
_WITHIN_YEAR_RE = re.compile(r"\bwithin (?:a|one|1|the|that|the first) year\b", re.IGNORECASE)
_AFTER_YEAR_RE = re.compile(r"\b(?:more than|over|after) (?:a|one|1) year\b|\blet (?:a|one|the) year pass\b",
                            re.IGNORECASE)
W_OTHER_BRANCH = 0.1
# "Gulf War vet, was in Saudi in 1991, can I enroll now": a page whose rule opens on those who served after
# November 11, 1998 is another's case; the year the asker says they served, and a rule's branch on when one served.
_SERVED_IN_RE = re.compile(
    r"\b(?:served|serving|was in|were in|deployed|stationed|went to|in country|(?:gulf war|vietnam|korea) vet\w*)\b"
    r"[^.?!\d]{0,30}?\b(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)
_SERVICE_BRANCH_RE = re.compile(
    r"\bserv(?:ed|ice)\b[^.;]{0,80}?\b(?P<op>on or after|after|before|since)\s+(?:(?:January|February|March|April|May|"
    r"June|July|August|September|October|November|December)\s+\d{1,2},\s+)?(?P<year>(?:19|20)\d\d)\b")
# "The Board denied my appeal, how long do I have to take it to the court": the Board Appeal is behind the asker;
# a sentence on requesting one is not the next step asked about.
_BOARD_DECIDED_RE = re.compile(r"\b(?:board|bva|veterans law judge)\b[^.?!]{0,50}\b(?:denied|decided|decision|"
                               r"turned (?:me )?down|rejected|ruled)\b|"
                               r"\b(?:denied|lost|turned down)\b[^.?!]{0,30}\b(?:at|by|from) the (?:board|bva)\b",
                               re.IGNORECASE)
_BOARD_REQUEST_RE = re.compile(r"\b(?:request|file|filing|submit)\w*\b[^.]{0,40}\bBoard Appeal\b|\bBoard Appeal (?:sends|asks)\b|"
                               r"\bVA Form 10182\b")
# "I'm rated 10%, do I still have to pay the funding fee": a yes or no is answered by a sentence ("veterans
# receiving compensation are exempt"), not by the lead of a table of rates.
# "Common examples are radiculopathy or sciatica ...": an example illustrates the rule before it and never leads it.
_EXAMPLE_OPENING_RE = re.compile(r"^\W*(?:(?:common|typical|some|other)\s+)?examples?\b|^\W*for (?:example|instance)\b",
                                 re.IGNORECASE)
_TABLE_LEAD_RE = re.compile(r":\s*$")
W_TABLE_LEAD_YES_NO = 0.1
# "A temporary 100 percent after surgery" names the temporary total rating, not a level of some table.
_TEMPORARY_TOTAL_RE = re.compile(r"\btemporary (?:total|100 ?(?:%|percent\b))(?: ratings?)?|\b100 ?(?:%|percent) temporar\w*|"
                                 # "after the 100% period ends": a knee replacement's months at 100 percent.
                                 r"\b100 ?(?:%|percent) (?:period|months?|stretch)\b|"
                                 # "Can VA pay me 100% while I recover from shoulder surgery": a convalescence.
                                 r"\b100 ?(?:%|percent) (?:while|until|during) (?:i|he|she|you) (?:recover|heal|rehab)\w*",
                                 re.IGNORECASE)
# "Three ratings at 10 percent, what's my combined": the levels are the asker's, not the ones asked about.
_COMBINED_RE = re.compile(r"\bcombin\w*", re.IGNORECASE)
# A yes/no question ("do I need ...", "can I get ...") is answered by the explanation before any table.
# "I have PTSD and depression, will the VA give me two ratings": the question may follow what the asker says
# ("im rated 40% do i have to pay the funding fee", "im 10% disabled do i have to pay": a level written runs into it).
_YES_NO_RE = re.compile(r"(?:^|[,.;:!?\-–—]\s|\d\s?(?:%|percent)(?:\s(?:disabled|sc|service[- ]connected|p&t))?\s)\W*"
                        r"(?:do|does|did|can|could|is|are|am|was|will|would|should|has|have|if)\b",
                        re.IGNORECASE)
# A condition's table that condenses the levels it borrows ("PTSD ... Condensed levels:"): the General Rating
# Formula's own page gives each row in full.
_CONDENSED_RE = re.compile(r"\bcondensed levels\b", re.IGNORECASE)
# "1. File a Notice of Disagreement ...": a numbered step says what it is only under its list's lead ("the steps of
# a legacy appeal").
_NUMBERED_STEP_RE = re.compile(r"^\s*\d{1,2}[.)]\s")
# An instruction ("Check that the clinic is in VA's network before going", "Talk with your VA care team"): a step
# of its own page's process, which borrowed into another answer tells the asker to do the wrong thing.
_INSTRUCTION_RE = re.compile(r"^\s*(?:check|call|ask|talk|contact|visit|bring|keep|make sure|be sure|remember|go to|"
                             r"use|apply|submit|send|file|fill out|sign|log in|upload|print)\b", re.IGNORECASE)
# "To request a Board Appeal, complete VA Form 10182": how to do one thing, which is noise beside an answer on
# another ("the Board denied my appeal, what are my options").
_PURPOSE_INSTRUCTION_RE = re.compile(r"^\s*to [^,.]{3,80}, (?:complete|fill out|file|submit|use|send|call|go to|"
                                     r"sign|mail|fax|upload|ask)\b", re.IGNORECASE)
# "Compare sleep apnea and asthma": sentences about the other condition are then part of the answer.
# A sentence that opens by leaning on the one before it.
_CONTEXT_BOUND_RE = re.compile(r"^\s*(?:so|thus|therefore|that|this|these|those|it|they|such|but|however|also|"
                               r"and|or|then|otherwise)\b|"
                               # "If you then submit a complete claim within 1 year": the step before it is elsewhere.
                               r"^\s*(?:if|when|once|after)\s+(?:you|they|he|she|the veteran)\s+then\b", re.IGNORECASE)
# "that year", "the same window": a sentence naming something only the sentence before it defines ("the same
# period of service" says which period itself).
_BACK_REFERENCE_RE = re.compile(r"\b(?:that|this|those|these|the same)\s+(?:one[- ]year\s+)?(?:year|window|period|"
                                r"deadline|time limit|date|amount|rule|limit)s?\b(?! of\b)", re.IGNORECASE)
# A worked example's source ("Intent to file example: how much back pay it can protect"): its sentences tell
# one veteran's case, so they answer only when that source leads.
_EXAMPLE_TITLE_RE = re.compile(r"\bexamples?\b", re.IGNORECASE)
# The asker's own dates ("got out May 2023, intent to file March 10 2024"): a worked example's dates would
# read as theirs ("the effective date can be March 10, 2025"), so an example's page weighs less.
_OWN_DATES_RE = re.compile(r"\b(?:19[4-9]\d|20[0-4]\d)\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)"
                           r"[a-z]*\.? \d{1,2}\b|\b(?!9/11\b)\d{1,2}/\d{1,2}(?:/\d{2,4})?\b", re.IGNORECASE)  # not "Post-9/11"
W_OTHERS_EXAMPLE = 0.3
W_EXAMPLE = 0.1
# A table's introducing sentence comes with its rows when it says something: at least this many words.
CAPTION_MIN_WORDS = 6
# "Your rating decision may also say ...": a sentence that adds to the one before it, early on.
_ADDITIVE_RE = re.compile(r"^(?:\W*\S+\s+){0,8}?(?:also|too|as well|likewise|either|however|instead|though)\b", re.IGNORECASE)
# The best sentence leads when it outscores the source's opening sentence by this much; closer scores are
# noise, and the source's own order reads better. Chosen on fresh questions read by hand (a 0.02 to 0.04 lead
# put a side fact first; 0.08 to 0.46 put the answer first).
DIRECT_FIRST_MARGIN = 0.05
# A sentence with no more than this many words the question lacks restates it ("... are in 38 CFR 4.16(a)"
# adds "CFR" and an alias): the sentence after it carries the answer.
RESTATES_NEW_WORDS = 2
# A source's own question ("Can I get 10 percent for each ear?") and its bare "Yes." or "No." answer that
# question, not the asker's, which may be put the other way round; the explanation after them is served.
_NOT_AN_ANSWER_RE = re.compile(r"^\s*(?:[^\n]*\?\s*|(?:yes|no)[.!]?\s*)$", re.IGNORECASE)
_LEADING_YES_NO_RE = re.compile(r"^(?:yes|no)[.!,]\s+(?=[a-z])", re.IGNORECASE)
# "What is X", "what does X mean": a glossary entry's page ("Clear and unmistakable error (CUE): definition") weighs
# a little more than the pages of examples and steps that name X as often.
_DEFINITION_ASKED_RE = re.compile(r"^\W*(?:what(?:'s| is| are| does)|whats|define|meaning of)\b", re.IGNORECASE)
_DEFINITION_TITLE_RE = re.compile(r": definition$", re.IGNORECASE)
W_DEFINITION = 0.1
_PARENTHESES_RE = re.compile(r"\([^)]*\)")


def _defines_asked(title: str, q_words: frozenset[str]) -> bool:
    """Whether ``title`` is a glossary entry's ("X (ABBR): definition") for a term every word of which the question
    writes ("what does it mean when my claim is in gathering evidence" asks no "new and relevant evidence")."""
    if not _DEFINITION_TITLE_RE.search(title):
        return False
    term = content_words(_PARENTHESES_RE.sub(" ", _DEFINITION_TITLE_RE.sub("", title)))
    return bool(term) and term <= q_words
_COMPARISON_RE = re.compile(r"\b(?:vs\.?|versus|compar\w*|differen\w*|differ|between)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Unit:
    chunk_number: int
    position: int
    text: str
    vector: np.ndarray


def extractive_generate(
    *,
    question: str,
    question_vector: np.ndarray,
    chunks: Sequence[SourceChunk],
    units: Mapping[int, Sequence[tuple[str, np.ndarray]]],
    chunk_types: Mapping[int, str] | None = None,
    codes: Sequence[str] = (),
    condition_names: Mapping[str, str] | None = None,
    name_words: frozenset[str] = frozenset(),
    benefits: frozenset[str] = frozenset(),
    rare_words: frozenset[str] = frozenset(),
    asked: str | None = None,
) -> Generation:
    """Return a cited answer built from the chunks' own sentences; empty text when nothing fits.

    ``codes`` are diagnostic codes and form numbers the question refers to without writing them (a condition
    named in the schedule's words); those it writes are found in it here. ``condition_names`` (lower-case
    name → code) let a sentence that names another condition in words be told apart from one on the asked one.
    ``rare_words`` (stems) are the question's words the whole corpus holds only a few times
    (knowledge.selectors.rare_words_find, read once by the retrieval step): a source holding one is weighed up.

    The source holding the best-matching unit leads: its relevant sentences (or its rating table, for a
    rating question) come first, in its own order; the best sentence of the next sources follows when it
    adds something new.
    """
    chunk_types = chunk_types or {}
    q_words = content_words(question)
    # "Does voc rehab pay a monthly stipend": every VR&E source matches "voc rehab"; the words left say which
    # one answers, so the benefit's own name (``name_words``) does not count toward a sentence's overlap.
    aspect_words = q_words - name_words
    if not aspect_words - FRAME_WORDS:  # "how long does voc rehab last": only the question's frame is left
        aspect_words = q_words
    rare_words = rare_words - name_words  # "voc rehab": a benefit's own short name is rare, not what is asked
    written = set(dc_codes_find(question)) | set(va_forms_find(question))  # not a code a condition's name implies
    q_entities = written | set(codes)
    wants_number = bool(_QUANTITY_QUESTION_RE.search(question))
    not_connected = bool(_NOT_CONNECTED_RE.search(question))
    connected_death = not not_connected and bool(_CONNECTED_DEATH_RE.search(question))
    counted = _count_pattern(question)
    time_limit = counted is not None and not _HOW_MANY_RE.search(question)
    q_phrases = _word_runs(question)  # not cached: the cache holds sources' titles, which come back
    wants_form = bool(_APPLY_QUESTION_RE.search(question))
    wants_rules = bool(_ELIGIBILITY_QUESTION_RE.search(question))
    wants_all = bool(_ALL_LEVELS_RE.search(question))
    head_asks = bool(_HEAD_ASKS_RE.search(asked or question))
    champva_asks = bool(_CHAMPVA_ASKS_RE.search(asked or question))
    older_asks = bool(_OLDER_ASKS_RE.search(re.sub(r"\d+\s?(?:%|percent)", " ", asked or question)))
    days_left = _days_left(asked or question)
    served_years = {int(m.group("year")) for m in _SERVED_IN_RE.finditer(asked or question)}
    served_in = served_years.pop() if len(served_years) == 1 else None
    buying = bool(_PURCHASE_ASKS_RE.search(asked or question))
    refinancing = bool(_REFINANCE_ASKS_RE.search(asked or question))
    own_dates = bool(_OWN_DATES_RE.search(question))
    separated = bool(_SEPARATED_RE.search(question)) and not _STILL_SERVING_RE.search(question)
    serving = bool(_SERVING_NOW_RE.search(question)) and not separated
    # The question without the asker's own rating; "how do I file for an increase on my knee rating" asks for
    # the way to file, not for the knee's levels, so an apply question asks for no table.
    # The levels come from the question as asked (``asked``), not from the lay terms appended to it: "rated 0% for
    # hemorrhoids, do I still pay the funding fee" brings "what a 0% noncompensable rating means", no level asked.
    levels_text = "" if wants_form else _TEMPORARY_TOTAL_RE.sub(" ", _OWN_RATING_RE.sub(" ", asked or question))
    if levels_text != (asked or question) and not _RATING_QUESTION_RE.search(levels_text) \
            and levels_asked(levels_text, asked_as=asked or question):
        # "I'm at 50% for depression, what gets me bumped to 70": with the asker's own level out, the bare 70
        # is still the rating asked about.
        levels_text += " rating"
    if levels_text and not _RATING_QUESTION_RE.search(levels_text) and _DEFINITION_ASKED_RE.search(levels_text) \
            and dc_codes_find(levels_text):
        levels_text += " rating"  # "whats diagnostic code 5276": a code is its criteria, so its levels say what it is
    levels = levels_asked(levels_text, asked_as=asked or question) if _RATING_QUESTION_RE.search(levels_text) and \
        not _COMBINED_RE.search(question) else frozenset()
    if _HIGHEST_RE.search(question) or _LOWER_LEVEL_RE.search(question) or wants_all:
        # "is 40% the max for a back", "when does the 100% stop and what do I drop down to", "list all the levels
        # 0 to 100 for anxiety": the whole table answers, not the row of the level named alone
        levels = frozenset()
    by_chunk: dict[int, list[tuple[float, Unit]]] = {}
    counted_units: set[int] = set()
    # The sources that name a code or form the question names come first, then the closest in meaning; one
    # holding the level asked about (among the close ones) is always read.
    def named(c: SourceChunk, entities: set[str] = q_entities) -> bool:
        return bool(entities & _codes_in(f"{c.title}\n{c.content}"))

    # "Can I get sleep apnea service connected secondary to PTSD", "can I file for tinnitus 20 years after I got
    # out": how a condition is tied to service or when it can be claimed is asked, not its table, so the sources
    # the conditions' names imply do not go first.
    # An application question ("how do I file for tinnitus") asks for the way to claim, not the levels, too.
    not_its_table = bool(_NOT_ITS_TABLE_RE.search(question) or wants_form) \
        and not _RATING_QUESTION_RE.search(levels_text)
    name_items = tuple(sorted(condition_names.items())) if condition_names else ()
    names = _names_pattern(name_items) if name_items else None
    # "How is neuropathy in my feet from diabetes rated", "ED from my diabetes meds": the condition named
    # after "from" or "due to" is the cause; its table is not what was asked, so it does not go first.
    causes = _causes_named(question, names, _condition_words(name_items)) - written
    asked_entities = q_entities - causes
    implied = set(codes) - written  # the codes of conditions the question names in words
    leading_entities = written if not_its_table else asked_entities
    rated_for = frozenset() if levels else _rated_for(question, names)
    # "My husband gets 10% for tinnitus; how much funding fee do we owe": the condition a rating is for tells
    # whose rating it is; asked about something else, its sources do not go first.
    leading_entities = leading_entities - rated_for
    # The words a rating the asker holds is for, named in words no condition's name holds ("I'm 60 for my back and
    # 20 for knees"): a condition's page titled with one is the asker's, not what is asked.
    rated_for_words = frozenset() if levels else _rated_for_words(question)

    def rated_for_title(c: SourceChunk) -> bool:
        return bool(rated_for_words & content_words(c.title)) and \
            (bool(c.diagnostic_code) or chunk_types.get(c.chunk_id) == "rating_table")

    top_score = max((c.score for c in chunks), default=0.0)

    def holds_level(c: SourceChunk) -> bool:
        return bool(levels) and c.score >= LEVEL_SOURCE_FLOOR * top_score and \
            any(levels & _row_levels(text) for text, _ in units.get(c.chunk_id, ()))

    # "I'm P&T, can my kids get money for college": the sources on the benefit the question names come first,
    # then those on no benefit, then those only on others (VR&E's college track), however close in meaning.
    specific = benefits - BROAD_BENEFITS
    specific = specific - STATUS_BENEFITS or specific

    def apart_from_health(c: SourceChunk) -> bool:
        # "How long after getting out do combat vets get VA health care": VA health care is named on so many pages
        # that it sets none aside, but a page only on schooling, loans or VR&E is not on it ("ends 12 years from").
        return not specific and "va_health_care" in benefits and bool(c.benefits) and c.benefits <= APART_FROM_HEALTH

    parents_asked = bool(_PARENTS_ASKED_RE.search(asked or question))

    def benefit_rank(c: SourceChunk) -> int:
        if _other_benefits_only(c, specific) or _titled_for_another(c, specific) or apart_from_health(c):
            return 2
        if len(specific) > 1 and _on_every(c, specific):
            return -1  # "Can I use voc rehab and the GI Bill": the page on both answers before a page on one
        return 1 if specific and not (_on_benefit(c, specific) or _presumption_only(c)) else 0

    # "Do I have to travel to DC for my BVA hearing": a hearing before a judge, not the sense of hearing; the
    # pages on hearing loss are not read.
    proceeding = bool(_PROCEEDING_HEARING_RE.search(question)) and not _HEARING_SENSE_RE.search(question)

    def misread(c: SourceChunk) -> bool:
        return proceeding and bool(_HEARING_SENSE_RE.search(c.title))

    def unasked_table(c: SourceChunk) -> bool:
        return not_its_table and (chunk_types.get(c.chunk_id) == "rating_table" or _about(c, implied))

    # "The army made my flat feet worse, can I get disability for that": the claim's rule answers, so the
    # condition's own pages are read after the others, however close in meaning.
    # "What do I need to show to get 20 for knee flexion": among the sources naming the code, the code's own
    # table comes before the pages that mention it (the knee's separate ratings, the extension table).
    sources = sorted(chunks, key=lambda c: (not named(c, leading_entities), c.diagnostic_code not in leading_entities,
                                            benefit_rank(c), unasked_table(c), c.number))
    sources = [c for c in sources if not misread(c)] or sources
    read = sources[:MAX_SOURCE_CHUNKS]
    # "Why was my retro check less than expected? I'm a military retiree": the source full-text search ranks
    # first (it says "retired pay") may sit below the best few in meaning; it is read too.
    read += [c for c in sources[MAX_SOURCE_CHUNKS:] if c.lexical_rank == 1][:1]
    # "What is continuous pursuit": a two-word name the question writes that no source read holds, but a lower
    # source's title does ("Keeping your effective date through decision reviews (continuous pursuit)"). Not
    # one whose words the sources read hold ("submission docket", "disability claim"): they speak of it already.
    read_words = frozenset().union(*(source_words(c.title, c.content) for c in read))
    unread_pairs = frozenset(pair for pair in _word_pairs(question)
                             if not content_words(" ".join(pair)) <= read_words)
    if unread_pairs:
        read += [c for c in sources[len(read):] if unread_pairs & _title_pairs(c.title)][:1]
    # "The BVA denied me, what are my options now": the everyday words brought the page's own name ("options after
    # a Board decision", knowledge/phrases/lay_terms.yaml); the page so named is read, ranked where it may be.
    appended = content_words(question[len(asked):]) if asked and question.startswith(asked) else frozenset()
    if appended:
        read += [c for c in sources[len(read):] if (title := content_words(c.title)) and title <= appended][:1]

    def titled_for_asked(c: SourceChunk) -> bool:
        return _benefits_meet(_title_benefits(c.title), specific)

    if specific and read and not any(titled_for_asked(c) for c in read):
        # "70% combined, highest single rating 30%, can I get unemployability": the best few only mention the
        # benefit asked about (the combined rating's pages naming TDIU); the first page titled for it is read.
        read += [c for c in sources[len(read):] if titled_for_asked(c)][:1]
    if _LEVELS_QUESTION_RE.search(levels_text) and not _COMBINED_RE.search(question) and read and \
            not any(chunk_types.get(c.chunk_id) == "rating_table" for c in read):
        # "How does VA rate PTSD?": no table among the best few, but a lower-ranked one is a condition's table
        # (its title names the code) titled with a word of the question; the levels are what was asked, so it
        # is read too.
        named_words = q_words - LEVEL_WORDS
        # Not the table of what the asker is rated for ("what percentages do I need for TDIU? I'm 60 for my back
        # and 20 for knees").
        titled = [c for c in sources[len(read):] if chunk_types.get(c.chunk_id) == "rating_table"
                  and dc_codes_find(c.title) and named_words & content_words(c.title) and not rated_for_title(c)]
        read += titled[:1]
    def holds_level_in_full(c: SourceChunk) -> bool:
        return holds_level(c) and not _CONDENSED_RE.search(c.content)

    survivor_asks = bool(_SURVIVOR_ASKS_RE.search(question))
    survivor_pension_asks = survivor_asks and bool(_PENSION_RE.search(question))
    guard_asks = bool(_GUARD_ASKS_RE.search(asked or question))
    legacy_asks = bool(_LEGACY_ASKS_RE.search(question))
    proposal_only = bool(_PROPOSED_REDUCTION_RE.search(asked or question)) and not _REVIEW_ASKS_RE.search(asked or question)
    children_alone = bool(_CHILDREN_ALONE_RE.search(asked or question))
    served_at_base = bool(_SERVED_AT_BASE_RE.search(asked or question)) and not _LIVED_AT_BASE_RE.search(asked or question)

    def others_case(c: SourceChunk) -> bool:
        # "I got out last month": a page for those still serving; "I'm 58, can I still get the pension": a page
        # for survivors; "my claim got denied last week, how do I appeal": not a page for legacy appeals.
        return (separated and bool(_SERVING_TITLE_RE.search(c.title))) or \
            (serving and bool(_LEFT_TITLE_RE.search(c.title))) or \
            (not survivor_asks and bool(_SURVIVORS_TITLE_RE.search(c.title))) or \
            (survivor_pension_asks and bool(_VETERANS_PENSION_AMOUNTS_TITLE_RE.search(c.title))) or \
            (not guard_asks and bool(_GUARD_TITLE_RE.search(c.title))) or \
            (not legacy_asks and bool(_LEGACY_TITLE_RE.search(c.title))) or \
            (proposal_only and bool(_REVIEW_TITLE_RE.search(c.title))) or \
            ((parents_asked or children_alone) and _titled_for_spouse(c)) or \
            (served_at_base and bool(_FAMILY_MEMBER_TITLE_RE.search(c.title))) or \
            (parents_asked and _dic_for_others_than_parents(c)) or \
            (head_asks and bool(_NOT_HEAD_TITLE_RE.search(c.title))) or \
            (not champva_asks and bool(_CHAMPVA_TITLE_RE.search(c.title))) or \
            (not older_asks and bool(_OLDER_TITLE_RE.search(c.title))) or \
            (days_left is not None and days_left >= 90 and bool(_UNDER_90_TITLE_RE.search(c.title))) or \
            (days_left is not None and days_left < 90 and bool(_BDD_WINDOW_TITLE_RE.search(c.title))) or \
            (buying and not refinancing and bool(_REFINANCE_TITLE_RE.search(c.title))
             and not _PURCHASE_TITLE_RE.search(c.title)) or \
            (refinancing and not buying and bool(_PURCHASE_TITLE_RE.search(c.title))
             and not _REFINANCE_TITLE_RE.search(c.title)) or \
            (served_in is not None and _served_otherwise(served_in, c.content))

    if wants_rules and read and not any(chunk_types.get(c.chunk_id) == "eligibility" and not others_case(c)
                                        for c in read):
        # "I'm 10% service connected, can I get VR&E": who qualifies is asked; the rules' source ranked lower
        # is read too (not the one for those still serving).
        read += [c for c in sources[len(read):] if chunk_types.get(c.chunk_id) == "eligibility"
                 and not others_case(c) and c.score >= RULES_SOURCE_FLOOR * top_score][:1]
    if wants_form and read and not any(va_forms_find(c.content) for c in read):
        # "Knee is rated 10 and it's worse, how do I ask for a higher rating, which form": the knee's pages name no
        # form; the first close source that does (the increase's 21-526EZ) is read too.
        read += [c for c in sources[len(read):] if va_forms_find(c.content) and c.score >= RULES_SOURCE_FLOOR * top_score][:1]
    if levels and read and not any(holds_level_in_full(c) for c in read):
        # The level asked about is a row of a source ranked lower: it takes the last place. A level given in
        # full (the General Rating Formula's 70% row) takes it from one a condition's condensed table gives.
        full = [c for c in sources if c not in read and holds_level_in_full(c)][:1]
        if full or not any(holds_level(c) for c in read):
            read[-1:] = full or [c for c in sources if holds_level(c)][:1] or read[-1:]
    asked_codes = {e for e in leading_entities if _DC_RE.fullmatch(e)}  # not a cause ("ED from diabetes")
    if asked_codes and _RATING_QUESTION_RE.search(levels_text) and read \
            and not any(c.diagnostic_code in asked_codes or asked_codes & _codes_in(f"{c.title}\n{c.content}")
                        for c in read):
        # "What is the rating for hepatitis C" met only other conditions' tables (atrial fibrillation's): another
        # condition's levels would read as the answer, so nothing is said. The same for a table of no one code
        # (the General Rating Formula for Mental Disorders met by "what's the rating for narcolepsy"), and for
        # pages on ratings in general ("what's the VA rating table for an inguinal hernia" met "what a VA
        # disability rating is"): the sources hold no levels for the condition asked about.
        return Generation(text="", model=MODEL_NAME)
    head = _rated_condition_head(question) if not asked_codes and not wants_form else ""
    if head and read and not any(head in source_words(c.title, c.content)
                                 or any(head in content_words(text) for text, _ in units.get(c.chunk_id, ())) for c in read):
        # "What is the VA rating for restless leg syndrome" met radiculopathy's table, "anal fissure" urine
        # leakage's: a condition no code names whose head word ("syndrome", "fissure") no source read holds has
        # no levels here, so nothing is said. (Only the head:
        # "bad eyesight in one eye" and "a missing finger" are answered by pages saying "eye" and "finger".)
        return Generation(text="", model=MODEL_NAME)
    if specific and not specific <= STATUS_BENEFITS and read and all(_other_benefits_only(c, specific) for c in read):
        # "How much does chapter 35 pay per month" met only DIC's and the GI Bill's sources: another benefit's
        # amounts would read as the answer, so nothing is said. A status is no program: "he was P&T for 12 years
        # and died, can I get anything" is answered by DIC's pages.
        return Generation(text="", model=MODEL_NAME)
    comparing = bool(_COMPARISON_RE.search(question))
    defining = bool(_DEFINITION_ASKED_RE.match(question))
    # "He is 50% service connected, can I get the stipend": whether the asker's own level is enough is asked
    # (not how to apply, nor what happens to a payment).
    yes_no = bool(_YES_NO_RE.search(question))
    within_year = bool(_WITHIN_YEAR_RE.search(question))
    board_decided = bool(_BOARD_DECIDED_RE.search(question))
    # A limit asked for, not whether there is one, and the forms the question names (_another_forms_none).
    limit_not_whether = counted is not None and not _WHETHER_LIMIT_RE.search(question)
    question_forms = frozenset(va_forms_find(question))
    # "Do I still have to pay the funding fee": a yes or no on no rating, which a sentence answers before any table.
    yes_no_not_levels = yes_no and not _RATING_QUESTION_RE.search(levels_text) and not _HIGHEST_RE.search(question)
    # "My dad is not service connected for anything, can the caregiver program pay me": whether having no rating is
    # enough is asked the same way.
    own_level = bool(_OWN_RATING_RE.search(question) or (not_connected and not survivor_asks)) and yes_no \
        and not wants_form
    own_levels = frozenset() if levels or own_level else frozenset(
        int(n) for m in _OWN_RATING_RE.finditer(question) for n in _LEVEL_WRITTEN_RE.findall(m.group(0)))
    sides = _comparison_sides(question) if comparing else []
    for words in sides:
        # "Higher-Level Review vs Supplemental Claim": each side's own page is read, ranked where it may be.
        if not any(words <= content_words(c.title) for c in read):
            read += [c for c in sources if c not in read and words <= content_words(c.title)][:1]
    chunk_of_read = {c.number: c for c in read}
    # One kind: "a Higher-Level Review and a Supplemental Claim at the same time" asks how they meet, which a page
    # titled with one of them does not answer.
    claim_kinds = kinds if len(kinds := _claim_kinds(asked or question)) == 1 else frozenset()
    levels_of_owned = bool(_RATING_QUESTION_RE.search(levels_text) or _HIGHEST_RE.search(question)) \
        and any(c.diagnostic_code and c.diagnostic_code in q_entities for c in read)
    for chunk in read:
        # A title names what the whole chunk is about ("Knee limitation of flexion (bending)").
        title_match = len(q_words & content_words(chunk.title)) / len(q_words) if q_words else 0.0
        chunk_match = W_CHUNK * chunk.score + W_TITLE * title_match
        if q_phrases & _title_phrases(chunk.title) or unread_pairs & _title_pairs(chunk.title):
            # "specially adapted housing": SAH's page, not "Special Housing Adaptation"; "continuous pursuit": the
            # one page titled with it
            chunk_match += W_TITLE_PHRASE
        if wants_form and va_forms_find(chunk.content):
            chunk_match += W_FORM_CHUNK
        if claim_kinds & _claim_kinds(chunk.title):
            chunk_match += W_CLAIM_KIND
        if wants_rules and chunk_types.get(chunk.chunk_id) == "eligibility":
            chunk_match += W_ELIGIBILITY_CHUNK
        if others_case(chunk):
            chunk_match -= W_OTHER_POLARITY
        if defining and _defines_asked(chunk.title, q_words):
            chunk_match += W_DEFINITION  # "what is clear and unmistakable error and how do I claim it": the meaning first
        if _EXAMPLE_TITLE_RE.search(chunk.title):
            # "What is the effective date for an increased rating": the rule answers, not one veteran's case; the
            # asker's own dates make another's case the more misleading.
            chunk_match -= W_OTHERS_EXAMPLE if own_dates else W_EXAMPLE
        if unasked_table(chunk):
            chunk_match -= W_UNASKED_TABLE  # "VA denied my tinnitus, can I still get it": the claim, not its levels
        if wants_all and _holds_every_level(chunk, units):
            chunk_match += W_ALL_LEVELS
        if rare_words & source_words(chunk.title, chunk.content):
            chunk_match += W_RARE  # "the DIC transitional benefit": the one page that says "transitional"
        if _other_benefits_only(chunk, specific) or _titled_for_another(chunk, specific):
            chunk_match -= W_OTHER_BENEFIT
        # "Conditions with their own codes, such as flatfoot (DC 5276)": another code's table names the asked
        # code only to send it elsewhere, so its sentences earn nothing for naming it.
        # Nor, when the levels of a condition whose own table is read are asked ("is 50 the max for sleep apnea"),
        # a general page's list that names its code ("that range includes ... sleep apnea (DC 6847)").
        unit_entities = leading_entities if chunk.diagnostic_code in q_entities or (
            not chunk.diagnostic_code and not (levels_of_owned and chunk_types.get(chunk.chunk_id) != "rating_table")) \
            else set()
        scored = []
        for position, (text, vector) in enumerate(units.get(chunk.chunk_id, ())):
            if _NOT_AN_ANSWER_RE.match(text):
                continue
            unit = Unit(chunk.number, position, text, np.asarray(vector, dtype=np.float32))
            score = _unit_score(unit, question_vector, aspect_words, unit_entities, chunk_match, wants_number, wants_form)
            if counted and (found := counted.search(text)) and not (time_limit and _in_condition(text, found.start())) \
                    and chunk.score >= COUNT_SOURCE_FLOOR * top_score \
                    and not (limit_not_whether and _another_forms_none(found, text, question_forms)):
                # "How many months", "how long do I have to": a count of the thing asked ("up to 36 months of
                # benefits", "within 1 year and 120 days") is the number asked for, more than any figure
                # ("up to $500,000"), which earns W_NUMBER too. It orders; the floors are set without it.
                # A deadline asked ("deadline to convert SGLI to VGLI") is the limit itself, so it weighs more;
                # a condition's window ("If you apply within 240 days, no health questions") is not the deadline.
                score += (W_DEADLINE if time_limit else W_COUNT) + W_NUMBER
                counted_units.add(id(unit))
            if not_connected and survivor_asks and _SERVICE_CONNECTED_RE.search(text) \
                    and not _NOT_CONNECTED_RE.search(text):
                score -= W_OTHER_POLARITY  # asked about a death not service connected, told of one that was
            elif connected_death and _NOT_CONNECTED_RE.search(text):
                score -= W_OTHER_POLARITY  # and the other way round: a service-connected death's burial
            if within_year and _AFTER_YEAR_RE.search(text):
                score -= W_OTHER_BRANCH  # "if I file within a year": not "if you file more than a year after"
            if board_decided and _BOARD_REQUEST_RE.search(text):
                score -= W_OTHER_BRANCH  # the Board has decided: asking it again is not the step asked about
            if own_level and _THRESHOLD_RE.search(text):
                score += W_THRESHOLD  # "he is 50% service connected, can I get the stipend": "rated 70% or more"
            if yes_no_not_levels and _TABLE_LEAD_RE.search(text):
                score -= W_TABLE_LEAD_YES_NO
            if own_levels and not chunk.diagnostic_code and not _ROW_RE.match(text) \
                    and (own_levels & _percents(text) or _threshold_met(own_levels, text)):
                # (not a condition's page: "my husband gets 10% for tinnitus" names the rating tinnitus gets)
                score += W_OWN_LEVEL
            scored.append((score + (W_LEVEL if levels & _row_levels(text) else 0.0), unit))
        if scored:
            by_chunk[chunk.number] = scored
    if not by_chunk:
        return Generation(text="", model=MODEL_NAME)
    # "I'm 100% P&T, will VA do my dental implants": with a rating's status the only benefit named, a source
    # titled with another word of the question (the dental classes) is on what is asked, not P&T's pages.
    asked_about = specific <= STATUS_BENEFITS and any(
        (aspect_words - STATUS_WORDS) & content_words(chunk_of_read[n].title) for n in by_chunk)
    on_named = [c for n, scored in by_chunk.items() if specific and not asked_about
                and (_on_benefit(chunk_of_read[n], specific) or _presumption_only(chunk_of_read[n]))
                and not _titled_for_another(chunk_of_read[n], specific)
                for c in scored]
    # "What is form 21-0966": the form's own source answers (its title names it), not the pension application
    # that mentions it in passing.
    on_titled = [c for n, scored in by_chunk.items() if written and written & _codes_in(chunk_of_read[n].title)
                 for c in scored]
    on_every = [c for n, scored in by_chunk.items() if len(specific) > 1 and _on_every(chunk_of_read[n], specific)
                for c in scored]
    # "I'm rated 10%, can I get voc rehab": a source on the benefit named answers, not a rule on ratings.
    # "What is form 22-0803": a source naming a form or code the question writes answers, however far below the
    # pages on other forms it scores.
    on_written = [c for n, scored in by_chunk.items() if written and named(chunk_of_read[n], written) for c in scored]
    candidates = list(on_every or on_named or on_titled or on_written or (c for scored in by_chunk.values() for c in scored))
    if wants_all:
        # "List all the levels of the mental health rating, for anxiety": a table holding every level, on the asked
        # condition by its title, leads over a level of a table split across sources that scores higher.
        whole = [c for n, scored in by_chunk.items() if _holds_every_level(chunk_of_read[n], units)
                 and (not asked_entities or asked_entities & _codes_in(chunk_of_read[n].title)) for c in scored]
        candidates = whole or candidates
    # A page for another's case does not lead while another page can ("VA proposes to reduce my rating, how long do
    # I have to send evidence": the Board's 90-day evidence window scored best on "send evidence").
    best_score, best_unit = max([c for c in candidates if not others_case(chunk_of_read[c[1].chunk_number])]
                                or candidates, key=lambda c: c[0])
    # "What do I need to show for 70 percent PTSD": the General Rating Formula's full 70% row, not the line a
    # condition's condensed table gives it.
    level_sources = [n for n in by_chunk if holds_level_in_full(chunk_of_read[n])] \
        or [n for n in by_chunk if holds_level(chunk_of_read[n])]
    with_level = [c for n in level_sources for c in by_chunk[n]]
    if with_level and not _YES_NO_RE.search(question):
        # "What is the PTSD rating at 70 percent": the source holding that level answers, not a neighbour's table.
        best_score, best_unit = max(with_level, key=lambda c: c[0])
    primary = by_chunk[best_unit.chunk_number]
    chunk_of = {c.number: c for c in chunks}
    # The floors other sentences must reach are set by how well the best one matches, not by its count bonus.
    floor_base = best_score - ((W_DEADLINE if time_limit else W_COUNT) + W_NUMBER if id(best_unit) in counted_units
                               else 0.0)

    named_levels = frozenset(int(n) for n in _NAMED_FIGURE_RE.findall(question) if int(n) <= 100)
    chosen = _rating_rows(levels_text, chunk_of[best_unit.chunk_number], primary, chunk_types, levels=levels,
                          named=named_levels)
    if chosen and _HIGHEST_RE.search(question):
        chosen = _highest_stated(chosen, [u for _, u in primary], chunk_of[best_unit.chunk_number], question)
    leading = best_unit.chunk_number
    if not chosen:
        floor = PRIMARY_FLOOR * floor_base
        chosen = _with_antecedents([u for s, u in sorted(primary, key=lambda c: -c[0]) if s >= floor][:PRIMARY_UNITS],
                                   [u for _, u in primary])
        chosen = _with_successors(chosen, [u for _, u in primary], q_words)
        chosen = _whole_table(chosen, [u for _, u in primary])
        chosen = _whole_steps(chosen, [u for _, u in primary])
        chosen = _with_list_items(chosen, [u for _, u in primary])
        # A rating question whose best source explains without the table ("diagnosis of CFS") gets the
        # table of the next best source that has one: the levels are what was asked.
        # Not another's table, nor the table of a condition named as the cause ("neuropathy from diabetes"),
        # nor one for another's case ("what rating do I need for extra money for dependents": not DIC's).
        # Nor the table of the condition a rating the asker was given is for ("granted 10% for hearing loss, am
        # I too old for VALife").
        # Nor another benefit's ("what % of Post-9/11 do I get": not the home loan's service table).
        about = [n for n in by_chunk if (not asked_entities or _about(chunk_of[n], asked_entities))
                 and not (causes and _about(chunk_of[n], causes)) and not others_case(chunk_of[n])
                 and not (rated_for and _about(chunk_of[n], rated_for)) and not rated_for_title(chunk_of[n])
                 and not _other_benefits_only(chunk_of[n], specific) and not _titled_for_another(chunk_of[n], specific)]
        table = _borrowed_table(levels_text, {n: by_chunk[n] for n in about}, chunk_of, chunk_types,
                                besides=best_unit.chunk_number, levels=levels, named=named_levels)
        if table and _HIGHEST_RE.search(question):
            table = _highest_stated(table, [u for _, u in by_chunk[table[0].chunk_number]], chunk_of[table[0].chunk_number],
                                       question)
        if table:
            room = MAX_CHARS - sum(len(u.text) for u in table)
            beside = []
            for unit in chosen[:TABLE_BESIDE_UNITS]:
                if len(unit.text) <= room:
                    beside.append(unit)
                    room -= len(unit.text)
            if _YES_NO_RE.search(question):
                chosen = beside + table  # "do I need every symptom?": the explanation answers, the table shows
            else:
                chosen = table + beside  # "what is the rating": the levels answer, the explanation follows
                leading = table[0].chunk_number
    borrowed_rows = _levels_missing_rows(chosen, levels, sources, units, chunk_types, holds_level_in_full)
    chosen = [*chosen, *borrowed_rows]
    total = sum(len(u.text) for u in chosen)
    others = sorted(((s, u) for n, scored in by_chunk.items() if n != best_unit.chunk_number for s, u in scored),
                    key=lambda c: -c[0])
    used_chunks = {best_unit.chunk_number}
    given: dict[int, int] = {}  # sentences each other source has given
    lead_code = chunk_of[leading].diagnostic_code
    on_benefit = _on_benefit(chunk_of[leading], benefits)
    lead_programs = frozenset() if comparing else _title_benefits(chunk_of[leading].title)
    allowed_codes = q_entities or (_codes_in(chunk_of[leading].content) | _conditions_in(chunk_of[leading].content,
                                                                                        names))
    for score, unit in others:
        if len(used_chunks) > EXTRA_SOURCES or score < EXTRA_FLOOR * floor_base:
            break
        if unit.chunk_number == best_unit.chunk_number or given.get(unit.chunk_number, 0) >= EXTRA_UNITS \
                or total + len(unit.text) > MAX_CHARS:
            continue
        if _ROW_RE.match(unit.text) or _NUMBERED_STEP_RE.match(unit.text):
            continue  # a level torn from its table ("60% — fixed in flexion") or a step from its list would read as
            # this answer's
        if q_entities and not named(chunk_of[unit.chunk_number]):
            continue  # "what is DC 7522": another source's words on diagnostic codes in general are noise
        if on_benefit and not comparing and (not _on_benefit(chunk_of[unit.chunk_number], benefits)
                           or _titled_for_another(chunk_of[unit.chunk_number], specific)):
            continue  # "how long does voc rehab last": a hospital stay's 21 days is not VR&E's
        if _titled_for_another(chunk_of[unit.chunk_number], lead_programs):
            continue  # a VR&E answer takes nothing from a page on the pension: one program per answer unless compared
        other_code = chunk_of[unit.chunk_number].diagnostic_code
        if other_code and lead_code and other_code != lead_code and not comparing and other_code not in q_entities \
                and _DIGIT_RE.search(unit.text):
            continue  # another code's figures ("if bending measures better than 45 degrees" in an ankle answer)
        conditions = _conditions_in(unit.text, names) | frozenset(dc_codes_find(unit.text))
        if conditions and allowed_codes and not comparing and not conditions & allowed_codes:
            continue  # a sentence about another condition only ("asthma is rated on ...")
        if others_case(chunk_of[unit.chunk_number]):
            continue  # "I got out last month": a page for those still serving; a survivors' page for a veteran
        if _EXAMPLE_TITLE_RE.search(chunk_of[unit.chunk_number].title):
            continue  # "Had the veteran filed after March 10, 2026, ...": a worked example's case is not the asker's
        if _CONTEXT_BOUND_RE.match(unit.text) or _BACK_REFERENCE_RE.search(unit.text):
            continue  # "So a veteran ...", "... on October 1 of the same year": it leans on a sentence not here
        if _INSTRUCTION_RE.match(unit.text) or (not wants_form and _PURPOSE_INSTRUCTION_RE.match(unit.text)):
            continue  # "Check that the clinic is in VA's network before going": its own page's step, not this answer's
        if other_code and not lead_code and not q_entities and not comparing:
            continue  # "can I do my Board hearing from home": a condition's page (hearing loss exams) says nothing on it
        if max(float(unit.vector @ c.vector) for c in chosen) > REDUNDANT_ABOVE:
            continue  # overlapping chunks repeat paragraphs: say each thing once
        chosen.append(unit)
        used_chunks.add(unit.chunk_number)
        given[unit.chunk_number] = given.get(unit.chunk_number, 0) + 1
        total += len(unit.text)

    money_asked = bool(_MONEY_ASKED_RE.search(asked or question))
    money_nouns = frozenset(m.lower() for m in _MONEY_NOUN_RE.findall(asked or question)) if money_asked else frozenset()
    if money_asked and not any(_amount_of(unit, money_nouns) for unit in chosen):
        # The amount in a sentence of the leading source, or of a source on the benefit asked about, answers;
        # with none, nothing is said.
        on_asked = {best_unit.chunk_number} | {n for n in by_chunk if specific and _on_benefit(chunk_of_read[n], specific)
                                               and not _titled_for_another(chunk_of_read[n], specific)}
        amounts = [(score, unit) for n in on_asked for score, unit in by_chunk[n]
                   if _amount_of(unit, money_nouns) and not _ROW_RE.match(unit.text)
                   and not _CONTEXT_BOUND_RE.match(unit.text) and not _BACK_REFERENCE_RE.search(unit.text)]
        # Read first the sources scored here, best first, then the others retrieved, in their order.
        table = [] if amounts else _amounts_table(
            [c for c in sorted(chunks, key=lambda c: (c.number not in by_chunk,
                                                      -max((s for s, _ in by_chunk.get(c.number, ())), default=0.0)))
             if c.number in on_asked or not (_other_benefits_only(c, specific) or _titled_for_another(c, specific))],
            units, _money_phrases(asked or question, money_nouns))
        if amounts:
            chosen = [*chosen, max(amounts, key=lambda c: c[0])[1]]
        elif table:
            chosen = _whole_table([*chosen, next(u for u in table if _ROW_RE.match(u.text))], table)
        elif _EXACT_AMOUNT_RE.search(asked or question) or not any(
                (counted is not None and counted.search(unit.text))
                or (unit.chunk_number == leading and _FIGURED_RE.search(unit.text)
                    and (not money_nouns or any(re.search(rf"\b{noun}", unit.text, re.IGNORECASE)
                                                for noun in money_nouns)))
                for unit in chosen):
            # Unless a count the question also asks is given ("how many months of DEA ... and how much does it
            # pay": 36 months), or the leading source says how the amount is figured ("half of the national average
            # BAH for an E-5 with dependents"), when no exact dollar figure is demanded: an answer without the
            # amount asked would read as one.
            return Generation(text="", model=MODEL_NAME)
    asked_year = _asked_year(asked or question) if money_asked or _FIGURE_ASKED_RE.search(asked or question) else None
    amounts_given = [u for u in chosen if "$" in u.text]
    if asked_year is not None and amounts_given \
            and not any(_year_covered(asked_year, chunk_of[u.chunk_number].content) for u in amounts_given):
        # "What was the 100% rate in 2015", "the Post-9/11 private school cap for 2018-2019": amounts are a year's;
        # another year's figures would read as the answer, so nothing is said.
        return Generation(text="", model=MODEL_NAME)
    order = {n: i for i, n in enumerate(dict.fromkeys([leading, *[u.chunk_number for u in chosen]]))}
    chosen.sort(key=lambda u: (order[u.chunk_number], u.position))
    if borrowed_rows:
        chosen = _rows_together(chosen)
    chosen = _direct_first(chosen, best_unit, {id(u): score for scored in by_chunk.values() for score, u in scored},
                           over_table=yes_no and not levels,
                           exclusion_asked=bool(_EXCLUSION_RE.search(asked or question)))
    if len(sides) == 2 and not any(sides[0] | sides[1] <= content_words(c.title) for c in read):
        # (A page on both, "TDIU versus a 100% schedular rating", compares them itself.)
        chosen = _compared_first(chosen, sides, by_chunk)
    if not levels and not comparing and not wants_all and not _HIGHEST_RE.search(question):
        chosen = _described_row_first(chosen, question, chunk_of)
    chosen = _fitting_branch_first(chosen, question, this_year=datetime.date.today().year)
    chosen = _fitting_fee_row_first(chosen, question)
    chosen = _fitting_age_first(chosen, asked or question)
    chosen = _fitting_years_held_first(chosen, asked or question, this_year=datetime.date.today().year)
    chosen = _family_rates_first(chosen, by_chunk, chunk_of, asked or question)
    chosen = _fitting_discharge_branch_first(
        chosen, [u for n in sorted(by_chunk) for _, u in sorted(by_chunk[n], key=lambda su: su[1].position)],
        asked or question)
    if money_asked and chosen and not _amount_of(chosen[0], money_nouns) \
            and not any(_ROW_RE.match(u.text) and "$" in u.text for u in chosen):
        # "How much is the copay for a specialist? I'm in priority group 8": the sentence with the amount leads,
        # not the priority groups' definitions before it.
        # Only one: of two amounts (urgent care's $30, a specialist's $50) the closer in meaning may not be the
        # one asked.
        # And one naming what the question says the amount is for ("a specialist": "a specialty care visit"), not
        # an outpatient copay for "the daily copay at a VA nursing home".
        amounts = [u for u in chosen if _amount_of(u, money_nouns)]
        if len(amounts) == 1 and not _CONTEXT_BOUND_RE.match(amounts[0].text) \
                and not _BACK_REFERENCE_RE.search(amounts[0].text) \
                and _names_what_for(amounts[0].text, asked or question, money_nouns):
            chosen = [amounts[0], *(u for u in chosen if u is not amounts[0])]
    if _HIGHEST_RE.search(question):
        chosen = _stated_highest_first(chosen)
    lines: list[tuple[bool, str]] = []
    quotes: dict[int, list[str]] = {}
    for index, unit in enumerate(chosen):
        text = unit.text.strip()
        if _LEADING_YES_NO_RE.match(text):  # "Yes, a condition caused by ..." reads "A condition caused by ..."
            text = _LEADING_YES_NO_RE.sub("", text)
            text = text[:1].upper() + text[1:]
        following = chosen[index + 1] if index + 1 < len(chosen) else None
        if text.endswith(":") and not (following and following.chunk_number == unit.chunk_number
                                       and (_ROW_RE.match(following.text) or _NUMBERED_STEP_RE.match(following.text))):
            if unit.chunk_number != leading and not _codes_in(text):
                continue  # another source's table lead without its rows and codes says nothing ("Maximum Annual
                # Pension Rates (MAPR) for veterans in effect ..." after a compensation answer)
            # A table's lead without its rows ends as a sentence, without the words that announced which rows
            # followed ("General Rating Formula ... (codes 9201 to 9440), lowest levels").
            text = _ROWS_ANNOUNCED_RE.sub("", text[:-1].rstrip()) + "."
        before = chosen[index - 1] if index else None
        listed = bool(_LIST_ITEM_RE.match(text)) and before is not None and before.chunk_number == unit.chunk_number \
            and bool(_LIST_ANNOUNCED_RE.search(before.text) or _LIST_ITEM_RE.match(before.text))
        step = bool(_NUMBERED_STEP_RE.match(text)) and before is not None and before.chunk_number == unit.chunk_number
        lines.append((bool(_ROW_RE.match(text)) or listed or step, _cite(text.lstrip("-•* "), unit.chunk_number)))
        quotes.setdefault(unit.chunk_number, []).append(text)
    body = _join(lines)
    return Generation(text=body, model=MODEL_NAME, quotes={n: " … ".join(q) for n, q in quotes.items()})


def _unit_score(
    unit: Unit, q: np.ndarray, q_words: set[str], q_entities: set[str], chunk_match: float, wants_number: bool,
    wants_form: bool = False,
) -> float:
    sim = float(unit.vector @ q)
    words = content_words(unit.text)
    lex = len(q_words & words) / len(q_words) if q_words else 0.0
    entity = 1.0 if q_entities & _codes_in(unit.text) else 0.0
    number = 1.0 if wants_number and _DIGIT_RE.search(_NAME_NUMBER_RE.sub("", unit.text)) else 0.0
    form = 1.0 if wants_form and va_forms_find(unit.text) else 0.0
    return W_SIM * sim + W_LEX * lex + W_ENTITY * entity + chunk_match + W_NUMBER * number + W_FORM * form


def _word_runs(text: str) -> frozenset[tuple[str, str, str]]:
    """Runs of three consecutive words, none of them a stop word, as written (not stemmed)."""
    words = _WORD_RE.findall(text.lower())
    keep = [bool(content_words(w)) for w in words]
    return frozenset(tuple(words[i:i + 3]) for i in range(len(words) - 2) if all(keep[i:i + 3]))


_title_phrases = functools.lru_cache(maxsize=16384)(_word_runs)


def _word_pairs(text: str) -> frozenset[tuple[str, str]]:
    """Pairs of consecutive words, both meaning something (not a stop word nor a generic VA word), as written,
    within one clause ("DIC, Survivors Pension" holds no "dic survivors")."""
    pairs = set()
    for clause in _CLAUSE_BREAK_RE.split(text.lower()):
        words = _WORD_RE.findall(clause)
        keep = [bool(content_words(w)) for w in words]
        pairs.update((words[i], words[i + 1]) for i in range(len(words) - 1) if keep[i] and keep[i + 1])
    return frozenset(pairs)


_CLAUSE_BREAK_RE = re.compile(r"[,.;:!?()\[\]\"]")


_title_pairs = functools.lru_cache(maxsize=16384)(_word_pairs)


def _count_pattern(question: str) -> re.Pattern | None:
    """For "how many <things>", a pattern for a count of them ("36 months", "up to 12 more weeks"); for a time
    limit ("how long do I have to"), a span the sentence sets as a limit ("within 1 year and 120 days", "ends 12
    years from"), not a length of benefits ("up to 48 months")."""
    match = _HOW_MANY_RE.search(question)
    if not match:
        if _TIME_LIMIT_QUESTION_RE.search(_MISSED_LIMIT_RE.sub(" ", question)):
            # "Is there a time limit to file a claim? I got out in 1992", "how long after I get out can I file a
            # claim": "there is no deadline" answers it (a form's having none, the question naming no form, does
            # not: _another_forms_none).
            none = r"|\b(?:no|not a|not any) (?:deadline|time limit)\b"
            # "You have up to one year from the date VA receives the claim" sets a limit too.
            # "You generally have 10 years from your last discharge to use it", "a spouse has 10 years to use DEA",
            # "an intent to file is good for one year", "each ITF expires after 1 year".
            return re.compile(rf"\b(?:have|has)\s+(?:{_NUMBER_WORDS})\s+(?:hours?|days?|weeks?|months?|years?)\s+"
                              rf"(?:from|after|to use)\b|"
                              rf"\b(?:within|no later than|ends?|expires?(?: after| in)?|(?:have|has) up to|"
                              rf"(?:is|are|stays?|remains?) (?:good|valid) for)\s+(?:the\s+)?"
                              rf"(?:first\s+)?(?:{_NUMBER_WORDS})\s+(?:hours?|days?|weeks?|months?|years?)\b|"
                              rf"\bup to (?:{_NUMBER_WORDS})\s+(?:hours?|days?|weeks?|months?|years?) (?:from|after)\b"
                              + none, re.IGNORECASE)
        return None
    noun = re.escape(match.group(1).lower().removesuffix("s"))
    return re.compile(rf"\b(?:{_NUMBER_WORDS})(?:\s+\w+)?\s+{noun}s?\b", re.IGNORECASE)  # not "one-time"


_NO_LIMIT_RE = re.compile(r"(?:no|not a|not any) (?:deadline|time limit)$", re.IGNORECASE)


def _another_forms_none(found: re.Match[str], text: str, question_forms: frozenset[str]) -> bool:
    """Whether a count found is "no deadline" for a form the question does not name (``question_forms``): "how long
    do I have before my intent to file runs out" is not answered by "there is no deadline to file a Supplemental
    Claim (VA Form 20-0995)". The caller asks only for a limit taken for granted: a question whether there is any
    limit at all is answered by any "no deadline"."""
    return bool(_NO_LIMIT_RE.match(found.group(0))) and bool(set(va_forms_find(text)) - question_forms)


def _on_benefit(chunk: SourceChunk, asked: frozenset[str]) -> bool:
    """Whether the chunk is on a benefit the question names, or one belonging to it (the GI Bill's
    "gi_bill_post_911" belongs to "gi_bill")."""
    return _benefits_meet(chunk.benefits, asked)


def _on_every(chunk: SourceChunk, asked: frozenset[str]) -> bool:
    """Whether the chunk is on each of the benefits the question names."""
    return all(_benefits_meet(chunk.benefits, frozenset({a})) for a in asked)


def _benefits_meet(benefits: frozenset[str], asked: frozenset[str]) -> bool:
    return any(b == a or b.startswith(f"{a}_") or a.startswith(f"{b}_") or BENEFIT_PARTS.get(b) == a
               or BENEFIT_PARTS.get(a) == b for b in benefits for a in asked)


@functools.lru_cache(maxsize=16384)
def _title_benefits(title: str) -> frozenset[str]:
    """The specific benefits a source's title names ("VA home loan eligibility for surviving spouses": home loans)."""
    from knowledge.extraction import entities_extract

    return frozenset(e.value for e in entities_extract(text=title) if e.type == "benefit") - BROAD_BENEFITS


def _titled_for_another(chunk: SourceChunk, asked: frozenset[str]) -> bool:
    """Whether the source's title names benefits and none is one the question names: the home loan page for
    surviving spouses mentions DIC, but it answers about home loans, not about DIC."""
    named = _title_benefits(chunk.title)
    if not asked & PRESUMPTIONS:  # a DIC question reads the Agent Orange list; an Agent Orange answer not the PACT Act's
        named -= PRESUMPTIONS
    return bool(asked and named) and not _benefits_meet(named, asked)


# "Our son was killed in Afghanistan, how much is parents' DIC": the parents are asking; a page titled for a
# surviving spouse (DIC's rates for a spouse) holds another recipient's amounts.
_PARENTS_ASKED_RE = re.compile(r"\bparents?(?:'s?|s')? dic\b|\bdic (?:for|to) (?:the |his |her |their )?parents?\b|"
                               r"\b(?:we are|we're|were|i am|i'm|im) (?:his|her|their|the) (?:parents?|mother|father|mom|dad)\b",
                               re.IGNORECASE)
_SPOUSE_TITLE_RE = re.compile(r"\bsurviving spouses?\b", re.IGNORECASE)
_PARENT_TITLE_RE = re.compile(r"\bparents?\b", re.IGNORECASE)


# "His wife died before him so it's just his 2 kids, how much DIC do the kids get": children with no surviving spouse.
_CHILDREN_ALONE_RE = re.compile(r"\bno (?:surviving )?(?:spouse|wife|husband|widow)\b|\b(?:wife|husband|spouse|mom|mother) "
                                r"(?:died|passed)(?: away)? (?:before|first|too|also)\b|\bjust (?:the|his|her|their|my) "
                                r"(?:\d+ |two |three )?(?:kids|children)\b|\bonly (?:the )?(?:kids|children)\b", re.IGNORECASE)
_DIC_TITLE_RE = re.compile(r"\bDIC\b|dependency and indemnity", re.IGNORECASE)


def _titled_for_spouse(chunk: SourceChunk) -> bool:
    return bool(_SPOUSE_TITLE_RE.search(chunk.title)) and not _PARENT_TITLE_RE.search(chunk.title)


def _dic_for_others_than_parents(chunk: SourceChunk) -> bool:
    """A DIC page that never speaks of parents (the 8-year provision, a spouse's rates)."""
    return bool(_DIC_TITLE_RE.search(chunk.title)) and not _PARENT_TITLE_RE.search(f"{chunk.title}\n{chunk.content}")


def _presumption_only(chunk: SourceChunk) -> bool:
    """Whether the chunk is on presumptions of service connection alone (the Agent Orange list's additions)."""
    return bool(chunk.benefits) and chunk.benefits <= PRESUMPTIONS


# "What is the VA rating for dry eye", "whats the rating on restless leg syndrome", "how does the VA rate crohns
# disease", "dupuytrens contracture rating?": the condition a bare rating question names, up to the end of its clause.
_CLAUSE_END = r"(?:\s*(?:[?.!,]|$)|\s+(?:that|which|who|where|when|if|with|because|since|after|but|so|and i|i|im|i'm)\b)"
_RATING_FOR_RES = (
    re.compile(r"^\W*(?:what(?:'s|s| is| are)?|how (?:is|are|does va rate|do they rate))\s+(?:the\s+)?(?:va\s+)?"
               r"(?:disability\s+)?(?:ratings?|rated|percent(?:age)?)\s+(?:for|on|of)\s+(?:my\s+|a\s+|an\s+|the\s+)?"
               r"(?P<what>[a-z][a-z' -]{2,40}?)" + _CLAUSE_END, re.IGNORECASE),
    re.compile(r"^\W*how (?:does|do|would|will) (?:the )?(?:va|they) rate\s+(?:my\s+|a\s+|an\s+|the\s+)?"
               r"(?P<what>[a-z][a-z' -]{2,40}?)" + _CLAUSE_END, re.IGNORECASE),
    re.compile(r"^\W*(?P<what>[a-z][a-z' -]{2,40}?)\s+(?:va\s+)?(?:disability\s+)?(?:ratings?|percentage)\s*(?:[?.!,:]|-|$)",
               re.IGNORECASE),
)
# Words that qualify a condition without naming it ("my bad left knee"), and the generic nouns after a name
# ("crohns disease": the name is the head).
_QUALIFIER_WORDS = frozenset(word_stem(w) for w in (
    "bad badly worse worst severe mild moderate chronic bilateral left right both old new really terrible "
    "constant daily service connected condition conditions disability problem problems issue issues "
    "disease diseases disorder disorders damage pain pains injury injuries trouble troubles symptoms "
    "va vet veteran veterans").split())


def _rated_condition_head(question: str) -> str:
    """The stemmed last word of the condition a bare rating question names ("what is the VA rating for anal
    fissure" → "fissur"), qualifiers left out; empty when the question is not one."""
    found = next((m for pattern in _RATING_FOR_RES if (m := pattern.match(question))), None)
    if not found:
        return ""
    meaning = content_words(found.group("what")) - _QUALIFIER_WORDS
    stems = [stem for word in re.findall(r"[a-z']+", found.group("what").lower()) if (stem := word_stem(word)) in meaning]
    return stems[-1] if stems else ""


def _other_benefits_only(chunk: SourceChunk, asked: frozenset[str]) -> bool:
    """Whether the chunk is on benefits and none of them is, or belongs to, one the question names."""
    others = chunk.benefits if asked & PRESUMPTIONS else chunk.benefits - PRESUMPTIONS
    return bool(asked and others) and not _on_benefit(chunk, asked)


@functools.lru_cache(maxsize=16384)  # the same chunks and sentences come back question after question
def _codes_in(text: str) -> frozenset[str]:
    """Return the diagnostic codes and VA form numbers ``text`` names."""
    return frozenset(dc_codes_find(text)) | frozenset(va_forms_find(text))


def chunk_texts_warm(*, title: str, content: str, unit_texts: Sequence[str],
                     condition_names: Mapping[str, str] | None = None) -> None:
    """Derive and cache what answering reads of a chunk: the codes and forms it names, its title's words and
    word pairs, its words, and each sentence's codes, words, table levels and the conditions it names in words
    (verification.warmup)."""
    names = _conditions_pattern(condition_names) if condition_names else None
    for text in (content, *unit_texts) if names else ():
        _names_found(names[0], text)
    _codes_in(f"{title}\n{content}")
    _codes_in(title)
    _title_benefits(title)
    _title_phrases(title)
    _title_pairs(title)
    source_words(title, content)
    content_words(title)
    for text in unit_texts:
        _codes_in(text)
        _row_levels(text)
        content_words(text)


def chunk_texts_clear() -> None:
    """Empty what ``chunk_texts_warm`` fills, as in a fresh worker (benchmarks and tests)."""
    for cached in (_codes_in, _row_levels, _title_benefits, _title_phrases, _title_pairs, source_words, _names_found):
        cached.cache_clear()


def _about(chunk: SourceChunk, entities: set[str]) -> bool:
    """Whether the chunk is about a code or form of ``entities``: its own code, else one it names."""
    if chunk.diagnostic_code:
        return chunk.diagnostic_code in entities
    return bool(entities & _codes_in(f"{chunk.title}\n{chunk.content}"))


@functools.lru_cache(maxsize=4)
def _names_pattern(names: tuple[tuple[str, str], ...]) -> tuple[re.Pattern, dict[str, str]]:
    lookup = dict(names)
    alternation = "|".join(re.escape(name) for name in sorted(lookup, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE), lookup


# The warm-up's pattern for the mapping it is handed for every chunk, built once (not sorted again per chunk).
_conditions_pattern = ByIdentity(lambda condition_names: _names_pattern(tuple(sorted(condition_names.items()))))


def _conditions_in(text: str, names: tuple[re.Pattern, dict[str, str]] | None) -> frozenset[str]:
    """Return the codes of the conditions ``text`` names in words ("asthma" → 6602)."""
    if names is None:
        return frozenset()
    pattern, lookup = names
    return frozenset(lookup[name] for name in _names_found(pattern, text) if name in lookup)


@functools.lru_cache(maxsize=16384)  # the same sources' sentences are searched question after question
def _names_found(pattern: re.Pattern, text: str) -> tuple[str, ...]:
    return tuple(m.group(0).lower() for m in pattern.finditer(text))


# "I'm 60 for my back and 20 for knees, what percentages do I need for TDIU": a bare figure the asker is at.
_RATED_FOR_RE = re.compile(r"(?:\b\d{1,3}\s?(?:%|percent\b)|\b(?:i'?m|i am)\s+\d{1,3})\s+"
                           r"(?:service[- ]connected\s+)?(?:(?:rating|disability)\s+)?(?:for|on)\s+"
                           r"([^,.;?!]{1,40})",
                           re.IGNORECASE)


def _rated_for_words(question: str) -> frozenset[str]:
    """The words of what a rating in the question is for ("30 percent for my knee": "knee")."""
    return frozenset().union(*(content_words(m.group(1)) for m in _RATED_FOR_RE.finditer(question))) - _ROW_MATCH_GENERIC


def _rated_for(question: str, names: tuple[re.Pattern, dict[str, str]] | None) -> frozenset[str]:
    """The codes of conditions a rating in the question is for ("10% for tinnitus", "30 percent for my knee")."""
    return frozenset(code for m in _RATED_FOR_RE.finditer(question) for code in _conditions_in(m.group(1), names))


# ("service connected through his hypertension": the stroke is asked, the hypertension is how it is connected)
_CAUSE_BEFORE_RE = re.compile(r"\b(?:from|due to|caused by|because of|secondary to|related to|through|via)\s+"
                              r"(?:(?:my|his|her|the|a|an|service[- ]connected|sc|taking|years? of)\s+)*$", re.IGNORECASE)
_CLAUSE_END_RE = re.compile(r"[.?!;,:]")
# "My husband's death was service connected (lung cancer from burn pits), how much will VA pay toward the funeral":
# a condition named in the clause of a family member's death is what the death came from, not a table asked about
# ("after my buddy's death I got PTSD, what's the rating" still asks about PTSD).
_DEATH_BEFORE_RE = re.compile(r"\b(?:husband|wife|spouse|dad|father|mom|mother|son|daughter|brother|sister|he|she|his|"
                              r"her|veteran)(?:'?s)?\b[^.?!,;]{0,25}\b(?:died|dies|death|passed away|passed on|killed)\b"
                              r"[^.?!,;]{0,40}$", re.IGNORECASE)


# Words of the schedule's names that name no condition on their own ("loss of use", "due to", "type 2").
_NOT_CONDITION_WORDS = frozenset(content_words(
    "use due give high low long open post related requires status system type weak third west general improved "
    "identity control natural condition symptoms medical another otherwise specified unspecified primary "
    "progressive lower upper middle little light field insertion index single"))


@functools.lru_cache(maxsize=4)
def _condition_words(names: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """The words of the conditions' names: "neuropathy in my feet" names a condition, "tired all day" does not."""
    return frozenset(word for name, _ in names for word in content_words(name)
                     if len(word) > 3 and word not in _NOT_CONDITION_WORDS)


def _causes_named(
    question: str, names: tuple[re.Pattern, dict[str, str]] | None, condition_words: frozenset[str],
) -> frozenset[str]:
    """Return the codes of conditions the question names only as the cause of another ("neuropathy from diabetes") or
    of a death ("he died of lung cancer").

    A condition is a cause when "from", "due to" or the like comes right before it and the clause before
    that names another condition in a condition's words; "how much would I get from my diabetes" and "tired
    all day from sleep apnea" ask about diabetes and sleep apnea themselves. One
    named as a cause and again on its own is asked about, so it is not returned.
    """
    if names is None:
        return frozenset()
    pattern, lookup = names
    as_cause: set[str] = set()
    on_own: set[str] = set()
    for match in pattern.finditer(question):
        code = lookup.get(match.group(0).lower())
        if not code:
            continue
        before = question[:match.start()]
        connector = _CAUSE_BEFORE_RE.search(before)
        clause = _CLAUSE_END_RE.split(before[:connector.start()])[-1] if connector else ""
        (as_cause if (connector and content_words(clause) & condition_words) or _DEATH_BEFORE_RE.search(before)
         else on_own).add(code)
    return frozenset(as_cause - on_own)


def _with_antecedents(chosen: list[Unit], units: list[Unit]) -> list[Unit]:
    """Add the sentence before a chosen one that leans on it ("Filing within that year ...", "So a veteran
    ...") when it was left out: without it the answer says "that year" of a year it never named."""
    by_position = {u.position: u for u in units}
    have = {u.position for u in chosen}
    added = []
    for unit in chosen:
        before = by_position.get(unit.position - 1)
        if before is not None and before.position not in have and (
                _CONTEXT_BOUND_RE.match(unit.text) or _BACK_REFERENCE_RE.search(unit.text)):
            added.append(before)
            have.add(before.position)
    return chosen + added


def _with_successors(chosen: list[Unit], units: list[Unit], q_words: frozenset[str]) -> list[Unit]:
    """Add the sentence after a chosen one that only restates the question ("The percentage requirements for
    Individual Unemployability (TDIU) are in 38 CFR 4.16(a).", asked for those requirements): it matches best
    and says nothing; the one after it gives the answer."""
    by_position = {u.position: u for u in units}
    have = {u.position for u in chosen}
    added = []
    for unit in chosen:
        after = by_position.get(unit.position + 1)
        if after is not None and after.position not in have and not _ROW_RE.match(unit.text) \
                and len(content_words(unit.text) - q_words) <= RESTATES_NEW_WORDS:
            added.append(after)
            have.add(after.position)
    return chosen + added


# "What's the difference between a Higher-Level Review and a Supplemental Claim", "direct vs presumptive".
_SIDES_RE = re.compile(r"\b(?:between|differen\w* (?:of|in))\s+(?P<a>.+?)\s+(?:and|vs\.?|versus|or)\s+(?P<b>.+?)\s*(?:[?.!]|$)|"
                       r"^(?:\W*(?:what|which|is|are)\b[^?]*?\s)?(?P<c>[\w&' -]+?)\s+(?:vs\.?|versus)\s+(?P<d>.+?)\s*(?:[?.!]|$)",
                       re.IGNORECASE)


_DEFINING_RE = re.compile(r"^((?:\S+\s+){1,8}?)(?:is|are|means|asks|lets|gives|covers|applies|links|refers|pays|"
                          r"provides|sends|allows)\b(?!\s+(?:also|not|only)\b)", re.IGNORECASE)


def _comparison_sides(question: str) -> list[frozenset[str]]:
    """The words of the two things a comparison names, each side's words as the citation check stems them."""
    found = _SIDES_RE.search(question)
    if not found:
        return []
    sides = [found.group("a") or found.group("c"), found.group("b") or found.group("d")]
    words = [words for words in (content_words(side) for side in sides) if words]
    # "Chapter 31 and chapter 36": sides told apart only by their numbers have the same words; nothing orders.
    return [] if len(words) == 2 and words[0] == words[1] else words


def _compared_first(chosen: list[Unit], sides: list[frozenset[str]],
                    by_chunk: Mapping[int, Sequence[tuple[float, Unit]]]) -> list[Unit]:
    """Open a comparison with the best sentence on each side it names, in the question's order, so both things
    are said before the rest; a side no sentence names whole is left to the order already chosen."""
    if len(sides) != 2:
        return chosen
    first: list[Unit] = []
    for words, other in ((sides[0], sides[1]), (sides[1], sides[0])):
        named = [(score, unit) for scored in by_chunk.values() for score, unit in scored
                 if words <= content_words(unit.text) and not _ROW_RE.match(unit.text)
                 and all(unit is not taken for taken in first)]
        # A sentence on this side alone says what it is; one naming both is usually a rule about the two.
        alone = [c for c in named if not other <= content_words(c[1].text)]
        # One whose subject is the side itself defines it ("A Higher-Level Review (HLR) asks ...").
        defining = [c for c in alone if (m := _DEFINING_RE.match(c[1].text)) and words <= content_words(m.group(1))]
        if named:
            first.append(max(defining or alone or named, key=lambda c: c[0])[1])
    if len(first) < 2:
        return chosen
    rest = [unit for unit in chosen if all(unit is not taken for taken in first)]
    while rest and sum(len(u.text) for u in first + rest) > MAX_CHARS:
        rest.pop()
    return first + rest


# "Family members eligible for TRICARE generally cannot use CHAMPVA": an exception to who qualifies, which follows the
# rule ("A spouse or child may qualify if ...") unless the question asks who cannot.
_EXCLUSION_RE = re.compile(r"\b(?:cannot|can'?t|can not|not eligible|(?:does|do|did)(?: not|n'?t) qualify|"
                           r"(?:is|are)(?: not|n'?t) eligible|disqualif\w*)\b", re.IGNORECASE)
_QUALIFIES_RE = re.compile(r"\b(?:may|can|might) qualify\b|\bqualif(?:y|ies) if\b|\b(?:is|are) eligible if\b", re.IGNORECASE)


def _direct_first(chosen: list[Unit], best: Unit, scores: Mapping[int, float], *, over_table: bool = False,
                  exclusion_asked: bool = False) -> list[Unit]:
    """Lead with the sentence that best answers the question ("You can file a Supplemental Claim at any time,
    but ...") when the leading source's own order puts it later and it clearly outscores the sentence that
    opens; not when it leans on what comes before it, nor in a table, whose lead and rows keep their order.

    ``over_table``: a yes-or-no question ("I'm rated 10%, do I still have to pay the funding fee") is answered by
    a sentence after a table ("veterans receiving compensation are exempt"), which then leads the table whole,
    however close the sentence opening the source scores. An exception to who qualifies does not jump over the
    rule it excepts from, unless the question (``exclusion_asked``) asks who cannot.
    """
    in_table = _ROW_RE.match(best.text) or _TABLE_LEAD_RE.search(best.text)
    if not chosen or chosen[0] is best or not any(u is best for u in chosen) \
            or (any(_ROW_RE.match(u.text) for u in chosen) and (not over_table or in_table)) \
            or (scores[id(best)] - scores.get(id(chosen[0]), 0.0) < DIRECT_FIRST_MARGIN
                and not (over_table and (_TABLE_LEAD_RE.search(chosen[0].text)
                                         or any(_ROW_RE.match(u.text) for u in chosen)))) \
            or _CONTEXT_BOUND_RE.match(best.text) or _BACK_REFERENCE_RE.search(best.text) \
            or _ADDITIVE_RE.search(best.text) or _EXAMPLE_OPENING_RE.match(best.text) \
            or _NUMBERED_STEP_RE.match(best.text) or (_LIST_ITEM_RE.match(best.text) and any(
                u.chunk_number == best.chunk_number and _LIST_ANNOUNCED_RE.search(u.text) for u in chosen)) \
            or (not exclusion_asked and _EXCLUSION_RE.search(best.text)
                and any(u is not best and _QUALIFIES_RE.search(u.text) for u in chosen)):
        return chosen  # (nor an item or a numbered step of a list, which follows the sentence announcing it)
    return [best, *(u for u in chosen if u is not best)]


# "If you were discharged before January 1, 2013, ...": a rule's branch for those who left service before or
# after a date; and the year the asker says they left ("discharged from the Army in 2010", "got out in 2009").
_SEPARATION_BRANCH_RE = re.compile(
    r"^If (?:you|your|the veteran|a veteran)\b[^,.]{0,40}?\b(?:discharg\w*|separat\w*|left)\b[^,.]{0,20}?\b"
    r"(?P<op>on or after|after|before)\s+(?:(?:January|February|March|April|May|June|July|August|September|"
    r"October|November|December)\s+\d{1,2},\s+)?(?P<year>(?:19|20)\d\d)\b")
# The death's branch: "If the service member died on or after January 1, 2013", "If the death was before January 1,
# 2013"; and the year the asker says the service member died ("killed in Afghanistan in 2012 on active duty").
_DEATH_BRANCH_RE = re.compile(
    r"^If (?:the (?:service member|veteran|death)|a (?:service member|veteran))\b[^,.]{0,30}?\b(?:died|was)\s+"
    r"(?P<op>on or after|after|before)\s+(?:(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December)\s+\d{1,2},\s+)?(?P<year>(?:19|20)\d\d)\b")
_DIED_IN_RE = re.compile(r"\b(?:died|killed|passed away|passed|death)\b[^.?!\d]{0,40}?\b(?P<year>(?:19|20)\d\d)\b",
                         re.IGNORECASE)
# "Got out about 15 years ago": the year the asker left.
_YEARS_AGO_RE = re.compile(
    r"\b(?:got out|separated|discharged|ets'?d|left (?:the )?(?:military|service|army|navy|air force|marines?|"
    r"marine corps|coast guard|active duty))\b[^.?!\d]{0,20}?\b(?:about |around |almost |over |like |roughly )?"
    r"(?P<ago>\d{1,2}) (?:years|yrs) ago\b", re.IGNORECASE)
_SEPARATED_IN_RE = re.compile(
    r"\b(?:discharg\w*|separat\w*|got out|get out|left (?:the )?(?:military|service|army|navy|air force|marines?|"
    r"marine corps|coast guard|active duty)|ets'?d|retired)\b[^.?!\d]{0,30}?\b(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE)


def _fitting_branch_first(chosen: list[Unit], question: str, *, this_year: int) -> list[Unit]:
    """Lead with the branch of a before-or-after-a-date rule that fits the year the asker says they left service,
    or the year the service member died.

    "I was discharged in 2010 ... am I still eligible for VR&E": the page's "If you were discharged on or after
    January 1, 2013, there is no time limit" opened the answer, the rule for those who left before it third. When
    the opening sentence is the branch the asker's year does not meet and another chosen sentence is the one it
    does, that one leads. A year on the date's own year, or years either side, decide nothing. "Got out about 15
    years ago" is a year too; "killed in Afghanistan in 2012" meets the Fry Scholarship's branches by the death.
    """
    years = {int(m.group("year")) for m in _SEPARATED_IN_RE.finditer(question)}
    years |= {int(m.group("year")) for m in _DIED_IN_RE.finditer(question)}
    years |= {this_year - int(m.group("ago")) for m in _YEARS_AGO_RE.finditer(question)}
    if not chosen or len(years) != 1:
        return chosen
    year = years.pop()

    def fits(unit: Unit) -> bool | None:
        found = _SEPARATION_BRANCH_RE.match(unit.text.strip()) or _DEATH_BRANCH_RE.match(unit.text.strip())
        if not found or year == int(found.group("year")):
            return None
        return (year < int(found.group("year"))) == (found.group("op") == "before")

    if fits(chosen[0]) is not False:
        return chosen
    fitting = next((u for u in chosen[1:] if u.chunk_number == chosen[0].chunk_number and fits(u)), None)
    return chosen if fitting is None else [fitting, *(u for u in chosen if u is not fitting)]


# A funding-fee row: "After first use, 5% or more down — 1.5%".
_FEE_ROW_RE = re.compile(r"^\s*(?:[-•*]\s*)?(?P<use>first use|after first use), (?:less than (?P<below>\d{1,2})% down|"
                         r"(?P<least>\d{1,2})% or more down) — ", re.IGNORECASE)
# The asker's loan is not their first ("my second VA loan", "used it before"): the lay term that says so appends
# "after first use" (knowledge/phrases/lay_terms.yaml), read here from the question as expanded.
_LATER_USE_RE = re.compile(r"\bafter (?:my )?first use\b", re.IGNORECASE)
_FIRST_USE_RE = re.compile(r"\bfirst[- ]time\b|\bfirst (?:va )?(?:loan|use|home|house)\b|\bnever used\b", re.IGNORECASE)
# The asker's down payment: "putting 5% down", "nothing down", "zero down", "no down payment".
_DOWN_RE = re.compile(r"(?:(?P<pct>\d{1,2}(?:\.\d+)?)\s?(?:%|percent)|(?P<none>nothing|zero|no money|\$?0))\s+(?:down\b|as a "
                      r"down payment|down payment)|(?P<none2>no down payment|without (?:a |any )?down payment)",
                      re.IGNORECASE)


# A fee asked about: what it is, what it costs, whether one pays it.
_FEE_ASKED_RE = re.compile(r"\bfees?\b|\bfunding\b|\bhow much\b|\bcost\w*\b|\bcharge\w*\b|\bpay\b", re.IGNORECASE)


def _fitting_fee_row_first(chosen: list[Unit], question: str) -> list[Unit]:
    """Lead with the funding-fee row of the asker's use and down payment ("my second VA loan, putting 5% down":
    after first use, 5% or more down — 1.5%); with only the down payment known, the two rows for it."""
    rows = [u for u in chosen if _FEE_ROW_RE.match(u.text)]
    if len(rows) < 4 or not _FEE_ASKED_RE.search(question):
        # "Is it true a VA loan needs zero down payment? my realtor says I need 3.5%": no fee is asked about.
        return chosen
    use = "after first use" if _LATER_USE_RE.search(question) else "first use" if _FIRST_USE_RE.search(question) else None
    down_found = _DOWN_RE.search(question)
    if not down_found:
        return chosen
    down = float(down_found.group("pct")) if down_found.group("pct") else 0.0
    parsed = [(u, _FEE_ROW_RE.match(u.text)) for u in rows]
    # The highest "N% or more" the down payment reaches: 12% down is the 10% row, not the 5% one.
    reached = max((int(m.group("least")) for _, m in parsed if m.group("least") and int(m.group("least")) <= down),
                  default=None)
    fitting = [u for u, m in parsed if (not use or m.group("use").lower() == use)
               and (down < int(m.group("below")) if m.group("below") else int(m.group("least")) == reached)]
    if not fitting or len(fitting) > 2:
        return chosen
    ids = {id(u) for u in fitting}
    return [*fitting, *(u for u in chosen if id(u) not in ids)]


# The asker's own family: "70 percent, married with 2 kids", "with my wife and son", "I have dependents".
OWN_FAMILY_RE = re.compile(
    r"\b(?:married|my (?:wife|husband|spouse|kids?|children|child|sons?|daughters?|dependents?|dependent parents?)|"
    r"(?:\d|one|two|three|four|five) (?:kids|children|dependents|sons|daughters)|"
    r"(?:with|i have) (?:a |my )?(?:spouse|wife|husband|kids|children|dependents))\b",
    re.IGNORECASE)
# A table for someone with no family ("for a veteran alone", "no spouse, child or dependent parent").
_ALONE_TITLE_RE = re.compile(r"\b(?:alone|no spouse|without (?:a )?(?:spouse|dependents))\b", re.IGNORECASE)
# The table's own sentence on what a family is paid ("VA pays more for a spouse, children or dependent parents").
FAMILY_RATES_RE = re.compile(r"\bpays? more for (?:a )?(?:spouse|children|dependents)\b", re.IGNORECASE)


def _family_rates_first(chosen: list[Unit], by_chunk: Mapping[int, list[tuple[float, Unit]]],
                        chunk_of: Mapping[int, SourceChunk], question: str) -> list[Unit]:
    """Lead with a table's own sentence on a family's higher amounts when the table is for a veteran alone and the
    asker names their family ("70 percent rating, married with 2 kids, how much do I get monthly": $1,808.45 is
    the amount for a veteran alone; the asker's is more)."""
    if not OWN_FAMILY_RE.search(question):
        return chosen
    tables = dict.fromkeys(u.chunk_number for u in chosen if _ROW_RE.match(u.text)
                           and _ALONE_TITLE_RE.search(chunk_of[u.chunk_number].title))
    for number in tables:
        said = next((u for _, u in sorted(by_chunk.get(number, ()), key=lambda su: su[1].position)
                     if FAMILY_RATES_RE.search(u.text)), None)
        if said is not None:
            return [said, *(u for u in chosen if u is not said)]
    return chosen


# The asker's age: "I'm 56 and getting remarried", "widow here, I'm 58", "I turn 65 in March", "72 years old";
# not a rating ("I'm 30 for PTSD", "I'm 70 percent").
_ASKER_AGE_RE = re.compile(
    r"\b(?:i'?m|im|i am|i turn(?:ed)?|i'?ll be|i will be|i just turned|aged?)\s+(?:now\s+)?(?P<age>[1-9]\d)\b"
    r"(?!\s*(?:%|percent|per cent|for|on|in (?:my|the)|sc\b|service|rated|combined|disabled|p&t|p and t|"
    r"and (?:\d|p&t|permanent)|,\s*\d))"
    r"|\b(?P<age2>[1-9]\d)\s*(?:years?|yrs?)[- ]old\b|\b(?P<age3>[1-9]\d)\s*(?:yo|y/o)\b"
    # The age an event the rule turns on happens at: "if I remarry at 56", "she remarried at age 57".
    r"|\b(?:remarr(?:y|ies|ied|ying)|marr(?:y|ies|ied|ying)|get(?:ting)? (?:re)?married)\s+(?:at|at age|when i'?m)\s+"
    r"(?P<age4>[1-9]\d)\b",
    re.IGNORECASE)
# An age a rule's branch turns on: "remarries at age 55 or older", "before age 55", "age 80 or younger".
_AGE_BRANCH_RE = re.compile(
    r"\b(?:(?:at|by|from) )?(?:age )?(?P<min>[1-9]\d) or (?:older|over|above)\b"
    r"|\b(?:before|under|younger than|below) (?:age |turning |reaching )?(?P<below>[1-9]\d)\b"
    r"|\b(?:age )?(?P<max>[1-9]\d) or (?:younger|under)\b",
    re.IGNORECASE)


def _fitting_age_first(chosen: list[Unit], question: str) -> list[Unit]:
    """Lead with the branch of an age rule that fits the age the asker gives, when a yes or no is asked.

    "I'm 58 and thinking of marrying, would I lose CHAMPVA": the page's "a surviving spouse who remarries before
    age 55 loses CHAMPVA" opened the answer, "remarries at age 55 or older can keep CHAMPVA" fourth. A sentence
    whose age branches all fit the asker's age leads, unless the opening one does already; one with branches
    either way (the rule and its exception in one sentence) decides nothing.
    """
    ages = {int(m.group("age") or m.group("age2") or m.group("age3") or m.group("age4"))
            for m in _ASKER_AGE_RE.finditer(question)}
    if not chosen or len(ages) != 1 or not _YES_NO_RE.search(question):
        return chosen
    age = ages.pop()
    if not 17 <= age <= 110:
        return chosen

    def fits(unit: Unit) -> bool | None:
        verdicts = set()
        for found in _AGE_BRANCH_RE.finditer(unit.text):
            if found.group("min"):
                verdicts.add(age >= int(found.group("min")))
            elif found.group("below"):
                verdicts.add(age < int(found.group("below")))
            else:
                verdicts.add(age <= int(found.group("max")))
        return verdicts.pop() if len(verdicts) == 1 else None

    if fits(chosen[0]):
        return chosen
    fitting = next((u for u in chosen[1:] if fits(u) and not _ROW_RE.match(u.text)
                    and not _CONTEXT_BOUND_RE.match(u.text) and not _BACK_REFERENCE_RE.search(u.text)), None)
    return chosen if fitting is None else [fitting, *(u for u in chosen if u is not fitting)]


# How long the asker has held a rating: "I've been at 40% for my back since 2004", "rated 30% for 12 years".
_HELD_SINCE_RE = re.compile(
    r"\b(?:rated|rating|at|been|had|held|have had|service[- ]connected)\b[^.?!]{0,40}?\bsince (?P<year>(?:19|20)\d\d)\b"
    r"|\b(?:rated|rating|at \d{1,3}\s?(?:%|percent)|been|had|held|service[- ]connected)\b[^.?!]{0,40}?\bfor "
    r"(?:about |over |almost |nearly )?(?P<years>\d{1,2}) (?:years|yrs)\b",
    re.IGNORECASE)
# A protection that comes with the years a rating is held: "held at the same level for 5 years or more", "for 20 or
# more years".
_YEARS_HELD_RULE_RE = re.compile(r"\b(?P<years>\d{1,2}) (?:or more )?years(?: or more)?\b", re.IGNORECASE)


def _fitting_years_held_first(chosen: list[Unit], question: str, *, this_year: int) -> list[Unit]:
    """Lead with the rule for the years the asker has held a rating, when a yes or no is asked.

    "I've been at 40% for my back since 2004, can VA ever lower it": the 5-year rule opened the answer, the 20-year
    one (it cannot go below 40% but for fraud) fourth. Of the sentences stating one such span, the one with the
    longest span the asker has held leads.
    """
    found = _HELD_SINCE_RE.search(question)
    if not chosen or not found or not _YES_NO_RE.search(question):
        return chosen
    held = this_year - int(found.group("year")) if found.group("year") else int(found.group("years"))

    def span(unit: Unit) -> int | None:
        spans = {int(m.group("years")) for m in _YEARS_HELD_RULE_RE.finditer(unit.text)}
        return spans.pop() if len(spans) == 1 else None

    fitting = [u for u in chosen if (n := span(u)) is not None and n <= held and not _ROW_RE.match(u.text)
               and not _CONTEXT_BOUND_RE.match(u.text) and not _BACK_REFERENCE_RE.search(u.text)]
    if not fitting:
        return chosen
    best = max(fitting, key=span)
    return chosen if best is chosen[0] else [best, *(u for u in chosen if u is not best)]


_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}
_MONTH_YEAR = (r"(?P<{0}m>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?: \d{{1,2}}(?:st|nd|rd|th)?)?,? "
               r"(?:of )?(?P<{0}y>(?:19|20)\d\d)\b")
# "Got out of the army aug 2024 and filed my claim in may 2025", "separated sept 30 2023, VA got my claim nov 15 2024".
_SEPARATED_ON_RE = re.compile(r"\b(?:got out|separated|discharged|ets(?:'?d)?|left (?:the )?(?:military|service|army|navy|"
                              r"air force|marines?|marine corps|coast guard|active duty)|retired)\b[^.?!]{0,30}?\b"
                              + _MONTH_YEAR.format("s"), re.IGNORECASE)
# "Didn't file my claim until March 2025", "I'll file in May 2026": a filing's month too.
_FILED_ON_RE = re.compile(r"\b(?:filed|file|filing|applied|apply|submitted|submit|sent (?:in )?(?:my|the) claim|"
                          r"(?:va|they) (?:got|received) "
                          r"(?:my|the) (?:claim|application))\b[^.?!]{0,30}?\b" + _MONTH_YEAR.format("f"), re.IGNORECASE)
# The discharge page's two branches: "within one year after you leave active service", "more than one year after
# separation".
_WITHIN_YEAR_BRANCH_RE = re.compile(r"\bwithin (?:one|1) year (?:after|of) (?:you leave|leaving|separation|discharge)",
                                    re.IGNORECASE)
_AFTER_YEAR_BRANCH_RE = re.compile(r"\bmore than (?:one|1) year after (?:separation|discharge|you leave)", re.IGNORECASE)


def _fitting_discharge_branch_first(chosen: list[Unit], units: Sequence[Unit], question: str) -> list[Unit]:
    """Lead with the effective-date branch the asker's own dates fall in: "got out aug 2024, filed may 2025" is
    within a year of leaving (the day after separation); "separated sept 2023, VA got my claim nov 2024" is not."""
    left, filed = _SEPARATED_ON_RE.search(question), _FILED_ON_RE.search(question)
    if not chosen or not left or not filed:
        return chosen
    months = (int(filed.group("fy")) - int(left.group("sy"))) * 12 \
        + _MONTHS[filed.group("fm").lower()[:3]] - _MONTHS[left.group("sm").lower()[:3]]
    if months == 12 or months < 0:
        return chosen  # a year to the month: the days decide, which the question may not give
    branch = _WITHIN_YEAR_BRANCH_RE if months < 12 else _AFTER_YEAR_BRANCH_RE
    fitting = next((u for u in [*chosen, *units] if branch.search(u.text) and not _ROW_RE.match(u.text)), None)
    if fitting is None or fitting is chosen[0]:
        return chosen
    return [fitting, *(u for u in chosen if u is not fitting)]


# A year the question asks an amount for: "in 2015", "for the 2018-2019 school year", "FY 2026", "back in 2012".
_ASKED_YEAR_RE = re.compile(r"\b(?:in|for|during|of|back in|from|fy|fiscal year)\s+(?:the\s+)?(?:year\s+)?"
                            r"(?P<year>(?:19|20)\d\d)(?:\s*[-/]\s*(?:19|20)?\d\d)?\b", re.IGNORECASE)
_FIGURE_ASKED_RE = re.compile(r"\b(?:how much|rates?|caps?|max(?:imum)?|amounts?|stipend|allowance|paid|pay|cost)\b",
                              re.IGNORECASE)
_ON_OR_AFTER_RE = re.compile(r"\b(?:on or after)\s+(?:[a-z]+\s+\d{1,2},?\s+)?(?P<year>(?:19|20)\d\d)\b",
                             re.IGNORECASE)
_BEFORE_RE = re.compile(r"\bbefore\s+(?:[a-z]+\s+\d{1,2},?\s+)?(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)


def _asked_year(question: str) -> int | None:
    """The one year a question asks an amount for, unless it is last year, this year or next (the sources' own)."""
    years = {int(m.group("year")) for m in _ASKED_YEAR_RE.finditer(question)}
    if len(years) != 1:
        return None
    year = years.pop()
    return year if year < datetime.date.today().year - 1 or year > datetime.date.today().year + 1 else None


def _year_covered(year: int, content: str) -> bool:
    """Whether a source's figures speak of ``year``: it names it, or "on or after" an earlier year, or "before" a
    later one."""
    if str(year) in content:
        return True
    return any(year >= int(m.group("year")) for m in _ON_OR_AFTER_RE.finditer(content)) \
        or any(year < int(m.group("year")) for m in _BEFORE_RE.finditer(content))


def _amounts_table(
    sources: Sequence[SourceChunk], units: Mapping[int, Sequence[tuple[str, np.ndarray]]], nouns: frozenset[str],
) -> list[Unit]:
    """The units of the first of ``sources`` whose table rows give the amounts asked, named in full (``nouns``, with
    the word before each: "burial allowance", not any allowance) by the table's lead or the source's title ("how
    much is the burial allowance and how do I apply": "VA burial allowance maximums, by date of death:" and its
    rows); empty when there is none."""
    if not nouns:
        return []
    for chunk in sources:
        table = [Unit(chunk.number, position, text, np.asarray(vector, dtype=np.float32))
                 for position, (text, vector) in enumerate(units.get(chunk.chunk_id, ()))]
        rows = [u for u in table if _ROW_RE.match(u.text) and "$" in u.text]
        if len(rows) < 2:
            continue
        lead = " ".join([chunk.title] + [u.text for u in table if u.position == rows[0].position - 1])
        if any(re.search(rf"\b{noun}", lead, re.IGNORECASE) for noun in nouns):
            return table
    return []


def _money_phrases(question: str, nouns: frozenset[str]) -> frozenset[str]:
    """Each money noun of the question with the word before it ("burial allowance", "funding fee")."""
    return frozenset(re.escape(m.group(0).lower()) for noun in nouns
                     for m in re.finditer(rf"\b[a-z]{{3,}}\s+{noun}\w*", question, re.IGNORECASE)
                     if m.group(0).split()[0].lower() not in STOP_WORDS)


def _holds_every_level(chunk: SourceChunk, units: Mapping[int, Sequence[tuple[str, np.ndarray]]]) -> bool:
    """Whether a source is a whole table (ALL_LEVELS_ROWS rows or more), not one level of a table split across sources."""
    return sum(1 for text, _ in units.get(chunk.chunk_id, ()) if _ROW_RE.match(text)) >= ALL_LEVELS_ROWS


def _whole_table(chosen: list[Unit], units: list[Unit]) -> list[Unit]:
    """Serve every row of a table, and the sentence leading them, when some of its rows were chosen: three of
    six service tiers would read as the whole table and leave out the asker's own."""
    rows = [u for u in units if _ROW_RE.match(u.text)]
    if len(rows) < 2 or not any(_ROW_RE.match(u.text) for u in chosen):
        return chosen
    have = {(u.chunk_number, u.position) for u in chosen}  # (chosen may hold other sources' sentences)
    # The sentence that leads the rows says what they are ("For purchase and construction loans ..., the fee is:").
    lead = [u for u in units if u.position == rows[0].position - 1 and _TABLE_LEAD_RE.search(u.text)]
    return chosen + [u for u in lead + rows[:MAX_TABLE_ROWS] if (u.chunk_number, u.position) not in have]


def _whole_steps(chosen: list[Unit], units: list[Unit]) -> list[Unit]:
    """Serve every numbered step, after the sentence that leads them, when some were chosen: steps 2, 6 and 7
    of seven read as a broken list."""
    steps = [u for u in units if _NUMBERED_STEP_RE.match(u.text)]
    if not any(_NUMBERED_STEP_RE.match(u.text) for u in chosen):
        return chosen
    lead = [u for u in units if u.position == steps[0].position - 1]
    have = {u.position for u in chosen}
    return chosen + [u for u in lead + steps if u.position not in have]


def _with_list_items(chosen: list[Unit], units: list[Unit]) -> list[Unit]:
    """Add the items a chosen sentence announces ("VR&E organizes services into five tracks." followed by
    "Reemployment: ...", "Self-Employment: ..."): the count without the items answers nothing."""
    by_position = {u.position: u for u in units}
    have = {u.position for u in chosen}
    added = []
    for unit in chosen:
        if not _LIST_ANNOUNCED_RE.search(unit.text):
            continue
        position = unit.position + 1
        while (item := by_position.get(position)) is not None and _LIST_ITEM_RE.match(item.text) \
                and len(added) < MAX_TABLE_ROWS:
            if position not in have:
                added.append(item)
                have.add(position)
            position += 1
    return chosen + added


def levels_asked(question: str, *, asked_as: str | None = None) -> frozenset[int]:
    """Return the rating levels a question names ("at 70 percent", "a 30% rating").

    Beside a level written with its unit, a bare tens figure counts too: "rated 10 percent, what do I need
    for 20" asks about the 20% row. ``asked_as`` is the question as asked when ``question`` has the asker's own
    rating taken out: "I'm at 50% for depression, what gets me bumped to 70" still writes its levels in percent.
    """
    written = frozenset(int(m.group(1)) for m in _LEVEL_ASKED_RE.finditer(question)
                        if int(m.group(1)) <= 100 and not _DOUBTED_BEFORE_RE.search(question[:m.start()])
                        and (not _MEASURED_BEFORE_RE.search(question[:m.start()])
                             or _RATING_AFTER_RE.match(question, m.end())))
    if not written and not (asked_as and _LEVEL_ASKED_RE.search(asked_as)):
        return written
    bare = {int(n) for pair in _BARE_LEVEL_RE.findall(question) for n in pair if n}
    return written | {n for n in bare if n <= 100 and n % 10 == 0}


def _levels_missing_rows(
    chosen: list[Unit], levels: frozenset[int], sources: Sequence[SourceChunk],
    units: Mapping[int, Sequence[tuple[str, np.ndarray]]], chunk_types: Mapping[int, str],
    holds_in_full: Callable[[SourceChunk], bool],
) -> list[Unit]:
    """The rows of the levels asked about that the chosen rows lack ("the difference between 50 and 70 percent
    for PTSD": the 70% row), each from the table that holds it in full (the 70% page beside the 50% one)."""
    if len(levels) < 2 or not any(_ROW_RE.match(u.text) for u in chosen):
        return []
    missing = levels - frozenset().union(*(_row_levels(u.text) for u in chosen))
    borrowed: list[Unit] = []
    used = {u.chunk_number for u in chosen}
    for level in sorted(missing):
        # A table giving the level in full first; else a condition's own row for it ("30% — ..." of PTSD's page).
        tables = [c for c in sources if chunk_types.get(c.chunk_id) == "rating_table" and c.number not in used]
        for chunk in sorted(tables, key=lambda c: not holds_in_full(c)):
            rows = [Unit(chunk.number, position, text, np.asarray(vector, dtype=np.float32))
                    for position, (text, vector) in enumerate(units.get(chunk.chunk_id, ()))
                    if _row_levels(text) == {level}]
            if rows:
                borrowed.append(rows[0])
                used.add(chunk.number)
                break
    return borrowed


def _rows_together(chosen: list[Unit]) -> list[Unit]:
    """Read rows borrowed from other tables where the first table's rows are, lowest level first."""
    rows = [u for u in chosen if _ROW_RE.match(u.text) and _row_levels(u.text)]
    if len({u.chunk_number for u in rows}) < 2:
        return chosen
    first = next(index for index, u in enumerate(chosen) if u is rows[0])  # by identity: units hold arrays
    row_ids = {id(u) for u in rows}
    rest = [u for u in chosen if id(u) not in row_ids]
    rows.sort(key=lambda u: min(_row_levels(u.text)))
    return [*rest[:first], *rows, *rest[first:]]


def _threshold_met(levels: frozenset[int], text: str) -> bool:
    """Whether a level the asker holds meets a threshold the sentence sets ("rated 50% or more" for a 60%)."""
    return any(level >= int(n) for m in _THRESHOLD_RE.finditer(text) for n in re.findall(r"\d{1,3}", m.group(0))
               for level in levels)


def _percents(text: str) -> frozenset[int]:
    """The percentages a sentence writes ("a rating of 30% or 40%")."""
    return frozenset(int(n) for n in _ROW_PERCENT_RE.findall(text))


@functools.lru_cache(maxsize=16384)
def _row_levels(text: str) -> frozenset[int]:
    """Return the levels of the table rows in ``text`` ("70% — deficiencies in most areas ...")."""
    return frozenset(int(m.group(1)) for line in text.splitlines() if (m := _ROW_LEVEL_RE.match(line)))


def _borrowed_table(
    question: str, by_chunk: Mapping[int, list[tuple[float, Unit]]], chunk_of: Mapping[int, SourceChunk],
    chunk_types: Mapping[int, str], *, besides: int, levels: frozenset[int] = frozenset(),
    named: frozenset[int] = frozenset(),
) -> list[Unit]:
    """Return the rating table of the best-matching other source, for a question asking for the levels."""
    if not _LEVELS_QUESTION_RE.search(question):
        return []
    for number, scored in sorted(by_chunk.items(), key=lambda item: -max(s for s, _ in item[1])):
        if number != besides and (rows := _rating_rows(question, chunk_of[number], scored, chunk_types,
                                                       levels=levels, named=named)):
            return rows
    return []


def _rating_rows(
    question: str, chunk: SourceChunk, scored: list[tuple[float, Unit]], chunk_types: Mapping[int, str], *,
    levels: frozenset[int] = frozenset(), named: frozenset[int] = frozenset(),
) -> list[Unit]:
    """Return a rating table when a rating question meets one: its lead sentence and its levels, or only the
    levels the question asks about when the table has them ("what is the PTSD rating at 70 percent").

    ``named``: the figures the question writes, the asker's own level among them. A table longer than
    MAX_TABLE_ROWS keeps their rows ("I'm rated 90%, how much more a month at 100": the pay table's last two).
    """
    if not _RATING_QUESTION_RE.search(question):
        return []
    units = [u for _, u in scored]
    rows = [u for u in units if _ROW_RE.match(u.text)]
    if not rows or (chunk_types.get(chunk.chunk_id) != "rating_table" and len(rows) < 2):
        return []
    asked = [u for u in rows if levels & _row_levels(u.text)]
    lead = [u for u in units if not _ROW_RE.match(u.text)][:1]
    # "So for one eye the levels are:": the sentence introducing the rows says what they assume; a bare label
    # ("Condensed levels:") says nothing the rows do not.
    caption = [u for u in units if u.position == rows[0].position - 1 and u.text.rstrip().endswith(":")
               and len(u.text.split()) >= CAPTION_MIN_WORDS]
    kept = [u for u in rows[MAX_TABLE_ROWS:] if named & _row_levels(u.text)]
    picked = asked or [*rows[:MAX_TABLE_ROWS - len(kept)], *kept]
    # "DC 7531, kidney transplant:" between the nephrectomy's rows and the transplant's: a table of two codes
    # keeps the caption over each row it serves, or the transplant's 100% reads as the nephrectomy's.
    inner = [u for u in units if rows[0].position < u.position < rows[-1].position and not _ROW_RE.match(u.text)
             and u.text.rstrip().endswith(":")]
    over = {max((c.position for c in inner if c.position < row.position), default=-1) for row in picked}
    if caption and lead and caption[0] is not lead[0] and -1 in over:
        lead.append(caption[0])
    # "What is the rating for prostate cancer after surgery": a table of one or two rows says little by
    # itself; the sentences after it (the exam six months on, what is rated then) finish the answer.
    table = lead + sorted([*picked, *(c for c in inner if c.position in over)], key=lambda u: u.position)
    notes = [u for u in units if u.position > rows[-1].position and not _ROW_RE.match(u.text)]
    if len(rows) > SHORT_TABLE_ROWS or sum(len(u.text) for u in table) > SHORT_TABLE_CHARS:
        # "What is a mastectomy rated, and does it get SMC", "frostbite on both feet, is each foot rated
        # separately": the table's note on what was asked besides the levels comes with it.
        asked = _note_kinds(question)
        return table + [u for u in notes if asked & _note_kinds(u.text)][:1]
    return table + notes[:TABLE_NOTES]


_TABLE_NOTE_ASKED_RE = re.compile(r"\b(?:(?P<smc>smc|special monthly compensation)|(?P<separate>separate(?:ly)?|each))\b",
                                  re.IGNORECASE)


def _note_kinds(text: str) -> frozenset[str]:
    """What a question asks, or a table's note says, besides the levels: special monthly compensation, or each
    part rated separately."""
    return frozenset("smc" if m.group("smc") else "separate" for m in _TABLE_NOTE_ASKED_RE.finditer(text))


def _stated_highest_first(chosen: list[Unit]) -> list[Unit]:
    """Lead with the sentence that says a table's maximum ("30 percent is the maximum under DC 7010") when the
    question asks for the highest and the sentence follows the rows."""
    stated = next((u for u in chosen if not _ROW_RE.match(u.text) and _HIGHEST_RE.search(u.text)), None)
    rows = [u for u in chosen if _ROW_RE.match(u.text)]
    if stated is None or not rows or chosen.index(stated) < chosen.index(rows[0]):
        return chosen
    return [stated, *(u for u in chosen if u is not stated)]


def _highest_stated(chosen: list[Unit], units: list[Unit], chunk: SourceChunk, question: str) -> list[Unit]:
    """Open with the table's top level when the question asks for the highest ("is 50% the highest for
    headaches"): the rows show it, but only as the last of several. Computed from the rows, like a combined
    rating, and cited to the table it is read from: "for DCs N to M" when its title names the codes it
    covers (the leg amputation table's 90% is not its DC 5165's), else "under DC N" when it is one code's."""
    levels = [int(n) for u in units if _ROW_RE.match(u.text)
              for n in _ROW_PERCENT_RE.findall(u.text.split(" — ", 1)[0])]
    if not levels:
        return chosen
    # Nor when the source says its maximum itself ("short of the whole spine fused, the highest for the neck is
    # 40 percent": the 100% row is not the neck's): _stated_highest_first puts that sentence first.
    stated = next((u for u in units if not _ROW_RE.match(u.text) and _HIGHEST_RE.search(u.text)), None)
    if stated is not None:
        return chosen if stated in chosen else [stated, *chosen]
    # The codes its title gives (the spine formula's "DCs 5235 to 5243", which the citation check finds in it),
    # else its own code, else the one code its text names.
    titled = sorted(set(dc_codes_find(chunk.title)))
    codes = set(dc_codes_find(chunk.content)) | ({chunk.diagnostic_code} if chunk.diagnostic_code else set())
    if len(titled) > 1:
        where = f"for DCs {titled[0]} to {titled[-1]}"
    elif titled or chunk.diagnostic_code or len(codes) == 1:
        where = f"under DC {(titled or [chunk.diagnostic_code or codes.pop()])[0]}"
    else:
        where = "in this table"
    lead = chosen[0]
    return [Unit(lead.chunk_number, -1, _highest_sentence(where, levels, units, question), lead.vector), *chosen]


# "40% major / 30% minor — ...": a row that rates the dominant and the other arm apart.
_MAJOR_MINOR_RE = re.compile(r"^(\d{1,3})% major / (\d{1,3})% minor\b")
_ARMS = r"(?:arm|hand|shoulder|wrist|elbow|side|fingers?|thumb)"
# Which arm the asker's is: "non-dominant", "my off hand", "it's my left arm and I'm a righty".
_MINOR_ARM_RE = re.compile(
    rf"\bnon-?dominant\b|\bminor {_ARMS}\b|\boff[- ]hand\b|"
    rf"\bleft {_ARMS}\b(?=[^.?!]{{0,60}}\b(?:righty|right[- ]handed|right hand dominant)\b)|"
    rf"\b(?:righty|right[- ]handed)\b(?=[^.?!]{{0,60}}\bleft {_ARMS}\b)|"
    rf"\bright {_ARMS}\b(?=[^.?!]{{0,60}}\b(?:lefty|left[- ]handed|left hand dominant)\b)|"
    rf"\b(?:lefty|left[- ]handed)\b(?=[^.?!]{{0,60}}\bright {_ARMS}\b)", re.IGNORECASE)
_MAJOR_ARM_RE = re.compile(
    rf"(?<!non-)(?<!non )\bdominant\b|\bmajor {_ARMS}\b|\bwriting (?:arm|hand)\b|"
    rf"\bright {_ARMS}\b(?=[^.?!]{{0,60}}\b(?:righty|right[- ]handed)\b)|"
    rf"\bleft {_ARMS}\b(?=[^.?!]{{0,60}}\b(?:lefty|left[- ]handed)\b)", re.IGNORECASE)


def _highest_sentence(where: str, levels: list[int], units: list[Unit], question: str) -> str:
    """The table's top level; for a table rating the dominant (major) and the other (minor) arm apart, the top
    of the asker's arm when the question says which it is ("my left arm and I'm a righty": the minor column),
    else both."""
    pairs = [(int(m.group(1)), int(m.group(2))) for u in units if (m := _MAJOR_MINOR_RE.match(u.text))]
    if not pairs:
        return f"The highest rating {where} is {max(levels)}%."
    major, minor = max(p[0] for p in pairs), max(p[1] for p in pairs)
    if _MINOR_ARM_RE.search(question):
        return f"The highest rating {where} for the non-dominant (minor) arm is {minor}% ({major}% for the dominant arm)."
    if _MAJOR_ARM_RE.search(question):
        return f"The highest rating {where} for the dominant (major) arm is {major}%."
    return f"The highest rating {where} is {major}% for the dominant (major) arm and {minor}% for the other (minor) arm."


def _cite(text: str, number: int) -> str:
    """Put the marker inside the sentence ("... maximum [1].") so sentence splitters keep it with its claim."""
    match = _END_PUNCT_RE.search(text)
    if match:
        return f"{text[: match.start()]} [{number}]{text[match.start():]}"
    return f"{text} [{number}]"


# The body parts a condition sits in.
_SITE_WORDS = content_words("wrist wrists hand hands arm arms leg legs foot feet knee knees hip hips ankle ankles elbow "
                            "elbows finger fingers toe toes shoulder shoulders neck back")
# A measurement's unit names no row: every row of the knee's table says "degrees"; nor does "time" ("half the time"
# is not chronic fatigue's "at times preventing self-care").
_MEASURE_UNIT_WORDS = content_words("degree degrees month months week weeks day days year years time times")
# Words a rating question and every row share ("what rating for my sleep apnea"), and numbers that are no
# measurement (a rating, a year, a code).
_ROW_MATCH_GENERIC = content_words("rating rated rate ratings percent percentage level levels get getting would will "
                                   "va disability service connected what how much qualify count need") | _MEASURE_UNIT_WORDS
# A stage, grade or class names no measurement: "CKD stage 4", "grade 2 ankle sprain".
_STAGE_RE = re.compile(r"\b(?:stage|grade|class|type|phase)\s+(?:[0-9]{1,2}|iv|v|i{1,3})\b", re.IGNORECASE)
_MEASURE_RE = re.compile(r"(?<![\d.,$/-])(\d{1,3}(?:\.\d+)?)(?![\d.,/-]?\d)(?!\s*(?:%|percent\b|per ?cent\b))")
TABLE_MIN_ROWS = 3
_NEGATED_RE = re.compile(r"\b(?:don'?t|do not|doesn'?t|does not|didn'?t|not|no|never|without|isn'?t|can'?t|cannot)\b"
                         r"(?:\s+[\w'-]+){0,4}|"
                         # "antihistamines don't control it", "the cream stopped working": what failed is not theirs.
                         r"\b[\w'-]+\s+(?:don'?t|do not|doesn'?t|does not|didn'?t|did not|no longer|stopped|won'?t)\s+"
                         r"(?:control|help|work)\w*", re.IGNORECASE)


# "served 20 months", "flexion 55 degrees", "FEV1 45 percent predicted": a measurement and its unit, and a row's
# range of one ("at least 18 months but less than 24 months", "greater than 30 degrees but not greater than 60
# degrees", "FEV-1 40 to 55 percent"). A percent counts only as a test's or a body area's, never as a rating.
_UNIT_WORDS = r"months?|mos|degrees?|days?|weeks?|years?|yrs?|mets?|percent|%"
_UNIT = rf"(?P<unit>{_UNIT_WORDS})"
_ASKED_MEASURE_RE = re.compile(
    r"(?:(?P<test>fev-?1|fvc|dlco|predicted|body|skin|exposed|area|covers?|combined|ejection fraction|lvef|\bef\b)"
    r"\D{0,20})?(?<![\d.,$/-])"
    r"(?P<value>\d{1,3}(?:\.\d+)?)\s*" + _UNIT + r"(?P<after>\s+(?:predicted|of (?:my|the) (?:body|skin)))?",
    re.IGNORECASE)
# Ends are exclusive where the row says so: "greater than 30 but not greater than 60 degrees" does not hold 30,
# "at least 4 weeks but less than 6 weeks" does not hold 6.
_ROW_RANGE_RE = re.compile(
    r"(?P<lowop>greater than|more than|over)?\s*(?<![\d.])(?P<low>\d{1,3}(?:\.\d+)?)\s*"
    rf"(?:{_UNIT_WORDS})?\s*(?:but\s+)?"
    r"(?P<op>and up to|up to|to|through|-|–|not greater than|less than|not more than|under)\s+(?P<high>\d{1,3}(?:\.\d+)?)\s*"
    + _UNIT, re.IGNORECASE)
# A range open at one end: "forward flexion of 30 degrees or less", "FEV-1 below 40 percent", "at least 6 weeks".
# Not a bare "not greater than 120 degrees": the spine rows give it for the combined range of motion, which a
# single measurement ("bends forward 25 degrees") is not.
_ROW_UPPER_RE = re.compile(r"(?:\b(?P<op>below|under|less than)\s+(?P<high>\d{1,3}(?:\.\d+)?)\s*" + _UNIT + r")|"
                           rf"(?:(?<![\d.])(?P<high2>\d{{1,3}}(?:\.\d+)?)\s*(?P<unit2>{_UNIT_WORDS})\s+or\s+"
                           r"(?:less|fewer|lower)\b)", re.IGNORECASE)
_ROW_LOWER_RE = re.compile(r"(?:\b(?<!not )(?P<op>at least|more than|greater than|over)\s+(?P<low>\d{1,3}(?:\.\d+)?)\s*" + _UNIT +
                           r"(?!\s*(?:but|to|through|-|–)\b))|"
                           rf"(?:(?<![\d.])(?P<low2>\d{{1,3}}(?:\.\d+)?)\s*(?P<unit2>{_UNIT_WORDS})\s+or\s+"
                           r"(?:more|greater|higher|longer)\b)", re.IGNORECASE)


# "Flexion limited to 45 degrees": as far as the joint goes, so 40 degrees meets it (and 60 does not); "extension
# limited to 10 degrees" is how far short of straight it stops, so 15 degrees short meets it.
_ROW_LIMITED_RE = re.compile(r"\b(?P<motion>flexion|extension|abduction|adduction|rotation|motion|dorsiflexion|"
                             r"plantar flexion)?[^.;,—]{0,20}?\blimited to\s+(?P<value>\d{1,3})\s*degrees?", re.IGNORECASE)


def _unit_of(word: str) -> str:
    word = word.lower()
    if word in ("%", "percent"):
        return "percent"
    word = word.rstrip("s")
    return {"yr": "year", "mo": "month"}.get(word, word)


# Lengths of time compare across units: "2 years" of service falls in the tier "at least 24 months but less than
# 30 months", "bedridden 30 days" in "at least 4 weeks but less than 6 weeks".
_TIME_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
# "2 yrs 4 months", "3 years and 2 months": one length, in months.
_YEARS_MONTHS_RE = re.compile(r"(?<![\d.])(?P<years>\d{1,2})\s*(?:years?|yrs?)\s*,?\s*(?:and\s+)?"
                              r"(?P<months>\d{1,2})\s*(?:months?|mos?)\b", re.IGNORECASE)


# The lung tests a row's range may be of ("FVC 65 to 74 percent, or DLCO 56 to 65 percent"), named within
# _TEST_NAME_CHARS before the range.
_LUNG_TEST_RE = re.compile(r"\b(fev-?1(?:/fvc)?|fvc|dlco)\b", re.IGNORECASE)
_TEST_NAME_CHARS = 12


def _lung_test(text: str) -> str:
    found = _LUNG_TEST_RE.findall(text)
    return found[-1].lower().replace("-", "") if found else ""


# "Combined motion of 120 degrees or less": the sum of the spine's six motions, which a single one ("bends forward
# 25 degrees") is not; only a measurement the asker calls combined is compared with it.
_COMBINED_MOTION_RE = re.compile(r"\bcombined\b[^;,]{0,25}$", re.IGNORECASE)
COMBINED_MOTION = "combined"


def _range_test(text: str, start: int) -> str:
    """What a row's range at ``start`` is of: a lung test named just before it, or the spine's combined motion."""
    before = text[max(0, start - _TEST_NAME_CHARS * 3):start]
    return COMBINED_MOTION if _COMBINED_MOTION_RE.search(before) else _lung_test(before[-_TEST_NAME_CHARS:])


# Blood pressure, in mm Hg without a unit said: "diastolic is 110", "runs 170 over 105", "bp 160/100"; a row's
# "diastolic pressure predominantly 100 or more". A bare "N/M" counts only in a question about blood pressure.
BLOOD_PRESSURE = "mmhg"
_BP_NAMED_RE = re.compile(r"\b(?P<test>diastolic|systolic)\b\D{0,25}?(?<![\d.])(?P<value>\d{2,3})(?!\d)", re.IGNORECASE)
_BP_PAIR_RE = re.compile(r"(?<![\d./])(?P<systolic>\d{2,3})\s*(?:/|over)\s*(?P<diastolic>\d{2,3})(?![\d/])", re.IGNORECASE)
_BP_CONTEXT_RE = re.compile(r"\b(?:blood pressure|bp|hypertension|htn|pressure)\b", re.IGNORECASE)
_BP_ROW_RE = re.compile(r"\b(?P<test>diastolic|systolic)(?:\s+pressure)?(?:\s+predominantly)?\s+(?P<low>\d{2,3})\s+or\s+more\b",
                        re.IGNORECASE)


def _blood_pressures(question: str) -> list[tuple[float, str, str]]:
    found = [(float(m.group("value")), BLOOD_PRESSURE, m.group("test").lower()) for m in _BP_NAMED_RE.finditer(question)]
    if not found and _BP_CONTEXT_RE.search(question):
        for m in _BP_PAIR_RE.finditer(question):
            found += [(float(m.group("systolic")), BLOOD_PRESSURE, "systolic"),
                      (float(m.group("diastolic")), BLOOD_PRESSURE, "diastolic")]
    return found


# "3 days a month", "1 day a week": how often. "4 weeks a year" of incapacitating episodes is a length in a year.
_PER_SPAN_RE = re.compile(r"\s+(?:a|an|per|each|every)\s+(?:day|week|month)\b", re.IGNORECASE)


def _measures(question: str) -> list[tuple[float, str, str]]:
    """The measurements the asker gives: value, unit and the lung test it is of, if named ("FVC 70 percent"),
    and blood pressures."""
    found = _blood_pressures(question)
    for m in _YEARS_MONTHS_RE.finditer(question):
        found.append((float(int(m.group("years")) * 12 + int(m.group("months"))), "month", ""))
    question = _YEARS_MONTHS_RE.sub(" ", question)
    for m in _ASKED_MEASURE_RE.finditer(question):
        unit = _unit_of(m.group("unit"))
        if _PER_SPAN_RE.match(question, m.end()):
            continue  # "pain 3 days a month": how often, not how long (_frequency_rows reads it)
        if unit == "percent" and (not (m.group("test") or m.group("after")) or _RATING_AFTER_RE.match(question, m.end())):
            continue  # "rated 30%", "for a 30% asthma rating": a rating, not a measurement
        named = (m.group("test") or "").lower()
        found.append((float(m.group("value")), unit, COMBINED_MOTION if named == COMBINED_MOTION else _lung_test(named)))
    return found


def _row_ranges(text: str) -> list[tuple[float, bool, float, bool, str, str]]:
    """The ranges a row states: low, whether it holds low, high, whether it holds high, unit and lung test."""
    found, taken = [], []
    for m in _ROW_RANGE_RE.finditer(text):
        test = _range_test(text, m.start())
        found.append((float(m.group("low")), not m.group("lowop"), float(m.group("high")),
                      m.group("op").lower() not in ("less than", "under"), _unit_of(m.group("unit")), test))
        taken.append(m.span())
    for pattern, upper in ((_ROW_UPPER_RE, True), (_ROW_LOWER_RE, False)):
        for m in pattern.finditer(text):
            if any(start <= m.start() < end or start < m.end() <= end for start, end in taken):
                continue  # "less than 6 weeks" of "at least 4 weeks but less than 6 weeks"
            if _PER_SPAN_RE.match(text, m.end()):
                continue  # "at least 1 day a week": how often, not how long
            test = _range_test(text, m.start())
            unit = _unit_of(m.group("unit") or m.group("unit2"))
            op = (m.group("op") or "").lower()
            if upper:
                found.append((float("-inf"), True, float(m.group("high") or m.group("high2")), not op, unit, test))
            else:
                found.append((float(m.group("low") or m.group("low2")), op not in ("more than", "greater than", "over"),
                              float("inf"), True, unit, test))
    found += [(float(m.group("low")), True, float("inf"), True, BLOOD_PRESSURE, m.group("test").lower())
              for m in _BP_ROW_RE.finditer(text)]
    for m in _ROW_LIMITED_RE.finditer(text):
        if any(start <= m.start("value") < end for start, end in taken):
            continue
        value = float(m.group("value"))
        if (m.group("motion") or "").lower() == "extension":
            found.append((value, True, float("inf"), True, "degree", ""))
        else:
            found.append((float("-inf"), True, value, True, "degree", ""))
    return found


def _ranges_met(measured: list[tuple[float, str, str]], text: str) -> list[tuple[int, bool]]:
    """The measurements of the question (by index) that fall inside a range the row states in the same unit, and
    of the same test when both name one ("FVC 70 percent" is not inside the 10% row's "DLCO 66 to 80 percent"),
    each with whether that range is open at one end ("110 or more")."""
    met = []
    for low, low_in, high, high_in, unit, test in _row_ranges(text):
        for index, (value, u, asked) in enumerate(measured):
            if u != unit and u in _TIME_DAYS and unit in _TIME_DAYS:
                value, u = value * _TIME_DAYS[u] / _TIME_DAYS[unit], unit
            inside = (low < value or (low_in and low == value)) and (value < high or (high_in and value == high))
            if u == unit and inside and not (asked and test and asked != test) \
                    and (test == COMBINED_MOTION) == (asked == COMBINED_MOTION):
                met.append((index, math.isinf(low) or math.isinf(high)))
    return met


def _motions_only(measured: list[tuple[float, str, str]], met: list[list[tuple[int, bool]]]) -> bool:
    """Whether every measurement the rows meet is a range of motion in degrees."""
    return all(measured[index][1] == "degree" for row in met for index, _ in row)


def _nested_thresholds(met: list[list[tuple[int, bool]]]) -> bool:
    """Whether the rows a measurement meets do so only by open-ended thresholds of that one measurement: "diastolic
    110" meets both "100 or more" and "110 or more"."""
    return len({index for row in met for index, _ in row}) == 1 and all(open_ended for row in met for _, open_ended in row)


def _every_reading_met(measured: list[tuple[float, str, str]], met: list[tuple[int, bool]]) -> bool:
    """Whether every measurement of one test (all the diastolic readings, say) meets the row."""
    indices = {index for index, _ in met}
    tests = {measured[index][2] for index in indices}
    return any(all(i in indices for i, (_, _, test) in enumerate(measured) if test == kind) for kind in tests)


# Words of the asker's that only one row holds, enough to say that row is theirs ("purple heart").
ROW_NAMED_WORDS = 2


def _own_words(row: Unit, rows: list[Unit]) -> frozenset[str]:
    """The content words of a row's criteria that no other row of its table holds."""
    others = frozenset().union(*(content_words(_ROW_LEVEL_RE.sub("", u.text)) for u in rows if u is not row))
    return content_words(_ROW_LEVEL_RE.sub("", row.text)) - others


def _described_row_first(units: list[Unit], question: str, chunk_of: Mapping[int, SourceChunk]) -> list[Unit]:
    """Put first the one row of a table shown whole that the asker's own description names.

    "I use a CPAP every night for sleep apnea, what rating is that": of DC 6847's rows only the 50% one says
    CPAP; "severe with calluses and swelling" names the flatfoot row that says both; "diastolic was 100 to 105"
    the hypertension row that says 100. A row leads only when it is the one row holding any word or measurement
    of the question beyond the table's lead and title (negated words left out); otherwise the table keeps its
    order.
    """
    rows = [u for u in units if _ROW_RE.match(u.text) and _row_levels(u.text)]
    if len(rows) < TABLE_MIN_ROWS or len({u.chunk_number for u in rows}) != 1:
        return units
    first = next(index for index, u in enumerate(units) if u is rows[0])  # by identity: units hold arrays
    if first > 2 or any(u.chunk_number != rows[0].chunk_number for u in units[:first]):
        return units  # only a table that leads the answer: a row does not jump over another source's answer
    chunk = chunk_of.get(rows[0].chunk_number)
    row_ids = {id(u) for u in rows}
    others = [u for u in units if u.chunk_number == rows[0].chunk_number and id(u) not in row_ids]
    known_here = content_words(" ".join([chunk.title if chunk else "", *(u.text for u in others)]))
    known = known_here | _ROW_MATCH_GENERIC
    # "CKD stage 4": a stage is no measurement (not "creatinine 4 to 8"). "I don't use a CPAP": not the CPAP row;
    # but a limit stated with a negation is still a measurement: "my hip can't bend past 10 degrees".
    unstaged = _STAGE_RE.sub(" ", question)
    described = _NEGATED_RE.sub(" ", unstaged)
    asked_words = content_words(described) - known
    asked_numbers = set(_MEASURE_RE.findall(unstaged))
    measured = _measures(unstaged)
    # A measurement decides by itself ("forward flexion 55 degrees": every row speaks of flexion).
    met = {id(u): _ranges_met(measured, u.text.split("—", 1)[-1]) for u in rows}
    matched = [u for u in rows if met[id(u)]]
    if len(matched) > 1 and (_nested_thresholds([met[id(u)] for u in matched])
                             or _motions_only(measured, [met[id(u)] for u in matched])):
        # "diastolic 110" meets "100 or more" (10%) and "110 or more" (20%): the highest level it meets rates it.
        # So do ranges of motion: "flexion 70 and combined motion 110" meet the spine's 10% row by the flexion and
        # its 20% row by the combined motion, and a joint is rated at the highest level any of its motions meets.
        matched = [max(matched, key=lambda u: max(_row_levels(u.text)))]
    elif len(matched) > 1 and all(open_ended for u in matched for _, open_ended in met[id(u)]):
        # "Mostly like 150/112, 160/114": several readings. A row every reading of one test meets ("diastolic 110
        # or more": 112 and 114) is met; the highest such level rates it, as the schedule's "predominantly" reads.
        every = [u for u in matched if _every_reading_met(measured, met[id(u)])]
        if every:
            matched = [max(every, key=lambda u: max(_row_levels(u.text)))]
    if len(matched) > 1:
        return units  # the measurement fits several rows: a word they share would only pick one by chance
    if len(matched) == 1:
        # "A Purple Heart but only 11 months of service": the months meet the 60% row, but the 100% row names the
        # Purple Heart as another way in, and the higher level a row's own words grant is the asker's.
        # "Medically discharged for a service connected knee injury" names the 100% row's "discharge for a
        # service-connected disability": words generic elsewhere ("service connected") count here.
        told = content_words(described) - known_here - _MEASURE_UNIT_WORDS
        named = [u for u in rows if len(told & _own_words(u, rows)) >= ROW_NAMED_WORDS]
        if len(named) == 1 and max(_row_levels(named[0].text)) > max(_row_levels(matched[0].text)):
            matched = named
    if len(matched) != 1:
        matched = _severity_rows(rows, described) or _frequency_rows(rows, described)
    if len(matched) != 1:
        # A body part the condition sits in ("bad wrist carpal tunnel both hands") says nothing of how severe it is:
        # the complete paralysis row's "weak wrist flexion" is not the asker's.
        matched = [u for u in rows if (asked_words - _SITE_WORDS) & content_words(_ROW_LEVEL_RE.sub("", u.text))
                   or asked_numbers & set(_MEASURE_RE.findall(u.text.split("—", 1)[-1]))]
    if len(matched) > 1:
        # "Metformin (an oral hypoglycemic agent) and a restricted diet": every row says "restricted diet", but the
        # words only one row holds name it.
        named = [u for u in matched if len(asked_words & _own_words(u, rows)) >= ROW_NAMED_WORDS]
        matched = named if len(named) == 1 else matched
    # A word several rows share ("swelling", "antibiotics", "DLCO") says nothing of which one is meant.
    if len(matched) != 1:
        return units
    return [matched[0], *(u for u in units if u is not matched[0])]


# The schedule's grades of severity as a row opens with them ("10% — mild incomplete paralysis"); the longest
# first, so "moderately severe" is not read as "severe".
_SEVERITIES = ("moderately severe", "moderate", "severe", "mild", "slight", "marked", "pronounced", "complete")
_SEVERITY_RE = re.compile(r"\b(?:" + "|".join(_SEVERITIES) + r")\b", re.IGNORECASE)


def _severity_rows(rows: list[Unit], described: str) -> list[Unit]:
    """The one row opening with the one grade of severity the question names ("what does mild sciatic nerve
    get" → "10% — mild incomplete paralysis"); none when the question names no grade or several."""
    named = {m.group(0).lower() for m in _SEVERITY_RE.finditer(described)}
    if len(named) != 1:
        return []
    grade = named.pop()
    return [u for u in rows if re.match(rf"\s*{re.escape(grade)}\b", u.text.split("—", 1)[-1], re.IGNORECASE)]


_COUNT_WORDS = {"once": 1, "one": 1, "twice": 2, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_PER_MONTH = {"day": 30.0, "week": 52 / 12, "month": 1.0, "year": 1 / 12}
_COUNT = r"(\d{1,2}|once|one|twice|two|three|four|five|six)"
# "2 or 3 a month", "twice a week", "averaging once a month", "three per year", "3 or more times a year"; "one every 2
# months".
_RATE_RE = re.compile(_COUNT + r"(?:\s*(?:or|to|-)\s*\d{1,2}|\s+or (?:more|fewer|less))?"
                      r"(?: (?:times|days?|nights?|attacks|episodes|headaches|migraines))?"
                      r" (?:a|an|per|each) (day|week|month|year)\b", re.IGNORECASE)
_EVERY_RE = re.compile(r"\b(?:one|once) every " + _COUNT + r" (day|week|month|year)s?\b", re.IGNORECASE)


def _rates(text: str) -> list[float]:
    """How often ``text`` says something happens, per month."""
    def count(word: str) -> float:
        return float(word) if word.isdigit() else float(_COUNT_WORDS[word.lower()])

    found = [(m.start(), count(m.group(1)) * _PER_MONTH[m.group(2).lower()]) for m in _RATE_RE.finditer(text)]
    found += [(m.start(), _PER_MONTH[m.group(2).lower()] / count(m.group(1))) for m in _EVERY_RE.finditer(text)
              if count(m.group(1))]
    return [rate for _, rate in sorted(found)]  # in the order the text says them


# How often, as an asker says it: "every week", "weekly", "every other week" (a row's own wording is read by _rates:
# "daily medication" in a row sets no frequency of attacks).
_EACH_RE = re.compile(r"\b(?:every|each) (other |couple (?:of )?)?(day|week|month|year)\b", re.IGNORECASE)
_LESS_FREQUENT_RE = re.compile(r"\bless frequent\b", re.IGNORECASE)
_LY = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"}
_LY_RE = re.compile(r"\b(daily|weekly|monthly|yearly)\b", re.IGNORECASE)
_ATTACKS_RE = re.compile(r"\b(?:attacks?|episodes?|headaches?|migraines?|flare[- ]?ups?|flares|seizures?|spells?|"
                         r"(?:lay|lie|laying|lying) down|prostrat\w*|incapacitat\w*)\b", re.IGNORECASE)


def _asked_rates(described: str) -> list[float]:
    """How often the asker says something happens, per month: _rates, and "every week", "weekly" said of attacks
    ("migraines that make me lay down every week"; not "a daily pill")."""
    found = _rates(described)
    if not _ATTACKS_RE.search(described):
        return found
    spaced = _EVERY_RE.sub(" ", _RATE_RE.sub(" ", described))
    found += [_PER_MONTH[unit.lower()] / (2 if other else 1) for other, unit in _EACH_RE.findall(spaced)]
    found += [_PER_MONTH[_LY[word.lower()]] for word in _LY_RE.findall(spaced)]
    return found


def _frequency_rows(rows: list[Unit], described: str) -> list[Unit]:
    """The highest row whose frequency the asker's meets ("2 or 3 a month where I have to lie down" meets
    "averaging once a month", 30%, not "one every 2 months", 10%; so does "every week"), when two or more rows are
    set by how often."""
    asked = _asked_rates(described)
    if len(asked) != 1:
        return []
    # A row's first frequency is its own: "dilatation 3 or more times a year, dilatation with steroids at least once a
    # year" is met by 3 a year, not by "twice a year" (its other means, steroids, set a lower count).
    timed = [(rates[0], u) for u in rows if (rates := _rates(u.text.split("—", 1)[-1]))]
    if len(timed) < 2:
        return []
    met = [u for rate, u in timed if rate <= asked[0] + 1e-9]
    if not met:
        # "Once every 3 months" meets no row's frequency: the row for attacks less frequent than the lowest one.
        return [u for u in rows if _LESS_FREQUENT_RE.search(u.text)][:1]
    return [max(met, key=lambda u: max(_row_levels(u.text)))]


def _join(lines: list[tuple[bool, str]]) -> str:
    """Join prose into paragraphs and rating rows into a list, each row on its own line."""
    out = ""
    previous_row: bool | None = None
    for is_row, line in lines:
        bullet = "" if _NUMBERED_STEP_RE.match(line) else "- "  # "1. File a Notice of Disagreement": its own number
        if previous_row is None:
            out = f"{bullet}{line}" if is_row else line
        elif is_row:
            out += f"\n{bullet}{line}"
        elif previous_row:
            out += f"\n\n{line}"
        else:
            out += f" {line}"
        previous_row = is_row
    return out


# "... instead of burning my GI Bill": the benefit kept back is context too. "Used all 36 months of my GI Bill",
# "since my GI Bill is gone": so is one spent.
_SPENT_BEFORE_RE = re.compile(r"\b(?:used up|exhausted|ran out of|run out of|burned through|already used|maxed out|"
                              r"no more|none of|instead of (?:burning|using|wasting|spending|touching)|"
                              r"used (?:all|every)(?: (?:\d+|the))?(?: (?:months?|years?))?(?: of)?)\s+"
                              r"(?:all\s+(?:of\s+)?)?(?:my|the|his|her)?\s*(?:remaining\s+)?")
_SPENT_AFTER_RE = re.compile(r"\s+(?:is|was|are|were|has been|got)\s+(?:all\s+)?(?:gone|used up|exhausted|used|done|spent|"
                             r"over|maxed out)\b")


# Exposures a death or a condition is told to come from: in a story's sentence, its cause.
_STORY_CAUSES = frozenset({"agent_orange", "pact_act", "camp_lejeune", "gulf_war_illness", "blue_water_navy"})
# Words that tell an exposure as a cause: "died from agent orange cancer", "because of the burn pits".
_EXPOSURE_CAUSE_BEFORE_RE = re.compile(
    r"\b(?:from|of|by|due to|because of|caused by|related to)\s+(?:the\s+|my\s+|his\s+|her\s+)?", re.IGNORECASE)
# The sentences a question asks with (ending in "?"), and sentence ends.
_ASKED_SENTENCE_RE = re.compile(r"[^.?!]*\?")
_SENTENCE_END_RE = re.compile(r"[.?!](?:\s|$)")
# A funeral the asker goes to ("my C&P is the same day as my brother's funeral"): an event in the story, not the
# burial benefit asked about.
_ATTENDED_BEFORE_RE = re.compile(r"\b(?:same (?:day|date|time|week) as|attend(?:ing)?|go(?:ing)? to|went to|be at|travel(?:ing)? "
                                 r"to|fly(?:ing)? (?:out )?to|miss(?:ing)?)\s+(?:my|his|her|our|the|a)\s+"
                                 r"(?:[\w'-]+\s+){0,2}")
_ATTENDED_BENEFITS = frozenset({"burial"})


def benefits_asked(question: str) -> list:
    """The benefits the question names, less those the asker has spent ("Can voc rehab pay for college? I already
    used up my GI Bill") or names as an event attended ("the same day as my brother's funeral"): context."""
    from knowledge.extraction import entities_extract

    found = [e for e in entities_extract(text=question) if e.type == "benefit"
             and not re.search(_SPENT_BEFORE_RE.pattern + re.escape(e.text), question, re.IGNORECASE)
             and not re.search(re.escape(e.text) + _SPENT_AFTER_RE.pattern, question, re.IGNORECASE)
             and not (e.value in _ATTENDED_BENEFITS
                      and re.search(_ATTENDED_BEFORE_RE.pattern + re.escape(e.text), question, re.IGNORECASE))]
    # "My husband died of prostate cancer from Agent Orange. I get DIC. Will they take my SBP away because I get
    # DIC?": an exposure named only in the story is its cause, context, when the question itself names a benefit.
    # (Not a program in the story: "I used up my GI Bill. Can I still use VR&E?" asks how the two meet.)
    asked = " ".join(_ASKED_SENTENCE_RE.findall(question))
    in_asked = [e for e in found if re.search(rf"\b{re.escape(e.text)}\b", asked, re.IGNORECASE)]
    # "Diabetes is service connected (agent orange). Can I get paid for that", "my husband died from agent orange
    # cancer and I get DIC, if I get married again": an exposure in brackets, or told as the cause beside another
    # benefit, is how the story came about, not what is asked.
    others = any(e.value not in _STORY_CAUSES for e in found)
    found = [e for e in found if e in in_asked or e.value not in _STORY_CAUSES
             or not (re.search(r"\(\s*" + re.escape(e.text), question, re.IGNORECASE)
                     or (others and re.search(_EXPOSURE_CAUSE_BEFORE_RE.pattern + re.escape(e.text), question, re.IGNORECASE)))]
    if not in_asked or len(_SENTENCE_END_RE.findall(question)) < 2:
        return found
    return [e for e in found if e in in_asked or e.value not in _STORY_CAUSES]


class ExtractiveGenerator:
    """``extractive_generate`` over the chunks' stored sentence vectors (made now for any not made yet)."""

    name = MODEL_NAME

    def generate(self, *, question: str, chunks: Sequence[SourceChunk], context: GenerationContext) -> Generation:
        from knowledge import selectors as kb
        from knowledge.extraction import lay_terms_expand
        from knowledge.services import chunk_units_build

        pairs = [(c.chunk_id, c.content) for c in chunks]
        units = kb.chunk_units_get(chunks=pairs, model_name=context.embedding_model)
        missing = [(pk, content) for pk, content in pairs if not units.get(pk)]
        if missing:  # chunks whose sentences were not embedded yet: embed them now rather than fail
            units.update(chunk_units_build(chunks=missing, provider_name=context.provider_name))
        benefits = benefits_asked(question)
        return extractive_generate(
            question=lay_terms_expand(text=question), asked=question, question_vector=context.question_vector,
            chunks=chunks,
            units=units, chunk_types=context.chunk_types, codes=context.codes,
            condition_names=kb.condition_names_get(), name_words=content_words(" ".join(e.text for e in benefits)),
            benefits=frozenset(e.value for e in benefits), rare_words=content_words(" ".join(context.rare_words)),
        )
