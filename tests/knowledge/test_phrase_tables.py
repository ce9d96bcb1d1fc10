import re

import pytest

from knowledge.phrase_tables import (
    FLAG,
    REGEX,
    REGEXES,
    TEXT,
    PhraseTableError,
    phrase_records_get,
    phrases_get,
)

RULE_FIELDS = {"agency": TEXT, "handler": TEXT, "phrases": REGEXES, "keep_if": REGEXES,
               "va_interaction_in_scope": FLAG}
RULE_DEFAULTS = {"keep_if": (), "va_interaction_in_scope": True}


def write(tmp_path, text, name="phrases.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_table_is_read_as_written(tmp_path):
    path = write(tmp_path, "# why\nwords:\n  - 'ssdi'\n  - 'don''t (?:want|wish)'\n  - '\\d{4,}'\n")
    assert phrases_get(path=path, table="words") == ("ssdi", "don't (?:want|wish)", r"\d{4,}")


def test_records_take_their_defaults(tmp_path):
    path = write(tmp_path, "rules:\n  - agency: 'SSA'\n    handler: 'the SSA'\n    phrases: ['ssdi']\n"
                           "  - agency: 'State'\n    handler: 'your state'\n    phrases: ['dmv']\n"
                           "    keep_if: ['vash']\n    va_interaction_in_scope: false\n")
    assert phrase_records_get(path=path, table="rules", fields=RULE_FIELDS, defaults=RULE_DEFAULTS) == (
        {"agency": "SSA", "handler": "the SSA", "phrases": ("ssdi",), "keep_if": (), "va_interaction_in_scope": True},
        {"agency": "State", "handler": "your state", "phrases": ("dmv",), "keep_if": ("vash",),
         "va_interaction_in_scope": False},
    )


def test_a_file_is_read_once(tmp_path):
    path = write(tmp_path, "words:\n  - 'ssdi'\n")
    assert phrases_get(path=path, table="words") == ("ssdi",)
    path.write_text("words:\n  - 'ssi'\n", encoding="utf-8")
    assert phrases_get(path=path, table="words") == ("ssdi",)


@pytest.mark.parametrize(("text", "error"), [
    ("words:\n  - 'ssdi'\n  - '(?:kill|hurt my ?self'\n",
     r"words\[1\]: '\(\?:kill\|hurt my \?self' does not compile: missing \)"),
    # Unquoted, YAML reads "no" as false and 988 as a number.
    ("words:\n  - 'ssdi'\n  - no\n", r"words\[1\]: False is not a regex string"),
    ("words:\n  - 988\n", r"words\[0\]: 988 is not a regex string"),
    ("words:\n  - ''\n", r"words\[0\]: '' is not a regex string"),
    # An empty alternative would match every question.
    ("words:\n  - 'ssdi'\n  - '(?:ssi)?'\n", r"words\[1\]: '\(\?:ssi\)\?' matches the empty string"),
    ("words: []\n", r"words: must be a non-empty list of regex strings"),
    ("words: 'ssdi'\n", r"words: must be a non-empty list of regex strings, not 'ssdi'"),
    ("other:\n  - 'ssdi'\n", r"table 'words' is missing"),
    ("- 'ssdi'\n", r"must be a mapping of table names to tables"),
    ("words:\n  - 'ssdi\n", r"is not valid YAML"),
    # YAML keeps the last of two same keys; a second table or field of one name would drop the first unseen.
    ("words:\n  - 'ssdi'\nwords:\n  - 'ssi'\n", r"is not valid YAML.*key 'words' is given twice"),
    ("words:\n  - agency: 'SSA'\n    outright: ['ssdi']\n    outright: ['ssi']\n",
     r"is not valid YAML.*key 'outright' is given twice"),
])
def test_a_malformed_table_is_refused_naming_the_entry(tmp_path, text, error):
    path = write(tmp_path, text)
    with pytest.raises(PhraseTableError, match=re.escape(str(path)) + r": .*" + error):
        phrases_get(path=path, table="words")


@pytest.mark.parametrize(("record", "error"), [
    ("    handler: 'the SSA'\n    phrases: ['ssdi']\n", r"rules\[1\]: missing key 'agency'"),
    ("    agency: 'SSA'\n    handler: 'the SSA'\n    phrases: ['ssdi', '(ssi']\n",
     r"rules\[1\]\.phrases\[1\]: '\(ssi' does not compile"),
    ("    agency: 'SSA'\n    handler: 'the SSA'\n    phrases: ['ssdi']\n    keepif: ['champva']\n",
     r"rules\[1\]: unknown key 'keepif'"),
    ("    agency: 'SSA'\n    handler: 'the SSA'\n    phrases: ['ssdi']\n    va_interaction_in_scope: 'no'\n",
     r"rules\[1\]\.va_interaction_in_scope: 'no' is not true or false"),
    ("    agency: 'SSA'\n    handler: 7\n    phrases: ['ssdi']\n", r"rules\[1\]\.handler: 7 is not a non-empty string"),
])
def test_a_malformed_record_is_refused_naming_the_entry(tmp_path, record, error):
    good = "  - agency: 'IRS'\n    handler: 'the IRS'\n    phrases: ['irs']\n"
    path = write(tmp_path, "rules:\n" + good + "  -\n" + record)
    with pytest.raises(PhraseTableError, match=re.escape(str(path)) + r": " + error):
        phrase_records_get(path=path, table="rules", fields=RULE_FIELDS, defaults=RULE_DEFAULTS)


def test_a_missing_file_is_named(tmp_path):
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(PhraseTableError, match=re.escape(str(path)) + ": cannot be read"):
        phrases_get(path=path, table="words")


def test_a_lay_term_pattern_that_does_not_compile_is_named(tmp_path):
    path = write(tmp_path, "lay_terms:\n  - pattern: '\\bbend\\b'\n    term: 'flexion'\n"
                           "  - pattern: '\\b(?:ringing|buzzing\\b'\n    term: 'tinnitus'\n")
    with pytest.raises(PhraseTableError, match=r"lay_terms\[1\]\.pattern: '\\\\b\(\?:ringing\|buzzing\\\\b' does not"):
        phrase_records_get(path=path, table="lay_terms", fields={"pattern": REGEX, "term": TEXT})
