"""What the bundled corpus promises: the rating tables of the most claimed conditions, the benefits veterans
ask about, a checked date on every chunk, and dollar amounts that say when they apply."""

import json
import re

import pytest

from knowledge.corpus_formats import corpus_parse
from knowledge.patterns import va_forms_find
from knowledge.services import SEED_DIR, bundled_corpus_paths

# The most claimed conditions (VA Annual Benefits Report) and the diagnostic code each is rated under.
MOST_CLAIMED = {
    "tinnitus": "6260", "hearing loss": "6100", "PTSD": "9411", "lumbosacral or cervical strain": "5237",
    "limitation of knee flexion": "5260", "limitation of knee extension": "5261", "knee instability": "5257",
    "torn meniscus": "5258", "removed meniscus": "5259", "knee replacement": "5055",
    "scars of the head, face or neck": "7800", "deep scars": "7801", "superficial scars": "7802",
    "painful or unstable scars": "7804", "paralysis of the sciatic nerve": "8520",
    "upper radicular group (cervical radiculopathy)": "8510", "limitation of ankle motion": "5271",
    "limitation of motion of the arm": "5201", "shoulder dislocation": "5202", "clavicle or scapula": "5203",
    "migraine": "8100", "sleep apnea": "6847", "hypertension": "7101", "GERD": "7206", "hiatal hernia": "7346",
    "IBS": "7319", "hemorrhoids": "7336", "asthma": "6602", "COPD": "6604", "chronic bronchitis": "6600",
    "sinusitis": "6510", "rhinitis": "6522", "depression": "9434", "anxiety": "9400",
    "adjustment disorder": "9440", "bipolar disorder": "9432", "plantar fasciitis": "5269", "flatfoot": "5276",
    "degenerative arthritis": "5003", "degenerative arthritis of the spine": "5242",
    "intervertebral disc syndrome": "5243", "diabetes mellitus": "7913", "erectile dysfunction": "7522",
    "eczema or dermatitis": "7806", "psoriasis": "7816", "TBI": "8045", "limitation of hip flexion": "5252",
    "hip replacement": "5054", "carpal tunnel": "8515", "ulnar nerve": "8516", "foot drop": "8521",
    "coronary artery disease": "7005", "varicose veins": "7120", "fibromyalgia": "5025",
    "chronic fatigue syndrome": "6354", "prostate cancer": "7528", "enlarged prostate": "7527", "vertigo": "6204",
    "Meniere's syndrome": "6205", "limitation of elbow flexion": "5206", "limitation of wrist motion": "5215",
    "hallux valgus": "5280", "other foot injuries": "5284", "hypothyroidism": "7903", "atrial fibrillation": "7010",
    "temporomandibular disorder": "9905", "rheumatoid arthritis": "5002", "gout": "5017", "hammer toe": "5282",
    "claw foot": "5278", "endometriosis": "7629", "epilepsy": "8910", "Parkinson's disease": "8004",
    "kidney stones": "7508", "acne": "7828", "hyperthyroidism": "7900", "shoulder replacement": "5051",
}
# Benefits every release must answer, by a word each topic's chunks must carry.
BENEFIT_TOPICS = {
    "Supplemental Claim": "20-0995", "Higher-Level Review": "20-0996", "Board Appeal": "10182",
    "Board dockets": "Evidence Submission", "intent to file": "21-0966", "effective dates": "effective date",
    "TDIU": "21-8940", "SMC": "special monthly compensation", "DIC": "Dependency and Indemnity Compensation",
    "CHAMPVA": "CHAMPVA", "Veterans Pension": "21P-527EZ", "VR&E": "28-1900", "Post-9/11 GI Bill": "Post-9/11",
    "GI Bill housing": "housing allowance", "Montgomery GI Bill": "Montgomery", "home loan COE": "26-1880",
    "funding fee": "funding fee", "burial allowance": "21P-530EZ", "national cemetery": "national cemetery",
    "headstones": "40-1330", "health care priority groups": "priority group", "health care application": "10-10EZ",
}
LEVEL_ROW_RE = re.compile(r"^(?:\d{1,3}% |[^\n]{1,80} — )", re.MULTILINE)
# A dollar amount says the period it applies to (a year, a date) or that the law fixes it.
DOLLAR_RE = re.compile(r"\$\d")
PERIOD_RE = re.compile(r"\b(?:19|20)\d\d\b|set by law|fixed by law|fixed in the program rules")


@pytest.fixture(scope="module")
def records():
    return corpus_parse(paths=bundled_corpus_paths(), fmt="vbkb").records


def test_every_bundled_record_says_when_its_facts_were_checked(records):
    assert [r.entry_id for r in records if r.checked_on is None] == []


@pytest.mark.parametrize(("condition", "code"), sorted(MOST_CLAIMED.items()))
def test_each_most_claimed_condition_has_its_rating_table(records, condition, code):
    tables = [r for r in records if r.diagnostic_code == code and r.type == "rating_table"]
    assert tables, f"no rating table for {condition} (DC {code})"
    assert any(code in r.content and LEVEL_ROW_RE.search(r.content) for r in tables), condition
    assert all(r.url.startswith("https://www.ecfr.gov/current/title-38/") for r in tables), condition


def test_the_list_holds_at_least_sixty_conditions():
    assert len(MOST_CLAIMED) >= 60


@pytest.mark.parametrize(("topic", "marker"), sorted(BENEFIT_TOPICS.items()))
def test_each_benefit_topic_is_covered(records, topic, marker):
    assert any(marker.lower() in f"{r.title}\n{r.content}".lower() for r in records), topic


def test_burial_amounts_from_a_past_year_say_when_they_stopped_applying(records):
    # "Non-service-connected burial allowance 2025" was told $300 and $796, the figures for deaths from
    # October 1, 2019, as if they still applied.
    amounts = next(r for r in records if r.entry_id == "burial-allowance-amounts")
    for line in amounts.content.splitlines():
        if "Non-service-connected" in line and "$" in line:
            assert "to September 30, 2020" in line, line


def test_dollar_amounts_say_when_they_apply(records):
    undated = [r.entry_id for r in records if DOLLAR_RE.search(r.content) and not PERIOD_RE.search(r.content)]
    assert undated == []


def test_every_va_form_the_corpus_names_is_on_the_list_of_forms(records):
    # A form the corpus explains ("VA Form 21-0958 is no longer used") but the list of forms lacks is refused as
    # a form that does not exist. Other agencies' documents (DD-214, SF-180) are kept apart and not VA forms.
    listed = {form["number"].upper() for form in json.loads((SEED_DIR / "va_forms.json").read_text("utf-8"))}
    others = {document["number"].upper() for document in
              json.loads((SEED_DIR.parent / "data" / "non_va_documents.json").read_text("utf-8"))["documents"]}
    named = {form: r.entry_id for r in records for form in va_forms_find(f"{r.title}\n{r.content}")}
    assert {form: entry for form, entry in named.items() if form not in listed | others} == {}


def test_every_va_form_on_the_list_is_described_by_a_record(records):
    # "What is VA form 21-0845 for": a listed form is known, so it is not refused as unknown; with no record
    # naming it, the question was answered with the pension application's description.
    listed = {form["number"].upper() for form in json.loads((SEED_DIR / "va_forms.json").read_text("utf-8"))}
    described = {form for r in records for form in va_forms_find(f"{r.title}\n{r.content}")}
    assert sorted(listed - described) == []
