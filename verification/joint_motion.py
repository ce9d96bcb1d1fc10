"""A knee's measured motion read against 38 CFR 4.71a's two tables: how far it bends (DC 5260, limitation of
flexion) and how close it gets to straight (DC 5261, limitation of extension).

"C&P examiner measured my right knee, it bends to 50 degrees and straightens all the way, what rating does that get":
the answer led with "50% — extension limited to 45 degrees", a row of the other table read off the figure. Here
bending to 50 degrees is 0% under DC 5260 (10% needs flexion limited to 45 degrees) and full straightening is 0% under
DC 5261; the two are rated separately for one knee and combined; painful motion can support the 10% minimum (4.59).

Read strictly: one knee, at most one figure for bending and one for straightening ("lacks 15 degrees", "stays bent about
15 degrees", "straightens all the way");
both knees, two figures for one motion, a replaced, frozen or unstable knee are left to the generator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KNEE_URL_SUFFIX = "/section-4.71a"
# DC 5260: flexion limited to this many degrees or less, and its level; DC 5261: extension limited to this many
# degrees or more, and its level (38 CFR 4.71a).
FLEXION_LEVELS = ((15, 30), (30, 20), (45, 10), (60, 0))
EXTENSION_LEVELS = ((45, 50), (30, 40), (20, 30), (15, 20), (10, 10), (5, 0))

_DEGREES = r"(?P<deg>\d{1,3})\s*(?:°|º|degrees?\b|degress\b|degs?\b|deg\b)"
_KNEE_RE = re.compile(r"\bknees?\b", re.IGNORECASE)
# The unit may be left out after "flexion" or "to" ("flexion is 110", "bends to 70"), not after a bare "bends".
_UNIT = r"\s*(?:°|º|degrees?\b|degress\b|degs?\b|deg\b)"
_FLEXION_RE = re.compile(
    r"\b(?:bends?|bending|(?<!stays )(?<!stay )(?<!stuck )(?<!locked )(?<!remains )bent|bend|flex(?:es|ion|ed)?)\b"
    r"(?:\s+(?:is|was|only|just|about|to|up to|at|of|around|like|"
    r"maybe|approximately|approx|measured|goes|go|went|all|the|way|my|knee|right|left)\b)*\s*(?:~\s*)?" + _DEGREES
    + r"|\b(?:flex(?:es|ion|ed)?\s+(?:is\s+|was\s+|of\s+|to\s+|at\s+|measured\s+(?:at\s+)?)*|(?:bends?|bent|bend|bending)"
    r"(?:\s+(?:only|just|about|up|around|like|maybe))*\s+to\s+(?:about\s+|around\s+)?)(?P<deg3>\d{1,3})\b(?!\s*(?:%|percent|"
    r"times|x\b|days?|weeks?|months?|years?|yrs?|lbs?|pounds))(?:" + _UNIT + r")?"
    + r"|" + _DEGREES.replace("deg>", "deg2>") + r"\s+(?:of\s+)?(?:flexion|bending)\b",
    re.IGNORECASE)
_EXTENSION_RE = re.compile(
    r"\b(?:lacks?|lacking|missing|short by|short of straight by|can'?t straighten (?:the )?(?:last )?|"
    # "It stays bent about 15 degrees": it cannot straighten past that.
    r"(?:stays?|stuck|locked|remains?) (?:bent|flexed)(?: at| about| around| like)*\s|"
    r"won'?t straighten (?:the )?(?:last )?|extension (?:is |was |limited to |of |at |measured (?:at )?|only )*-?|"
    r"straightens? (?:only )?(?:to|within)\s+)\s*(?:about\s+|around\s+|like\s+)?" + _DEGREES.replace("deg>", "ext>"),
    re.IGNORECASE)
# "It won't go straight either, stops about 10 degrees short": the figure before the words that make it straightening.
_SHORT_OF_STRAIGHT_RE = re.compile(
    r"\b(?:stops?|stopping|stopped|ends?|comes? up|gets?|sits?)\s+(?:about\s+|around\s+|like\s+|maybe\s+|roughly\s+)?"
    r"(?P<ext>\d{1,2})\s*(?:degrees?|deg|°)\s+(?:short|from straight|shy)\b",
    re.IGNORECASE)
_FULL_EXTENSION_RE = re.compile(
    r"(?<!won't )(?<!wont )(?<!can't )(?<!cant )(?<!doesn't )(?<!doesnt )(?<!not )(?<!never )(?<!won't fully )"
    r"\b(?:straightens?|straightening|straighten|extension|extends?)\b[^.?!,]{0,25}?\b(?:all the way|fully|full|"
    r"normal|fine|ok|okay|completely|is 0|was 0|of 0|\(0\)|0 degrees|zero)\b|\bfull extension\b",
    re.IGNORECASE)
_RATING_ASKED_RE = re.compile(r"%|\b(?:rating|rate|rated|percent|what (?:would|do|does|will|could) (?:i|that|it|va)|"
                              r"how much|worth|get for|qualify)\b", re.IGNORECASE)
_LEFT_ALONE_RE = re.compile(
    r"\b(?:both knees|knees are|each knee|other knee|left and right|right and left|replace\w*|tkr|prosthe\w*|ankylos\w*|frozen|"
    r"fused|instab\w*|unstable|gives? (?:out|way)|buckl\w*|menisc\w*|hip|elbow|shoulder|ankle|wrist|spine|back|neck|"
    r"after repetit\w*|flare)\b",
    re.IGNORECASE)


@dataclass(frozen=True)
class KneeMotion:
    flexion: int | None  # degrees the knee bends to
    extension: int | None  # degrees short of straight (0: straightens fully)
    painful: bool


def flexion_level(degrees: int) -> int:
    return next((level for limit, level in FLEXION_LEVELS if degrees <= limit), 0)


def extension_level(degrees: int) -> int:
    return next((level for limit, level in EXTENSION_LEVELS if degrees >= limit), 0)


def knee_motion_parse(*, text: str) -> KneeMotion | None:
    """The knee's measured motion the question gives, or None when it asks no such thing or is unclear."""
    if len(_KNEE_RE.findall(text)) > 2 or not _KNEE_RE.search(text) or not _RATING_ASKED_RE.search(text) \
            or _LEFT_ALONE_RE.search(text):
        return None
    bends = {int(m.group("deg") or m.group("deg2") or m.group("deg3")) for m in _FLEXION_RE.finditer(text)}
    lacks = {int(m.group("ext")) for pattern in (_EXTENSION_RE, _SHORT_OF_STRAIGHT_RE) for m in pattern.finditer(text)}
    if _FULL_EXTENSION_RE.search(text):
        lacks.add(0)
    if len(bends) > 1 or len(lacks) > 1 or (not bends and not lacks - {0}) or any(d > 140 for d in bends) \
            or any(d > 90 for d in lacks):
        return None
    return KneeMotion(flexion=bends.pop() if bends else None, extension=lacks.pop() if lacks else None,
                      painful=bool(re.search(r"\b(?:hurts?|hurting|pain\w*|sore|aches?)\b", text, re.IGNORECASE)))


def knee_motion_answer(*, motion: KneeMotion) -> str:
    """[1] cites DC 5260's chunk, [2] DC 5261's, [3] the chunk on one knee's separate ratings."""
    bend = flexion_level(motion.flexion) if motion.flexion is not None else 0
    if motion.flexion is None:
        bending = ""
    elif bend:
        limit = next(limit for limit, level in FLEXION_LEVELS if level == bend)
        bending = (f"Bending to {motion.flexion} degrees is {bend}% under DC 5260, limitation of flexion: the {bend}% "
                   f"level is flexion limited to {limit} degrees [1].")
    else:
        bending = (f"Bending to {motion.flexion} degrees is 0% under DC 5260, limitation of flexion: the 10% level needs "
                   "flexion limited to 45 degrees [1].")
    parts = [bending] if bending else []
    straight = None
    if motion.extension is not None:
        straight = extension_level(motion.extension)
        if motion.extension == 0:
            parts.append("Straightening fully is 0% under DC 5261, limitation of extension [2].")
        elif straight:
            limit = next(limit for limit, level in EXTENSION_LEVELS if level == straight)
            parts.append(f"Lacking {motion.extension} degrees of straightening is {straight}% under DC 5261, limitation "
                         f"of extension: the {straight}% level is extension limited to {limit} degrees [2].")
        else:
            parts.append(f"Lacking {motion.extension} degrees of straightening is 0% under DC 5261, limitation of "
                         "extension: the 10% level needs extension limited to 10 degrees [2].")
    if bend and straight:
        parts.append("Limited bending and limited straightening of the same knee are rated separately (VAOPGCPREC "
                     "9-2004) and then combined [3].")
    if motion.painful and motion.flexion is not None and not bend:
        parts.append("If bending is painful but measures better than 45 degrees, painful motion under 38 CFR 4.59 can "
                     "still support the 10 percent minimum [1].")
    parts.append("Loss of motion during flare-ups or after repeated use is considered too [1]." if motion.flexion is not None
                 else "Limited bending is rated separately under DC 5260 [2].")
    return " ".join(parts)
