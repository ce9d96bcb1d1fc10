import dataclasses

import pytest

from knowledge.extraction import (
    BENEFITS,
    DEFAULT_TOPIC_KEYWORDS,
    DEFAULT_TOPICS,
    ExtractedEntity,
    entities_extract,
    lay_terms_expand,
    topics_classify,
)

REQUIRED_BENEFITS = {
    "disability_compensation", "tdiu", "smc", "pension", "aid_and_attendance", "housebound", "dic", "champva",
    "va_health_care", "community_care", "gi_bill_post_911", "gi_bill_montgomery", "dea", "yellow_ribbon", "vre",
    "home_loan", "pact_act", "agent_orange", "camp_lejeune", "blue_water_navy", "gulf_war_illness", "burial",
    "caregiver", "1151_claim", "p_and_t",
}
REQUIRED_TOPICS = {
    "disability_ratings", "claims", "appeals", "presumptive_conditions", "pension", "survivors_dependents",
    "healthcare_benefits", "education_benefits", "vocational_rehabilitation", "home_loans", "forms", "life_insurance",
}
TERMS = {
    "nexus letter": "Nexus letter",
    "nexus opinion": "Nexus letter",
    "imo": "Nexus letter",
    "service connection": "Service connection",
    "service-connected": "Service connection",
    "tdiu": "Total disability based on individual unemployability",
}


def values(text: str, kind: str, terms=None) -> list[str]:
    return [e.value for e in entities_extract(text=text, terms=terms) if e.type == kind]


def top_topic(text: str) -> str | None:
    ranked = topics_classify(text=text, topics=DEFAULT_TOPIC_KEYWORDS)
    return ranked[0][0] if ranked else None


# --- the entity ---------------------------------------------------------------------------------------------


def test_extracted_entity_is_frozen():
    entity = ExtractedEntity(type="dc_code", value="6260", text="DC 6260")

    with pytest.raises(dataclasses.FrozenInstanceError):
        entity.value = "6261"  # type: ignore[misc]


def test_entities_come_in_text_order_with_text_as_written():
    entities = entities_extract(text="Can I get TDIU with DC 9411 if I file VA Form 21-8940?")

    assert entities == [
        ExtractedEntity(type="benefit", value="tdiu", text="TDIU"),
        ExtractedEntity(type="dc_code", value="9411", text="DC 9411"),
        ExtractedEntity(type="va_form", value="21-8940", text="VA Form 21-8940"),
    ]


def test_each_entity_is_reported_once():
    entities = entities_extract(text="DC 6260, dc6260 and diagnostic code 6260; CHAMPVA or champva")

    assert [(e.type, e.value) for e in entities] == [("dc_code", "6260"), ("benefit", "champva")]


def test_nothing_in_plain_text():
    assert entities_extract(text="How are you today?") == []
    assert entities_extract(text="") == []


# --- codes and forms --------------------------------------------------------------------------------------


def test_codes_and_forms_come_from_patterns():
    text = "Knee under Diagnostic Codes 5260 and 5261, or 5010-5237; file 20-0995, 21-686c or DD214."

    assert values(text, "dc_code") == ["5260", "5261", "5010", "5237"]
    assert values(text, "va_form") == ["20-0995", "21-686C", "DD-214"]


# --- benefits ---------------------------------------------------------------------------------------------


def test_benefit_dictionary_covers_the_product_benefits():
    assert set(BENEFITS) >= REQUIRED_BENEFITS
    for slug, names in BENEFITS.items():
        assert names and all(isinstance(name, str) and name for name in names), slug


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Am I eligible for VA disability compensation?", "disability_compensation"),
        ("How do I apply for individual unemployability?", "tdiu"),
        ("Does IU pay at the 100% rate?", "tdiu"),
        ("unemployability", "tdiu"),
        ("What is special monthly compensation?", "smc"),
        ("SMC-K for loss of use", "smc"),
        ("Can my father get a veterans pension?", "pension"),
        ("Is A&A paid with pension?", "aid_and_attendance"),
        ("aid and attendance", "aid_and_attendance"),
        ("housebound benefits", "housebound"),
        ("i paid for his funeral out of pocket", "burial"),
        ("dependency and indemnity compensation for a widow", "dic"),
        ("Does CHAMPVA cover dental?", "champva"),
        ("How do I enroll in VA health care?", "va_health_care"),
        ("Can I use community care near home?", "community_care"),
        ("How much does chapter 33 pay?", "gi_bill_post_911"),
        ("post-9/11 gi bill housing", "gi_bill_post_911"),
        ("Post 9/11 GI Bill", "gi_bill_post_911"),
        # "My post 9/11", "what % of post 9/11": the GI Bill, though "post-9/11 veterans" alone is no benefit.
        ("never touched my post 9/11", "gi_bill_post_911"),
        ("what % of post 9/11 do i get", "gi_bill_post_911"),
        ("chapter 30 vs MGIB", "gi_bill_montgomery"),
        ("Is chapter 35 for my kids?", "dea"),
        ("dependents' educational assistance", "dea"),
        ("dependents\u2019 educational assistance", "dea"),
        ("dependents educational assistance", "dea"),
        ("Does my school do the Yellow Ribbon Program?", "yellow_ribbon"),
        ("chapter 31", "vre"),
        ("Can voc rehab pay for school?", "vre"),
        ("What is VR&E?", "vre"),
        ("Veteran Readiness and Employment", "vre"),
        ("How do I get a VA loan?", "home_loan"),
        ("Where do I get my COE?", "home_loan"),
        ("Should I do an IRRRL?", "home_loan"),
        ("home loan", "home_loan"),
        ("Does the PACT Act cover burn pits?", "pact_act"),
        ("Agent Orange exposure", "agent_orange"),
        ("I was stationed at Camp Lejeune", "camp_lejeune"),
        ("blue water navy", "blue_water_navy"),
        ("Gulf War illness", "gulf_war_illness"),
        ("burial allowance for my husband", "burial"),
        ("caregiver stipend", "caregiver"),
        ("Can I file an 1151 claim?", "1151_claim"),
        ("Am I permanent and total?", "p_and_t"),
        ("Is my rating P&T?", "p_and_t"),
        ("P and T status", "p_and_t"),
        ("can I get a wheelchair van from the VA", "automobile_allowance"),
        ("adaptive equipment for my truck", "automobile_allowance"),
        ("does my eczema cream count for the clothing allowance", "clothing_allowance"),
        ("can I get CRSC if I was medically retired", "concurrent_receipt"),
        ("do I qualify for CRDP at 50 percent", "concurrent_receipt"),
        # VA's life insurance programs, each its own: "a health exam for VGLI" is not the Agent Orange exam's.
        ("do i have to take a health exam for VGLI", "vgli"),
        ("how long is my SGLI free after I get out", "sgli"),
        ("can my wife get family SGLI", "fsgli"),
        ("TSGLI for losing a leg", "tsgli"),
        ("is VALife worth it", "valife"),
        ("can i still apply for S-DVI", "sdvi"),
        ("VMLI after my SAH grant", "vmli"),
    ],
)
def test_benefits_found_by_name_and_lay_wording(text, expected):
    assert expected in values(text, "benefit")


def test_longest_benefit_name_wins():
    assert values("Post-9/11 GI Bill", "benefit") == ["gi_bill_post_911"]
    assert values("veterans pension", "benefit") == ["pension"]
    assert values("special monthly compensation", "benefit") == ["smc"]


@pytest.mark.parametrize(
    "text",
    [
        "I have an IUD",  # "IU" only as a whole word
        "the coefficient",  # "COE" only as a whole word
        "ideal outcome",  # "DEA" only as a whole word
        "a pensioner",
        "dice",
        "smcx",
    ],
)
def test_benefits_match_whole_words_only(text):
    assert values(text, "benefit") == []


# --- terms ------------------------------------------------------------------------------------------------


def test_terms_match_aliases_case_insensitively():
    entities = entities_extract(text="Do I need a Nexus Opinion for service connection?", terms=TERMS)

    assert [(e.type, e.value, e.text) for e in entities if e.type == "term"] == [
        ("term", "Nexus letter", "Nexus Opinion"),
        ("term", "Service connection", "service connection"),
    ]


def test_terms_longest_alias_wins_and_whole_words_only():
    assert values("nexus letter", "term", TERMS) == ["Nexus letter"]
    assert values("I'm an immortal", "term", TERMS) == []  # "imo" only as a word
    assert values("my service-connected knee", "term", TERMS) == ["Service connection"]


def test_a_term_and_a_benefit_may_share_words():
    entities = entities_extract(text="TDIU", terms=TERMS)

    assert {(e.type, e.value) for e in entities} == {
        ("benefit", "tdiu"),
        ("term", "Total disability based on individual unemployability"),
    }


def test_no_terms_without_a_dictionary():
    assert values("nexus letter", "term") == []
    assert values("nexus letter", "term", {}) == []


# --- topics -----------------------------------------------------------------------------------------------


def test_default_topics_cover_the_product_topics():
    assert set(DEFAULT_TOPICS) == REQUIRED_TOPICS
    for slug, spec in DEFAULT_TOPICS.items():
        assert spec["name"] and len(spec["keywords"]) >= 15, slug
    assert {slug: tuple(spec["keywords"]) for slug, spec in DEFAULT_TOPICS.items()} == DEFAULT_TOPIC_KEYWORDS


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What is the rating for tinnitus?", "disability_ratings"),
        ("I have ringing in my ears, what do I get?", "disability_ratings"),
        ("My PTSD rating is 50 percent, can I get an increase?", "disability_ratings"),
        ("How do I get back pay for my claim?", "claims"),
        ("What is an intent to file and how does it set my effective date?", "claims"),
        ("My claim was denied, how do I appeal?", "appeals"),
        ("Should I ask for a higher-level review or a supplemental claim?", "appeals"),
        ("Is my cancer presumptive for burn pit exposure under the PACT Act?", "presumptive_conditions"),
        ("Agent Orange in Thailand", "presumptive_conditions"),
        ("What is the income limit for veterans pension?", "pension"),
        ("Can a surviving spouse get DIC?", "survivors_dependents"),
        ("My husband died, what benefits do I get?", "survivors_dependents"),
        ("How do I enroll in VA health care and what are the copays?", "healthcare_benefits"),
        ("How much is the housing allowance under the Post-9/11 GI Bill?", "education_benefits"),
        ("Can voc rehab help me find a job?", "vocational_rehabilitation"),
        ("How do I get a certificate of eligibility for a VA home loan?", "home_loans"),
        ("Which form do I fill out, 21-526EZ?", "forms"),
    ],
)
def test_default_topics_classify_real_questions(text, expected):
    assert top_topic(text) == expected


def test_scores_are_positive_sorted_and_exclude_misses():
    ranked = topics_classify(text="How do I appeal the denied claim?", topics=DEFAULT_TOPIC_KEYWORDS)

    assert [slug for slug, _ in ranked][:2] == ["appeals", "claims"]
    assert all(score > 0 for _, score in ranked)
    assert [score for _, score in ranked] == sorted((score for _, score in ranked), reverse=True)
    assert "home_loans" not in dict(ranked)


def test_multi_word_keywords_weigh_more():
    topics = {"a": ["ringing in my ears"], "b": ["ears", "ringing"]}

    assert topics_classify(text="ringing in my ears", topics=topics) == [("a", 4.0), ("b", 2.0)]


def test_overlapping_keywords_of_one_topic_count_once():
    assert topics_classify(text="back pay", topics={"claims": ["back pay", "pay"]}) == [("claims", 2.0)]


def test_each_occurrence_counts_and_plurals_match():
    topics = {"appeals": ["appeal"], "claims": ["claim"]}

    assert topics_classify(text="appeals, an appeal, and a claim", topics=topics) == [
        ("appeals", 2.0),
        ("claims", 1.0),
    ]


def test_ties_keep_the_order_of_topics():
    topics = {"first": ["alpha"], "second": ["beta"], "third": ["gamma"]}

    assert topics_classify(text="gamma beta alpha", topics=topics) == [
        ("first", 1.0),
        ("second", 1.0),
        ("third", 1.0),
    ]


def test_no_topics_for_unrelated_text():
    assert topics_classify(text="What's the weather like?", topics=DEFAULT_TOPIC_KEYWORDS) == []
    assert topics_classify(text="anything", topics={}) == []


def test_topics_accept_lists_from_the_database():
    assert topics_classify(text="tinnitus", topics={"disability_ratings": ["tinnitus", "rating"]}) == [
        ("disability_ratings", 1.0)
    ]


@pytest.mark.parametrize(
    ("text", "expanded"),
    [
        ("my knee only bends to 45 degrees", "my knee only bends to 45 degrees flexion"),
        ("I can't straighten my elbow", "I can't straighten my elbow extension"),
        ("my ears ring all the time", "my ears ring all the time tinnitus"),
        ("ringing in my ears since Iraq", "ringing in my ears since Iraq tinnitus"),
        # Already in the schedule's words, or nothing everyday to translate: unchanged.
        ("knee flexion limited to 45 degrees, it bends badly", "knee flexion limited to 45 degrees, it bends badly"),
        ("what is the rating for tinnitus", "what is the rating for tinnitus"),
        ("the phone keeps ringing about my claim", "the phone keeps ringing about my claim"),
        # Claims in a veteran's words get VA's name for them.
        ("is there a way to hold my spot", "is there a way to hold my spot intent to file"),
        ("whats the deadline to use my gi bill", "whats the deadline to use my gi bill time limit expire"),
        ("my scar hurts", "my scar hurts painful or unstable scars"),
        ("does the DAV charge anything", "does the DAV charge anything Veterans Service Organization representative"),
        ("what documents do i need to send with my claim",
         "what documents do i need to send with my claim evidence VA needs for a disability claim"),
        ("what can i send to make my claim go faster",
         "what can i send to make my claim go faster Fully Developed Claim faster decision evidence up front"),
        ("scars that dont hurt", "scars that dont hurt scars area square inches"),
        ("my shoulder pops out a lot", "my shoulder pops out a lot recurrent dislocation of the shoulder humerus"),
        ("can I file before I get out of the Army", "can I file before I get out of the Army Benefits Delivery at Discharge"),
        ("can my wife write a letter for my claim", "can my wife write a letter for my claim buddy statement"),
        ("my knee messed up my hip", "my knee messed up my hip secondary secondary service connection 3.310"),
        ("the VA surgeon nicked a nerve", "the VA surgeon nicked a nerve 1151"),
        ("I filed my intent to file, can I hold my spot", "I filed my intent to file, can I hold my spot"),
        ("a statement from my sergeant", "a statement from my sergeant buddy statement"),
        ("my wife gets DIC, what letter do I need", "my wife gets DIC, what letter do I need"),
        ("do i need a doctor's letter", "do i need a doctor's letter nexus letter"),
        ("how do i add my newborn", "how do i add my newborn dependent extra compensation for dependents"),
        ("can I get more money for my wife and kids",
         "can I get more money for my wife and kids dependent extra compensation for dependents"),
        ("my son wants to add a class to his GI Bill", "my son wants to add a class to his GI Bill"),
        ("can i switch from hlr to supplemental", "can i switch from hlr to supplemental Higher-Level Review"),
        ("how long is my ITF good for", "how long is my ITF good for intent to file"),
        ("is a higher-level review faster than an HLR",
         "is a higher-level review faster than an HLR how long it takes on average"),
        ("my appeal has been at the board forever, can they speed it up",
         "my appeal has been at the board forever, can they speed it up advance on the docket"),
        ("can I speed up my claim", "can I speed up my claim priority processing"),
        ("my shoulder only goes up to shoulder level",
         "my shoulder only goes up to shoulder level limitation of motion of the arm"),
        ("can I lift weights with a knee brace", "can I lift weights with a knee brace"),
        ("is a board appeal faster than a higher-level review",
         "is a board appeal faster than a higher-level review how long it takes on average"),
        ("what happens before my C&P exam", "what happens before my C&P exam"),
        ("i got denied for my back, what are my options now",
         "i got denied for my back, what are my options now VA decision reviews under the AMA: three options"),
        ("is va disability taxable", "is va disability taxable tax free"),
        ("is it tax free", "is it tax free"),
        ("do i have to be 100% to get voc rehab", "do i have to be 100% to get voc rehab eligibility"),
        ("do I have to be at the exam early", "do I have to be at the exam early"),
        ("how long do i have to use my gi bill", "how long do i have to use my gi bill time limit expire"),
        ("how long do i have to wait for a decision", "how long do i have to wait for a decision"),
        ("does the gi bill pay for a master's", "does the gi bill pay for a master's graduate school"),
        ("does a 10 percent rating get me va healthcare", "does a 10 percent rating get me va healthcare priority group"),
        ("can my spouse get health care through the va", "can my spouse get health care through the va CHAMPVA"),
        ("does va pay for my wifes health insurance", "does va pay for my wifes health insurance CHAMPVA"),
        ("is va healthcare free", "is va healthcare free copays"),
        ("does va health care cover dental", "does va health care cover dental VA dental care classes"),
        ("can i buy dental insurance through the va", "can i buy dental insurance through the va"),
        ("how do i get va health care for the first time",
         "how do i get va health care for the first time apply to enroll VA Form 10-10EZ"),
        ("what does va health care cost me", "what does va health care cost me copays"),
        ("can i get va health care if i make too much money",
         "can i get va health care if i make too much money income limit priority groups 7 and 8"),
        ("my income is too high for pension", "my income is too high for pension"),
        ("can i get ptsd compensation without a combat deployment",
         "can i get ptsd compensation without a combat deployment PTSD stressor"),
        ("i never deployed but have ptsd", "i never deployed but have ptsd PTSD stressor"),
        ("ptsd from combat in iraq", "ptsd from combat in iraq"),
        ("how do i file a claim for an increase", "how do i file a claim for an increase increased rating claim"),
        ("can i increase my knee rating", "can i increase my knee rating increased rating claim"),
        ("an increased rating claim", "an increased rating claim"),
        ("how does va rate back pain", "how does va rate back pain thoracolumbar or cervical spine"),
        ("rating for a neck injury from a jump", "rating for a neck injury from a jump thoracolumbar or cervical spine"),
        ("how do i prove my back injury happened in the military", "how do i prove my back injury happened in the military"),
        ("i got back pay", "i got back pay"),
        ("my neck pain radiates down my arm", "my neck pain radiates down my arm"),
        ("back pain and numbness in my leg", "back pain and numbness in my leg"),
        ("which review option is fastest", "which review option is fastest how long it takes on average"),
        ("ptsd va disability percentage", "ptsd va disability percentage posttraumatic stress disorder"),
        ("can a widower get DIC", "can a widower get DIC surviving spouse"),
        ("will va give me hearing aids for free", "will va give me hearing aids for free hearing aids and eyeglasses"),
        # Not VA's page on getting hearing aids: the rating exam is done without them.
        ("do hearing aids affect my hearing loss rating",
         "do hearing aids affect my hearing loss rating exam without hearing aids"),
        ("can my widow get my va disability after i die",
         "can my widow get my va disability after i die DIC survivors"),
        ("how do i file for tinnitus", "how do i file for tinnitus how to file a disability claim"),
        ("what form do i use to claim sleep apnea",
         "what form do i use to claim sleep apnea how to file a disability claim"),
        ("how do i apply for the gi bill", "how do i apply for the gi bill"),
        ("somebody said i can get paid at 100 if i cant work. what form is that",
         "somebody said i can get paid at 100 if i cant work. what form is that Individual Unemployability TDIU VA "
         "Form 21-8940"),
        ("got out in january, diagnosed with high blood pressure in october. can it still be service connected",
         "got out in january, diagnosed with high blood pressure in october. can it still be service connected "
         "chronic diseases within one year of discharge"),
        # A month before the year, "yrs" for years.
        ("my right knee has been 30% since march 2004 and VA is proposing to drop it to 10%. i thought after 20 yrs "
         "they cant touch it",
         "my right knee has been 30% since march 2004 and VA is proposing to drop it to 10%. i thought after 20 yrs "
         "they cant touch it protected rating held 20 years Protected VA ratings: the 5, 10, and 20-year rules"),
        ("can I get paid through the VA caregiver program for taking care of him?",
         "can I get paid through the VA caregiver program for taking care of him? Program of Comprehensive Assistance "
         "for Family Caregivers monthly stipend"),
        # An insurance named is no disability claim ("how do I apply for that" after S-DVI read as one).
        ("my VSO mentioned S-DVI insurance. how do I apply for that?",
         "my VSO mentioned S-DVI insurance. how do I apply for that? Veterans Service Organization "
         "Service-Disabled Veterans Insurance VALife"),
        ("chapter 31 vs chapter 36",
         "chapter 31 vs chapter 36 chapter 36 Personalized Career Planning and Guidance career counseling"),
        ("rates are around 6 now, can i refinance without an appraisal",
         "rates are around 6 now, can i refinance without an appraisal Interest Rate Reduction Refinance Loan IRRRL"),
        ("i cant straighten my knee, it stays bent about 15 degrees",
         "i cant straighten my knee, it stays bent about 15 degrees extension"),
        ("my back is ok most days but when it flares up i can barely bend like 20 degrees",
         "my back is ok most days but when it flares up i can barely bend like 20 degrees flexion thoracolumbar spine"),
        ("just had a baby, how do i add her so my check goes up",
         "just had a baby, how do i add her so my check goes up dependent extra compensation for dependents"),
        ("2 months waiting for a cardiology appt, can i see a private doctor",
         "2 months waiting for a cardiology appt, can i see a private doctor community care wait time access standards"),
        ("she had a claim approved right after she passed, can i get that money",
         "she had a claim approved right after she passed, can i get that money accrued benefits"),
        ("i won money on a scratch off, will that affect my check",
         "i won money on a scratch off, will that affect my check income counts based on income or need"),
        # (A cause named: the secondary claim's words, not PTSD's table.)
        ("can i get ptsd secondary to my back rating",
         "can i get ptsd secondary to my back rating secondary service connection 3.310"),
        ("how much more pension if the vet is in a nursing home",
         "how much more pension if the vet is in a nursing home primary residence net worth "
         "Veterans Pension Aid and Attendance nursing home"),
        ("how do i claim a condition caused by va medical care", "how do i claim a condition caused by va medical care 1151"),
        ("can va take my disability for child support", "can va take my disability for child support apportionment"),
        ("can my kids use my GI bill", "can my kids use my GI bill transfer of entitlement spouse or child"),
        ("can i get my claim expedited because im homeless",
         "can i get my claim expedited because im homeless priority processing"),
        ("can va speed up my claim", "can va speed up my claim priority processing"),
        ("what is the va phone number", "what is the va phone number contact VA benefits line"),
        ("what is the phone number to make a va health care appointment",
         "what is the phone number to make a va health care appointment"),
        ("what priority group am i in after my claim was approved",
         "what priority group am i in after my claim was approved"),
        ("how long do i have to file a higher level review",
         "how long do i have to file a higher level review deadline must within"),
        # How long a review takes, not a deadline to file one.
        ("how long does a higher level review take",
         "how long does a higher level review take how long decision reviews take"),
        ("can va pay me for the time i was waiting for my appeal",
         "can va pay me for the time i was waiting for my appeal back pay"),
        ("when does the va cola increase happen",
         "when does the va cola increase happen cost-of-living adjustment each December 1"),
        ("how are two knees rated together", "how are two knees rated together bilateral factor"),
        ("does a widow get the veterans disability after he dies",
         "does a widow get the veterans disability after he dies DIC survivors"),
        ("do i get paid while in the hospital",
         "do i get paid while in the hospital temporary total rating hospitalized more than 21 days"),
        ("what happens to my rating if i get better", "what happens to my rating if i get better reduce rating improvement"),
        ("can i file for tinnitus 20 years after i got out",
         "can i file for tinnitus 20 years after i got out no deadline to file a disability claim"),
        ("is it too late to file", "is it too late to file no deadline to file a disability claim"),
        ("can my son get my gi bill", "can my son get my gi bill transfer of entitlement spouse or child"),
        ("can reservists get va disability", "can reservists get va disability active duty for training inactive duty training"),
        ("can reservists use the gi bill", "can reservists use the gi bill"),
        ("can i get a car grant from va", "can i get a car grant from va automobile allowance"),
        ("how is lumbar strain rated", "how is lumbar strain rated lumbosacral low back"),
        ("how far do i have to live from a va", "how far do i have to live from a va drive time community care"),
        ("what if i missed the 1 year deadline", "what if i missed the 1 year deadline missed the one-year deadline"),
        ("my claim is in gathering evidence", "my claim is in gathering evidence claim status steps"),
        ("what is a pre-discharge claim", "what is a pre-discharge claim Benefits Delivery at Discharge"),
        ("how do i file a va disability claim online",
         "how do i file a va disability claim online how to file a disability claim VA Form 21-526EZ"),
        ("can i have a hearing with a higher level review",
         "can i have a hearing with a higher level review informal conference"),
        ("how is hip pain rated", "how is hip pain rated hip limitation of motion flexion"),
        ("rating for hip pain after a hip replacement", "rating for hip pain after a hip replacement"),
        ("is there an income limit for va health care",
         "is there an income limit for va health care income limit priority groups 7 and 8"),
        ("can i get pension if i have a house", "can i get pension if i have a house primary residence net worth"),
        ("can i get a home loan on a pension", "can i get a home loan on a pension"),
        ("bad eyesight in one eye", "bad eyesight in one eye visual acuity"),
        ("i lost my thumb in iraq", "i lost my thumb in iraq finger amputation"),
        ("can i claim a condition i had before the military",
         "can i claim a condition i had before the military pre-existing condition made worse by service"),
        ("can my claim be denied if i dont go to the exam",
         "can my claim be denied if i dont go to the exam missed exam failure to report"),
        ("can i get paid while waiting for my claim", "can i get paid while waiting for my claim back pay"),
        ("what should i bring to my exam", "what should i bring to my exam"),
        ("knee surgery soon, will VA pay me while I recover",
         "knee surgery soon, will VA pay me while I recover temporary total rating convalescence"),
        ("my dad doesnt have much money, is there anything for him",
         "my dad doesnt have much money, is there anything for him Veterans Pension"),
        ("my wife passed away last year, can i get her benefits",
         "my wife passed away last year, can i get her benefits DIC survivors"),
        ("my wife died on active duty", "my wife died on active duty"),
        ("my husband passed away last month, what do i do now",
         "my husband passed away last month, what do i do now DIC survivors"),
        ("can i see a doctor outside the va", "can i see a doctor outside the va community care"),
        ("can I see a doctor in my town instead", "can I see a doctor in my town instead community care"),
        ("do i need my private doctor records", "do i need my private doctor records"),
        ("my son is 19 and in college can i still get paid for him",
         "my son is 19 and in college can i still get paid for him school attendance 21-674"),
        ("my son wants to go to college", "my son wants to go to college"),
        ("never filed anything, where do i even start",
         "never filed anything, where do i even start how to file a disability claim"),
        ("where do i start with the gi bill", "where do i start with the gi bill"),
        ("can i use a va loan for a rental property", "can i use a va loan for a rental property primary residence occupancy"),
        ("the va is 2 hours away from me", "the va is 2 hours away from me drive time community care"),
        ("radiculopathy in both legs", "radiculopathy in both legs bilateral factor"),
        ("i lost the use of both legs", "i lost the use of both legs"),
        ("a mental health crisis and i went to a civilian ER",
         "a mental health crisis and i went to a civilian ER emergency suicide care"),
        ("i have ptsd and depression", "i have ptsd and depression more than one mental disorder single rating"),
        ("got denied, now i have a new letter from my doctor",
         "got denied, now i have a new letter from my doctor Supplemental Claim new and relevant evidence"),
        ("an old appeal under the old system", "an old appeal under the old system legacy appeal opt in"),
        ("my old knee injury", "my old knee injury"),
        ("second va loan with nothing down", "second va loan with nothing down purchase loan"),
        ("i can put 10 percent down", "i can put 10 percent down purchase loan"),
        ("on metformin and a diet for my diabetes", "on metformin and a diet for my diabetes oral hypoglycemic agent"),
        ("my funding fee for first va loan with 0 down, what %", "my funding fee for first va loan with 0 down, what % "
         "purchase loan"),
        ("is there a down payment", "is there a down payment"),
        ("burial pay if the death was not service connected",
         "burial pay if the death was not service connected non-service-connected"),
        ("my knee isn't service connected yet", "my knee isn't service connected yet non-service-connected"),
        ("a non-service-connected death", "a non-service-connected death"),
        ("how much does pension pay a single veteran", "how much does pension pay a single veteran no dependents"),
        ("i'm single with no kids, what does 70% pay", "i'm single with no kids, what does 70% pay no dependents"),
        ("can I get a single rating for both knees", "can I get a single rating for both knees bilateral factor"),
        ("how much can a lawyer charge for my appeal", "how much can a lawyer charge for my appeal representative fees"),
        ("my rep said he will take care of it", "my rep said he will take care of it"),
        ("what is the income limit for va pension", "what is the income limit for va pension Maximum Annual Pension Rate"),
        ("what is the income limit for va health care",
         "what is the income limit for va health care income limit priority groups 7 and 8"),
        ("can my wife file a claim for me", "can my wife file a claim for me alternate signer"),
        ("my dad has dementia and cant sign anymore", "my dad has dementia and cant sign anymore alternate signer"),
        # Records lost, not a signer: "does that mean he cant file for his hearing".
        ("they told him his records burned up in some fire. does that mean he cant file for his hearing",
         "they told him his records burned up in some fire. does that mean he cant file for his hearing service "
         "treatment records 1973 records fire"),
        ("what happens if i just dont show up to the exam on my increase claim",
         "what happens if i just dont show up to the exam on my increase claim missed exam failure to report missing a "
         "VA exam without good cause"),
        ("can i file for tinnitus", "can i file for tinnitus"),
        ("rated 30% for 22 years, can VA lower it",
         "rated 30% for 22 years, can VA lower it protected rating held 20 years reduce rating improvement"),
        ("can va lower my rating", "can va lower my rating reduce rating improvement"),
        ("rating for my back if i can bend forward 50 degrees",
         "rating for my back if i can bend forward 50 degrees flexion thoracolumbar spine"),
        ("my knee only bends to 60", "my knee only bends to 60 flexion"),
        ("how much of the post 9/11 gi bill do i get if i only served 2 years",
         "how much of the post 9/11 gi bill do i get if i only served 2 years eligibility percentage by length of "
         "service"),
        ("how many years do you have to reenlist to transfer post 9/11 benefits to kids",
         "how many years do you have to reenlist to transfer post 9/11 benefits to kids agreement to serve 4 "
         "additional years"),
        ("funding fee for second time va loan", "funding fee for second time va loan after first use"),
        ("my knee injury in the army caused my hip to go bad", "my knee injury in the army caused my hip to go bad "
         "secondary service connection 3.310"),
        ("hip secondary to knee?", "hip secondary to knee? secondary service connection 3.310"),
        ("cavc deadline", "cavc deadline Court of Appeals for Veterans Claims CAVC Notice of Appeal"),
        ("does living with my boyfriend mess up my DIC", "does living with my boyfriend mess up my DIC living with "
         "another person and presenting as married remarriage"),
        ("how far back will DIC pay if i apply more than a year after he died", "how far back will DIC pay if i "
         "apply more than a year after he died DIC paid from the month of death if filed within one year"),
        ("can i increase my vgli coverage later on", "can i increase my vgli coverage later on add up to $25,000 "
         "every 5 years"),
        ("what form does the nursing home fill out for A&A", "what form does the nursing home fill out for A&A VA "
         "Form 21-0779 nursing home information"),
        ('Active duty, my wife is pregnant. is she automatically covered by military life insurance?',
         'Active duty, my wife is pregnant. is she automatically covered by military life insurance? Family SGLI '
         'FSGLI spouse and children'),
        ('lost my leg below the knee from an IED. is there a lump sum insurance payment for that separate from '
         'disability?', 'lost my leg below the knee from an IED. is there a lump sum insurance payment for that '
         'separate from disability? traumatic injury protection TSGLI'),
        ('is there VA insurance that pays off the house if I die?',
         'is there VA insurance that pays off the house if I die? Veterans Mortgage Life Insurance VMLI'),
        ('my dad is in a nursing home at $7,000 a month. can the VA help pay for it?',
         'my dad is in a nursing home at $7,000 a month. can the VA help pay for it? Veterans Pension Aid and '
         'Attendance nursing home'),
        ('my dad was in the navy 1955 to 1959. does he qualify for the va pension',
         'my dad was in the navy 1955 to 1959. does he qualify for the va pension wartime periods'),
        ('I just got out of the Marines 2 weeks ago, how do I get my disability claim going',
         'I just got out of the Marines 2 weeks ago, how do I get my disability claim going intent to file first '
         'year after separation'),
        # Not for another benefit's deadline ("got out 10 months ago, is it too late for VGLI").
        ('got out 10 months ago, is it too late for VGLI', 'got out 10 months ago, is it too late for VGLI'),
        ('was on a destroyer off vietnam in 68 but never set foot on land',
         'was on a destroyer off vietnam in 68 but never set foot on land Blue Water Navy'),
        ('my father died in a VA hospital, how much will VA pay toward burial',
         'my father died in a VA hospital, how much will VA pay toward burial death in VA care burial allowance'),
        ('my husband was a vietnam vet and died of parkinsons last year. he never filed a claim for it. can i get '
         'anything', 'my husband was a vietnam vet and died of parkinsons last year. he never filed a claim for it. '
         'can i get anything veteran died from an Agent Orange condition what the widow or family can get DIC '
         'survivors how to file a disability claim'),
        ("What evidence should I send in with my claim for sleep apnea?", "What evidence should I send in with my "
         "claim for sleep apnea? evidence VA needs for a disability claim"),
        ("my rating decision says hearing loss was deferred", "my rating decision says hearing loss was deferred "
         "deferred issue"),
        ("I'm rated 0% for hemorrhoids. Do i get any money for that?", "I'm rated 0% for hemorrhoids. Do i get any "
         "money for that? what a 0% noncompensable rating means"),
        ("VA says they propose to reduce my PTSD from 70 to 50", "VA says they propose to reduce my PTSD from 70 to 50 "
         "proposed rating reduction 60 days to respond predetermination hearing"),
        ("VA wants to cut my rating from 70 to 50. how long do i have to respond?", "VA wants to cut my rating from 70 "
         "to 50. how long do i have to respond? proposed rating reduction 60 days to respond predetermination hearing "
         "deadline must within"),
        ("what is clear and unmistakable error and how do i claim it",
         "what is clear and unmistakable error and how do i claim it"),
        ("can they take away service connection for my knee", "can they take away service connection for my knee "
         "severance of service connection protected after 10 years"),
        ("VA wants to sever my knee service connection", "VA wants to sever my knee service connection severance of "
         "service connection protected after 10 years"),
        ("will VA still make me do re exams", "will VA still make me do re exams periodic reexaminations"),
        ("When does my first VA disability payment show up? effective date was march 10",
         "When does my first VA disability payment show up? effective date was march 10 payments start the first "
         "day of the month after the effective date"),
        ("board appeal how long", "board appeal how long how long decision reviews take"),
        ("My HLR was denied and I want to go to the Board now. How long do I have and which form?",
         "My HLR was denied and I want to go to the Board now. How long do I have and which form? Higher-Level "
         "Review Board Appeal VA Form 10182"),
        ("I had flat feet when I joined", "I had flat feet when I joined pre-existing condition made worse by service"),
        # How long the hearing itself is, not how long a review takes.
        ("what actually happens at a BVA hearing, how long is it",
         "what actually happens at a BVA hearing, how long is it"),
        ("how long do i have to file a board appeal", "how long do i have to file a board appeal deadline must within"),
        ("served at Udorn air base in 1969", "served at Udorn air base in 1969 Agent Orange locations Thailand and Laos"),
        ("does Djibouti count for the PACT act", "does Djibouti count for the PACT act PACT Act burn pit locations"),
        ("what counts as radiation risk activity", "what counts as radiation risk activity radiation-risk activities"),
        ("my knee has gotten way worse", "my knee has gotten way worse file for an increase when a condition gets "
         "worse"),
        ("separating in about 4 months, can I file now", "separating in about 4 months, can I file now Benefits "
         "Delivery at Discharge"),
        ("im 4 months out from my ets date", "im 4 months out from my ets date Benefits Delivery at Discharge"),
        # Named already, BDD is what is asked about ("pregnant, can I still do it": who cannot use it).
        ("im pregnant and getting out in 5 months, can I still do the BDD program",
         "im pregnant and getting out in 5 months, can I still do the BDD program You cannot use BDD if you are pregnant"),
        ("can i resend my same medical records with a supplemental claim", "can i resend my same medical records with "
         "a supplemental claim what counts as new and relevant evidence"),
        ("my effective date is march 10 when do payments begin", "my effective date is march 10 when do payments begin "
         "payments start the first day of the month after the effective date"),
        ("when do my gi bill payments start", "when do my gi bill payments start"),
        ("hypertension was diagnosed 5 months after I got out, what date do they pay from", "hypertension was "
         "diagnosed 5 months after I got out, what date do they pay from chronic diseases within one year of discharge "
         "effective date for presumptive service connection"),
        ("got my HLR denied, can i just file another HLR?", "got my HLR denied, can i just file another HLR? who can "
         "request a Higher-Level Review not available for a Higher-Level Review decision Higher-Level Review"),
        ("can i file another 10182 on the same issue", "can i file another 10182 on the same issue options after a Board "
         "decision"),
        ("BVA denied me on june 3, last day to appeal to the court?", "BVA denied me on june 3, last day to appeal to "
         "the court? options after a Board decision Court of Appeals for Veterans Claims CAVC Notice of Appeal"),
        ("my son died on active duty, is there anything VA pays to parents", "my son died on active duty, is there "
         "anything VA pays to parents Parents' DIC DIC survivors"),
        ("can't really work anymore, does VR&E have anything", "can't really work anymore, does VR&E have anything "
         "Independent Living track"),
        ("the clinic is an hour and 15 min drive from me", "the clinic is an hour and 15 min drive from me drive time "
         "community care"),
        ("my ETS is in 60 days, is it too late for BDD?", "my ETS is in 60 days, is it too late for BDD? fewer than 90 "
         "days left on active duty"),
        ("20 years in, can I get my retirement AND VA disability", "20 years in, can I get my retirement AND VA "
         "disability military retired pay and VA disability pay at the same time CRDP"),
        ("rated 70% for PTSD, can I work a full time job", "rated 70% for PTSD, can I work a full time job work and "
         "still get VA disability compensation posttraumatic stress disorder"),
        ("how do I become the person who manages his VA money", "how do I become the person who manages his VA money "
         "fiduciary"),
        ("my blood pressure isnt service connected but my PTSD made it worse", "my blood pressure isnt service "
         "connected but my PTSD made it worse secondary aggravation 3.310(b) when a service-connected condition worsens "
         "a non-service-connected condition"),
        ("I got an other than honorable discharge", "I got an other than honorable discharge character of discharge "
         "other than honorable"),
        ("VA said my asthma existed before service, I had it as a kid", "VA said my asthma existed before service, I "
         "had it as a kid pre-existing condition made worse by service"),
        ("can I use voc rehab to go to school", "can I use voc rehab to go to school Can VR&E pay for college Long-Term "
         "Services track"),
        ("how do i pull back my board appeal", "how do i pull back my board appeal withdraw a Board Appeal"),
        ("my intent to file ran out before i finished", "my intent to file ran out before i finished intent to file "
         "expires"),
        ("rated 70, can I get TDIU if I drive for doordash", "rated 70, can I get TDIU if I drive for doordash "
         "marginal employment"),
        ("do I get any extra for my wife", "do I get any extra for my wife dependent extra compensation for dependents"),
        ("If I lose at the Board can I still appeal somewhere else?", "If I lose at the Board can I still appeal "
         "somewhere else? options after a Board decision"),
        ("whats the difference between the 3 board appeal dockets", "whats the difference between the 3 board appeal "
         "dockets Direct Review Evidence Submission Hearing docket"),
        ("do i need a current diagnosis to file a va claim", "do i need a current diagnosis to file a va claim three "
         "elements of service connection diagnosis in-service event nexus"),
        ("whats the effective date for a first time disability claim", "whats the effective date for a first time "
         "disability claim effective date general rule 3.400 original claim"),
        ("my doctor wrote my sleep apnea could possibly be related to service", "my doctor wrote my sleep apnea "
         "could possibly be related to service at least as likely as not"),
        ("the doc says my ptsd made my blood pressure worse", "the doc says my ptsd made my blood pressure worse "
         "secondary aggravation 3.310(b) when a service-connected condition worsens a non-service-connected condition"),
        ("my tinnitus has gotten alot worse", "my tinnitus has gotten alot worse file for an increase when a condition "
         "gets worse"),
        ("rated 20 for my back, how do I ask for more?", "rated 20 for my back, how do I ask for more? file for an "
         "increase when a condition gets worse"),
        # A widow's question naming her benefit is not sent to survivors' benefits in general.
        ("my mom is a widow, she gets survivors pension. can she get aid and attendance too?",
         "my mom is a widow, she gets survivors pension. can she get aid and attendance too?"),
        # Filing named as the condition of another question: not how to file.
        ("if i file a pact act claim will i get back pay to 2022", "if i file a pact act claim will i get back pay to "
         "2022"),
        ("what form do I use to file a claim for a condition related to burn pits",
         "what form do I use to file a claim for a condition related to burn pits how to file a PACT Act claim "
         "how to file a disability claim"),
        ("the va is 2 hrs away", "the va is 2 hrs away drive time community care"),
        ("my dad is 79 and has had a board appeal pending 2 years. is there any way to speed it up",
         "my dad is 79 and has had a board appeal pending 2 years. is there any way to speed it up advance on the "
         "docket"),
        ("my mom is a widow. dad was a vietnam vet who died of a stroke. is there anything VA can pay her?",
         "my mom is a widow. dad was a vietnam vet who died of a stroke. is there anything VA can pay her? DIC "
         "survivors"),
        ("VA never gave me an exam before denying me back in 2010. is that clear and unmistakable error?",
         "VA never gave me an exam before denying me back in 2010. is that clear and unmistakable error? what is "
         "and isn't clear and unmistakable error"),
        ("VA did the math wrong in my 2008 decision", "VA did the math wrong in my 2008 decision what is and isn't "
         "clear and unmistakable error"),
        ("my rating from 2019 is 30%, how do I increase it", "my rating from 2019 is 30%, how do I increase it"),
        ("VA agreed I have tinnitus but said no nexus. do I have to prove the noise exposure all over again?",
         "VA agreed I have tinnitus but said no nexus. do I have to prove the noise exposure all over again? "
         "favorable findings are binding"),
        ("deadline for va form 9?", "deadline for va form 9? VA Form 9 deadline 60 days Statement of the Case"),
        ("If I win at the board, do I get back pay all the way to when I first filed my claim?",
         "If I win at the board, do I get back pay all the way to when I first filed my claim? continuous pursuit "
         "keeping your effective date through decision reviews"),
        ("A company says they'll get me to 100% if I pay them 5 times my monthly increase",
         "A company says they'll get me to 100% if I pay them 5 times my monthly increase unaccredited help "
         "accredited representative fees"),
        ("which form do I use to appoint a attorney",
         "which form do I use to appoint a attorney VA Form 21-22a attorney or claims agent"),
        ("Im 70% combined but my highest single rating is 30%. can I still get unemployability?",
         "Im 70% combined but my highest single rating is 30%. can I still get unemployability? TDIU one "
         "disability 40 percent extraschedular"),
        ("can my ex wife get part of my va disability check", "can my ex wife get part of my va disability check "
         "apportionment"),
        ("can I still apply for S-DVI", "can I still apply for S-DVI Service-Disabled Veterans Insurance VALife"),
        ("my husband passed before his claim was decided. can I continue his claim?",
         "my husband passed before his claim was decided. can I continue his claim? substitute for a deceased "
         "claimant accrued benefits"),
        ("i wear hearing aids now, does that get me a higher hearing loss rating?",
         "i wear hearing aids now, does that get me a higher hearing loss rating? exam without hearing aids"),
        ("I have a scar on my forearm from surgery in service and it hurts. what can it be rated",
         "I have a scar on my forearm from surgery in service and it hurts. what can it be rated painful or "
         "unstable scars"),
        ("I gave my son $50,000 last year to help with his house. will that hurt me applying for va pension",
         "I gave my son $50,000 last year to help with his house. will that hurt me applying for va pension "
         "look-back asset transfers penalty period"),
        ("getting divorced. do i have to tell va? i get extra on my check for my wife",
         "getting divorced. do i have to tell va? i get extra on my check for my wife remove a dependent after a "
         "divorce 21-686c"),
        ("if i start taking social security at 62 will my va disability go down",
         "if i start taking social security at 62 will my va disability go down compensation not based on income"),
        ("combat vet got out 2019, do i get free va health care",
         "combat vet got out 2019, do i get free va health care copays combat veterans enhanced eligibility"),
        ("if I file now will they pay me back to my discharge date",
         "if I file now will they pay me back to my discharge date effective date day after separation"),
        # Two patterns give the term; it is appended once.
        ("what range of motion do you need for a 40% lower back rating",
         "what range of motion do you need for a 40% lower back rating thoracolumbar spine"),
        ("my back combined range of motion was measured at 110 degrees total",
         "my back combined range of motion was measured at 110 degrees total thoracolumbar spine"),
        # A scar of the face is rated by disfigurement, not by area ("long" would have said area).
        ("long raised scar on my forehead, what %",
         "long raised scar on my forehead, what % Scars and disfigurement of the head, face or neck"),
        ("what % is a lower back strain", "what % is a lower back strain"),  # its own code and page
        ("arthritis in my lower back, bending 70 degrees", "arthritis in my lower back, bending 70 degrees flexion"),
        ("he needs someone with him all day", "he needs someone with him all day aid and attendance"),
        ("can my wife get my back pay if i die before va pays",
         "can my wife get my back pay if i die before va pays accrued benefits"),
        ("my husband died, what is the death pension", "my husband died, what is the death pension"),
        ("how long after discharge can i use vr&e", "how long after discharge can i use vr&e time limit"),
        ("how long does it take to get paid after my claim is approved",
         "how long does it take to get paid after my claim is approved back pay lump sum first payment"),
        ("when will i get my back pay", "when will i get my back pay back pay lump sum first payment"),
        ("my husband never filed before he died, can i file for him",
         "my husband never filed before he died, can i file for him DIC survivors how to file a disability claim"),
        ("i was in the reserves and hurt my knee at annual training",
         "i was in the reserves and hurt my knee at annual training active duty for training inactive duty training"),
        ("i have to go to the ER at a regular hospital, how long do i have to tell va",
         "i have to go to the ER at a regular hospital, how long do i have to tell va deadline must within "
         "emergency care notify VA within 72 hours"),
        ("VA denied my sleep apnea claim last month. I dont agree. what form do i send",
         "VA denied my sleep apnea claim last month. I dont agree. what form do i send VA decision reviews under the "
         "AMA: three options"),
        ("a scar from my ACL repair about 6 inches long. it hurts when anything touches it",
         "a scar from my ACL repair about 6 inches long. it hurts when anything touches it painful or unstable scars"),
        ("a really bad headache every other month where i gotta go lay down",
         "a really bad headache every other month where i gotta go lay down migraine prostrating attacks"),
        ("sinus infections 4 times a year with headaches, i have to lay down. whats the rating for sinusitis",
         "sinus infections 4 times a year with headaches, i have to lay down. whats the rating for sinusitis"),
        ("headaches every week but i dont have to lie down", "headaches every week but i dont have to lie down"),
        ("is sleep apnea secondary to ptsd", "is sleep apnea secondary to ptsd secondary service connection 3.310"),
        ("my dad was in vietnam and has prostate cancer, is it presumptive",
         "my dad was in vietnam and has prostate cancer, is it presumptive Agent Orange presumptive conditions"),
        ("I served in vietnam, what is the rating for a knee", "I served in vietnam, what is the rating for a knee"),
        # A survivor's: the page on a death from a condition on the list, not the living veteran's list.
        ("my husband was in vietnam and died of parkinsons, can i get anything as his widow",
         "my husband was in vietnam and died of parkinsons, can i get anything as his widow "
         "veteran died from an Agent Orange condition what the widow or family can get DIC survivors"),
        ("my husband died, he was in vietnam. what is agent orange",
         "my husband died, he was in vietnam. what is agent orange"),
        ("he died of bladder cancer (vietnam). VA denied my DIC, is it worth trying again",
         "he died of bladder cancer (vietnam). VA denied my DIC, is it worth trying again"),
        # No new evidence and an error in the record: the Higher-Level Review, not the Supplemental Claim.
        ("VA denied my knee claim. the rater ignored my STRs that were already in the file. I dont have any new "
         "evidence. what do I file",
         "VA denied my knee claim. the rater ignored my STRs that were already in the file. I dont have any new "
         "evidence. what do I file Higher-Level Review a senior reviewer looks again at the same evidence"),
        ("denied last month and i have new evidence now", "denied last month and i have new evidence now "
         "Supplemental Claim new and relevant evidence"),
        # Past the year with new evidence: a Supplemental Claim has no deadline.
        ("denied in 2019, way past a year. now he has a doctors letter (nexus). is it too late to appeal",
         "denied in 2019, way past a year. now he has a doctors letter (nexus). is it too late to appeal nexus letter "
         "reopening a denied claim Supplemental Claim no deadline new and relevant evidence"),
        ("my mom remarried after my dad died, can she still get dic",
         "my mom remarried after my dad died, can she still get dic DIC survivors remarriage age 55"),
        # Across the sentence: DIC named first, then marrying again.
        ("Im 48 and I get DIC. if I get married again what happens",
         "Im 48 and I get DIC. if I get married again what happens remarriage age 55"),
        ("can i get married and keep my va disability", "can i get married and keep my va disability"),
        ("my dad is in a nursing home, can va help pay for it",
         "my dad is in a nursing home, can va help pay for it Veterans Pension Aid and Attendance nursing home"),
        ("how long do i have to tell va about an er visit",
         "how long do i have to tell va about an er visit deadline must within emergency care notify VA within 72 hours"),
        ("my mom can't bathe herself", "my mom can't bathe herself aid and attendance"),
        ("i need help with my claim every day", "i need help with my claim every day"),
        ("my knee scars are painful", "my knee scars are painful painful or unstable scars"),
        ("my scar is ugly", "my scar is ugly"),
        ("dizzy spells and i stagger", "dizzy spells and i stagger peripheral vestibular disorder dizziness staggering"),
        ("can side effects from my ptsd meds be claimed",
         "can side effects from my ptsd meds be claimed side effects of medication for a service-connected condition secondary"),
        ("the pills for my back wrecked my stomach",
         "the pills for my back wrecked my stomach side effects of medication for a service-connected condition secondary"),
        ("what are the side effects of zoloft", "what are the side effects of zoloft"),
        ("we are getting divorced, does my va check go down",
         "we are getting divorced, does my va check go down remove a dependent after a divorce 21-686c"),
        ("i quit my job to take care of my husband, can va pay me",
         "i quit my job to take care of my husband, can va pay me "
         "Program of Comprehensive Assistance for Family Caregivers monthly stipend"),
        ("he was 100% p&t for 12 years and died in a wreck",
         "he was 100% p&t for 12 years and died in a wreck DIC rated totally disabled 10 years before death"),
        ("can i add my wife and get more money",
         "can i add my wife and get more money dependent extra compensation for dependents"),
        ("Just got 100% P&T!! somebody said my kids get free college from the VA now, is that real",
         "Just got 100% P&T!! somebody said my kids get free college from the VA now, is that real Survivors' and "
         "Dependents' Educational Assistance (DEA, chapter 35)"),
        # Care abroad: the Foreign Medical Program (it got the clothing allowance).
        ("Retiring to Costa Rica next year. I'm 50% for my back. If I see a doctor down there will VA cover it",
         "Retiring to Costa Rica next year. I'm 50% for my back. If I see a doctor down there will VA cover it "
         "Foreign Medical Program FMP care outside the United States"),
        ("we are moving to germany, can i still use my gi bill", "we are moving to germany, can i still use my gi bill"),
        # A rated veteran's own VA life insurance is VALife (the tinnitus table led).
        ("I'm 62 and only 10% for tinnitus. can I get the VA life insurance?",
         "I'm 62 and only 10% for tinnitus. can I get the VA life insurance? Veterans Affairs Life Insurance VALife "
         "guaranteed whole life for service-connected veterans"),
        ("how do i convert my va life insurance after i get out", "how do i convert my va life insurance after i get out"),
        # Parents of a service member who died: Parents' DIC (a spouse's page led).
        ("our son was killed in Afghanistan in 2012. My husband and I are both retired now and just living on social "
         "security. somebody at the VFW said parents can get a monthly payment from the VA?",
         "our son was killed in Afghanistan in 2012. My husband and I are both retired now and just living on social "
         "security. somebody at the VFW said parents can get a monthly payment from the VA? Parents' DIC Veterans Service "
         "Organization representative"),
        ("our son was killed in Iraq, can he be buried at arlington", "our son was killed in Iraq, can he be buried at "
         "arlington"),
        # A child disabled for life, the veteran parent gone: DIC's helpless child, at any age.
        ("My brother is 42 and has Down syndrome. Dad died of a service connected condition and mom gets DIC. after "
         "she's gone can my brother get anything",
         "My brother is 42 and has Down syndrome. Dad died of a service connected condition and mom gets DIC. after "
         "she's gone can my brother get anything helpless child DIC for surviving children permanently unable to "
         "support themselves before age 18 DIC survivors"),
        ("my son has autism, can he get chapter 35", "my son has autism, can he get chapter 35"),
        # The spouse named before the adding (it was refused, retrieval too weak).
        ("just got married!! im 40% rated, how do i get my wife added so i get paid more",
         "just got married!! im 40% rated, how do i get my wife added so i get paid more dependent extra compensation for "
         "dependents"),
        ("is it too late for voc rehab", "is it too late for voc rehab 12-year basic period of eligibility"),
        # Across the question mark: "Can I use voc rehab? is there a time limit".
        ("got out in 2016. Can I use VR&E / voc rehab? is there a time limit",
         "got out in 2016. Can I use VR&E / voc rehab? is there a time limit 12-year basic period of eligibility"),
        ("my ETS date is in about 5 months, can I file before I get out",
         "my ETS date is in about 5 months, can I file before I get out Benefits Delivery at Discharge"),
        ("no rating and i make too much for va health care right",
         "no rating and i make too much for va health care right VA health care income PACT Act expansion enroll "
         "directly income limit priority groups 7 and 8"),
        ("he was 100% p&t for 6 yrs and passed, can i get dic",
         "he was 100% p&t for 6 yrs and passed, can i get dic DIC rated totally disabled 10 years before death"),
        ("does his va check keep coming to me now that hes gone",
         "does his va check keep coming to me now that hes gone full payment for the month of death"),
        ("he had a claim pending when he died",
         "he had a claim pending when he died accrued benefits owed to a veteran at death"),
        ("his va payment for that month came after he passed, do i return it",
         "his va payment for that month came after he passed, do i return it full payment for the month of death"),
        # A deadline to file a review or a CUE request is not the (absent) deadline to file a claim.
        ("is there a time limit to file a CUE claim", "is there a time limit to file a CUE claim clear and unmistakable error"),
        ("got my first DUI, will va take my disability",
         "got my first DUI, will va take my disability compensation while incarcerated for a felony"),
        ("rated 30% since 2003, can they lower it",
         "rated 30% since 2003, can they lower it Protected VA ratings: the 5, 10, and 20-year rules reduce rating improvement"),
        ("my knee is rated 10% can they lower it", "my knee is rated 10% can they lower it reduce rating improvement"),
        ("can va reduce me if i ask for an increase",
         "can va reduce me if i ask for an increase increased rating claim filing for an increase lower my rating "
         "reduce rating improvement"),
        ("my doc has me on prednisone", "my doc has me on prednisone corticosteroids"),
        ("my back claim has been pending 9 months, normal?",
         "my back claim has been pending 9 months, normal? How long does a VA disability claim take"),
        ("just filed for hearing loss. can the va speed it up",
         "just filed for hearing loss. can the va speed it up priority processing"),
        ("will va pay me back to when i got out", "will va pay me back to when i got out effective date day after separation"),
        ("I got out in March 2024 and filed in January 2025, what date will they pay me back to?",
         "I got out in March 2024 and filed in January 2025, what date will they pay me back to? "
         "effective date day after separation"),
        ("my back is rated 20% and its worse now, how do i ask for a higher rating",
         "my back is rated 20% and its worse now, how do i ask for a higher rating "
         "file for an increase when a condition gets worse"),
        ("I'm 100% for PTSD and my other conditions add up to 60%, anything extra?",
         "I'm 100% for PTSD and my other conditions add up to 60%, anything extra? SMC-S housebound rate 100% plus 60%"),
        ("I have ED from my diabetes meds, rated 0%",
         "I have ED from my diabetes meds, rated 0% special monthly compensation SMC-K loss of use of a creative organ "
         "erectile dysfunction"),
        ("got ED from my diabetes meds, diabetes is service connected. can i get paid for that?",
         "got ED from my diabetes meds, diabetes is service connected. can i get paid for that? special monthly "
         "compensation SMC-K loss of use of a creative organ erectile dysfunction"),
        ("they sent me to the ED visit desk", "they sent me to the ED visit desk"),
        ("how is erectile dysfunction rated", "how is erectile dysfunction rated"),
        ("VA has me at 70 percent now, what priority group does that make me",
         "VA has me at 70 percent now, what priority group does that make me priority groups 1 and 2 rated 50% or more"),
        ("my dad passed away, he was getting 90%. does my mom keep getting his check?",
         "my dad passed away, he was getting 90%. does my mom keep getting his check? "
         "does a spouse keep the veteran's compensation after the veteran dies"),
        ("we got divorced and she's still listed on my award, how do i tell va",
         "we got divorced and she's still listed on my award, how do i tell va "
         "remove a dependent after a divorce 21-686c"),
        ("his rating is 100% but not permanent, can i get champva",
         "his rating is 100% but not permanent, can i get champva CHAMPVA who qualifies rated permanently and totally disabled"),
        ("I was sexually assaulted in the service and never reported it, can VA give me counseling?",
         "I was sexually assaulted in the service and never reported it, can VA give me counseling? "
         "free VA health care for military sexual trauma MST"),
        ("I separated Oct 15 2024 and filed in August 2025, what date does my pay go back to?",
         "I separated Oct 15 2024 and filed in August 2025, what date does my pay go back to? "
         "effective date day after separation"),
        ("about to be evicted and my claim has been pending 7 months, can it be expedited",
         "about to be evicted and my claim has been pending 7 months, can it be expedited "
         "How long does a VA disability claim take priority processing"),
        ("I lost my higher level review on my hearing loss, can I go to the Board next",
         "I lost my higher level review on my hearing loss, can I go to the Board next "
         "Board Appeal of a Higher-Level Review decision VA Form 10182"),
        ("can I get sleep apnea service connected secondary to my PTSD",
         "can I get sleep apnea service connected secondary to my PTSD secondary service connection 3.310"),
        ("how long after I get out can I file a claim for my back?",
         "how long after I get out can I file a claim for my back? no deadline to file a disability claim"),
        ("I've taken naproxen for years for my service connected back and now have GERD from it, can I claim it",
         "I've taken naproxen for years for my service connected back and now have GERD from it, can I claim it "
         "side effects of medication for a service-connected condition secondary"),
        ("I can't cross my legs anymore because of my hip",
         "I can't cross my legs anymore because of my hip DC 5253 impairment of the thigh limited adduction cannot cross "
         "the legs"),
        ("my grandpa served in korea and passed away, grandma lives on a small social security check. anything from VA?",
         "my grandpa served in korea and passed away, grandma lives on a small social security check. anything from VA? "
         "Survivors Pension for a surviving spouse with limited income"),
        ("which priority group is a 20% rating",
         "which priority group is a 20% rating priority groups 3 and 4 rating of 10% or 20%"),
        ("do I need every symptom on the list to get 50%?",
         "do I need every symptom on the list to get 50%? not every listed symptom examples not a checklist"),
        ("got denied for hearing loss back in 2015. can i try again",
         "got denied for hearing loss back in 2015. can i try again reopening a denied claim Supplemental Claim"),
        # A witness's letter, whoever writes it.
        ("my old squad leader saw me fall off the truck and wants to help. can he just write a letter",
         "my old squad leader saw me fall off the truck and wants to help. can he just write a letter buddy "
         "statement"),
        # A medicine named by its brand, and what followed it.
        ("took motrin for years for my SC back and now i have stomach ulcers",
         "took motrin for years for my SC back and now i have stomach ulcers side effects of medication for a "
         "service-connected condition secondary"),
        # Whether a GI Bill is gone: each has its own time limit.
        ("got out in 2011 and never touched my post 9/11. is it gone now",
         "got out in 2011 and never touched my post 9/11. is it gone now Do Post-9/11 GI Bill benefits expire? The "
         "Forever GI Bill rule"),
        # Not whether one may use it for something, nor one already used up.
        ("can i still use my gi bill for flight school", "can i still use my gi bill for flight school"),
        ("my gi bill ran out, is there anything else for school", "my gi bill ran out, is there anything else for school"),
        # A disability claim years after service keeps its term, school or not.
        ("went to college after i got out, can i file for my knee 20 years after i got out",
         "went to college after i got out, can i file for my knee 20 years after i got out no deadline to file a "
         "disability claim"),
        ("can i still use my montgomery gi bill 12 years after i got out",
         "can i still use my montgomery gi bill 12 years after i got out Montgomery GI Bill Active Duty: payments, "
         "time limit, and buy-up"),
        # School for a P&T or deceased veteran's child or spouse is DEA; not when a program is named already.
        ("my husband is P&T, what form do our kids fill out to get school money",
         "my husband is P&T, what form do our kids fill out to get school money Survivors' and Dependents' "
         "Educational Assistance (DEA, chapter 35)"),
        ("my dad is 100% p&t, can va pay for my college",
         "my dad is 100% p&t, can va pay for my college Survivors' and Dependents' Educational Assistance (DEA, "
         "chapter 35)"),
        ("does va pay for my son's college if I'm 100% p&t",
         "does va pay for my son's college if I'm 100% p&t Survivors' and Dependents' Educational Assistance (DEA, "
         "chapter 35)"),
        ("can i transfer my gi bill to pay for my kids college", "can i transfer my gi bill to pay for my kids college"),
        # The most a veteran pays for medicines in a year: VA's medication copay cap.
        ("is there a yearly cap on what I pay for VA prescriptions",
         "is there a yearly cap on what I pay for VA prescriptions annual medication copay cap"),
        # TDIU's percentages not met: the extraschedular route (38 CFR 4.16(b)).
        ("can i get iu if i dont meet the 60 percent",
         "can i get iu if i dont meet the 60 percent Extraschedular TDIU when you don't meet the percentages"),
        # The pension's wartime periods count service anywhere: not Blue Water Navy's pages.
        ("navy 1970-1973, never set foot in vietnam. am i a wartime vet for pension",
         "navy 1970-1973, never set foot in vietnam. am i a wartime vet for pension wartime periods"),
        # A condition claimed as caused by another, the two apart.
        ("can i claim sleep apnea secondary to my ptsd? what do i need",
         "can i claim sleep apnea secondary to my ptsd? what do i need secondary service connection 3.310"),
        # Help with daily living described, not named.
        ("he's 89 and can't dress or bathe himself anymore, is there a VA benefit for that",
         "he's 89 and can't dress or bathe himself anymore, is there a VA benefit for that aid and attendance"),
        # A denial told at length, the options to fight it asked at the end.
        ("I got denied for my knee last month and I'm furious. I don't know where to start. What are my options to "
         "fight this and how long do I have?",
         "I got denied for my knee last month and I'm furious. I don't know where to start. What are my options to "
         "fight this and how long do I have? VA decision reviews under the AMA: three options"),
        # An SMC level written apart from its letter.
        ("what is SMC S and how do you qualify", "what is SMC S and how do you qualify SMC-S housebound rate"),
        ("smc (k) for ED", "smc (k) for ED SMC-K erectile dysfunction"),
        # ED in capitals is erectile dysfunction; a name or an emergency department visit is not.
        ("I have ED from my blood pressure meds", "I have ED from my blood pressure meds erectile dysfunction"),
        ("my buddy ed says I should file", "my buddy ed says I should file"),
        ("I went to the ED visit last night", "I went to the ED visit last night"),
        # A rating not yet permanent beside CHAMPVA; pregnancy beside BDD; a new bank account; evidence for an HLR.
        ("my husband is 100% but VA has not made it permanent and total. Can I get CHAMPVA?",
         "my husband is 100% but VA has not made it permanent and total. Can I get CHAMPVA? "
         "CHAMPVA who qualifies rated permanently and totally disabled"),
        ("I'm pregnant and separating in 5 months, can I use BDD",
         "I'm pregnant and separating in 5 months, can I use BDD You cannot use BDD if you are pregnant"),
        ("how do I change the bank account my VA pay goes to",
         "how do I change the bank account my VA pay goes to change the bank account direct deposit"),
        ("can I send my nexus letter in with my higher level review",
         "can I send my nexus letter in with my higher level review Higher-Level Review no new evidence allowed"),
        # Assets given away before a pension claim; a spouse left without support.
        ("mom wants to give $80,000 to the grandkids before applying for aid and attendance",
         "mom wants to give $80,000 to the grandkids before applying for aid and attendance "
         "look-back asset transfers penalty period"),
        ("he moved out and won't give us anything, can I get part of his VA check",
         "he moved out and won't give us anything, can I get part of his VA check apportionment"),
        # Hemorrhoids as typed, three letters from the word.
        ("whats the most VA gives for hemroids", "whats the most VA gives for hemroids hemorrhoids"),
        # A medicine taken every day: the schedule's "continuous medication".
        ("on zoloft every day for depression, is it just 0%",
         "on zoloft every day for depression, is it just 0% continuous medication"),
        ("is there a max VA loan amount?", "is there a max VA loan amount? VA loan entitlement and loan limits"),
        ("how much can i borrow with a va loan", "how much can i borrow with a va loan VA loan entitlement and loan limits"),
        ("what is the max funding fee on a va loan", "what is the max funding fee on a va loan"),
        # CKD is chronic kidney disease, rated as renal dysfunction.
        ("ckd rating stage 3", "ckd rating stage 3 chronic kidney disease renal dysfunction"),
        # A CPAP is the schedule's breathing assistance device, unless the asker does not use one.
        ("sleep apnea with cpap and also daytime sleepiness", "sleep apnea with cpap and also daytime sleepiness "
         "breathing assistance device"),
        ("i dont use a cpap, sleep apnea rating", "i dont use a cpap, sleep apnea rating"),
        ("they didnt prescribe a cpap for my sleep apnea", "they didnt prescribe a cpap for my sleep apnea"),
        # Sleepiness told in everyday words is the 30% row's, when no CPAP is in use.
        ("sleep apnea, no cpap, i'm exhausted all day and fall asleep at my desk. what rating",
         "sleep apnea, no cpap, i'm exhausted all day and fall asleep at my desk. what rating daytime sleepiness"),
        ("sleep apnea, I use a cpap but still fall asleep at work, what rating",
         "sleep apnea, I use a cpap but still fall asleep at work, what rating breathing assistance device"),
        # Incapacitating episodes are the disc syndrome's formula.
        ("back pain with incapacitating episodes 4 weeks a year rating",
         "back pain with incapacitating episodes 4 weeks a year rating thoracolumbar or cervical spine "
         "intervertebral disc syndrome IVDS"),
        # Pills for diabetes are the schedule's oral hypoglycemic agent.
        ("diabetes with diet and pills only what rating",
         "diabetes with diet and pills only what rating oral hypoglycemic agent"),
    ],
)
def test_lay_terms_expand_adds_the_schedules_word(text, expanded):
    assert lay_terms_expand(text=text) == expanded


def test_condition_names_name_one_code_each():
    from knowledge.extraction import condition_names_build

    names = condition_names_build(codes=[
        ("9432", "Bipolar disorder"), ("9411", "Posttraumatic stress disorder"),
        ("8620", "Neuritis."), ("8621", "Neuritis."),  # one name, several codes: says nothing
        ("7622", "Displacement of uterus [removed]"),
        ("9416", "Dissociative amnesia; dissociative identity disorder"),
        ("7301", "Ulcer"),  # too short to stand for one code
        # As veterans write them: an index entry turned round, a qualifier in parentheses left off, "infection"
        # left off, an operation by its name alone.
        ("7339", "Hernia, ventral, postoperative"), ("7517", "Bladder, injury of"),
        ("5053", "Wrist replacement (prosthesis)."), ("6335", "West Nile virus infection"), ("6518", "Laryngectomy, total."),
        # A name two codes share after the qualifier is left off says nothing.
        ("7123", "Soft tissue sarcoma (of vascular origin)"), ("8540", "Soft tissue sarcoma (of neurogenic origin)"),
        ("9999", "Knee: see the note: here"),  # of no shape the variants know
        ("5003", "Arthritis, degenerative (hypertrophic or osteoarthritis)"),  # the spine's is DC 5242
    ])
    assert names == {"bipolar disorder": "9432", "posttraumatic stress disorder": "9411",
                     "dissociative amnesia": "9416", "dissociative identity disorder": "9416",
                     "postoperative ventral hernia": "7339", "ventral hernia": "7339",
                     "injury of bladder": "7517", "bladder injury": "7517", "wrist replacement": "5053",
                     "west nile virus infection": "6335", "west nile virus": "6335",
                     "total laryngectomy": "6518", "laryngectomy": "6518"}


def test_a_named_condition_is_its_diagnostic_code():
    conditions = {"bipolar disorder": "9432", "migraine": "8100"}
    found = entities_extract(text="I have Bipolar Disorder and migraines; is DC 8100 separate?", conditions=conditions)
    assert [(e.type, e.value, e.text) for e in found] == [
        ("dc_code", "9432", "Bipolar Disorder"), ("dc_code", "8100", "migraines")]
    assert entities_extract(text="my bipolar neighbour", conditions=conditions) == []


def test_benefit_names_expand_adds_the_other_names_once():
    from knowledge.extraction import benefit_names_expand

    question = "how much is the dependency and indemnity compensation for a spouse"
    expanded = benefit_names_expand(text=question, benefits=["dic", "dic"])
    added = expanded.removeprefix(question + " ").split(" DIC")
    assert expanded.startswith(question + " ") and expanded.endswith(" DIC")
    assert len(added) == 2  # "DIC" once, after the one name not already in the question
    assert benefit_names_expand(text="what does DIC pay", benefits=["dic"]).startswith("what does DIC pay ")
    assert benefit_names_expand(text="what is CHAMPVA", benefits=[]) == "what is CHAMPVA"


def test_derived_indexes_follow_the_mapping_object():
    from knowledge.extraction import ByIdentity

    calls = []
    derive = ByIdentity(lambda mapping: calls.append(dict(mapping)) or len(mapping), size=2)
    first = {"a": "1"}

    assert derive(first) == derive(first) == 1 and len(calls) == 1  # the same object: derived once
    assert derive({"a": "1", "b": "2"}) == 2 and len(calls) == 2  # another object: derived afresh
    assert derive(dict(first)) == 1 and len(calls) == 3  # equal content, another object: derived afresh


def test_a_reloaded_glossary_is_read_at_once():
    # The reference cache hands out a new mapping when it reloads: extraction follows it, not an old index.
    before = entities_extract(text="what is a widget rating", terms={"widget": "widget"})
    after = entities_extract(text="what is a widget rating", terms={"gadget": "gadget"})

    assert [(e.type, e.value) for e in before] == [("term", "widget")]
    assert after == []


def test_the_seeded_aliases_name_menieres_by_its_short_names():
    import json

    from knowledge.services import SEED_DIR

    aliases = json.loads((SEED_DIR / "condition_aliases.json").read_text(encoding="utf-8"))["aliases"]
    conditions = {alias.lower(): code for code, names in aliases.items() for alias in names}
    found = entities_extract(text="meniere's rating table please, I get vertigo attacks", conditions=conditions)
    assert ("dc_code", "6205") in [(e.type, e.value) for e in found]
