"""Source chunks in the shape retrieval hands the layers, written after the real corpus's wording."""

from verification.layers.types import SourceChunk

WHITELIST = ("va.gov", "veteransbenefitskb.com", "ecfr.gov")

TINNITUS = SourceChunk(
    number=1,
    chunk_id=703,
    entry_id="6260-703",
    title="6260 Ringing in the Ears (Tinnitus)",
    url="https://www.veteransbenefitskb.com/ears#6260",
    content=(
        "Tinnitus (ringing in the ears) is rated under diagnostic code 6260. The ringing can come and go, "
        "or be constant. The Veteran can only get a single 10% rating, no matter if there is tinnitus in "
        "one or both ears."
    ),
    score=0.71,
    topic="disability_ratings",
    diagnostic_code="6260",
)
HIGHER_LEVEL_REVIEW = SourceChunk(
    number=2,
    chunk_id=1204,
    entry_id="HLR-1",
    title="Higher-Level Review",
    url="https://www.va.gov/decision-reviews/higher-level-review/",
    content=(
        "You have 1 year from the date on your decision notice to request a Higher-Level Review. "
        "Fill out VA Form 20-0996. You can't submit new evidence with a Higher-Level Review."
    ),
    score=0.62,
    topic="appeals",
)
PACT_ACT = SourceChunk(
    number=3,
    chunk_id=1302,
    entry_id="PACT-1",
    title="The PACT Act and your VA benefits",
    url="https://www.va.gov/resources/the-pact-act-and-your-va-benefits/",
    content=(
        "The PACT Act became law on August 10, 2022. It adds more than 20 presumptive conditions for burn "
        "pits, Agent Orange, and other toxic exposures."
    ),
    score=0.58,
    topic="pact_act",
)
COMPENSATION_RATES = SourceChunk(
    number=4,
    chunk_id=2001,
    entry_id="RATES-2024",
    title="Veterans disability compensation rates",
    url="https://www.va.gov/disability/compensation-rates/veteran-rates/",
    content=(
        "Rates are effective December 1, 2023. With a 10% disability rating, your monthly payment is "
        "$171.23. With a 20% disability rating, your monthly payment is $338.49."
    ),
    score=0.55,
    topic="compensation",
)
PTSD = SourceChunk(
    number=5,
    chunk_id=9411,
    entry_id="9411-880",
    title="9411 Post-Traumatic Stress Disorder (PTSD)",
    url="https://www.veteransbenefitskb.com/mental#9411",
    content=(
        "PTSD is rated under diagnostic code 9411 using the General Rating Formula for Mental Disorders. "
        "The ratings are 0%, 10%, 30%, 50%, 70% and 100%. File your claim on VA Form 21-526EZ."
    ),
    score=0.52,
    topic="disability_ratings",
    diagnostic_code="9411",
)
CHUNKS = (TINNITUS, HIGHER_LEVEL_REVIEW, PACT_ACT)
