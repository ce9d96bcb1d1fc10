import collections
import json
import re

import pytest

from knowledge.chunking import record_split, text_chunk

from .conftest import shared_data

_WHITESPACE_RE = re.compile(r"\s+")
# What the chunker promises to keep whole: text between sentence/clause ends, line breaks and <br> tags.
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?;:])\s+|<br\s*/?>|\n", re.IGNORECASE)


def _norm(text: str) -> str:
    return _WHITESPACE_RE.sub(" ", text).strip()


def assert_nothing_dropped(text: str, chunks: list[str], *, max_chars: int) -> None:
    """Every character of the input appears, in order, across the chunks (whitespace aside), and every
    sentence or row short enough to fit beside a repeated heading appears whole in some chunk."""
    haystack = _WHITESPACE_RE.sub("", "".join(chunks))
    position = 0
    for char in _WHITESPACE_RE.sub("", text):
        position = haystack.find(char, position)
        assert position >= 0, f"text lost near {char!r}"
        position += 1
    normalised = [_norm(chunk) for chunk in chunks]
    for sentence in map(_norm, _SENTENCE_SPLIT_RE.split(text)):
        if sentence and len(sentence) < max_chars // 2:
            assert any(sentence in chunk for chunk in normalised), f"sentence split or lost: {sentence!r}"


def paragraphs(*texts: str) -> str:
    return "\n\n".join(texts)


# --- paragraphs -------------------------------------------------------------------------------------------


def test_short_text_is_one_chunk():
    assert text_chunk(text="Tinnitus is rated 10%.") == ["Tinnitus is rated 10%."]


def test_empty_and_blank_text_give_no_chunks():
    assert text_chunk(text="") == []
    assert text_chunk(text=" \n\n \n") == []


def test_paragraphs_are_packed_up_to_max_chars():
    text = paragraphs("A" * 40, "B" * 40, "C" * 40)

    chunks = text_chunk(text=text, max_chars=90, overlap_paragraphs=0)

    assert chunks == [f"{'A' * 40}\n\n{'B' * 40}", "C" * 40]


def test_each_new_chunk_starts_with_the_last_paragraph_of_the_previous_one():
    text = paragraphs("A" * 30, "B" * 30, "C" * 30, "D" * 30)

    chunks = text_chunk(text=text, max_chars=70, overlap_paragraphs=1)

    assert chunks == [f"{'A' * 30}\n\n{'B' * 30}", f"{'B' * 30}\n\n{'C' * 30}", f"{'C' * 30}\n\n{'D' * 30}"]


def test_overlap_is_dropped_when_it_would_exceed_max_chars():
    text = paragraphs("A" * 30, "B" * 30, "C" * 60)

    chunks = text_chunk(text=text, max_chars=70, overlap_paragraphs=1)

    assert chunks == [f"{'A' * 30}\n\n{'B' * 30}", "C" * 60]


def test_overlap_of_several_paragraphs_keeps_what_fits():
    text = paragraphs("A" * 10, "B" * 10, "C" * 10, "D" * 50)

    chunks = text_chunk(text=text, max_chars=70, overlap_paragraphs=3)

    assert chunks[1] == f"{'C' * 10}\n\n{'D' * 50}"
    assert all(len(chunk) <= 70 for chunk in chunks)


def test_zero_overlap_repeats_nothing():
    text = paragraphs(*(f"Paragraph {i} " + "x" * 30 for i in range(10)))

    chunks = text_chunk(text=text, max_chars=100, overlap_paragraphs=0)

    assert sum(chunk.count("Paragraph") for chunk in chunks) == 10


def test_long_paragraph_is_split_on_sentences():
    sentences = [f"Sentence number {i} says something about VA benefits." for i in range(20)]
    text = " ".join(sentences)

    chunks = text_chunk(text=text, max_chars=200, overlap_paragraphs=0)

    assert len(chunks) > 1
    assert all(len(chunk) <= 200 for chunk in chunks)
    for sentence in sentences:
        assert sum(sentence in chunk for chunk in chunks) == 1


def test_sentence_split_respects_abbreviations():
    text = "Rated under 38 U.S.C. 1155 and 38 C.F.R. 4.130 by the VA. " + "Another sentence here. " * 10

    chunks = text_chunk(text=text, max_chars=120, overlap_paragraphs=0)

    assert any("Rated under 38 U.S.C. 1155 and 38 C.F.R. 4.130 by the VA." in chunk for chunk in chunks)


def test_sentence_longer_than_max_is_split_on_words():
    text = " ".join(f"word{i}" for i in range(200))

    chunks = text_chunk(text=text, max_chars=50, overlap_paragraphs=0)

    assert all(len(chunk) <= 50 for chunk in chunks)
    assert " ".join(chunks).split() == text.split()


def test_word_longer_than_max_is_cut_without_losing_characters():
    url = "https://www.va.gov/" + "a" * 300

    chunks = text_chunk(text=f"See {url} for details.", max_chars=100, overlap_paragraphs=0)

    assert all(len(chunk) <= 100 for chunk in chunks)
    assert "".join(chunks).replace(" ", "") == f"See{url}fordetails."


@pytest.mark.parametrize("max_chars", [1, 2, 7, 13, 40])
@pytest.mark.parametrize("overlap", [0, 1, 3])
def test_tiny_max_chars_terminates_and_fits(max_chars, overlap):
    text = paragraphs("Tinnitus is rated 10%. It is DC 6260.", "A | B\nC | D", "Last one.")

    chunks = text_chunk(text=text, max_chars=max_chars, overlap_paragraphs=overlap)

    assert chunks
    assert all(0 < len(chunk) <= max_chars for chunk in chunks)
    assert_nothing_dropped(text, chunks, max_chars=max_chars)


def test_invalid_arguments_are_rejected():
    with pytest.raises(ValueError):
        text_chunk(text="x", max_chars=0)
    with pytest.raises(ValueError):
        text_chunk(text="x", overlap_paragraphs=-1)


def test_windows_line_endings_split_paragraphs():
    chunks = text_chunk(text="A" * 30 + "\r\n\r\n" + "B" * 30, max_chars=40, overlap_paragraphs=0)

    assert chunks == ["A" * 30, "B" * 30]


# --- tables -----------------------------------------------------------------------------------------------

CFR_TABLE = "\n".join(
    [
        "[Table] Diseases of the Ear",
        " | Rating",
        "6260 Tinnitus, recurrent | 10",
        "Note (1): A separate evaluation for hearing loss may be combined with tinnitus. | ",
        "6200 Chronic suppurative otitis media, mastoiditis, or cholesteatoma: | ",
        *(f"Criterion {i} for chronic otitis media with suppuration or aural polyps | {i * 10}" for i in range(1, 9)),
        "6204 Peripheral vestibular disorders: | ",
        "Dizziness and occasional staggering | 30",
        "Occasional dizziness | 10",
    ]
)


def test_cfr_table_pieces_repeat_caption_and_header_row():
    chunks = text_chunk(text=CFR_TABLE, max_chars=260, overlap_paragraphs=0)

    assert len(chunks) > 2
    for chunk in chunks:
        assert len(chunk) <= 260
        assert chunk.startswith("[Table] Diseases of the Ear\n | Rating\n")
    assert_nothing_dropped(CFR_TABLE, chunks, max_chars=260)


def test_cfr_table_piece_names_the_code_its_rows_belong_to():
    chunks = text_chunk(text=CFR_TABLE, max_chars=260, overlap_paragraphs=0)

    criteria_chunks = [chunk for chunk in chunks if "Criterion" in chunk]
    assert len(criteria_chunks) > 1
    for chunk in criteria_chunks:
        assert chunk.split("\n")[2].startswith("6200 Chronic suppurative otitis media")


def test_table_rows_are_never_cut_when_they_fit():
    chunks = text_chunk(text=CFR_TABLE, max_chars=260, overlap_paragraphs=0)
    rows = [line for line in CFR_TABLE.split("\n") if " | " in line]

    for row in rows:
        assert any(row.rstrip() in chunk.split("\n") for chunk in chunks)


def test_later_runs_of_a_cfr_table_keep_its_heading_under_a_subheading():
    text = "\n".join(
        [
            "[Table] The Hand",
            " | Rating",
            "Major | Minor",
            "I. Multiple Digits: Unfavorable Ankylosis",
            *(f"52{i:02d} Digits of one hand, case {i} | 60 | 50" for i in range(16, 30)),
        ]
    )

    chunks = text_chunk(text=text, max_chars=200, overlap_paragraphs=0)

    assert len(chunks) > 1
    for chunk in chunks:
        assert chunk.startswith("[Table] The Hand\n | Rating\nMajor | Minor\nI. Multiple Digits: Unfavorable Ankylosis")
    assert_nothing_dropped(text, chunks, max_chars=200)


def test_markdown_table_pieces_repeat_heading_and_header():
    rows = [f"| If the Veteran died on or after October 1, {2000 + i} | ${300 + i} |" for i in range(12)]
    text = paragraphs(
        "Burial allowances are paid to survivors.",
        "What are the burial allowance amounts?",
        "\n".join(["| Status | Maximum Burial Allowance |", "| --- | --- |", *rows]),
    )

    chunks = text_chunk(text=text, max_chars=300, overlap_paragraphs=0)

    table_chunks = [chunk for chunk in chunks if "| If the Veteran" in chunk]
    assert len(table_chunks) > 1
    for chunk in table_chunks:
        assert "What are the burial allowance amounts?\n| Status | Maximum Burial Allowance |\n| --- | --- |\n" in chunk
    assert_nothing_dropped(text, chunks, max_chars=300)


def test_markdown_row_wrapped_over_lines_stays_one_row():
    text = (
        "| School name | Counselor | Regional office |\n"
        "|---|---|---|\n"
        "| Troy University | Rickey Jones \n"
        "Rickey.Jones@va.gov\n"
        " | Montgomery (322) |\n"
        "| Auburn University | Someone Else\n"
        "someone@va.gov\n"
        " | Montgomery (322) |"
    )

    chunks = text_chunk(text=text, max_chars=140, overlap_paragraphs=0)

    assert len(chunks) == 2
    assert "Troy University" in chunks[0] and "Montgomery (322)" in chunks[0]
    assert chunks[1].startswith("| School name | Counselor | Regional office |\n|---|---|---|\n| Auburn University")


def test_tab_separated_rows_are_a_table():
    text = "\n".join(["Code\tCondition", *(f"{6200 + i}\tCondition number {i} of the ear" for i in range(10))])

    chunks = text_chunk(text=text, max_chars=120, overlap_paragraphs=0)

    assert len(chunks) > 1
    assert all(chunk.startswith("Code\tCondition\n") for chunk in chunks)


def test_table_without_caption_uses_title_as_heading():
    text = "\n".join(["Meridian | Normal degrees", *(f"Direction {i} | {50 + i}" for i in range(20))])

    chunks = text_chunk(text=text, title="38 CFR 4.76a Visual fields", max_chars=120, overlap_paragraphs=0)

    assert all(chunk.startswith("38 CFR 4.76a Visual fields\nMeridian | Normal degrees\n") for chunk in chunks)


def test_table_row_longer_than_a_chunk_is_split_and_keeps_heading():
    text = "\n".join(["[Table] Long", " | Rating", "Criterion. " * 40 + "| 100"])

    chunks = text_chunk(text=text, max_chars=150, overlap_paragraphs=0)

    assert len(chunks) > 2
    assert all(len(chunk) <= 150 and chunk.startswith("[Table] Long\n | Rating\n") for chunk in chunks)
    assert_nothing_dropped(text, chunks, max_chars=150)


def test_heading_too_long_to_repeat_is_kept_once():
    caption = "[Table] " + "Very long caption " * 8
    text = "\n".join([caption.strip(), " | Rating", *(f"Row {i} | {i}" for i in range(30))])

    chunks = text_chunk(text=text, max_chars=200, overlap_paragraphs=0)

    assert all(len(chunk) <= 200 for chunk in chunks)
    assert sum(caption.strip() in chunk for chunk in chunks) == 1
    assert_nothing_dropped(text, chunks, max_chars=200)


# --- record_split -----------------------------------------------------------------------------------------


def test_record_that_fits_is_returned_unchanged():
    content = "  Tinnitus is rated 10%.\n\n\n"

    assert record_split(content=content, max_chars=100) == [content]


def test_overlong_record_is_split_by_the_same_rules():
    rows = "\n".join(f"| {i}0% | Symptom set {i} {'x' * 60} |" for i in range(1, 8))
    content = paragraphs("### 7122 Cold injury residuals", f"| Rating | Description |\n| --- | --- |\n{rows}")

    parts = record_split(content=content, max_chars=250)

    assert len(parts) > 1
    assert all(len(part) <= 250 for part in parts)
    assert all("| Rating | Description |\n| --- | --- |" in part for part in parts if "Symptom set" in part)
    assert_nothing_dropped(content, parts, max_chars=250)


# --- real documents ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_documents() -> list[dict]:
    with shared_data("docs_all.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.mark.parametrize("max_chars", [1000, 400])
def test_real_documents_fit_and_lose_nothing(real_documents, max_chars):
    for doc in real_documents:
        chunks = text_chunk(text=doc["text"], title=doc["title"], max_chars=max_chars)

        assert chunks, doc["id"]
        assert all(len(chunk) <= max_chars for chunk in chunks), doc["id"]
        assert_nothing_dropped(doc["text"], chunks, max_chars=max_chars)


def test_real_cfr_table_rows_keep_their_table_caption(real_documents):
    """Every chunk holding a row of a flattened 38 CFR table also holds that table's "[Table]" caption."""
    checked = 0
    for doc in real_documents:
        if "[Table]" not in doc["text"]:
            continue
        lines = [line.rstrip() for line in doc["text"].split("\n")]
        counts = collections.Counter(lines)
        caption_of: dict[str, str] = {}
        caption = ""
        for line in lines:
            if line.startswith("[Table]"):
                caption = line
            elif caption and " | " in line and counts[line] == 1 and not line.lstrip().startswith("|"):
                caption_of[line] = caption
        for chunk in text_chunk(text=doc["text"], title=doc["title"], max_chars=1000):
            chunk_lines = chunk.split("\n")
            for line in chunk_lines:
                if line in caption_of:
                    checked += 1
                    assert caption_of[line] in chunk_lines, (doc["id"], line)
    assert checked > 100


def test_real_markdown_tables_repeat_their_header(real_documents):
    separator = re.compile(r"^\|?\s*:?-{3,}")
    for doc in real_documents:
        if doc["id"].startswith("38cfr") or "|---" not in doc["text"].replace(" ", ""):
            continue
        for chunk in text_chunk(text=doc["text"], title=doc["title"], max_chars=1000):
            lines = chunk.split("\n")
            rows = [i for i, line in enumerate(lines) if line.startswith("|")]
            if rows:
                assert rows[0] + 1 < len(lines) and separator.match(lines[rows[0] + 1]), (doc["id"], chunk[:200])


def test_real_records_split_to_fit():
    records = json.loads(shared_data("vbkb_corpus.json").read_text(encoding="utf-8"))
    for record in records:
        parts = record_split(content=record["content"], max_chars=1000)

        assert all(len(part) <= 1000 for part in parts), record["entry_id"]
        assert_nothing_dropped(record["content"], parts, max_chars=1000)


def test_an_inline_numbered_step_stays_whole():
    from knowledge.chunking import units_split

    units = units_split(text="The steps: 1. File a notice within one year. 2. Wait for the SOC. Keep 3.5 mm. Done.")
    assert units == ["The steps:", "1. File a notice within one year.", "2. Wait for the SOC.", "Keep 3.5 mm.", "Done."]
    assert units_split(text="Rated 10%. 2 of them count.") == ["Rated 10%.", "2 of them count."]
