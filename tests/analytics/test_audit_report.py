"""``cuelog audit``: the audit report an official reads, prints and files.

The report is checked the way its reader would check it: the findings and the scores on
the page are the replay's, the page opened in a real browser makes no request and logs no
error, the PDF has a page for the summary and one per frame, a player's name that is
markup shows as text, and the same input dated the same gives the same bytes.
"""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cuelog.cli import app
from cuelog.ingest.reader import read_records
from cuelog.replay import replay_matches
from cuelog.replay.model import MatchResult
from tests.analytics import kit
from tests.conftest import EXAMPLES, ROOT

runner = CliRunner()
OFFICIATING = EXAMPLES / "snooker-officiating.jsonl"
AT = "2026-05-01T18:00:00Z"
EVIL = "<script>alert(1)</script>"


def seeds() -> Path | None:
    """The shared rule books (``shared/seeds`` beside the clone, or further up)."""
    for base in ROOT.parents:
        if (base / "shared" / "seeds").is_dir():
            return base / "shared" / "seeds"
    return None


def rulebook(name: str) -> Path:
    folder = seeds()
    if folder is None or not (folder / name).is_file():
        pytest.skip(f"the shared rule book {name} is not beside this checkout")
    return folder / name


WPBSA_2024 = "001_6c2190ea610341da.txt"
OLDER = "000_b95baf52282f7652.txt"
ONE_RED = "002_f24c1fcc91ac4ab2.txt"


class Page(HTMLParser):
    """Every element of a page with its attributes and its text, as a reader sees it."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str], list[str]]] = []
        self.open: list[int] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {k: v or "" for k, v in attrs}, []))
        if tag not in ("meta", "br", "img", "input", "link"):
            self.open.append(len(self.elements) - 1)

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            i = self.open.pop()
            if self.elements[i][0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for i in self.open:
            self.elements[i][2].append(data)

    def find(self, tag: str, cls: str | None = None) -> list[tuple[dict[str, str], str]]:
        return [
            (attrs, "".join(text))
            for t, attrs, text in self.elements
            if t == tag and (cls is None or cls in attrs.get("class", "").split())
        ]


def replayed(path: Path) -> list[MatchResult]:
    return replay_matches(r for _, r in read_records(path))


def audit(*args: str) -> Any:
    return runner.invoke(app, ["audit", *args])


def two_frames(match: str = "r1-two-frames", a: str = "Ann", b: str = "Bob", **extra: Any) -> kit.Log:
    """Two frames, each with a wrong penalty (blue hit first with a red on: 5 is due, 4 called)."""
    log = kit.Log(match, a, b, event="Spring Open", date="2026-04-30", referee="R. Ref", **extra)
    log.frame(breaker="A").stroke("A", ["red"], [], t="2026-04-30T19:00:01.000Z")
    log.stroke("B", ["blue"], [], call={"foul": True, "points": 4}, t="2026-04-30T19:00:31.500Z")
    log.stroke("A", ["red"], [], t="2026-04-30T19:01:02.000Z").end("A", reason="concede")
    log.frame(breaker="B").stroke("B", ["red"], [], t="2026-04-30T19:20:00.000Z")
    log.stroke("A", ["blue"], [], call={"foul": True, "points": 4}, t="2026-04-30T19:20:40.250Z")
    return log.stroke("B", ["red"], [], t="2026-04-30T19:21:10.000Z").end("B", reason="concede")


# -- what the page says ------------------------------------------------------------------------


def test_report_of_the_officiating_example_shows_the_replays_findings_and_scores(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = audit(str(OFFICIATING), "--out", str(out), "--at", AT)
    assert result.exit_code == 1, result.output  # the example has findings
    page = Page(out.read_text(encoding="utf-8"))
    (m,) = replayed(OFFICIATING)
    (fr,) = m.frames
    rows = page.find("tr", "finding")
    assert [(a["data-n"], a["data-kind"], a["data-points"]) for a, _ in rows] == [
        (str(f.n), f.kind, str(f.points)) for f in sorted(fr.findings, key=lambda f: f.sort_key())
    ]
    assert [text for _, text in page.find("td", "official")] == ["15-37"]
    assert [text for _, text in page.find("td", "recorded")] == ["15-34"]
    # Each finding beside the stroke's facts, the recorded calls and the due calls.
    first = page.find("tr", "why")[0][1]
    assert "first: pink" in first and "no foul called" in first and "foul, 6 points" in first
    head = page.find("header")[0][1]
    assert "snooker/wpbsa-2024" in head and "WPBSA Official Rules, September 2024" in head and AT in head
    assert "cuelog 0.1.0" in head
    # Events of the frame, so the reader sees the spot correction and the concession.
    assert [t for _, t in page.find("li")] == [
        "after stroke 8: spot correction (ball pink, spot pink)",
        "after stroke 15: concede (side A)",
    ]
    # Findings by kind, with the points they moved: kind, count, points run together as text.
    assert [t for _, t in page.find("table", "kinds")] == [
        "kindfindingspoints they movedcondoned_foul16penalty_value13respot_missing16"
    ]


def test_every_field_of_the_match_record_is_in_the_header(tmp_path: Path) -> None:
    log = two_frames(venue="Hall 2", table="3").write(tmp_path / "m.jsonl")
    out = tmp_path / "r.html"
    assert audit(str(log), "--out", str(out)).exit_code == 1
    head = Page(out.read_text(encoding="utf-8")).find("header")[0][1]
    for text in ("Spring Open", "2026-04-30", "Hall 2", "3", "R. Ref", "Ann v Bob", "r1-two-frames"):
        assert text in head
    # Not dated by the clock: by the last time the log records.
    assert "2026-04-30T19:21:10.000Z" in head


def test_the_default_date_is_the_last_instant_the_log_records_whatever_its_offset() -> None:
    from cuelog.analytics.audit_report import made_at
    from cuelog.schemas.records import Match, Stroke

    match = Match(
        format="cuelog/1", match="m", rules="snooker/wpbsa-2024", sides={"A": "a", "B": "b"}, date="2026-04-30"
    )
    late_in_utc = Stroke(frame=1, n=2, striker="B", first=[], potted=[], t="2026-04-30T19:30:00.000Z")
    late_on_the_clock = Stroke(frame=1, n=1, striker="A", first=[], potted=[], t="2026-04-30T21:00:00.000+02:00")
    assert made_at([late_on_the_clock, late_in_utc], match) == "2026-04-30T19:30:00.000Z"
    assert made_at([], match) == "2026-04-30"


def test_the_summary_counts_findings_by_kind_and_the_points_they_moved(tmp_path: Path) -> None:
    log = two_frames().write(tmp_path / "m.jsonl")
    out = tmp_path / "r.html"
    assert audit(str(log), "--out", str(out), "--at", AT).exit_code == 1
    page = Page(out.read_text(encoding="utf-8"))
    (m,) = replayed(log)
    kinds: dict[str, list[int]] = {}
    for fr in m.frames:
        for f in fr.findings:
            kinds.setdefault(f.kind, []).append(f.points)
    table = next(text for a, text in page.find("table") if "kinds" in a.get("class", ""))
    for kind, points in kinds.items():
        assert f"{kind}{len(points)}{sum(points)}" in table
    summary = next(a for a, _ in page.find("section") if a.get("id") == "summary")
    assert int(summary["data-findings"]) == sum(len(fr.findings) for fr in m.frames) > 0
    assert [a["data-frame"] for a, _ in page.find("section", "frame")] == ["1", "2"]


def test_one_frame_with_frame(tmp_path: Path) -> None:
    log = two_frames().write(tmp_path / "m.jsonl")
    out = tmp_path / "r.html"
    assert audit(str(log), "--out", str(out), "--frame", "2").exit_code == 1
    page = Page(out.read_text(encoding="utf-8"))
    assert [a["data-frame"] for a, _ in page.find("section", "frame")] == ["2"]
    missing = audit(str(log), "--out", str(out), "--frame", "7")
    assert missing.exit_code == 2 and "no frame 7" in missing.stderr and "frames: 1, 2" in missing.stderr


def test_the_worm_marks_each_finding_at_its_stroke(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    audit(str(OFFICIATING), "--out", str(out))
    page = Page(out.read_text(encoding="utf-8"))
    marks = [text for _, text in page.find("g", "mark")]
    assert [m.split(":")[0] for m in marks] == ["1", "2", "3"]
    assert "stroke 2, condoned_foul" in marks[0] and "stroke 7, respot_missing" in marks[2]
    assert len(page.find("polyline")) == 4  # official and recorded, each side


def test_corrections_applied_are_listed(tmp_path: Path) -> None:
    fixes = tmp_path / "fixes.jsonl"
    fixes.write_text(
        '{"match": "example-officiating", "frame": 1, "n": 2, "set": {"first": ["red"]}, "note": "video review"}\n',
        encoding="utf-8",
    )
    out = tmp_path / "r.html"
    result = audit(str(OFFICIATING), "--out", str(out), "--corrections", str(fixes))
    assert result.exit_code == 1, result.output
    page = Page(out.read_text(encoding="utf-8"))
    (row,) = [text for _, text in page.find("table", "corrections")[0:1]]
    assert "first = ['red']" in row and "video review" in row
    assert "2" not in [a["data-n"] for a, _ in page.find("tr", "finding")]


def test_uncertain_findings_are_listed_apart_with_what_would_excuse_them(tmp_path: Path) -> None:
    import msgspec

    from cuelog.analytics.audit_report import count_findings, render
    from cuelog.cli.audit_source import audit_from_records

    path = two_frames().write(tmp_path / "m.jsonl")
    audit_ = audit_from_records([r for _, r in read_records(path)], None)
    first = audit_.result.frames[0]
    doubt = msgspec.structs.replace(first.findings[0], certain=False, unless="the blue was the nominated free ball")
    first.findings = [doubt, *first.findings[1:]]
    page = Page(render(audit_, at=AT))
    rows = page.find("tr", "finding")
    assert [a["data-certain"] for a, _ in rows if a["data-n"] == str(doubt.n)][:1] == ["false"]
    assert "unless the blue was the nominated free ball" in "".join(t for _, t in page.find("p", "unless"))
    marks = [t for _, t in page.find("g", "mark")]
    assert sum("uncertain: unless the blue was the nominated free ball" in t for t in marks) == 1
    headings = [t for _, t in page.find("h3")]
    assert any(t.startswith("Uncertain findings (1)") for t in headings)
    total = sum(len(fr.findings) for fr in audit_.result.frames)
    assert count_findings(audit_) == total - 1
    summary = next(a for a, _ in page.find("section") if a.get("id") == "summary")
    assert (summary["data-findings"], summary["data-uncertain"]) == (str(total - 1), "1")


# -- safety ----------------------------------------------------------------------------------


def test_a_player_named_like_markup_is_shown_as_text(tmp_path: Path) -> None:
    log = two_frames(a=EVIL, b='"><img src=x onerror=alert(2)>', venue="<b>Hall</b>")
    path = log.write(tmp_path / "m.jsonl")
    out = tmp_path / "r.html"
    assert audit(str(path), "--out", str(out)).exit_code == 1
    text = out.read_text(encoding="utf-8")
    assert "<script" not in text and "<img" not in text and "<b>Hall" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    page = Page(text)
    assert EVIL in page.find("header")[0][1]
    assert not page.find("script") and not page.find("img")


# -- rule book -------------------------------------------------------------------------------


def test_rulebook_quotes_the_cited_paragraph_beside_the_finding(tmp_path: Path) -> None:
    book = rulebook(WPBSA_2024)
    out = tmp_path / "r.html"
    assert audit(str(OFFICIATING), "--out", str(out), "--rulebook", str(book)).exit_code == 1
    quotes = [text for _, text in Page(out.read_text(encoding="utf-8")).find("blockquote", "rule")]
    # S3 R11(b)(iv) twice (strokes 2 and 5), then S3 R7 (stroke 7).
    assert len(quotes) == 3
    assert "(b) Value of the ball on or ball concerned" in quotes[0]
    assert "(iv) causing the cue-ball to first hit a ball not on" in quotes[0]
    assert "(v) making a push stroke" not in quotes[0]
    assert "7. Spotting Colours" in quotes[2] and WPBSA_2024 in quotes[2]


def test_without_a_rulebook_no_rule_text_is_quoted(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    audit(str(OFFICIATING), "--out", str(out))
    page = Page(out.read_text(encoding="utf-8"))
    assert not page.find("blockquote")
    assert "none given" in page.find("header")[0][1]


def test_a_citation_the_rulebook_lacks_is_said_not_found(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("SNOOKER\n\nSECTION 1 EQUIPMENT\n\n1. Table\n\nA table.\n", encoding="utf-8")
    out = tmp_path / "r.html"
    audit(str(OFFICIATING), "--out", str(out), "--rulebook", str(book))
    missing = [text for _, text in Page(out.read_text(encoding="utf-8")).find("p", "rule-missing")]
    assert missing[0] == "S3 R11(b)(iv) was not found in book.txt."


def test_unreadable_rulebook_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "book.pdf"
    bad.write_bytes(b"%PDF-1.7\xff\xfe")
    result = audit(str(OFFICIATING), "--out", str(tmp_path / "r.html"), "--rulebook", str(bad))
    assert result.exit_code == 2 and "book.pdf" in result.stderr and "UTF-8 text" in result.stderr


# -- the rule-book locator, rule by rule ------------------------------------------------------


def test_wpbsa_s3_r10_i_is_the_paragraph_not_item_i_of_h() -> None:
    from cuelog.analytics.rulebook import RuleBook

    book = RuleBook.read(rulebook(WPBSA_2024))
    h = book.quote("S3 R10(h)", "snooker")
    i = book.quote("S3 R10(i)", "snooker")
    assert h is not None and i is not None
    assert h.text.startswith("(h) The player who committed the foul") and "(ii) has to play the next stroke" in h.text
    assert i.text.startswith("(i) If a striker fouls any ball") and "(iii) a colour of the striker" in i.text


def test_the_discipline_chooses_the_book_inside_one_file() -> None:
    from cuelog.analytics.rulebook import RuleBook

    book = RuleBook.read(rulebook(WPBSA_2024))
    snooker = book.quote("S3 R15", "snooker")
    billiards = book.quote("S3 R15(k)", "billiards")
    assert snooker is not None and snooker.heading == "15. Ball Moved by Other than Striker"
    assert billiards is not None and billiards.text == "(k) making more than fifteen consecutive hazards;"
    shootout = book.quote("SO 16", "snooker")
    assert shootout is not None and "time foul" in shootout.text


def test_runs_and_lists_of_paragraphs() -> None:
    from cuelog.analytics.rulebook import RuleBook

    book = RuleBook.read(rulebook(WPBSA_2024))
    run = book.quote("S3 R7(e)-(h)", "snooker")
    assert run is not None and [line[:3] for line in run.text.splitlines()] == ["(e)", "(f)", "(g)", "(h)"]
    both = book.quote("S3 R3(b),(d)", "snooker")
    assert both is not None and both.text.startswith("(b)") and "\n(d)" in both.text
    assert book.quote("S3 R99", "snooker") is None and book.quote("WPA 6.14", "snooker") is None


def test_the_older_book_numbers_its_items_without_indentation() -> None:
    from cuelog.analytics.rulebook import RuleBook

    book = RuleBook.read(rulebook(OLDER))
    q = book.quote("S3 R12(b)(iii)", "snooker")
    assert q is not None and q.text.endswith("(iii) causing a ball not on to enter a pocket;")


def test_snooker_one_red_clauses_and_their_numbered_items() -> None:
    from cuelog.analytics.rulebook import RuleBook

    book = RuleBook.read(rulebook(ONE_RED))
    miss = book.quote("1R 2.11(15)", "billiards")
    assert miss is not None and miss.heading == "2.11. Fines"
    assert miss.text == "(15) when the cue ball misses all object balls."
    touching = book.quote("1R 2.10", "billiards")
    assert touching is not None and "Touching ball!" in touching.text and "2.11" not in touching.text


# -- determinism and PDF ------------------------------------------------------------------------


def test_same_input_and_at_give_the_same_bytes(tmp_path: Path) -> None:
    log = two_frames().write(tmp_path / "m.jsonl")
    texts = []
    for name in ("a.html", "b.html"):
        audit(str(log), str(OFFICIATING), "--match", "r1-two-frames", "--out", str(tmp_path / name), "--at", AT)
        texts.append((tmp_path / name).read_bytes())
    assert texts[0] == texts[1]
    audit(str(OFFICIATING), str(log), "--match", "r1-two-frames", "--out", str(tmp_path / "c.html"), "--at", AT)
    assert (tmp_path / "c.html").read_bytes() == texts[0]  # file order does not matter
    audit(str(log), "--out", str(tmp_path / "d.html"), "--at", "2026-06-01")
    assert (tmp_path / "d.html").read_bytes() != texts[0]


def test_pdf_has_the_summary_then_a_page_per_frame_and_the_same_bytes(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        pytest.skip(f"WeasyPrint cannot run here: {exc}")
    log = two_frames().write(tmp_path / "m.jsonl")
    for name in ("a", "b"):
        result = audit(
            str(log), "--out", str(tmp_path / f"{name}.html"), "--pdf", str(tmp_path / f"{name}.pdf"), "--at", AT
        )
        assert result.exit_code == 1, result.output
    reader = pypdf.PdfReader(tmp_path / "a.pdf")
    pages = [p.extract_text() for p in reader.pages]
    assert len(pages) == 3
    assert pages[0].startswith("Audit report") and "Summary" in pages[0]
    assert pages[1].startswith("Frame 1") and pages[2].startswith("Frame 2")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    official = (tmp_path / "a.pdf").stat().st_size
    letter = audit(str(log), "--out", str(tmp_path / "l.html"), "--pdf", str(tmp_path / "l.pdf"), "--paper", "letter")
    assert letter.exit_code == 1 and official > 0
    box = pypdf.PdfReader(tmp_path / "l.pdf").pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)  # US Letter, in points
    a4 = reader.pages[0].mediabox
    assert (round(float(a4.width)), round(float(a4.height))) == (595, 842)


def test_a_long_findings_table_repeats_its_header_on_every_printed_page(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        pytest.skip(f"WeasyPrint cannot run here: {exc}")
    log = kit.Log("r2-many-fouls", "Ann", "Bob").frame(breaker="A")
    for _ in range(20):  # blue first with a red on: 5 is due (S3 R11(b)), 4 called, each time
        log.stroke("A", ["red"], []).stroke("B", ["blue"], [], call={"foul": True, "points": 4})
    path = log.write(tmp_path / "m.jsonl")
    audit(str(path), "--out", str(tmp_path / "r.html"), "--pdf", str(tmp_path / "r.pdf"))
    pages = [p.extract_text() for p in pypdf.PdfReader(tmp_path / "r.pdf").pages]
    assert len(pages) > 3 and pages[1].startswith("Frame 1")
    for text in pages[2:]:
        assert text.startswith("# stroke time striker kind rule side points finding")


def test_pdf_without_weasyprint_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "weasyprint", None)  # import weasyprint fails
    result = audit(str(OFFICIATING), "--out", str(tmp_path / "r.html"), "--pdf", str(tmp_path / "r.pdf"))
    assert result.exit_code == 2
    assert "pip install 'cuelog[pdf]'" in result.stderr
    assert not (tmp_path / "r.pdf").exists() and not (tmp_path / "r.html").exists()  # nothing half done


# -- bad input -----------------------------------------------------------------------------------


def test_bad_input_is_exit_2_with_the_file_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(OFFICIATING.read_text(encoding="utf-8").replace('"striker": "B"', '"striker": 7', 1))
    result = audit(str(bad), "--out", str(tmp_path / "r.html"))
    assert result.exit_code == 2 and "bad.jsonl" in result.stderr and "striker" in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--at", "yesterday"], "expected an ISO 8601 date"),
        (["--paper", "a3"], "expected a4 or letter"),
        (["--match", "nope"], "no match 'nope' in the logs"),
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    result = audit(str(OFFICIATING), "--out", str(tmp_path / "r.html"), *args)
    assert result.exit_code == 2 and says in result.stderr


def test_errors_as_json_carry_their_stable_codes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    def code(*args: str) -> str:
        result = audit(*args, "--json")
        assert result.exit_code == 2, result.output
        return str(json.loads(result.stdout)["error"]["code"])

    out = str(tmp_path / "r.html")
    assert code(str(OFFICIATING), "--out", out, "--match", "nope") == "unknown_match"
    assert code(str(OFFICIATING), "--out", out, "--frame", "9") == "bad_selection"
    assert code("--db", str(tmp_path / "none.duckdb"), "--match", "m", "--out", out) == "no_database"
    monkeypatch.setitem(__import__("sys").modules, "weasyprint", None)
    assert code(str(OFFICIATING), "--out", out, "--pdf", str(tmp_path / "r.pdf")) == "pdf_unavailable"


def test_several_matches_need_match(tmp_path: Path) -> None:
    result = audit(str(EXAMPLES), "--out", str(tmp_path / "r.html"))
    assert result.exit_code == 2 and "name one with --match" in result.stderr


# -- from the database ---------------------------------------------------------------------------


def test_from_the_database_the_same_report_as_from_the_file(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    assert runner.invoke(app, ["ingest", str(OFFICIATING), "--db", str(db)]).exit_code == 0
    fixes = tmp_path / "fixes.jsonl"
    fixes.write_text('{"match": "example-officiating", "frame": 1, "n": 5, "set": {"first": ["red"]}}\n')
    replay = runner.invoke(app, ["replay", "--db", str(db), "--corrections", str(fixes)])
    assert replay.exit_code == 1, replay.output
    from_db = tmp_path / "db.html"
    result = audit("--db", str(db), "--match", "example-officiating", "--out", str(from_db), "--at", AT, "--json")
    assert result.exit_code == 1, result.output
    assert '"findings": 2' in result.stdout
    from_file = tmp_path / "file.html"
    audit(str(OFFICIATING), "--corrections", str(fixes), "--out", str(from_file), "--at", AT)
    # The corrections stored with the last replay are applied again: the same report.
    assert from_db.read_bytes() == from_file.read_bytes()
    unknown = audit("--db", str(db), "--match", "nope", "--out", str(tmp_path / "x.html"))
    assert unknown.exit_code == 2 and "no loaded match 'nope'" in unknown.stderr


# -- in a real browser ---------------------------------------------------------------------------


@pytest.fixture
def browser() -> Any:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def open_page(browser: Any, path: Path, width: int, height: int) -> tuple[Any, dict[str, list[str]]]:
    seen: dict[str, list[str]] = {"requests": [], "errors": [], "dialogs": []}
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("request", lambda r: seen["requests"].append(r.url))
    page.on("console", lambda m: seen["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    page.on("dialog", lambda d: (seen["dialogs"].append(d.message), d.dismiss()))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, seen


def test_in_chromium_the_page_shows_the_replay_offline_at_phone_and_desktop_widths(
    browser: Any, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    book = seeds()
    extra = ["--rulebook", str(book / WPBSA_2024)] if book else []
    audit(str(OFFICIATING), "--out", str(out), "--at", AT, *extra)
    (m,) = replayed(OFFICIATING)
    for width, height in ((390, 844), (1280, 900)):
        page, seen = open_page(browser, out, width, height)
        assert seen["requests"] == [out.as_uri()]  # nothing but the file itself
        assert seen["errors"] == []
        assert page.locator("tr.finding").count() == sum(len(fr.findings) for fr in m.frames) == 3
        for fr in m.frames:
            row = page.locator(f"table.frames tr[data-frame='{fr.frame}']")
            assert row.locator("td.official").inner_text() == f"{fr.score[0]}-{fr.score[1]}"
            assert row.locator("td.recorded").inner_text() == f"{fr.recorded[0]}-{fr.recorded[1]}"  # type: ignore[index]
        # Readable without scrolling sideways, the worm drawn at the page's width.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.locator("svg.worm").bounding_box()["width"] > width * 0.7
        shot = tmp_path / f"report-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000
        page.close()


def test_in_chromium_markup_in_a_name_runs_nothing(browser: Any, tmp_path: Path) -> None:
    path = two_frames(a=EVIL, b='"><img src=x onerror=alert(2)>').write(tmp_path / "m.jsonl")
    out = tmp_path / "r.html"
    audit(str(path), "--out", str(out))
    page, seen = open_page(browser, out, 1280, 900)
    assert seen["dialogs"] == [] and seen["errors"] == [] and seen["requests"] == [out.as_uri()]
    assert page.locator("script").count() == 0 and page.locator("img").count() == 0
    assert EVIL in page.locator("header").inner_text()
    page.close()
