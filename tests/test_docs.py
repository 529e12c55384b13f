"""The format reference the code and docs cite exists, and nothing cites a file the project does not have."""

from __future__ import annotations

import re

from tests.conftest import ROOT

FORMAT = ROOT / "docs" / "format.md"
SOURCES = [
    p
    for pattern in ("cuelog/**/*.py", "cuelog/**/*.json", "cuelog/**/*.sql", "docs/*.md", "README.md", "tests/**/*.py")
    for p in sorted(ROOT.glob(pattern))
]


def test_no_source_cites_a_format_file_that_is_not_shipped():
    stale = "FORMAT" + ".md"  # spelt apart so that this file does not cite it
    assert not [str(p.relative_to(ROOT)) for p in SOURCES if stale in p.read_text(encoding="utf-8")]


def test_every_cited_section_of_docs_format_md_exists():
    headings = {int(m) for m in re.findall(r"^## (\d+)\. ", FORMAT.read_text(encoding="utf-8"), flags=re.M)}
    cited: set[int] = set()
    for p in SOURCES:
        text = p.read_text(encoding="utf-8")
        cited |= {int(n) for n in re.findall(r"docs/format\.md(?: section)? (\d+)", text)}
        cited |= {int(n) for n in re.findall(r'"FORMAT (\d+)"', text)}  # rule strings of invalid_record findings
    assert cited and cited <= headings, sorted(cited - headings)


def test_format_reference_says_what_a_format_citation_means():
    text = FORMAT.read_text(encoding="utf-8")
    assert "`rule` is `FORMAT n`" in text and "section n" in text
