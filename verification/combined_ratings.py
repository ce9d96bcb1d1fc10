"""Combined disability ratings, computed as 38 CFR 4.25 and 4.26 say, never written by a generator.

4.25 (the combined ratings table): order the ratings from the largest; each further rating takes its share of
the efficiency the earlier ones left (a 60% disability leaves 40% efficiency, and a further 30% leaves 70% of
that: 28% efficient, 72% disabled). Each step's combined value is the table's whole number, and the next
rating combines with that value exactly as the table shows it. Only the last value is converted to the
nearest number divisible by 10, values ending in 5 going up (50 and 30 → 65 → 70).

4.26 (the bilateral factor): ratings of both arms, both legs or paired skeletal muscles are combined first,
10% of that value is added (not combined), and the result is one disability for ordering and combining
(10 and 10 → 19, plus 1.9 → 21; then 60, 21 and 20 → 68 → 74 → 70).

The table's values are ``a + b × (100 − a) / 100`` rounded to the nearest whole number with halves up
(25 and 30 → 47.5 → 48); tests/verification/test_combined_ratings.py checks every cell of Table I.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

# The regulation's own pages, which the answer cites.
CFR_4_25_URL_SUFFIX = "/section-4.25"
CFR_4_26_URL_SUFFIX = "/section-4.26"
# 10% of the combined bilateral value is added (38 CFR 4.26).
BILATERAL_SHARE = Decimal("0.1")


class RatingInvalid(ValueError):
    """A rating that is not a whole percentage from 0 to 100."""


@dataclass(frozen=True)
class CombinationStep:
    """One use of the table: ``value`` (so far) with ``rating`` gives ``combined``."""

    value: int
    rating: int
    combined: int


@dataclass(frozen=True)
class BilateralStep:
    """The bilateral factor: ``ratings`` combined to ``combined``, plus 10% (``factor``), gives ``value``."""

    ratings: tuple[int, ...]
    combined: int
    factor: Decimal
    value: int


@dataclass(frozen=True)
class CombinedRating:
    ratings: tuple[int, ...]  # as given, bilateral ones included
    bilateral: BilateralStep | None
    order: tuple[int, ...]  # the disabilities in order of severity, the bilateral value as one
    steps: tuple[CombinationStep, ...]
    combined_value: int  # exactly as found in the table
    rating: int  # converted to the nearest number divisible by 10, 5s up


def _half_up(value: Decimal) -> int:
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def ratings_combine_once(*, value: int, rating: int) -> int:
    """Return the table's combined value of a disability ``value`` and a further ``rating``."""
    return _half_up(Decimal(value) + Decimal(rating) * (100 - Decimal(value)) / 100)


def _combined_in_order(ratings: Sequence[int]) -> tuple[int, tuple[CombinationStep, ...]]:
    ordered = sorted(ratings, reverse=True)
    value, steps = ordered[0], []
    for rating in ordered[1:]:
        combined = ratings_combine_once(value=value, rating=rating)
        steps.append(CombinationStep(value=value, rating=rating, combined=combined))
        value = combined
    return value, tuple(steps)


def rating_round(*, value: int) -> int:
    """Convert a combined value to the nearest number divisible by 10, values ending in 5 going up."""
    return _half_up(Decimal(value) / 10) * 10


def combined_rating(*, ratings: Sequence[int], bilateral: Sequence[int] = ()) -> CombinedRating:
    """Return the combined rating of ``ratings`` and, with the bilateral factor, of ``bilateral`` (ratings of
    paired extremities, both sides compensable)."""
    for rating in (*ratings, *bilateral):
        if not isinstance(rating, int) or isinstance(rating, bool) or not 0 <= rating <= 100:
            raise RatingInvalid(f"a rating is a whole percentage from 0 to 100, not {rating!r}")
    if not ratings and not bilateral:
        raise RatingInvalid("no ratings to combine")
    bilateral_step = None
    others = [r for r in ratings if r > 0]
    paired = [r for r in bilateral if r > 0]
    if len(paired) >= 2:  # 4.26(c): a partial disability of compensable degree on each side
        combined, _ = _combined_in_order(paired)
        factor = Decimal(combined) * BILATERAL_SHARE
        bilateral_step = BilateralStep(ratings=tuple(sorted(paired, reverse=True)), combined=combined, factor=factor,
                                       value=_half_up(Decimal(combined) + factor))
        parts = [*others, bilateral_step.value]
    else:
        parts = others + paired
    if not parts:
        return CombinedRating(ratings=(*ratings, *bilateral), bilateral=None, order=(), steps=(),
                              combined_value=0, rating=0)
    value, steps = _combined_in_order(parts)
    value = min(value, 100)
    return CombinedRating(ratings=(*ratings, *bilateral), bilateral=bilateral_step,
                          order=tuple(sorted(parts, reverse=True)), steps=steps, combined_value=value,
                          rating=rating_round(value=value))


# ---- reading a combined-rating question ----

@dataclass(frozen=True)
class CombinedQuestion:
    ratings: tuple[int, ...]
    bilateral: tuple[int, ...] = ()
    believed: int | None = None  # the total the asker expected ("why don't 50 and 30 make 80")


# Words that ask to combine ratings.
_COMBINE_RE = re.compile(
    # ("add my wife" adds a dependent, not a rating)
    r"\b(?:combin\w*|va math|add(?:s|ed|ing)? up|adds?(?! (?:my |a |an |the |our |his |her )?(?:new )?"
    r"(?:wife|husband|spouse|child|children|kids?|sons?|daughters?|dependents?|parents?|mom|dad|stepchild\w*|"
    r"newborn|baby))|added|plus|make|makes|(?<!permanent and )(?<!permanently and )(?<!p&)(?<!p & )total|overall|together|"
    r"whole[- ]person|calculat\w*|bilateral|(?:do|does|will|would) (?:i|that|it|this|they) (?:hit|reach|get (?:me )?to)|"
    # "30 knee, 20 back, 10 tinnitus, what do i come out to".
    r"(?:come|comes|coming) out (?:to|at)|"
    # "I have 50 and 30, why isn't that 80", "why is my 50 and 30 only 70": a total the asker questions.
    r"why (?:isn'?t|is not|aren'?t|are not|is|are)\b[^.?!]*?\b(?:\d{1,3}|only)|(?:isn'?t|is not|aren'?t) (?:that|it|this|they)|"
    # "VA says I'm 50% combined, how did they get 50?"
    r"how (?:did|do|does|would) (?:they|va|the va|you|it|that|rater\w*) (?:get|come up with|arrive at|figure|work)\b)\b"
    # "three 50 percent ratings = ?"; "50 and 50 = 100 right??", "50% and 50%, so thats 100 right": a sum to check.
    r"|=\s*\??\s*$|\d\s*%?\s*=\s*\d|\b(?:that'?s|thats|that is)\s+\d{1,3}\s*(?:%|percent)?\s*(?:right|correct|yes)?\s*\?*\s*$"
    # "I was already at 70%, so I'm 90 now right?? 70+20": a total asked to be checked, or a sum written out.
    r"|\b(?:i'?m|im|i am|am i|makes? me|puts? me at)\s+(?:at\s+)?\d0\s*(?:%|percent)?\s*(?:now\s+)?(?:right|correct)"
    r"\s*(?:[?!.,]|$)"
    r"|(?<![\d.])\d0\s*%?\s*\+\s*\d0\b",
    re.IGNORECASE,
)
_RATING_RE = re.compile(
    r"(?<![\d$.,/-])(?P<value>100|[1-9]0|0)(?:\s*(?:%|percent\b|per cent\b))?"
    # (not "putting 0 down", "5% down": a down payment)
    r"(?!\d|[.,/-]\d|\s*(?:years?|yrs?|months?|mos|days?|weeks?|dollars?|down\b|(?:%|percent)\s+down\b))",
    re.IGNORECASE,
)
# "50, 20 and 10, VA says 60 combined; do I qualify for unemployability?": the ratings are the story, TDIU's
# rules (which read the combined figure and the highest rating) are what is asked. So for special monthly
# compensation: "100% for PTSD and the rest adds up to about 60, what is SMC S" asks its rules.
_OTHER_QUESTION_RE = re.compile(r"\b(?:unemployab\w*|tdiu|iu|individual unemployability|smc(?:[- ]?[a-s])?|"
                                r"special monthly compensation)\b", re.IGNORECASE)
# "I lost my award letter and can't remember if it's 70 or 80": two guesses at one figure, not two ratings; the
# asker's own record answers.
_UNSURE_RE = re.compile(r"\b(?:remember|recall|sure|know|certain)\b[^.?!]{0,30}?\b\d{1,3}\s?(?:%|percent)?\s+or\s+\d{1,3}\b",
                        re.IGNORECASE)
# "not 100%", "make 80", "is only 30%", "does that make me 20 percent", "will I get 70", "isn't that 80", "why
# is my rating 70": the total the asker expected or was given, not a rating.
_BELIEF_BEFORE_RE = re.compile(r"\b(?:not|make|makes|equal|equals|be|only|is that|isn'?t that|isn'?t it|get|gives?|to|hit|"
                               # "70+40 is already over 100": a bound the sum is said to pass, not a rating
                               r"reach|put|over|above|past|under|below|than)\s+"
                               r"(?:(?:me|it|us|him|her|my|a|the)\s+)?(?:(?:combined|total|rating)\s+)?(?:at\s+)?"
                               r"(?:(?:about|around|roughly|like|maybe)\s+)?$"
                               r"|(?:=|\bthat'?s|\bthats|\bthat is)\s*$"
                               # "40+20+10 is 70": the sum the asker worked out.
                               r"|\d\s*%?\s*(?:is|are|equals?|makes?|gives?)\s+$"
                               r"|\bwhy(?: is|'s| was) (?:my |the )?(?:combined |total |overall |va )?"
                               r"(?:combined|rating) (?:only )?$",
                               re.IGNORECASE)
# "So I'm 90 now right??": the total the asker asks to have checked.
_CHECKED_AFTER_RE = re.compile(r"\s*(?:%|percent\b)?\s*(?:now\s+)?(?:right|correct)\s*(?:[?!.,]|$)", re.IGNORECASE)
# "why do 50 and 50 equal 80 instead of 100": what the asker expected, beside the total they were given.
_EXPECTED_BEFORE_RE = re.compile(r"\b(?:instead of|rather than)\s+$", re.IGNORECASE)
# "VA says I'm 60 combined", "VA says my combined is 80": a combined figure someone stated, not a rating to
# combine (counted as one, "70, 20, 10, 10, VA says 80" made 100%). "My combined is 70 and I just got 30"
# still combines the two.
_STATED_BEFORE_RE = re.compile(
    r"(?:\b(?:says?|said|told me|tells me|shows?|showed|gave me|gives me|lists?|listed|puts? me at|has me at|"
    r"have me at|had me at)\s+(?:(?:i'?m|im|i am|me|my|it'?s|its|it is|that|the|a|an|at)\s+)*"
    r"(?:(?:combined|total|overall|ratings?)\s+)*(?:(?:is|was|of|at|as)\s+)?)$",
    re.IGNORECASE)
# "They just gave me 20% for my knee": a stated figure for a condition is a rating, not the combined one.
# So is a figure with its percent sign and the condition's name right after it: "my letter says 40% back and 20% left
# knee but my total is only 50".
_FOR_CONDITION_AFTER_RE = re.compile(
    r"\s*(?:%|percent\b|per cent\b)?\s*(?:for|on)\s+(?:(?:my|the|his|her|a|an)\s+)?"
    r"(?!combined|total|overall|everything|all\b|it\b|that\b|this\b|now\b|me\b|us\b|them\b)[a-z]"
    r"|\s*(?:%|percent\b)?\s+(?:(?:left|right|lower|upper|bilateral)\s+)?(?!combined|total|overall|and\b|or\b|but\b|so\b|"
    r"now\b|is\b|was\b|because\b|since\b|which\b|when\b|if\b|that\b|then\b|rating|disab|service|sc\b|p&t|"
    r"permanent|percent|in\b|at\b|from\b|to\b|with\b|by\b|of\b|after\b|before\b|a\b|an\b|the\b|my\b|"
    # "my brother says 100 lol": a laugh, not a condition
    r"lol\b|lmao\b|haha|smh\b|tho\b|though\b)[a-z]{3,}",
    re.IGNORECASE)
# "30 ptsd, 30 back, 20 knee, combined 60": after the ratings it sums up, a combined figure is the one the asker
# was given ("my combined is 70 and I just got 30", coming first, is a rating still to combine).
_SUMMED_BEFORE_RE = re.compile(r"\b(?:combined|total|overall)(?:\s+(?:rating|is|was|of|at|=|:))*\s*:?\s*$",
                               re.IGNORECASE)
# "I thought 40 more would put me at 100": a rating named again as what it adds, not another rating.
_MORE_AFTER_RE = re.compile(r"\s*(?:%|percent\b|per cent\b)?\s*(?:more|extra|on top)\b", re.IGNORECASE)
# A term of a sum written with "+" ("40+20+10").
_SUMMED_TERM_RE = re.compile(r"\+\s*$|\s*%?\s*\+")
# "4 different things rated at 10% each": a count of equal ratings.
_COUNT_EACH_RE = re.compile(
    r"\b(?P<count>two|three|four|five|six|seven|eight|nine|ten|[2-9])\b[^.?!\d]{0,40}?"
    r"(?P<value>100|[1-9]0)\s*(?:%|percent|per cent)?\s+each\b"
    # "two ratings at 70", "three 50 percent ratings", "2 conditions rated 30%": a count of equal ratings.
    r"|\b(?P<count2>two|three|four|five|six|seven|eight|nine|ten|[2-9])\s+"
    r"(?:(?:(?:separate|different|service[- ]connected)\s+)?(?:ratings?|disabilit\w+|conditions?|things)\s+"
    r"(?:(?:rated|that are|at|of)\s+)*(?P<value2>100|[1-9]0)(?!\d)"
    r"|(?P<value3>100|[1-9]0)\s*(?:%|percent|per cent)?\s+(?:ratings?|disabilit\w+|conditions?))\b",
    re.IGNORECASE,
)
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_PAIRED = r"knees?|legs?|arms?|ankles?|hips?|shoulders?|elbows?|wrists?|feet|foot|hands?|thighs?|calf|calves|extremit\w*"
_BOTH = r"\bboth (?:of )?(?:(?:my|his|her|the) )?"  # "both knees", "both my knees", "both of his ankles"
_BOTH_EACH_RE = re.compile(rf"{_BOTH}(?:{_PAIRED})\b[^.?!]*?\beach\b|\beach (?:{_PAIRED.replace('?', '')})\b",
                           re.IGNORECASE)
# "both knees at 10 each", "both knees rated 10%": one rating given for both sides.
_BOTH_RATED_RE = re.compile(
    rf"{_BOTH}(?:{_PAIRED})\s+(?:(?:are|were|is|rated|at|for)\s+)*(?P<value>100|[1-9]0)(?!\d)"
    r"(?:\s*(?:%|percent|per cent))?(?!\s*(?:and|,)\s*\d)",
    re.IGNORECASE,
)
# "10% for my left knee", "10% left knee", "right knee is 20%", "left leg rated at 30%": a rating and its side.
_SIDE_AFTER_RE = re.compile(rf"\s*(?:(?:for|on|in)\s+)?(?:(?:my|the|his|her)\s+)?(?P<side>left|right)\s+(?:{_PAIRED})\b",
                            re.IGNORECASE)
# "10% for each foot", "20 percent on both knees": one rating given for each side of a pair.
_EACH_SIDE_AFTER_RE = re.compile(rf"\s*(?:(?:for|on|in|per)\s+)?(?:each|both)\s+(?:of\s+)?(?:(?:my|the|his|her)\s+)?"
                                 rf"(?:{_PAIRED})\b", re.IGNORECASE)
_SIDE_BEFORE_RE = re.compile(
    rf"\b(?P<side>left|right)\s+(?:{_PAIRED})\s*(?:is|are|was|at|:|-|\u2014|=)?\s*"
    # "the left ankle they gave 0%": the side VA rated, told the other way round.
    r"(?:(?:they|va|the va)\s+(?:gave|rated|put)(?:\s+(?:it|me|him|her))?\s*)?(?:rated\s*)?(?:at\s*)?$",
    re.IGNORECASE,
)
# "carpal tunnel in both hands, right is 30 and left is 20": the side alone, once the pair is named.
_SIDE_ALONE_BEFORE_RE = re.compile(
    r"\b(?P<side>left|right)(?:\s+(?:one|side))?\s*(?:is|was|at|:|-|\u2014|=)\s*(?:rated\s*)?(?:at\s*)?$",
    re.IGNORECASE,
)
_PAIR_NAMED_RE = re.compile(rf"\b(?:{_PAIRED})\b", re.IGNORECASE)


# Respiratory conditions whose ratings 38 CFR 4.96(a) does not combine with each other (DCs 6600 to 6817 and
# 6822 to 6847): one rating for the main one, raised a level when the others make it worse.
_RESPIRATORY_RE = re.compile(
    r"\b(?:(?:obstructive |central )?sleep apnea|osa|asthma\w*|copd|emphysema|(?:chronic |constrictive )?bronchi(?:tis|olitis)|"
    r"bronchiectasis|pulmonary fibrosis|interstitial lung disease|sarcoidosis|restrictive lung disease|"
    r"pulmonary embolism|pneumothorax)\b",
    re.IGNORECASE,
)


# "I'm rated 20% combined (10 for ankle 10 tinnitus), can I use voc rehab": a figure said to be the combined one, and
# the words that say so. When the other ratings make it, it is the total they came to, not another rating.
_STATED_COMBINED_RE = re.compile(
    r"\b(?:rated|i'?m|im|i am|at|is|was|my|currently|now|be)\s+(?:at\s+)?(?:a\s+)?"
    r"(?P<value>100|[1-9]0)\s*(?:%|percent\b|per cent\b)?\s*(?P<word>combined|total|overall)\b",
    re.IGNORECASE)
# "I'm 60% combined with 50 and 20, is that right": the total given, asked to be checked.
_CHECKED_RE = re.compile(r"\b(?:is|was|are) (?:that|this|it|they|that math) (?:right|correct|accurate|wrong)\b|\bmath\b"
                         r"|\bcheck (?:it|that|this|the|their|my)\b|\bmistake\b", re.IGNORECASE)


# Between a list of ratings and the same list again: a new sentence or question ("... only came out to 70?? what is
# the combined rating for 50 and 30").
_RESTATED_BETWEEN_RE = re.compile(r"[.?!]|\b(?:what|how|why|so|combined|combine|calculate)\b", re.IGNORECASE)


def combined_question_parse(*, text: str) -> CombinedQuestion | None:
    """Return the ratings a question asks to combine, or None when it does not ask that.

    A number after "not", "make", "only", ... is the total the asker expected, not a rating.

    "I have 50 and 30, what is my combined rating", "why don't 50 and 30 make 80", "what's the VA math for
    70, 40 and 20", "both knees are rated 10 percent each, how does the bilateral factor work", "4 things
    rated 10% each, why is my combined rating only 30%".
    """
    trigger = _COMBINE_RE.search(text)
    if not trigger or _OTHER_QUESTION_RE.search(text) or _UNSURE_RE.search(text):
        return None
    if len({m.group(0).lower().removeprefix("obstructive ") for m in _RESPIRATORY_RE.finditer(text)}) > 1:
        return None  # "50% sleep apnea and 30% asthma, do they combine": 38 CFR 4.96 says they do not
    found, believed = [], None
    for match in _RATING_RE.finditer(text):
        before = text[: match.start()]
        if _SUMMED_TERM_RE.search(before) or _SUMMED_TERM_RE.match(text, match.end()):
            if int(match.group("value")) in {int(m.group("value")) for m in found}:
                continue  # "my ratings are 40 20 and 10 ... 40+20+10 is 70": the same ratings, summed by hand
        if _MORE_AFTER_RE.match(text, match.end()) \
                and int(match.group("value")) in {int(m.group("value")) for m in found}:
            continue  # "just got a new 40% ... I thought 40 more would put me at 100": the same 40
        if _EXPECTED_BEFORE_RE.search(before) or _CHECKED_AFTER_RE.match(text, match.end()):
            believed = believed or int(match.group("value"))
        elif _BELIEF_BEFORE_RE.search(before) \
                or (_STATED_BEFORE_RE.search(before) and not _FOR_CONDITION_AFTER_RE.match(text, match.end())) \
                or (len(found) >= 2 and _SUMMED_BEFORE_RE.search(before)):
            believed = int(match.group("value"))
        else:
            found.append(match)
    extra: list[int] = []
    if counted := _COUNT_EACH_RE.search(text):
        word = counted.group("count") or counted.group("count2")
        count = _COUNT_WORDS.get(word.lower()) or int(word)
        found = [m for m in found if not counted.start() <= m.start() < counted.end()]
        extra = [int(counted.group("value") or counted.group("value2") or counted.group("value3"))] * count
    bilateral = _bilateral(text, found)
    each_side = None if bilateral else next((m for m in found if _EACH_SIDE_AFTER_RE.match(text, m.end())), None)
    if each_side is not None:
        found = [m for m in found if m is not each_side]
        bilateral = [int(each_side.group("value"))] * 2
    both = None if bilateral else _BOTH_RATED_RE.search(text)
    if both:
        found = [m for m in found if not both.start() <= m.start() < both.end()]
        bilateral = [int(both.group("value"))] * 2
    half = len(found) // 2
    if half >= 2 and len(found) % 2 == 0 \
            and [int(m.group("value")) for m in found[:half]] == [int(m.group("value")) for m in found[half:]] \
            and _RESTATED_BETWEEN_RE.search(text, found[half - 1].end(), found[half].start()):
        # "How come my 50% and 30% only came out to 70? What is the combined rating for 50 and 30": the same
        # ratings asked about again, not four ratings.
        found = found[:half]
    values = [int(m.group("value")) for m in found]
    if not bilateral and _BOTH_EACH_RE.search(text) and len(values) == 1:
        bilateral = [values[0], values[0]]
        values = []
    else:
        for value in (() if both or each_side is not None else bilateral):
            values.remove(value)
    totals = []
    for said in _STATED_COMBINED_RE.finditer(text):
        value, rest = int(said.group("value")), list(values)
        if value in rest and believed in (None, value):
            rest.remove(value)
            if rest + extra + bilateral and combined_rating(ratings=rest + extra, bilateral=bilateral).rating == value:
                values, believed = rest, value
                totals.append(said)
    if totals and not _CHECKED_RE.search(text) and all(any(said.start("word") <= m.start() < said.end("word") for said in totals)
                      for m in _COMBINE_RE.finditer(text)):
        return None  # "combined" says only what the ratings came to; something else is asked
    if len(values) + len(bilateral) + len(extra) < 2:
        return None
    return CombinedQuestion(ratings=tuple(values + extra), bilateral=tuple(bilateral), believed=believed)


def _bilateral(text: str, matches: Sequence[re.Match[str]]) -> list[int]:
    """Ratings tagged with a side of a paired extremity, when both sides are rated."""
    sides: dict[str, list[int]] = {}
    pair_named = bool(_PAIR_NAMED_RE.search(text))
    for match in matches:
        tagged = _SIDE_AFTER_RE.match(text, match.end()) or _SIDE_BEFORE_RE.search(text[: match.start()]) \
            or (pair_named and _SIDE_ALONE_BEFORE_RE.search(text[: match.start()]))
        if tagged:
            sides.setdefault(tagged.group("side").lower(), []).append(int(match.group("value")))
    if "left" in sides and "right" in sides:
        return [*sides["left"], *sides["right"]]
    return []
