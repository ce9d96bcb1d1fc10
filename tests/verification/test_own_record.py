"""Questions about the asker's own record are answered with where that record lives, never general text."""

import pytest

from verification.layers.refusal import VA_BENEFITS_PHONE
from verification.own_record import (
    KIND_CLAIM_STATUS,
    KIND_DECISION,
    KIND_DOCUMENTS,
    KIND_PAYMENT,
    KIND_RATING,
    KIND_SOMEONE_ELSE,
    OWN_RECORD_HELP,
    OWN_RECORD_MESSAGES,
    own_record_kind,
)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("what is my claim status", KIND_CLAIM_STATUS),
        ("What is the status of my appeal?", KIND_CLAIM_STATUS),
        ("Where is my claim?", KIND_CLAIM_STATUS),
        ("is my claim approved yet", KIND_CLAIM_STATUS),
        ("is my appeal at the board yet", KIND_CLAIM_STATUS),
        ("why did va deny my claim", KIND_DECISION),
        ("Why was my rating reduced?", KIND_DECISION),
        ("how much back pay am i going to get", KIND_PAYMENT),
        ("What’s my current rating?", KIND_RATING),
        ("whats my rating right now", KIND_RATING),
        ("hi, what is my current rating?", KIND_RATING),
        ("what am i rated at", KIND_RATING),
        ("when is my next payment", KIND_PAYMENT),
        ("Why did my VA payment drop by like $200", KIND_PAYMENT),
        ("can you check if VA got the 21-526EZ I mailed 3 weeks ago?", KIND_DOCUMENTS),
        ("I threw out my decision letter by mistake, can you tell me what they rated my shoulder", KIND_RATING),
        ("I haven't received my back pay yet", KIND_PAYMENT),
        ("did VA get my form", KIND_DOCUMENTS),
        ("Did VA receive my 21-526EZ form?", KIND_DOCUMENTS),
        ("can u check if VA got my intent to file? i did it over the phone on march 2nd", KIND_DOCUMENTS),
        ("my sleep apnea claim says preparing for decision, how much back pay am i getting and when will it hit my account",
         KIND_PAYMENT),
        ("When is my board hearing scheduled? i picked the hearing docket back in 2023", KIND_CLAIM_STATUS),
        ("did my C&P exam come back favorable?? had it tuesday for my shoulder", KIND_CLAIM_STATUS),
        ("did yall get my intent to file? i submitted it online tuesday and didnt get any email", KIND_DOCUMENTS),
        ("When is my c&p exam? I never got a letter or call and my claim says exam scheduled", KIND_CLAIM_STATUS),
        ("did va get my nexus letter", KIND_DOCUMENTS),
        ("did the VA get the buddy letter I sent", KIND_DOCUMENTS),
        ("my exam was tuesday, has the C&P examiner sent his report in yet", KIND_DOCUMENTS),
        ("has the qtc doctor submitted the dbq", KIND_DOCUMENTS),
        ("its the 1st and my va deposit still isnt in my account. did they send them out today", KIND_PAYMENT),
        ("when will my claim be decided", KIND_CLAIM_STATUS),
        ("what day will va decide my claim?", KIND_CLAIM_STATUS),
        ("how long until my claim is decided", KIND_CLAIM_STATUS),
        ("whats my current combined rating? i forgot", KIND_RATING),
        ("What's my combined rating? I lost my award letter and can't remember if it's 70 or 80", KIND_RATING),
        ("how much back pay will I get exactly", KIND_PAYMENT),
        ("did my buddy get approved for his tinnitus", KIND_SOMEONE_ELSE),
        ("did my uncle's widow apply for DIC?", KIND_SOMEONE_ELSE),
        ("whats my husband's va rating", KIND_SOMEONE_ELSE),
        ("did my buddy mike get approved for his tinnitus? we filed the same day", KIND_SOMEONE_ELSE),
        ("my uncle passed last year, did his wife already apply for DIC?", KIND_SOMEONE_ELSE),
        ("what exact day will VA make a decision on my claim, its at step 5 now", KIND_CLAIM_STATUS),
        ("how much back pay will i get exactly? my claim been pending since june 2023", KIND_PAYMENT),
        ("when is my disability payment going to hit my account this month", KIND_PAYMENT),
        ("can you check if my september gi bill housing payment went through", KIND_PAYMENT),
        ("can you look up whether my health care application got approved?", KIND_CLAIM_STATUS),
        ("what effective date did they give me on my sleep apnea grant", KIND_DECISION),
        ("I did an intent to file over the phone in june. can you confirm its in the system", KIND_DOCUMENTS),
        ("can you check if VA got the 4142 I faxed over on the 3rd? its for my knee claim", KIND_DOCUMENTS),
        ("can you check on my claim? its been stuck on gathering evidence for 4 months", KIND_CLAIM_STATUS),
        ("my tinnitus claim was denied last week. can you tell me why they denied mine", KIND_DECISION),
        ("My claim closed yesterday. What exact day will the back pay hit my bank account?", KIND_PAYMENT),
        ("why did my rater only give me 10% for my sinuses? can you pull my c-file and see what the examiner wrote",
         KIND_DECISION),
        ("can you pull my c-file and see what the examiner wrote about my knee", KIND_DOCUMENTS),
        ("why did they deny my sleep apnea claim?? I uploaded everything they asked for", KIND_DECISION),
        ("can you pull up my HLR and tell me whats taking so long? I filed it in June", KIND_CLAIM_STATUS),
        ("can u tell me exactly when my gi bill housing payment is gonna hit my bank account this month", KIND_PAYMENT),
        ("whats my current combined rating? I think they added my migraines last week but I cant log in", KIND_RATING),
        ("why was my va deposit 143 dollars less this month than last month??", KIND_PAYMENT),
        ("I uploaded my buddy statement on va.gov yesterday, did the VA get it? can you confirm its in my file",
         KIND_DOCUMENTS),
        ("did my buddy Mike Delgado get approved for his PTSD claim? he filed back in march", KIND_SOMEONE_ELSE),
        ("my knee claim has been sitting in evidence gathering for 3 months, what is holding it up", KIND_CLAIM_STATUS),
        ("whats holding up my appeal? its been a year", KIND_CLAIM_STATUS),
        ("wheres my claim", KIND_CLAIM_STATUS),
        ("my c&p was this morning, how did i do", KIND_CLAIM_STATUS),
        ("when will my backpay hit my account", KIND_PAYMENT),
        ("how much backpay am i getting?? my decision came out tuesday, 70% effective date of June 2023", KIND_PAYMENT),
        ("did va stop my pension? nothing came this month", KIND_PAYMENT),
        ("My mom gets DIC and it didn't come this month. Can you check if VA stopped her payments??", KIND_SOMEONE_ELSE),
        ("my DIC deposit this month was lower than last month and I didnt get any letter. Why did my amount go down?",
         KIND_PAYMENT),
        ("I applied for DIC in August. Its been almost 4 months. has the VA approved it yet", KIND_CLAIM_STATUS),
        ("i faxed 3 buddy letters to the evidence intake center last tuesday. can you check if VA got them and put them "
         "in my file?", KIND_CLAIM_STATUS),
        # Where to see it is the answer: the claim status tool lists the evidence VA received.
        ("how do i check if va got my evidence", KIND_CLAIM_STATUS),
    ],
)
def test_questions_about_the_askers_own_record_are_recognised(question, kind):
    assert own_record_kind(question=question) == kind


@pytest.mark.parametrize("question", [
    "How long does a claim take?",
    "What's my rating for tinnitus going to be?",
    "What is the PTSD rating at 70 percent?",
    "why do claims get denied",
    "my knee only bends to 60 degrees what is my rating",
    "how much back pay will I get if my effective date was in 2020",
    "How is back pay calculated?",
    "When do VA payments get deposited each month?",
    "What form do I use to file a claim?",
    "how long until a claim is decided",
    "whats my rating? i have 50 ptsd and 30 knee",
    "my buddy got approved for tinnitus, can I get it too",
    "can my husband's rating go up if he gets worse",
    "is my husband already rated 100, can he get more",
    "is his wife eligible for champva",
    "My claim status says 'preparation for notification'. what does that mean, am i almost done?",
    "my claim status changed to gathering evidence again, what does that mean",
    "what effective date does va give a claim filed within a year of discharge",
    "what happens after i submit an intent to file",
    "can you tell me why VA denies tinnitus claims so often",
    "what day of the month does the payment hit the bank",
    "does VA need the 4142 if my doctor is private",
    "why did va give me 10% for tinnitus, isnt that the max",
    "how do I get a copy of my c-file",
    "why do they deny so many sleep apnea claims",
    "when does the gi bill housing payment usually come each month",
    "what's my current rating if I add a 30 for my back",
    "whats my current combined rating with a 50 and a 30",
    "what does preparation for notification mean on my claim status? is that good or bad",
    "how long does the examiner have to send the report",
    "how much back pay am I getting if my effective date is march 2024 and I'm rated 50",
    "how do I get a board hearing",
    "what happens at a board hearing",
    "when is a C&P exam scheduled after filing",
    "did my c&p exam matter if I already have a nexus letter",
    # The rule that dates a payment (38 CFR 3.400, 3.31), asked with the asker's dates.
    "Got out of the navy June 2025 and I filed my claim in april 2026. If they approve it when does my back pay start from",
    "when is a c&p exam usually scheduled",
    "how much back pay will i get if they approve my claim from 2023",
    "will va stop my pension if i get married",
    "can va stop my payments if i move overseas",
    "why would a DIC payment go down",
    "has the VA approved the new PACT Act conditions yet",
])
def test_general_questions_are_not_about_the_askers_record(question):
    assert own_record_kind(question=question) is None


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
def test_ratings_to_combine_are_a_calculation_not_a_record_lookup():
    from verification.services import answer_question

    result = answer_question(question="I have 50 and 30, what is my combined rating", use_cache=False)
    assert result.routing_reason == "combined_ratings"


def test_every_answer_says_where_the_record_lives_and_who_helps():
    assert set(OWN_RECORD_MESSAGES) == {KIND_CLAIM_STATUS, KIND_DECISION, KIND_RATING, KIND_PAYMENT,
                                       KIND_DOCUMENTS, KIND_SOMEONE_ELSE}
    assert all("VA.gov" in message for message in OWN_RECORD_MESSAGES.values())
    assert VA_BENEFITS_PHONE in OWN_RECORD_HELP and "accredited representative" in OWN_RECORD_HELP


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
@pytest.mark.parametrize(("question", "kind"), [("what is my claim status", KIND_CLAIM_STATUS),
                                                ("when is my next payment", KIND_PAYMENT),
        ("Why did my VA payment drop by like $200", KIND_PAYMENT),
        ("can you check if VA got the 21-526EZ I mailed 3 weeks ago?", KIND_DOCUMENTS),
        ("I threw out my decision letter by mistake, can you tell me what they rated my shoulder", KIND_RATING),
                                                ("did my buddy get approved for his tinnitus", KIND_SOMEONE_ELSE)])
def test_the_pipeline_answers_with_where_the_record_lives(question, kind):
    from verification.services import answer_question

    result = answer_question(question=question, use_cache=False)
    assert not result.refused and result.routing_reason == f"own_record:{kind}"
    assert result.answer.startswith(OWN_RECORD_MESSAGES[kind].split(" [")[0].rstrip("."))
    assert VA_BENEFITS_PHONE in result.answer
    assert result.citations and all(c["url"].startswith("https://www.va.gov/") for c in result.citations)
    assert {c["number"] for c in result.citations} == set(range(1, len(result.citations) + 1))
    assert "retrieve" not in [s["stage"] for s in result.trace]
