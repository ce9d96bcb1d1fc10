import dataclasses
import hashlib

import pytest

from verification.preprocess import (
    KIND_CLAIM_NUMBER,
    KIND_DATE,
    KIND_DOB,
    KIND_EMAIL,
    KIND_PHONE,
    KIND_SSN,
    PII_NOTICE,
    PII_PLACEHOLDERS,
    PiiScrubResult,
    pii_scrub,
    question_hash,
    question_normalise,
)

SSN = PII_PLACEHOLDERS[KIND_SSN]
CLAIM = PII_PLACEHOLDERS[KIND_CLAIM_NUMBER]
PHONE = PII_PLACEHOLDERS[KIND_PHONE]
EMAIL = PII_PLACEHOLDERS[KIND_EMAIL]
DOB = PII_PLACEHOLDERS[KIND_DOB]
DATE = PII_PLACEHOLDERS[KIND_DATE]


def test_user_facing_strings():
    assert PII_PLACEHOLDERS == {
        "ssn": "[SSN removed]",
        "claim_number": "[claim number removed]",
        "phone": "[phone removed]",
        "email": "[email removed]",
        "dob": "[date of birth removed]",
        "date": "[date removed]",
    }
    assert "removed" in PII_NOTICE and "not stored" in PII_NOTICE


def test_result_is_frozen():
    result = pii_scrub(text="hello")

    assert result == PiiScrubResult(text="hello", removed=())
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.text = "x"  # type: ignore[misc]


def test_kinds_are_reported_once_in_order_of_first_appearance():
    result = pii_scrub(text="My SSN is 123-45-6789, call (555) 123-4567 or 555-987-6543, SSN 987-65-4321.")

    assert result.text == f"My SSN is {SSN}, call {PHONE} or {PHONE}, SSN {SSN}."
    assert result.removed == ("ssn", "phone")


# --- what is removed --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected", "kinds"),
    [
        # SSNs
        ("My SSN is 123-45-6789.", f"My SSN is {SSN}.", ("ssn",)),
        ("123 45 6789 is mine", f"{SSN} is mine", ("ssn",)),
        ("ssn 123456789", f"ssn {SSN}", ("ssn",)),
        ("SSN: 123456789", f"SSN: {SSN}", ("ssn",)),
        ("social security number is 123456789", f"social security number is {SSN}", ("ssn",)),
        ("Social Security # 123-45-6789", f"Social Security # {SSN}", ("ssn",)),
        ("SS# 123 45 6789", f"SS# {SSN}", ("ssn",)),
        ("the last 4 of my SSN is 6789", f"the last 4 of my SSN is {SSN}", ("ssn",)),
        ("SSN ending in 6789", f"SSN ending in {SSN}", ("ssn",)),
        # VA claim and file numbers
        ("my claim number is 12345678", f"my claim number is {CLAIM}", ("claim_number",)),
        ("claim # 123456789", f"claim # {CLAIM}", ("claim_number",)),
        ("Claim 12345678 is pending", f"Claim {CLAIM} is pending", ("claim_number",)),
        ("VA file number: 12345678", f"VA file number: {CLAIM}", ("claim_number",)),
        ("file number 123456789", f"file number {CLAIM}", ("claim_number",)),
        ("my C-file 123456789", f"my C-file {CLAIM}", ("claim_number",)),
        ("C file 12345678", f"C file {CLAIM}", ("claim_number",)),
        ("VA file 12345678", f"VA file {CLAIM}", ("claim_number",)),
        ("claim number 123-45-6789", f"claim number {CLAIM}", ("claim_number",)),
        # phones
        ("call me at (555) 123-4567", f"call me at {PHONE}", ("phone",)),
        ("555-123-4567", PHONE, ("phone",)),
        ("+1 555 123 4567", PHONE, ("phone",)),
        ("1-555-123-4567", PHONE, ("phone",)),
        ("555.123.4567", PHONE, ("phone",)),
        ("(555)123-4567", PHONE, ("phone",)),
        ("my cell is 5551234567", f"my cell is {PHONE}", ("phone",)),
        ("phone: 15551234567", f"phone: {PHONE}", ("phone",)),
        # emails
        ("email john.doe+va@example.com please", f"email {EMAIL} please", ("email",)),
        ("J_Smith@mail.va.gov", EMAIL, ("email",)),
        # dates of birth
        ("DOB 01/02/1970", f"DOB {DOB}", ("dob",)),
        ("D.O.B.: 1/2/70", f"D.O.B.: {DOB}", ("dob",)),
        ("date of birth: 1965-08-10", f"date of birth: {DOB}", ("dob",)),
        ("I was born on August 10, 1965", f"I was born on {DOB}", ("dob",)),
        ("born 10 August 1965", f"born {DOB}", ("dob",)),
        ("my birthday is 3/4/65", f"my birthday is {DOB}", ("dob",)),
        ("birth date Jan. 9, 1962", f"birth date {DOB}", ("dob",)),
        ("born in May 1965", f"born in {DOB}", ("dob",)),
        # MM/DD/YYYY dates in general
        ("I filed on 03/15/2021", f"I filed on {DATE}", ("date",)),
        ("discharged 12-31-2005", f"discharged {DATE}", ("date",)),
    ],
)
def test_pii_removed(text, expected, kinds):
    result = pii_scrub(text=text)

    assert result.text == expected
    assert result.removed == kinds


def test_everything_at_once():
    text = (
        "I'm John, SSN 123-45-6789, DOB 04/05/1970, email john@example.com, phone (555) 123-4567, "
        "VA file number 87654321. Can I get TDIU?"
    )

    result = pii_scrub(text=text)

    assert result.text == (
        f"I'm John, SSN {SSN}, DOB {DOB}, email {EMAIL}, phone {PHONE}, VA file number {CLAIM}. Can I get TDIU?"
    )
    assert result.removed == ("ssn", "dob", "email", "phone", "claim_number")
    for secret in ("123-45-6789", "04/05/1970", "john@example.com", "123-4567", "87654321"):
        assert secret not in result.text


def test_removed_text_never_survives_an_overlap():
    result = pii_scrub(text="claim number 123-45-6789")

    assert "6789" not in result.text
    assert result.removed == ("claim_number",)


# --- what is kept -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Tinnitus is rated 10% under DC 6260.",
        "DC 5010-5237 and DC 8520/8620",
        "Diagnostic Codes 5260 and 5261",
        "File VA Form 21-526EZ, then 20-0995 or 20-0996, or VA Form 10182.",
        "Apply with 10-10EZ or 10-10d; pension is 21P-527EZ; dependents 21-686c.",
        "COE with 26-1880, GI Bill 22-1990, VR&E 28-1900, DD-214 and SF-180.",
        "rated 70 percent, 100%, or 10-20%",
        "$1,234.56 a month, $3,737.85, $171.23 and $12,345,678",
        "In 2019 and 1975, from 2019-2020",
        "within 1 year, 90 days, a 60-day window, 12 months",
        "38 CFR 4.130 and 38 C.F.R. § 3.309(e)",
        "chapter 33, chapter 35, chapter 31",
        "the claim was filed in 2021 for 3 conditions",
        "my claim for 10 percent was denied",
        "Call VA at 1-800-827-1000 or 877-222-8387",  # organisations' toll-free numbers are not personal
        "TTY 711 or 988 then press 1",
        "2024-05-19",  # an ISO date is not a US MM/DD/YYYY date and carries no keyword
        "born in 1965",  # a year alone is kept
        "served from August 1965 to May 1968",
        "at 8:00 a.m. to 9:00 p.m.",
        "4/5 of the veterans",
        "a 1/2 rating",
        "version 1.2.3.4",
        "section 1151 claim",
        "13/45/2020",
    ],
)
def test_benefits_facts_kept(text):
    result = pii_scrub(text=text)

    assert result.text == text
    assert result.removed == ()


@pytest.mark.parametrize("text", ["000-12-3456", "666-12-3456", "912-34-5678", "123-00-4567", "123-45-0000"])
def test_numbers_that_cannot_be_ssns_are_kept(text):
    assert pii_scrub(text=text).removed == ()


def test_spaced_three_two_four_digits_count_as_an_ssn():
    # The trade-off of removing unlabelled "123 45 6789": a question with three such numbers in a row loses them.
    assert pii_scrub(text="rated 100 10 2020").removed == ("ssn",)


def test_phone_shaped_form_and_code_lists_are_kept():
    text = "Forms 21-0966 and 21-4138; codes 5010 5237 1234; 10-10EZ"

    assert pii_scrub(text=text) == PiiScrubResult(text=text, removed=())


# --- normalise and hash -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What is the rating for tinnitus?", "what is the rating for tinnitus"),
        ("  What   is\tthe\nrating  ", "what is the rating"),
        ("What is TDIU?!?", "what is tdiu"),
        ("Rating for PTSD...", "rating for ptsd"),
        ("Rating for PTSD\u2026", "rating for ptsd"),  # NFKC turns the ellipsis into dots
        ("\uff37\uff48\uff41\uff54 \uff49\uff53 \uff34\uff24\uff29\uff35\uff1f", "what is tdiu"),  # full-width
        ("tinnitus\u200b rating", "tinnitus rating"),  # zero-width space
        ("tin\u00adnitus", "tinnitus"),  # soft hyphen
        ("\ufeffWhat is DIC", "what is dic"),  # byte-order mark
        ("rating\x00\x07 for tinnitus", "rating for tinnitus"),
        ("Is it 70%?", "is it 70%"),
        ("What is 21-526EZ?", "what is 21-526ez"),
        ('What does "P&T" mean?', 'what does "p&t" mean'),
        ("¿Qué es?", "¿qué es"),
        ("???", ""),
        ("", ""),
    ],
)
def test_question_normalise(text, expected):
    assert question_normalise(text=text) == expected


def test_question_hash_is_sha256_of_the_normalised_text():
    expected = hashlib.sha256(b"what is the rating for tinnitus").hexdigest()

    assert question_hash(text="What is the rating for tinnitus?") == expected
    assert question_hash(text="  what IS the rating for   tinnitus ") == expected
    assert question_hash(text="What is the rating for hearing loss?") != expected
    assert len(expected) == 64
