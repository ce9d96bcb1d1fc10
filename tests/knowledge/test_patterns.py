import pytest

from knowledge.patterns import (
    PatternMatch,
    dates_find,
    dc_codes_find,
    dc_codes_match,
    dollar_amounts_find,
    four_digit_numbers_find,
    percentages_find,
    periods_find,
    va_forms_find,
    va_forms_match,
    years_find,
)

# --- diagnostic codes -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tinnitus is rated under DC 6260.", ["6260"]),
        ("DC6260", ["6260"]),
        ("dc 6260", ["6260"]),
        ("DC: 6260", ["6260"]),
        ("DC #6260", ["6260"]),
        ("Hypertension is diagnostic code 7101.", ["7101"]),
        ("Diagnostic Codes 5260 and 5261 cover the knee.", ["5260", "5261"]),
        ("DCs 5260, 5261, or 5262", ["5260", "5261", "5262"]),
        ("PTSD is code 9411", ["9411"]),
        ("Code 9411", ["9411"]),
        ("rated as 5010-5237", ["5010", "5237"]),
        ("DC 5010-5237", ["5010", "5237"]),
        ("DC 8520/8620", ["8520", "8620"]),
        ("diagnostic codes 5013 through 5024", ["5013", "5024"]),
        ("DC 6260 and later DC 6260 again", ["6260"]),
        ("DC 7101 then DC 6260", ["7101", "6260"]),
        ("DC 1234", ["1234"]),  # made-up codes are found; whether they exist is checked elsewhere
    ],
)
def test_dc_codes_found(text, expected):
    assert dc_codes_find(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "In 2019 I filed a claim.",
        "between 2019-2020",
        "VA Form 21-0966",
        "Call 1-800-827-1000",
        "Washington, DC 20420",
        "$5,000 a year",
        "38 CFR 4.130",
        "38 U.S. Code 1151",
        "rated 70 percent",
        "zip code 90210",
        "a 1000-page file",
        "",
    ],
)
def test_dc_codes_not_found(text):
    assert dc_codes_find(text) == []


def test_dc_code_match_keeps_text_as_written():
    assert dc_codes_match("Diagnostic Codes 5260 and 5261") == [
        PatternMatch(value="5260", text="Diagnostic Codes 5260", start=0, end=21),
        PatternMatch(value="5261", text="5261", start=26, end=30),
    ]


def test_four_digit_numbers_are_every_standalone_four_digit_number():
    text = "DC6260, rated 5010-5237 since 1975 (1/1/2020), codes 5260,5261"

    assert four_digit_numbers_find(text) == ["6260", "5010", "5237", "1975", "2020", "5260", "5261"]


@pytest.mark.parametrize(
    "text",
    ["VA Form 21-0966", "call 1-800-827-1000", "$1000", "1234.5", "12345", "3.2100", "2020s", "A1234", "10-10EZ"],
)
def test_four_digit_numbers_skip_parts_of_other_numbers(text):
    assert four_digit_numbers_find(text) == []


# --- VA forms ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("File VA Form 21-526EZ online.", ["21-526EZ"]),
        ("21-526ez", ["21-526EZ"]),
        ("VA Form 21-0966", ["21-0966"]),
        ("21P-527EZ for pension", ["21P-527EZ"]),
        ("21p-534ez", ["21P-534EZ"]),
        ("apply with 10-10EZ", ["10-10EZ"]),
        ("CHAMPVA uses 10-10d", ["10-10D"]),
        ("20-0995 and 20-0996", ["20-0995", "20-0996"]),
        ("VA Form 10182 (Board Appeal)", ["10182"]),
        ("Form 10182", ["10182"]),
        ("VA Form 5655", ["5655"]),
        ("26-1880 for a COE", ["26-1880"]),
        ("22-1990", ["22-1990"]),
        ("28-1900", ["28-1900"]),
        ("21-686c", ["21-686C"]),
        ("VA Form 21-22", ["21-22"]),
        ("21-22a", ["21-22A"]),
        ("21-10210", ["21-10210"]),
        ("21P-0516-1", ["21P-0516-1"]),
        ("10-7959f-1", ["10-7959F-1"]),
        ("DD-214", ["DD-214"]),
        ("DD214", ["DD-214"]),
        ("dd 214", ["DD-214"]),
        ("DD Form 214", ["DD-214"]),
        ("SF-180", ["SF-180"]),
        ("SF 180", ["SF-180"]),
        ("Standard Form 180", ["SF-180"]),
        ("VA Form 21-526EZ, then 21-526EZ again", ["21-526EZ"]),
        # Named by the number alone, as veterans do.
        ("where do i mail a paper 526ez", ["21-526EZ"]),
        ("the 526 EZ", ["21-526EZ"]),
        ("the 0995 or the 0996", ["20-0995", "20-0996"]),
        ("my 0781 statement", ["21-0781"]),
        ("whats the fax number to send the 10182", ["10182"]),
        ("is the 10182 form online", ["10182"]),
    ],
)
def test_va_forms_found(text, expected):
    assert va_forms_find(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "call 555-123-4567",
        "(555) 123-4567",
        "1-800-827-1000",
        "SSN 123-45-6789",
        "on 12-31-2020",
        "2024-05-19",
        "10-10-2020",
        "rated 10-100%",
        "10-100 percent",
        "ages 21-22",
        "10182",  # the Board form only after "Form" or as a thing filed ("send the 10182")
        "paid 10182 dollars",
        "zip code 10182",
        "Form 1040",  # the IRS's
        "$0995 or 1.0996",  # money and decimals are not forms
        "within 10-20 days",
        "DC 5010-5237",
        "",
    ],
)
def test_va_forms_not_found(text):
    assert va_forms_find(text) == []


def test_va_form_match_keeps_text_as_written():
    assert va_forms_match("Send VA Form 21-0966 today") == [
        PatternMatch(value="21-0966", text="VA Form 21-0966", start=5, end=20)
    ]


# --- percentages, dollars, periods ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rated 70%", ["70%"]),
        ("70 %", ["70%"]),
        ("70 percent", ["70%"]),
        ("70 per cent", ["70%"]),
        ("20 pct", ["20%"]),
        ("seventy percent", ["70%"]),
        ("one hundred percent", ["100%"]),
        ("zero percent", ["0%"]),
        ("2.5%", ["2.5%"]),
        ("10.0%", ["10%"]),
        ("10, 20, or 30 percent", ["10%", "20%", "30%"]),
        ("10-20%", ["10%", "20%"]),
        ("50 to 75 percent", ["50%", "75%"]),
        ("70% and 70 percent", ["70%"]),
        ("$5,000 and 10%", ["10%"]),
        ("In 2019, 10 percent", ["10%"]),
    ],
)
def test_percentages_found(text, expected):
    assert percentages_find(text) == expected


@pytest.mark.parametrize("text", ["rated 70", "DC 7101", "2024", "$70", "percent", "chapter 33", "1/2 of it"])
def test_percentages_not_found(text):
    assert percentages_find(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$1,000", ["1000"]),
        ("$3,000.00", ["3000"]),
        ("$171.23", ["171.23"]),
        ("$171.20", ["171.2"]),
        ("$ 500", ["500"]),
        ("$0.50", ["0.5"]),
        ("$1.5 million", ["1500000"]),
        ("$2k", ["2000"]),
        ("500 dollars", ["500"]),
        ("1,224 US dollars", ["1224"]),
        ("$1,000 or $1000", ["1000"]),
        ("$3,737.85 a month and $171.23", ["3737.85", "171.23"]),
    ],
)
def test_dollar_amounts_found(text, expected):
    assert dollar_amounts_find(text) == expected


@pytest.mark.parametrize("text", ["1,000", "70%", "21-526EZ", "2019", "dollars", "$", "US$"])
def test_dollar_amounts_not_found(text):
    assert dollar_amounts_find(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("within 1 year", ["1 year"]),
        ("within one year", ["1 year"]),
        ("a one-year deadline", ["1 year"]),
        ("90 days", ["90 days"]),
        ("a 60-day window", ["60 days"]),
        ("120 days", ["120 days"]),
        ("12 months", ["12 months"]),
        ("5 years", ["5 years"]),
        ("21 days", ["21 days"]),
        ("twenty years", ["20 years"]),
        ("seventeen days", ["17 days"]),
        ("six (6) months", ["6 months"]),
        ("30 calendar days", ["30 days"]),
        ("2 weeks", ["2 weeks"]),
        ("72 hours", ["72 hours"]),
        ("1 days", ["1 day"]),
        ("within 1 year or one year", ["1 year"]),
        ("90 days then 1 year", ["90 days", "1 year"]),
    ],
)
def test_periods_found(text, expected):
    assert periods_find(text) == expected


@pytest.mark.parametrize("text", ["21-526EZ", "DC 6260", "$90", "90%", "every day", "a year ago", "the 1990s", "years"])
def test_periods_not_found(text):
    assert periods_find(text) == []


# --- dates and years --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("August 10, 2022", ["2022-08-10"]),
        ("on Jan 9, 1962", ["1962-01-09"]),
        ("Aug. 10th, 2022", ["2022-08-10"]),
        ("Sept 1, 2020", ["2020-09-01"]),
        ("May 19, 2024", ["2024-05-19"]),
        ("10 August 2022", ["2022-08-10"]),
        ("1/1/2020", ["2020-01-01"]),
        ("12/31/2020", ["2020-12-31"]),
        ("12-31-2020", ["2020-12-31"]),
        ("2024-05-19", ["2024-05-19"]),
        ("August 1953", ["1953-08"]),
        ("in Sept 2001", ["2001-09"]),
        ("August 10, 2022 and 8/10/2022", ["2022-08-10"]),
        ("before October 1, 2019 or after October 1, 2018", ["2019-10-01", "2018-10-01"]),
    ],
)
def test_dates_found(text, expected):
    assert dates_find(text) == expected


@pytest.mark.parametrize(
    "text",
    ["1975", "13/45/2020", "February 30, 2020", "21-526EZ", "DC 5010-5237", "you may 10 times", "May 2", "2/3"],
)
def test_dates_not_found(text):
    assert dates_find(text) == []


def test_years_found():
    assert years_find("Served 1975 to 1979; filed 1/1/2020 and again in 2024-05-19.") == [
        "1975",
        "1979",
        "2020",
        "2024",
    ]


@pytest.mark.parametrize("text", ["DC 5237", "$2000", "the 1990s", "2,019", "1899", "2100", "12345", "21-2020"])
def test_years_not_found(text):
    assert years_find(text) == []


@pytest.mark.parametrize("text", ["6260", "DC 6260", "rated under 6260"])
def test_four_digit_number_at_either_end_of_the_text(text):
    assert four_digit_numbers_find(text) == ["6260"]
