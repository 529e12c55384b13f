"""Each match's JSON text in the replay document is what ``json.dumps(..., indent=1,
ensure_ascii=False)`` writes, whichever encoder wrote it: names, messages and corrected
values of any kind, byte for byte."""

from __future__ import annotations

import json

from cuelog.replay.model import Finding, MatchResult
from cuelog.replay.output import document, document_head, document_tail, dumps, match_doc, match_text
from cuelog.schemas.records import Correction
from tests.analytics import outcomes as o

ODD = 'Zoë "Z" O\'Neil \\ \u2028 \x7f \x01 \t tab\n</script> 斯诺克 😀'


def by_json(doc: dict[str, object], first: bool) -> str:
    text = json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False)
    return ("\n" if first else ",\n") + "\n".join("  " + line for line in text.split("\n"))


def odd_match(match_id: str) -> MatchResult:
    finding = Finding(
        n=2, kind="missed_foul", rule="S3 R10", side="B", points=4, message=ODD, certain=False, unless=ODD
    )
    frame = o.frame(1, [o.S("A", scored=1), o.S("B", penalty=4, miss=True), o.S("A")], [finding])
    result = o.match(match_id, "snooker/wpbsa-2024", ODD, "Bob", frame, o.frame(2, []))
    result.findings = [finding]
    return result


def test_a_match_text_is_what_json_dumps_writes() -> None:
    plain = odd_match("m1 " + ODD)
    corrected = odd_match("m2")
    corrected.corrections = [
        Correction(match="m2", frame=1, n=2, set={"points": 1e16, "shot_s": 0.1, "note": ODD, "nothing": None}),
    ]
    for first in (True, False):
        for m in (plain, corrected):
            assert match_text(m, first=first) == by_json(match_doc(m), first)


def test_the_streamed_document_is_the_whole_document() -> None:
    results = [odd_match("a"), odd_match("b")]
    streamed = document_head("x") + "".join(match_text(m, first=i == 0) for i, m in enumerate(results))
    assert streamed + document_tail(empty=False) == dumps(document(results, "x"))
    assert document_head("x") + document_tail(empty=True) == dumps(document([], "x"))
