"""Whether the asker's own ratings meet TDIU's percentages (38 CFR 4.16(a)) or SMC-S's (38 CFR 3.350(i)), worked
out, not written.

"My ratings are PTSD 30, back 30, knee 20, combined 60. I can't hold a job, can I still get unemployability": the
regulation's test reads the highest rating and the combined one (38 CFR 4.25's table), so the answer applies it to
the asker's figures and says what remains when they fall short (4.16(b), and conditions that count as one).
"I'm 100% for PTSD, migraines rated 50 and my back is 20, separate, is there any extra payment": SMC-S's test reads
the one disability at 100% and what the others combine to.

The ratings are read strictly: a figure with "%" or "percent", or one written right after or before a condition's
word ("ptsd 30", "30 for my back"); a combined figure the asker states is set aside; any other bare figure the
question holds ("I'm 60 and rated 50...", "20 hours a week") makes the question one this module does not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from verification.combined_ratings import combined_rating

CFR_4_16_URL_SUFFIX = "/section-4.16"
CFR_3_350_URL_SUFFIX = "/section-3.350"
_TDIU_ASKED_RE = re.compile(r"\b(?:tdiu|i\.?u\.?|individual unemployability|unemployab\w*)\b", re.IGNORECASE)
# SMC's own rules, a permanent-and-total standing, or a survivor's case: not this question.
_OTHER_ASKED_RE = re.compile(r"\b(?:smc|special monthly|p&t|permanent and total|dic|widow\w*|survivor\w*|died|passed)\b",
                             re.IGNORECASE)
# Whether the asker qualifies is asked ("can I still get unemployability", "do I qualify", "what percentages do I need"),
# not how TDIU pays or what work it allows ("can I work part time on TDIU").
_ELIGIBILITY_ASKED_RE = re.compile(
    r"\b(?:can|could|would|will|do|does|am|is|should) (?:i|he|she|we|they|that|this|it|these|those)(?: still| even| ever)?"
    r" (?:get|qualify|be eligible|be approved|apply|file|go for|meet|count|enough)\b|\beligib\w*|\bqualif\w*|"
    r"\b(?:percentages?|ratings?|what) (?:do|does|would) (?:i|you|he|she) need\b|\benough for\b|"
    r"\b(?:tdiu|iu|unemployability)\s*\?+\s*$|"  # "40 for my back, 30 for ptsd, tdiu?"
    r"\b(?:meet|meets|met) (?:the )?(?:schedular |tdiu |iu |unemployability |4\.16 )*(?:requirements?|numbers|"
    r"percentages|test|criteria|rules?)\b",
    re.IGNORECASE)
_WORK_ASKED_RE = re.compile(r"\b(?:work|job|earn|income|part[- ]time|side gig|doordash|uber)\b[^.?!]{0,30}\b(?:on|while on|with) "
                            r"(?:tdiu|iu|unemployability)\b", re.IGNORECASE)
_LEVEL = r"(?P<value>100|[1-9]0|0)"
_STATED_COMBINED_RE = re.compile(
    r"\b(?:i'?m|i am|puts? me|has me|have me)\s+(?:now\s+)?at\s+" + _LEVEL.replace("value", "value3")
    + r"\s?(?:%|percent\b)?(?!\s*(?:for|on)\b)|"
    # "I'm 70% with PTSD at 50": a percentage said of the asker, not of a condition, is the combined one.
    r"\b(?:i'?m|im|i am)\s+(?:now\s+)?" + _LEVEL.replace("value", "value4") + r"\s?(?:%|percent\b)"
    r"(?=\s+(?:with|and|combined|total|overall|now|but|so)\b|\s*[,.;]|\s*$)|"
    # "the combined says 60%", "my total came out to 70"
    r"\b(?:combined|overall|total)(?:\s+(?:rating|ratings|is|was|of|at|to|for|me|out|says|said|shows|showed|came|comes|"
    r"listed|as))*\s+(?:at\s+)?" + _LEVEL
    + r"\s?(?:%|percent\b)?|(?<![\d.])" + _LEVEL.replace("value", "value2") + r"\s?(?:%|percent\b)?\s+"
    r"(?:combined|overall|total)\b", re.IGNORECASE)
# "No one condition at 40", "nothing rated over 30": what the asker lacks, no rating.
_NONE_AT_RE = re.compile(r"\b(?:no|none|nothing|not one)(?: one| single)?(?: (?:condition|rating|disability|issue|thing)s?)?"
                         r"(?: (?:is|was|are))?(?: rated)? (?:at|of|over|above|as high as) \d{1,3}\s?(?:%|percent\b)?",
                         re.IGNORECASE)
# Figures that are no rating of the asker's: "the 100 rate", "above the 100% rate", "my highest rating is only 30" (the
# ratings listed say it again).
_SAID_OF_NONE_RE = re.compile(r"\b(?:the|above|over|beyond) (?:the )?100\s?(?:%|percent\b)?(?: (?:rate|level|pay|amount))\b|"
                              # "or does he need to get to 70": the total asked about, not a rating
                              r"\bneeds? to (?:get|reach|hit|be) (?:to |up to |at )?\d{1,3}\s?(?:%|percent\b)?|"
                              r"\bhighest(?: single| one| individual)? (?:rating|one|condition) (?:is|was)(?: only| just)? "
                              r"\d{1,3}\s?(?:%|percent\b)?", re.IGNORECASE)
_PERCENT_RE = re.compile(r"(?<![\d$.,/-])" + _LEVEL + r"\s?(?:%|percent\b)", re.IGNORECASE)
# A bare figure beside a condition's word: "ptsd 30", "back is 30", "knee at 20", "30 for my back".
_BESIDE_WORD_RE = re.compile(
    r"\b(?P<word>[a-z][a-z'&-]{1,20})\s+(?:(?:is|are|was|at|rated)\s+)*(?:at\s+)?" + _LEVEL + r"(?![\d%]|[.,]\d)(?!\s?percent)",
    re.IGNORECASE)
_FOR_WORD_RE = re.compile(r"(?<![\d$.,/-])" + _LEVEL + r"\s?(?:%|percent\b)?\s+(?:(?:p&t|p and t|permanent and total)\s+)?"
                          r"(?:for|on)\s+(?:my|the|his|her)?\s*[a-z]",
                          re.IGNORECASE)
# Words before a figure that make it no rating ("I'm 60", "age 60", "for 20", "about 30").
_NOT_CONDITION_WORDS = frozenset({
    "i'm", "im", "am", "age", "aged", "for", "about", "around", "over", "under", "than", "and", "or", "to", "of",
    "in", "since", "after", "before", "worked", "work", "working", "make", "making", "made", "earn", "earning",
    "was", "is", "are", "at", "rated", "only", "just", "like", "maybe", "almost", "nearly", "the", "a", "an", "by",
    "with", "got", "get", "gets", "have", "has", "had", "been", "be", "me", "my", "it", "its", "it's", "combined",
    "overall", "total", "then", "now", "from", "up", "down", "every", "each", "per", "last", "next", "first",
})
# A figure that could be a rating (0 to 100 by tens) and was read as none: "I'm 60 and rated 50 ..." is unclear.
_ANY_FIGURE_RE = re.compile(r"(?<![\d$.,/-])(?:100|[1-9]0|0)(?![\d]|[.,]\d)")
_UNIT_AFTER_RE = re.compile(r"\s*(?:years?|yrs?|months?|mos|days?|weeks?|hours?|hrs?|k\b|grand|dollars?|bucks|miles|"
                            r"lbs|pounds|times|people|yo\b|y/o)", re.IGNORECASE)


@dataclass(frozen=True)
class TdiuCheck:
    ratings: tuple[int, ...]  # the asker's ratings, highest first
    combined: int  # their combined rating by 38 CFR 4.25
    met: bool

    @property
    def highest(self) -> int:
        return self.ratings[0]


def tdiu_ratings_parse(*, text: str) -> tuple[int, ...] | None:
    """The asker's ratings in a TDIU question, or None when it asks no such thing or a figure is unclear."""
    if not _TDIU_ASKED_RE.search(text) or _OTHER_ASKED_RE.search(text) or not _ELIGIBILITY_ASKED_RE.search(text) \
            or _WORK_ASKED_RE.search(text):
        return None
    found = _ratings_read(text)
    if found is None or len(found) < 2:
        return None
    return tuple(sorted((value for value, _ in found), reverse=True))


# What makes the figures unsafe to read: a self-correction ("40 for my back, I mean 30"), a negated figure ("none of
# them is 100 by itself"), or a fact that changes the test, conditions counted as one ("it's all orthopedic", "both
# knees", "from the same injury": 38 CFR 4.16(a)).
_CORRECTED_RE = re.compile(r"\b(?:i mean|sorry|actually|correction|wait|typo|scratch that|or was it|not sure)\b",
                           re.IGNORECASE)
_NEGATED_FIGURE_RE = re.compile(r"\b(?:no|none|not|nothing|never|neither|nor|isn'?t|aren'?t|wasn'?t)\b(?:\s+[\w']+){0,4}?\s+"
                                r"(?:100|[1-9]0)\b", re.IGNORECASE)
_ONE_DISABILITY_RE = re.compile(r"\b(?:orthopedic|ortho|musculoskeletal|same (?:injury|accident|cause|body system|system|"
                                r"incident)|one (?:body )?system|(?:all|both) from (?:the |my |one )?(?:same|one|\w+ "
                                r"injury)|both (?:legs|arms|knees|feet|ankles|hips|shoulders|wrists|elbows|hands)|"
                                r"bilateral|secondary to|in combat|pow)\b", re.IGNORECASE)


def _ratings_read(text: str) -> list[tuple[int, bool]] | None:
    """Each rating the text gives, with whether it is said of a condition ("100% for PTSD", "back is 20"), in order;
    None when a figure that could be a rating is neither, when a combined figure the asker states is not what the
    ratings read combine to (one was missed: "combined 70%, back 40, PTSD 30 and my knees"), or when the figures are
    unsafe to read (_CORRECTED_RE, _NEGATED_FIGURE_RE, _ONE_DISABILITY_RE)."""
    if _CORRECTED_RE.search(text) or _ONE_DISABILITY_RE.search(text):
        return None
    stated = {int(m.group("value") or m.group("value2") or m.group("value3") or m.group("value4"))
              for m in _STATED_COMBINED_RE.finditer(text)}
    text = _SAID_OF_NONE_RE.sub(" ", _NONE_AT_RE.sub(" ", _STATED_COMBINED_RE.sub(" ", text)))
    if _NEGATED_FIGURE_RE.search(text):
        return None
    spans: dict[int, tuple[int, bool]] = {}
    for match in _FOR_WORD_RE.finditer(text):
        spans[match.start("value")] = (int(match.group("value")), True)
    for match in _BESIDE_WORD_RE.finditer(text):
        if match.group("word").lower() not in _NOT_CONDITION_WORDS:
            spans.setdefault(match.start("value"), (int(match.group("value")), True))
    for match in _PERCENT_RE.finditer(text):
        spans.setdefault(match.start("value"), (int(match.group("value")), False))
    for figure in _ANY_FIGURE_RE.finditer(text):
        if figure.start() not in spans and not _UNIT_AFTER_RE.match(text, figure.end()):
            return None  # a figure neither a rating nor a count of something: not read
    found = [spans[start] for start in sorted(spans)]
    if stated and (len(stated) > 1 or not found
                   or combined_rating(ratings=[value for value, _ in found]).rating not in stated):
        return None
    return found


# Extra pay asked for beside a 100% rating ("is there any extra payment for that", "do I get SMC", "housebound");
# not for a family ("extra money for my kids": dependents) nor TDIU's.
_SMC_S_ASKED_RE = re.compile(r"\b(?:smc(?:[- ]?s)?|special monthly|housebound)\b|"
                             r"\bextra (?:payment|pay|money|compensation|comp)\b|\b(?:anything|something|any(?:thing)?) "
                             r"(?:extra|more)\b|\bpaid more\b|\bmore (?:money|pay)\b", re.IGNORECASE)
_FAMILY_RE = re.compile(r"\b(?:wife|husband|spouse|kids?|child\w*|sons?|daughters?|dependents?|parents?|family)\b",
                        re.IGNORECASE)
_SMC_OTHER_RE = re.compile(r"\b(?:smc[- ]?(?:k|l|m|n|o|r|t)|aid and attendance|loss of use|tdiu|unemployab\w*|"
                           r"died|passed|widow\w*|survivor\w*|dic)\b", re.IGNORECASE)


@dataclass(frozen=True)
class SmcSCheck:
    others: tuple[int, ...]  # the ratings beside the one at 100%, highest first
    combined: int  # what the others combine to by 38 CFR 4.25
    met: bool


def smc_s_ratings_parse(*, text: str) -> tuple[int, ...] | None:
    """The ratings beside a single disability rated 100% in a question asking for extra pay, or None."""
    if not _SMC_S_ASKED_RE.search(text) or _FAMILY_RE.search(text) or _SMC_OTHER_RE.search(text):
        return None
    found = _ratings_read(text)
    if not found:
        return None
    totals = [tied for value, tied in found if value == 100]
    # One 100% said of a condition ("100% for PTSD"): a bare "I'm 100%" may be the combined rating.
    if totals != [True]:
        return None
    others = tuple(sorted((value for value, _ in found if value != 100), reverse=True))
    return others or None


def smc_s_check(*, others: tuple[int, ...]) -> SmcSCheck:
    """38 CFR 3.350(i): a single disability rated 100% and others, separate and distinct, ratable at 60% or more."""
    combined = combined_rating(ratings=list(others)).rating
    return SmcSCheck(others=tuple(sorted(others, reverse=True)), combined=combined, met=combined >= 60)


def smc_s_answer(*, check: SmcSCheck) -> str:
    """[1] cites SMC-S's two tests."""
    others = _listed(check.others)
    combine = (f"{others} combine to {check.combined}%" if len(check.others) > 1
               else f"the other service-connected ratings come to {others}")
    if check.met:
        return (f"Yes, this looks like SMC-S, the housebound rate, an amount paid above the 100% rate: it is for a "
                f"veteran with one service-connected disability rated 100% and other service-connected disabilities "
                f"independently ratable at 60% or more, and here {combine} [1]. Those others must be separate and "
                "distinct from the 100% disability, involving different anatomical segments or body systems [1].")
    return (f"Not by the ratings alone: SMC-S, the housebound rate, needs one service-connected disability rated 100% "
            f"and other service-connected disabilities independently ratable at 60% or more, and here {combine} [1]. "
            "It is also paid when the veteran is permanently housebound because of service-connected disability: "
            "substantially confined to the home and its immediate premises, for life [1].")


def tdiu_check(*, ratings: tuple[int, ...]) -> TdiuCheck:
    """38 CFR 4.16(a): one disability at 60% or more, or two or more with one at 40% or more and a combined 70%."""
    combined = combined_rating(ratings=list(ratings)).rating
    highest = max(ratings)
    met = highest >= 60 or (len(ratings) >= 2 and highest >= 40 and combined >= 70)
    return TdiuCheck(ratings=tuple(sorted(ratings, reverse=True)), combined=combined, met=met)


def _listed(ratings: tuple[int, ...]) -> str:
    figures = [f"{r}%" for r in ratings]
    return figures[0] if len(figures) == 1 else ", ".join(figures[:-1]) + " and " + figures[-1]


def tdiu_answer(*, check: TdiuCheck) -> str:
    """The answer: the test applied to the asker's figures first, then what the percentages leave open.
    [1] cites 4.16(a)'s percentages, [2] what counts as one disability, [3] its extraschedular rule (4.16(b))."""
    ratings = _listed(check.ratings)
    if check.met:
        if check.highest >= 60:
            why = f"one condition is rated {check.highest}%, and one at 60% or more is enough by itself"
        else:
            why = (f"one condition is rated {check.highest}% (40% or more) and together they combine to "
                   f"{check.combined}% (70% or more)")
        return (f"Yes, these ratings meet the percentages for TDIU in 38 CFR 4.16(a): with {ratings}, {why} [1]. "
                "The percentages are half of it: VA must also find that the service-connected conditions keep the "
                "veteran from securing or following a substantially gainful occupation [1].")
    if check.highest >= 40:
        short = f"your highest is {check.highest}%, but together they combine to {check.combined}%, below 70%"
    else:
        short = f"none is rated 40% or more (your highest is {check.highest}%), and they combine to {check.combined}%"
    return (f"Not by the percentages alone: with {ratings}, {short}. TDIU's schedular test in 38 CFR 4.16(a) needs "
            "one service-connected disability rated 60% or more, or two or more with one at 40% or more and a "
            "combined rating of 70% or more [1].\n\n"
            "Two ways remain. Conditions from one cause or one accident, in one body system (such as orthopedic), "
            "or of both arms or both legs can count as one disability toward the 40% or 60% [2]. And under 38 CFR "
            "4.16(b), a veteran who cannot work because of service-connected disabilities but misses the "
            "percentages can still get TDIU on an extraschedular basis: the regional office refers the case to "
            "VA's Director of Compensation Service [3].")
