import json
from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def shared_data(name: str) -> Path:
    path = SHARED_DATA / name
    if not path.exists():
        pytest.skip(f"{path} is missing (real data for tests lives in ../shared/data)")
    return path


def vbkb_record(entry_id: str, content: str, **extra) -> dict:
    return {"entry_id": entry_id, "topic": extra.pop("topic", "disability_ratings"), "content": content,
            "url": extra.pop("url", "https://www.va.gov/disability/"), "type": extra.pop("type", "narrative"), **extra}


SMALL_CORPUS = [
    {"entry_id": "_version", "source_id": "system", "content": "marker", "url": "https://example.org", "topic": "x"},
    vbkb_record("t-tinnitus", "Tinnitus, a ringing or buzzing in the ears, is rated under DC 6260. The only rating "
                "is 10%, whether the sound is heard in one ear or both.", title="Tinnitus rating",
                url="https://www.ecfr.gov/current/title-38/chapter-I/part-4/subpart-B/section-4.87",
                type="rating_table", diagnostic_code="6260"),
    vbkb_record("t-itf", "An intent to file, made with VA Form 21-0966, keeps your place: if you file the claim "
                "within one year, benefits can be paid from the date of the intent to file.", topic="claims",
                title="Intent to file", url="https://www.va.gov/resources/your-intent-to-file-a-va-claim/"),
    vbkb_record("t-ch30", "The Montgomery GI Bill Active Duty, Chapter 30, pays a monthly benefit for up to 36 "
                "months of education or training.", topic="education_benefits", title="Chapter 30",
                url="https://www.va.gov/education/about-gi-bill-benefits/montgomery-active-duty/"),
    vbkb_record("t-hlr", "A Higher-Level Review asks a senior reviewer to look again at the same evidence. File "
                "VA Form 20-0996 within one year of the decision.", topic="appeals", title="Higher-Level Review",
                url="https://www.va.gov/decision-reviews/higher-level-review/"),
    vbkb_record("t-nexus", "A nexus letter is a medical opinion linking a condition to service, usually saying it "
                "is at least as likely as not (50% or more) related.", topic="claims", type="definition",
                term="Nexus letter", aliases=["nexus opinion", "IMO"], title="Nexus letter",
                url="https://www.va.gov/disability/eligibility/"),
]


@pytest.fixture
def small_corpus_file(tmp_path) -> Path:
    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL_CORPUS))
    return path


@pytest.fixture
def ingested(small_corpus_file, django_capture_on_commit_callbacks):
    from knowledge.services import corpus_ingest

    with django_capture_on_commit_callbacks(execute=True):
        return corpus_ingest(paths=[small_corpus_file])
