"""The personal-data scrubber over generated variants of every format it must catch: Social Security numbers
(dashed, spaced, dotted, bare after a label), claim and file numbers, phone numbers (bare ten digits, +1,
dotted, parenthesised), emails and dates of birth (numeric with / . -, and written out), in the places a
question puts them. None survives; a benefits figure next to them does."""

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from verification.preprocess import pii_scrub

digits = st.integers

ssn_parts = st.tuples(digits(100, 665), digits(10, 99), digits(1000, 9999))
# Area codes of people's phones: not toll-free (800, 833, ...), which are organisations' lines.
area = digits(201, 799).filter(lambda n: n % 100 != 0)
phone_parts = st.tuples(area, digits(200, 999), digits(1000, 9999))
MONTHS = ["January", "Feb", "March", "Apr.", "May", "June", "Jul", "August", "Sept", "October", "Nov", "December"]


@st.composite
def ssn(draw) -> tuple[str, str]:
    a, b, c = draw(ssn_parts)
    form = draw(st.sampled_from(["{a}-{b}-{c}", "{a} {b} {c}", "{a}.{b}.{c}", "{a}{b}{c}"]))
    label = draw(st.sampled_from(["my SSN is ", "SSN ", "social security number: ", "my social is ", "SS# ",
                                  "social: "]))
    value = form.format(a=a, b=b, c=c)
    return label + value, f"{a}{b}{c}"


@st.composite
def phone(draw) -> tuple[str, str]:
    a, b, c = draw(phone_parts)
    form = draw(st.sampled_from(["{a}{b}{c}", "({a}) {b}-{c}", "{a}.{b}.{c}", "{a}-{b}-{c}", "+1 {a} {b} {c}",
                                 "1-{a}-{b}-{c}", "+1{a}{b}{c}"]))
    label = draw(st.sampled_from(["call me at ", "my number is ", "", "cell: ", "text "]))
    return label + form.format(a=a, b=b, c=c), f"{a}{b}{c}"


@st.composite
def birth_date(draw) -> tuple[str, str]:
    year, month, day = draw(digits(1930, 2005)), draw(digits(1, 12)), draw(digits(1, 28))
    form = draw(st.sampled_from(["{m}/{d}/{y}", "{d}.{m:02d}.{y}", "{m}-{d}-{y}", "{y}-{m:02d}-{d:02d}",
                                 "{name} {d}, {y}", "{d} {name} {y}", "{m}/{d}/{yy:02d}"]))
    label = draw(st.sampled_from(["dob ", "DOB: ", "date of birth ", "born ", "born on ", "my birthday is "]))
    value = form.format(m=month, d=day, y=year, yy=year % 100, name=MONTHS[month - 1])
    return label + value, str(year) if "{y}" in form else f"{year % 100:02d}"


@st.composite
def claim_number(draw) -> tuple[str, str]:
    number = str(draw(digits(10_000_000, 999_999_999)))
    label = draw(st.sampled_from(["claim number ", "claim # ", "my claim is ", "VA file number ", "C-file "]))
    return label + number, number


@st.composite
def email(draw) -> tuple[str, str]:
    user = draw(st.from_regex(r"[a-z][a-z0-9._+-]{1,12}[a-z0-9]", fullmatch=True))
    domain = draw(st.sampled_from(["example.org", "mail.example.com", "va-example.net"]))
    return f"write to {user}@{domain}", f"{user}@{domain}"


TEMPLATES = ["{pii} - how is tinnitus rated?", "Hi, {pii}. Can I get 70% for PTSD?",
             "What is my claim status? {pii}", "I'm rated 50%, {pii}, what about $1,808.45 a month?"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(ssn(), phone(), birth_date(), claim_number(), email()), st.sampled_from(TEMPLATES))
@example(detail=("dob 1/1/70", "70"), template="Hi, {pii}. Can I get 70% for PTSD?")
def test_no_generated_personal_detail_survives_the_scrubber(detail, template):
    text, secret = detail
    scrubbed = pii_scrub(text=template.format(pii=text))
    assert scrubbed.removed, scrubbed.text
    kept_digits = re.sub(r"\D", "", scrubbed.text)
    if secret.isdigit() and len(secret) >= 7:
        assert secret not in kept_digits, scrubbed.text
    else:
        # A short secret may also be the question's own figure ("dob 1/1/70" beside "70% for PTSD"): only the
        # question's own occurrences may stay.
        assert scrubbed.text.count(secret) <= template.replace("{pii}", "").count(secret), scrubbed.text
    # What the question is about stays.
    for figure in ("70%", "50%", "$1,808.45"):
        if figure in template:
            assert figure in scrubbed.text

