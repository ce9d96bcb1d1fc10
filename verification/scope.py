"""Decide, before any retrieval, whether a question is outside what VA benefits cover.

Rules, not a model: phrase tables compiled into word-bounded regexes. The decision is deterministic (the
same question always gets the same answer, so a reviewer can reproduce a refusal), costs zero tokens and
microseconds, and every rule is a readable line a reviewer can test. Retrieval scores cannot do this job:
near-domain questions (another agency's program, docs/ARCHITECTURE.md "Thresholds") score like answerable ones.

A false refusal of a real VA-benefits question is worse than answering one that retrieval will then refuse,
so the rules lean to "in scope":

1. crisis words always win: the Veterans Crisis Line comes before any benefits answer;
2. another agency's program refuses, unless the question also names a VA benefit and asks how the two
   interact ("does SSDI affect my VA disability?", "is VA disability taxable?", "CHAMPVA vs TRICARE");
3. a question that names any benefit word (claim, rating, appeal, GI Bill, ...) is in scope;
4. medical advice and chit-chat refuse;
5. anything else is in scope.

Before 2, near-domain questions outside benefits (personal life, the fantastic, luxury purchases) refuse
even with a benefit word in them: "can I use the GI Bill on the Moon" has no benefits answer.

Decisions recorded here, where the brief left them open:
- Discharge upgrades and military-record corrections refuse: the service's Discharge Review Board or Board
  for Correction decides them, and the corpus (va.gov pages, vbkb GEN-0293) only links out. VA's own
  character-of-discharge review is a different thing and is not matched.
- Copies of a DD214 are not matched: va.gov and the corpus cover how to request them.
- HUD-VASH is joint with VA: in scope. Only Section 8 / public housing go to HUD.
- State benefits (property tax, state bonus, plates, hunting licences) refuse even with a VA rating in the
  question: the state sets the rule, so a VA source can't answer it.
- No "legal_representation" category: accredited representatives, VSOs and VA Form 21-22 are VA processes
  the corpus covers, and unrelated legal matters (divorce, criminal) are rare and fall to retrieval.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CATEGORY_OTHER_AGENCY = "other_agency"
CATEGORY_MEDICAL_ADVICE = "medical_advice"
CATEGORY_CRISIS = "crisis"
CATEGORY_CHIT_CHAT = "chit_chat"
CATEGORY_OUTSIDE_BENEFITS = "outside_benefits"
SCOPE_CATEGORIES = (CATEGORY_OTHER_AGENCY, CATEGORY_MEDICAL_ADVICE, CATEGORY_CRISIS, CATEGORY_CHIT_CHAT,
                    CATEGORY_OUTSIDE_BENEFITS)

# Veterans Crisis Line (veteranscrisisline.net; the corpus agrees: vbkb GEN-0265, GEN-0924).
CRISIS_AGENCY = "Veterans Crisis Line"
CRISIS_HANDLER = "the Veterans Crisis Line (dial 988 then press 1, or text 838255)"
MEDICAL_ADVICE_HANDLER = "your VA or other health care provider"

# Handlers are noun phrases: verification.layers.refusal fills "a program run by {handler}, not VA" with
# them, and cuts echoed detail at 80 characters (MAX_ECHO_CHARS), so each stays under that.
# That template fits other_agency only; the three messages below are for the other categories.
SCOPE_MESSAGE_CRISIS = (
    "If you're thinking about suicide or hurting yourself, or you're worried about a Veteran who is, please "
    "reach out now. The Veterans Crisis Line is free, confidential and open 24/7: dial 988 then press 1, "
    "text 838255, or chat online at VeteransCrisisLine.net. You don't have to be enrolled in VA benefits or "
    "health care. If you're in immediate danger, call 911."
)
SCOPE_MESSAGE_MEDICAL_ADVICE = (
    "I can't give medical advice, such as which medicine or dose to take or what a symptom means. Please "
    "ask your VA or other health care provider. If it's an emergency, call 911 or go to the nearest "
    "emergency room. I can help with questions about VA benefits and health care eligibility."
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
CATEGORY_MESSAGES = {
    CATEGORY_CRISIS: SCOPE_MESSAGE_CRISIS,
    CATEGORY_MEDICAL_ADVICE: SCOPE_MESSAGE_MEDICAL_ADVICE,
    CATEGORY_CHIT_CHAT: SCOPE_MESSAGE_CHIT_CHAT,
    CATEGORY_OUTSIDE_BENEFITS: SCOPE_MESSAGE_OUTSIDE_BENEFITS,
}


@dataclass(frozen=True, slots=True)
class ScopeDecision:
    in_scope: bool
    category: str = ""
    agency: str = ""
    handler: str = ""
    matched: str = ""


@dataclass(frozen=True, slots=True)
class AgencyRule:
    """Another agency's program: any of ``phrases`` refuses, unless ``keep_if`` matches, or (when
    ``va_interaction_in_scope``) the question also names a VA benefit and an interaction word."""

    agency: str
    handler: str
    phrases: tuple[str, ...]
    keep_if: tuple[str, ...] = ()
    va_interaction_in_scope: bool = True


IN_SCOPE = ScopeDecision(in_scope=True)

# Phrase tables: regex fragments over the normalised question (lower case, straight apostrophes, single
# spaces). Each table compiles to one alternation bounded by (?<!\w) and (?!\w), so "ssi" never matches
# inside "classic" and "unemployment" never matches "unemployability".

# Mostly first person, present: "my husband died by suicide, can I get DIC?" and "PTSD rating with
# suicidal ideation" are benefits questions and stay in scope. Worry about someone else ("a veteran who is
# thinking about suicide") does get the line: it serves family and friends too.
CRISIS_PHRASES: tuple[str, ...] = (
    r"(?:kill|killing|hurt|hurting|harm|harming|cut|cutting|shoot|shooting|hang|hanging) my ?self",
    r"(?:end|ending|take|taking) my (?:own )?life",
    r"end it all",
    r"(?<!n't )(?<!not )(?:want|wanted|wanting|ready|planning|plan) to die",
    r"wish i (?:was|were) dead",
    r"better off (?:dead|without me)",
    r"(?:don't|dont|do not) want to (?:live|be alive|be here|wake up)",
    r"no (?:reason|point) (?:to live|in living|to go on|in going on)",
    r"(?:i'm|im|i am|feeling|feel|been|getting) suicidal",
    (
        r"i(?:'ve| have)? (?:have|had|keep having|am having|'m having|been having|get) (?:suicidal|thoughts of "
        r"(?:suicide|killing myself|dying|ending it))"
    ),
    r"thinking (?:about|of) (?:suicide|killing myself|ending it|ending my life|dying)",
    r"(?:commit|committing|attempt|attempting|considering|contemplating|planning) suicide",
    r"self[- ]?harm(?:ing)?",
    r"(?:want to|going to) overdose",
    r"(?:veterans )?crisis line",
    r"suicide (?:hotline|line)",
    # Not a bare "988": "$988 a month" is a pension question.
    r"(?:call|calling|dial|dialing|text|texting) 988",
    r"988 (?:then )?press 1",
)

# Names a VA benefit or VA itself. With an interaction word, it keeps a question about another agency's
# program in scope. "Appeal", "claim", "benefits" are not here: SSA has appeals, claims and benefits too.
VA_BENEFIT_PHRASES: tuple[str, ...] = (
    r"va",
    r"v\.a\.?",
    r"veterans affairs",
    r"vba",
    r"vha",
    r"vet center",
    r"service[- ]?connect\w*",
    r"disability compensation",
    r"comp and pen",
    r"c ?& ?p(?: exam)?",
    r"c and p exam",
    r"rating",
    r"rated",
    r"\d{1,3} ?(?:%|percent) (?:rating|rated|disabled|disability|service|sc|p&t|p and t)",
    r"gi bill",
    r"post[- ]9/11",
    r"montgomery",
    r"chapter (?:30|31|33|35|1606)",
    r"champva",
    r"pension",
    r"dic",
    r"dependency and indemnity",
    r"vr&e",
    r"vr and e",
    r"voc(?:ational)? rehab\w*",
    r"veteran readiness",
    r"dea",
    r"home loan",
    r"certificate of eligibility",
    r"irrrl",
    r"pact act",
    r"tdiu",
    r"iu",
    r"individual unemployability",
    r"smc",
    r"special monthly compensation",
    r"aid and attendance",
    r"housebound",
    r"intent to file",
    r"higher[- ]level review",
    r"supplemental claim",
    r"board of veterans'? appeals",
    r"bva",
    r"nexus letter",
    r"buddy statements?",
    r"vso",
    r"diagnostic code",
    r"hud[- ]?vash",
    r"vash",
    r"sgli",
    r"vgli",
    r"s-dvi",
    r"vmli",
    r"burial (?:allowance|benefits?)",
    r"community care",
    r"camp lejeune",
    r"agent orange",
    r"burn pits?",
    r"p&t",
    r"p and t",
    r"permanent and total",
)

# How two programs meet: "does SSDI affect", "count as income", "CHAMPVA vs TRICARE", "both", "with".
# Deliberately broad: a wrong "in scope" costs a retrieval that then refuses; a wrong refusal costs a
# veteran the answer.
INTERACTION_PHRASES: tuple[str, ...] = (
    r"affects?",
    r"affected",
    r"affecting",
    r"effect",
    r"impacts?",
    r"counts?",
    r"counted",
    r"counting",
    r"offsets?",
    r"reduc\w*",
    r"deduct\w*",
    r"withh[eo]ld\w*",
    r"interact\w*",
    r"coordinat\w*",
    r"combin\w*",
    r"together",
    r"both",
    r"same time",
    r"simultaneous\w*",
    r"while",
    r"along with",
    r"as well as",
    r"in addition to",
    r"on top of",
    r"instead of",
    r"rather than",
    r"vs",
    r"versus",
    r"compar\w*",
    r"better",
    r"worse",
    r"differen\w*",
    r"overlap\w*",
    r"conflict\w*",
    r"replac\w*",
    r"switch\w*",
    r"primary",
    r"secondary",
    r"pays? first",
    r"tax\w*",
    r"income",
    r"eligib\w*",
    r"qualif\w*",
    r"needs?",
    r"keep",
    r"lose",
    r"drop",
    r"requir\w*",
    r"waiv\w*",
    r"report",
    r"if",
    r"when",
    r"and",
    r"with",
    r"or",
    r"also",
    r"still",
    r"plus",
    r"like",
    r"same",
    r"get",
    r"receiv\w*",
    r"use",
    r"using",
)

# Benefit words in general. One of these keeps a question that also reads like medical advice or chit-chat
# in scope ("should I take my medication before my C&P exam?").
BENEFIT_PHRASES: tuple[str, ...] = (
    *VA_BENEFIT_PHRASES,
    r"claims?",
    r"appeal\w*",
    r"benefits?",
    r"compensation",
    r"disability",
    r"disabilities",
    r"eligib\w*",
    r"entitle\w*",
    r"exam",
    r"back pay",
    r"effective date",
    r"enroll\w*",
    r"fil(?:e|ed|es|ing)",
)

_STATE = "your state's department of veterans affairs"

# Phone numbers and sites are the agencies' own published contacts: SSA's is also in the corpus (vbkb);
# DFAS (dfas.mil/retiredmilitary), FEMA, Federal Student Aid (1-800-4-FED-AID), USCIS and the National
# Passport Information Center were checked against their pages; Medicare is 1-800-MEDICARE, the IRS its
# individual line, USPS 1-800-ASK-USPS.
# Table order matters only for which handler a question naming two programs gets; state rules come before
# the IRS so "property taxes" names the state.
OTHER_AGENCY_RULES: tuple[AgencyRule, ...] = (
    AgencyRule(
        agency="State department of veterans affairs",
        handler=_STATE,
        phrases=(
            r"property tax(?:es)?",
            r"state (?:veterans'? )?bonus(?:es)?",
            r"bonus from (?:my|the) state",
            r"(?:veteran |veterans |disabled veteran |dv )?licen[cs]e plates?",
            r"dmv",
            # Not a bare "registration fee": a school's is part of GI Bill tuition and fees.
            r"(?:vehicle|car|auto|truck|motorcycle) registrations?(?: fees?)?",
            r"driver'?s licen[cs]es?",
            r"veteran designation",
            r"(?:hunting|fishing)(?: and (?:hunting|fishing))? licen[cs]es?",
            r"state parks? pass(?:es)?",
            r"state tuition (?:waivers?|exemptions?|benefits?)",
            r"hazlewood",
            r"state veterans'? (?:benefits|tax exemptions?)",
        ),
        # The state sets these rules; a VA rating in the question is eligibility context, not interplay.
        va_interaction_in_scope=False,
    ),
    AgencyRule(
        agency="Defense Health Agency (TRICARE)",
        handler="the Defense Health Agency (tricare.mil)",
        phrases=(r"tricare\w*", r"defense health agency"),
        keep_if=(r"champva",),
    ),
    AgencyRule(
        agency="Centers for Medicare & Medicaid Services",
        handler="Medicare (medicare.gov, 1-800-633-4227)",
        phrases=(r"medicare(?: part [a-d]| advantage| supplement)?", r"medigap"),
        keep_if=(r"champva",),
    ),
    AgencyRule(
        agency="State Medicaid agency",
        handler="your state's Medicaid office (medicaid.gov)",
        phrases=(r"medicaid", r"medi-cal"),
    ),
    AgencyRule(
        agency="Social Security Administration",
        handler="the Social Security Administration (ssa.gov, 1-800-772-1213)",
        phrases=(
            # "Do I need my Social Security number for a VA claim?" is a VA question.
            r"social security(?! (?:numbers?|no\b|#))",
            r"ssdi",
            r"ssi",
            r"supplemental security income",
            r"ssa",
            r"ssa\.gov",
        ),
    ),
    AgencyRule(
        agency="Internal Revenue Service",
        handler="the IRS (irs.gov, 1-800-829-1040)",
        phrases=(
            r"irs",
            r"internal revenue",
            r"tax returns?",
            r"(?:federal |state )?income tax(?:es)?",
            r"taxes",
            r"taxable",
            r"tax[- ](?:free|exempt\w*|deductible)",
            r"tax (?:refunds?|deductions?|credits?)",
            r"w-?2s?",
            r"1099s?(?:-r)?",
            r"turbotax",
        ),
    ),
    AgencyRule(
        agency="U.S. Department of State",
        handler="the State Department (travel.state.gov, 1-877-487-2778)",
        phrases=(r"passports?",),
    ),
    AgencyRule(
        agency="Federal Emergency Management Agency",
        handler="FEMA (disasterassistance.gov, 1-800-621-3362)",
        phrases=(r"fema", r"disaster (?:assistance|aid|relief|loans?)", r"disasterassistance\.gov"),
    ),
    AgencyRule(
        agency="State unemployment insurance agency",
        handler="your state's unemployment insurance office (careeronestop.org)",
        phrases=(r"unemployment(?: insurance| benefits?| compensation| checks?| claims?| office)?", r"ucx"),
    ),
    AgencyRule(
        agency="USDA Food and Nutrition Service",
        handler="your state's SNAP office (fns.usda.gov/snap)",
        phrases=(r"snap", r"food stamps?", r"ebt(?: card)?", r"wic"),
    ),
    AgencyRule(
        agency="Department of Defense (service review boards)",
        handler="your service branch's Discharge Review Board or records-correction board",
        phrases=(
            r"discharge upgrades?",
            r"upgrad\w* (?:my|a|his|her|the|your|their) (?:\w+ )?discharge",
            r"discharge review boards?",
            r"drb",
            r"bcmr",
            r"bcnr",
            r"boards? for (?:the )?correction of (?:military|naval) records",
            r"correct\w* (?:to |of |on )?(?:my |his |her |the )?(?:military records?|dd[- ]?214|dd[- ]?215)",
            r"(?:military records?|dd[- ]?214) (?:corrected|changed|fixed|amended)",
            r"change (?:my |the )?(?:discharge|narrative reason|re[- ]?(?:entry|enlistment) code)",
            r"re[- ]?(?:entry|enlistment) codes?",
        ),
    ),
    AgencyRule(
        agency="U.S. Department of Education",
        handler="the Department of Education (studentaid.gov, 1-800-433-3243)",
        phrases=(
            r"student loans?",
            r"fafsa",
            r"pell grants?",
            r"pslf",
            r"public service loan forgiveness",
            r"studentaid\.gov",
        ),
    ),
    AgencyRule(
        agency="U.S. Postal Service",
        handler="the U.S. Postal Service (usps.com, 1-800-275-8777)",
        phrases=(r"usps", r"postal service", r"post office(?! box)", r"mail carrier"),
    ),
    AgencyRule(
        agency="U.S. Citizenship and Immigration Services",
        handler="U.S. Citizenship and Immigration Services (uscis.gov, 1-800-375-5283)",
        phrases=(r"uscis", r"green card", r"naturaliz\w*", r"citizenship", r"immigra\w*", r"deport\w*"),
    ),
    AgencyRule(
        agency="Office of Personnel Management",
        handler="the Office of Personnel Management (opm.gov)",
        phrases=(
            r"opm",
            r"office of personnel management",
            r"fers",
            r"csrs",
            r"federal (?:employee |civil service |civilian )?(?:retirement|pension|annuity)",
            r"military (?:service )?(?:buy ?back|deposit)",
            r"buy back my military (?:time|service)",
            r"veterans'? preference",
            r"veteran's preference",
            r"fedshirevets",
            r"usajobs",
        ),
    ),
    AgencyRule(
        agency="Department of Labor (VETS)",
        handler="the Department of Labor's VETS office (dol.gov/agencies/vets)",
        phrases=(r"userra", r"department of labor", r"dol", r"american job centers?", r"hire vets"),
    ),
    AgencyRule(
        agency="Defense Finance and Accounting Service",
        handler="the Defense Finance and Accounting Service (dfas.mil, 1-800-321-1080)",
        phrases=(
            r"dfas",
            r"mypay",
            r"military pay",
            r"base pay",
            r"drill pay",
            r"(?:military )?retire(?:d|ment) pay",
            r"leave and earnings statements?",
            # Not "BAH": the GI Bill housing allowance is paid at the BAH rate, so students say "BAH".
            r"separation pay",
            r"severance pay",
            r"survivor benefit plan",
            r"sbp",
        ),
    ),
    AgencyRule(
        agency="U.S. Department of Housing and Urban Development",
        handler="HUD or your local public housing agency (hud.gov)",
        phrases=(r"section 8", r"public housing", r"hud(?![- ]?vash)"),
        keep_if=(r"vash",),
    ),
)

# Asking for treatment, dosing or a diagnosis; not naming a condition ("ringing in my ears" is a claim).
MEDICAL_ADVICE_PHRASES: tuple[str, ...] = (
    (
        r"should i (?:take|stop taking|keep taking|start taking|be taking|quit taking|increase|decrease|double"
        r"|skip|mix)"
    ),
    # Atomic veterans ask about radiation dose estimates: a VA question.
    r"(?<!radiation )(?:dose|doses|dosage|dosing)",
    r"how (?:many|much) (?:mg|milligrams|pills|tablets|capsules)",
    r"how much \w+ (?:should|can) i take",
    r"what (?:medication|medicine|meds|drug|pills?|supplements?|antibiotics?) should i",
    r"what (?:can|should) i take for",
    r"is it (?:safe|ok|okay) to (?:take|mix|combine|drink|stop)",
    r"(?:mix|combine) \w+ (?:with|and) (?:alcohol|\w+ ?(?:pills|medication|meds))",
    r"drug interactions?",
    r"side effects? (?:of|from)",
    r"diagnos(?:e|is for) (?:me|my|this|these)",
    r"what(?:'s| is) wrong with me",
    r"what (?:do|could|might) (?:my|these|the) symptoms",
    (
        r"(?:do|could|might) i have (?:cancer|a tumou?r|diabetes|covid|the flu|an infection|a concussion"
        r"|a heart attack|heart disease|a stroke)"
    ),
    (
        r"is (?:this|it|my|the)(?: \w+){0,2} (?:cancer(?:ous)?|malignant|benign|a tumou?r|infected|broken"
        r"|fractured|a heart attack|a stroke)"
    ),
    r"how (?:do|can|should) i (?:treat|cure|heal|relieve|get rid of|ease|soothe)",
    r"(?:home|natural) remed(?:y|ies)",
    r"cure for",
    (
        r"should i (?:go to|see) (?:the |a |an )?(?:er|emergency room|urgent care|doctor|dermatologist"
        r"|specialist)"
    ),
    r"should i (?:get|have) (?:the |a |an )?(?:surgery|operation|vaccine|shot|biopsy|mri)",
)

CHIT_CHAT_PHRASES: tuple[str, ...] = (
    r"tell me (?:a |another )?(?:joke|riddle|story|fun fact)",
    r"(?:know|got|any) (?:a |any )?(?:good )?jokes?",
    r"tell me about yourself",
    r"(?:write|compose) (?:me )?(?:a |an )?(?:poem|song|story|haiku|limerick|essay|rap)",
    r"(?:what's|whats|what is|how's|hows|how is) the weather",
    r"weather (?:forecast|today|tomorrow|this week|like)",
    r"forecast for",
    r"who won",
    r"super bowl",
    r"world series",
    r"stanley cup",
    r"nba finals",
    r"march madness",
    r"score of the (?:game|match)",
    r"the game last night",
    r"what time is it",
    r"what (?:day|date) is (?:it|today)",
    r"meaning of life",
    r"are you (?:a |an )?(?:robot|bot|human|real|alive|sentient|person|chatgpt|ai)",
    r"(?:what's|whats|what is) your (?:name|favou?rite \w+)",
    r"who (?:made|built|created|programmed) you",
    r"how old are you",
    r"sing (?:me )?a song",
    r"play a game",
    r"recommend (?:me )?a (?:movie|book|show|song|restaurant|recipe)",
    r"recipe for",
    r"how do i (?:cook|bake)",
    r"stock (?:price|market)",
    r"bitcoin",
    r"lottery numbers",
)

# Near the domain but outside benefits: personal life, the fantastic, luxury purchases. These refuse even when
# the question names a benefit ("the GI Bill on the Moon", "a VA loan for a yacht"): retrieval would find a
# confident benefits answer to a question no benefit answers. Divorce, dependents and spouses stay in scope.
OUTSIDE_BENEFITS_PHRASES: tuple[str, ...] = (
    r"relationship advice",
    r"(?:dating|love|marriage) advice",
    r"love life",
    r"should i (?:break up|divorce|marry|propose|leave (?:my|her|him))",
    r"(?:get|win) (?:her|him|them|my ex(?:-\w+)?) back",
    r"(?:cheated|cheating) on me",
    r"make (?:her|him) (?:love|like) me",
    # A debt between people ("my buddy owes me 500 bucks"); VA debts and apportionment stay in scope.
    r"(?:buddy|friend|brother|sister|cousin|neighbou?r|roommate|coworker|co-worker|battle buddy)"
    r"(?: \w+){0,4} (?:owes|owed) me",
    r"(?:on|to|from) (?:the moon|mars|venus|jupiter|saturn|another planet|a space station)",
    r"(?:in|to) outer space",
    r"moon ?base",
    r"time (?:travel\w*|machine)",
    r"zombies?",
    r"dragons?",
    r"unicorns?",
    r"wizards?",
    r"hogwarts",
    r"vampires?",
    r"starfleet",
    r"yachts?",
    r"(?:speed ?|sail ?|pontoon )boats?",
    r"jet ?skis?",
    r"lamborghinis?",
    r"ferraris?",
    r"sports cars?",
    r"private (?:jet|plane|island)s?",
    r"(?:buy|purchase|finance) (?:a |an )?boat",
)

# A question that is only a greeting, a thanks or a goodbye.
GREETING_WORDS: tuple[str, ...] = (
    r"hi",
    r"hello",
    r"hey",
    r"hiya",
    r"howdy",
    r"yo",
    r"greetings",
    r"good (?:morning|afternoon|evening|day|night)",
    r"thanks?(?: you)?(?: so much| very much| a lot)?",
    r"thx",
    r"ty",
    r"ok",
    r"okay",
    r"cool",
    r"bye",
    r"goodbye",
    r"how are you(?: doing| today)?",
    r"what'?s up",
    r"sup",
)


def _alternation(phrases: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + "|".join(phrases) + r")(?!\w)")


_CRISIS_RE = _alternation(CRISIS_PHRASES)
_VA_BENEFIT_RE = _alternation(VA_BENEFIT_PHRASES)
_INTERACTION_RE = _alternation(INTERACTION_PHRASES)
_BENEFIT_RE = _alternation(BENEFIT_PHRASES)
_MEDICAL_ADVICE_RE = _alternation(MEDICAL_ADVICE_PHRASES)
_CHIT_CHAT_RE = _alternation(CHIT_CHAT_PHRASES)
_OUTSIDE_BENEFITS_RE = _alternation(OUTSIDE_BENEFITS_PHRASES)
_AGENCY_RULES_COMPILED: tuple[tuple[AgencyRule, re.Pattern[str], re.Pattern[str] | None], ...] = tuple(
    (rule, _alternation(rule.phrases), _alternation(rule.keep_if) if rule.keep_if else None)
    for rule in OTHER_AGENCY_RULES
)
_GREETING_ONLY_RE = re.compile(
    r"^(?:(?:" + "|".join(GREETING_WORDS) + r")(?: there| bot| friend| all| again| everyone)?[\s!.,?:)(-]*)+$"
)

_APOSTROPHES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u2013": "-", "\u2014": "-"})
_WHITESPACE_RE = re.compile(r"\s+")


def _normalise(question: str) -> str:
    return _WHITESPACE_RE.sub(" ", question.translate(_APOSTROPHES).casefold()).strip()


def scope_check(*, question: str) -> ScopeDecision:
    """Return whether ``question`` is about VA benefits, and if not, who handles it.

    ``matched`` is the phrase of the normalised (lower-case) question that decided a refusal; it is empty
    for an in-scope question.
    """
    text = _normalise(question)
    if not text:
        return IN_SCOPE

    crisis = _CRISIS_RE.search(text)
    if crisis:
        return ScopeDecision(
            in_scope=False,
            category=CATEGORY_CRISIS,
            agency=CRISIS_AGENCY,
            handler=CRISIS_HANDLER,
            matched=crisis.group(0),
        )

    outside = _OUTSIDE_BENEFITS_RE.search(text)
    if outside:
        return ScopeDecision(in_scope=False, category=CATEGORY_OUTSIDE_BENEFITS, matched=outside.group(0))

    va_interaction = bool(_VA_BENEFIT_RE.search(text) and _INTERACTION_RE.search(text))
    for rule, pattern, keep_pattern in _AGENCY_RULES_COMPILED:
        found = pattern.search(text)
        if not found:
            continue
        if keep_pattern is not None and keep_pattern.search(text):
            continue
        if rule.va_interaction_in_scope and va_interaction:
            continue
        return ScopeDecision(
            in_scope=False,
            category=CATEGORY_OTHER_AGENCY,
            agency=rule.agency,
            handler=rule.handler,
            matched=found.group(0),
        )

    if _BENEFIT_RE.search(text):
        return IN_SCOPE

    medical = _MEDICAL_ADVICE_RE.search(text)
    if medical:
        return ScopeDecision(
            in_scope=False,
            category=CATEGORY_MEDICAL_ADVICE,
            handler=MEDICAL_ADVICE_HANDLER,
            matched=medical.group(0),
        )

    if _GREETING_ONLY_RE.match(text):
        return ScopeDecision(in_scope=False, category=CATEGORY_CHIT_CHAT, matched=text)
    chit_chat = _CHIT_CHAT_RE.search(text)
    if chit_chat:
        return ScopeDecision(in_scope=False, category=CATEGORY_CHIT_CHAT, matched=chit_chat.group(0))

    return IN_SCOPE
