"""Find the paragraph a finding cites in the rule book the user holds.

cuelog ships no rule-book text. The audit report is given the official text as a plain
text file (``--rulebook FILE``) and quotes, beside each finding, the paragraph its
citation names. Citations follow the WPBSA layout: ``S3 R11(b)(iv)`` is Section 3,
Rule 11, paragraph (b), item (iv); ``S3 R7(e)-(h)`` a run of paragraphs; ``S3 R3(b),(d)``
two of them; ``SO 16`` rule 16 of the Snooker Shootout Competition Rules; ``1R 2.11(15)`` item (15)
of clause 2.11 of "Snooker - 1 Red". One file may
hold several books (the WPBSA book holds snooker, the shootout and English billiards):
the book is chosen by the match's discipline, the nearest heading naming it.

A citation the text does not hold gives no quote (the report says so); nothing is guessed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cuelog.errors import CuelogError

# "SECTION 3 THE GAME", "SECTION 3. THE GAME"; index lines (tab separated) are not headings.
_SECTION = re.compile(r"^SECTION\s+(\d+)\.?\s+\S")
_CITATION = re.compile(r"^S(\d+)\s+R(\d+)\s*(.*)$")
_SHOOTOUT = re.compile(r"^SO\s+(\d+)\s*(.*)$")
_ONE_RED = re.compile(r"^1R\s+(\d+(?:\.\d+)+)\s*(.*)$")
_DOTTED = re.compile(r"^\s*(\d+(?:\.\d+)+)\.?\s")
_ITEM = re.compile(r"^\s*(?:-\s*)?\((\d+)\)")
_MARK = re.compile(r"^(\s*)(?:-\s*)?\(([a-zA-Z]+)\)")
_ROMANS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv")
_DISCIPLINES = ("BILLIARDS", "SNOOKER")


class RuleBookError(CuelogError):
    """A rule-book file that cannot be read as text."""


@dataclass(frozen=True, slots=True)
class Quote:
    """The text of a cited paragraph, with the rule's heading and the file it came from."""

    citation: str
    heading: str
    text: str
    source: str


@dataclass(frozen=True, slots=True)
class _Span:
    start: int
    end: int


def _rule_start(number: int) -> re.Pattern[str]:
    return re.compile(rf"^\s*(?:-\s*)?{number}\.\s+\S")


def _clean(line: str) -> str:
    # The published text marks defined terms in italics (*term*); the quote shows plain words.
    return re.sub(r"\s+", " ", line.replace("*", "")).strip(" -")


def _markers(tail: str) -> list[list[str]]:
    """The paragraph paths a citation's tail names: ``(b)(iv)`` -> [[b, iv]];
    ``(e)-(h)`` -> [[e], [f], [g], [h]]; ``(b),(d)`` -> [[b], [d]]."""
    paths: list[list[str]] = []
    for part in tail.split(","):
        part = part.strip()
        if "-" in part:
            lo, _, hi = part.partition("-")
            a, b = lo.strip(" ()"), hi.strip(" ()")
            if len(a) == 1 and len(b) == 1 and a <= b:
                paths.extend([[chr(c)] for c in range(ord(a), ord(b) + 1)])
                continue
        found = re.findall(r"\(([a-z]+|\d+)\)", part)
        if found:
            paths.append(found)
    return paths or [[]]


class RuleBook:
    """A rule book's text, searched by citation."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.splitlines()
        self.source = source
        self._books = list(self._split_books())

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> RuleBook:
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RuleBookError(f"cannot read rule book {p}: {exc}; expected a UTF-8 text file") from None
        return cls(text, p.name)

    # -- books and sections ------------------------------------------------------------

    def _headings(self) -> Iterator[tuple[int, int]]:
        for i, line in enumerate(self.lines):
            m = _SECTION.match(line)
            if m and "\t" not in line:
                yield i, int(m.group(1))

    def _split_books(self) -> Iterator[tuple[str, dict[int, _Span]]]:
        """Each book in the text: its discipline and where each of its sections lies.
        A book starts where section numbering starts again at 1."""
        books: list[list[tuple[int, int]]] = []
        for i, number in self._headings():
            if not books or (number == 1 and books[-1][-1][1] != 1):
                books.append([])
            if not books[-1] or books[-1][-1][1] != number:  # a running page header repeats the number
                books[-1].append((i, number))
        for k, heads in enumerate(books):
            end = books[k + 1][0][0] if k + 1 < len(books) else len(self.lines)
            sections: dict[int, _Span] = {}
            for j, (i, number) in enumerate(heads):
                sections.setdefault(number, _Span(i, heads[j + 1][0] if j + 1 < len(heads) else end))
            yield self._discipline_before(heads[0][0]), sections

    def _discipline_before(self, line: int) -> str:
        for i in range(line, -1, -1):
            for word in _DISCIPLINES:
                if word in self.lines[i]:
                    return word.lower()
        return ""

    # -- finding a citation ------------------------------------------------------------

    def quote(self, citation: str, discipline: str) -> Quote | None:
        """The paragraph(s) ``citation`` names in the book of ``discipline``, or None."""
        m = _CITATION.match(citation.strip())
        if m:
            span = self._rule(discipline, int(m.group(1)), int(m.group(2)))
            return self._quote(citation, span, m.group(3))
        m = _SHOOTOUT.match(citation.strip())
        if m:
            return self._quote(citation, self._shootout(int(m.group(1))), m.group(2))
        m = _ONE_RED.match(citation.strip())
        if m:
            return self._quote(citation, self._one_red(m.group(1)), m.group(2))
        return None

    def _rule(self, discipline: str, section: int, rule: int) -> _Span | None:
        for name, sections in self._books:
            if name == discipline and section in sections:
                return self._numbered(sections[section], rule)
        return None

    def _numbered(self, within: _Span, number: int) -> _Span | None:
        start = next((i for i in range(within.start, within.end) if _rule_start(number).match(self.lines[i])), None)
        if start is None:
            return None
        nxt = _rule_start(number + 1)
        end = next((i for i in range(start + 1, within.end) if nxt.match(self.lines[i])), within.end)
        return _Span(start, end)

    def _shootout(self, number: int) -> _Span | None:
        start = next(
            (i for i, line in enumerate(self.lines) if "SHOOTOUT" in line and "\t" not in line and line.isupper()),
            None,
        )
        if start is None:
            return None
        end = next((i for i, _ in self._headings() if i > start), len(self.lines))
        return self._numbered(_Span(start, end), number)

    def _one_red(self, number: str) -> _Span | None:
        """Clause ``number`` (``2.11``) of the rules of "Snooker - 1 Red", which follow the
        first mention of that game; the clause ends at the next clause not inside it."""
        begin = next((i for i, line in enumerate(self.lines) if "snooker - 1 red" in line.lower()), None)
        if begin is None:
            return None
        start = next((i for i in range(begin, len(self.lines)) if self._clause(i) == number), None)
        if start is None:
            return None
        end = next(
            (i for i in range(start + 1, len(self.lines)) if (c := self._clause(i)) and not c.startswith(number + ".")),
            len(self.lines),
        )
        return _Span(start, end)

    def _clause(self, i: int) -> str:
        m = _DOTTED.match(self.lines[i])
        return m.group(1) if m else ""

    def _quote(self, citation: str, span: _Span | None, tail: str) -> Quote | None:
        if span is None:
            return None
        heading = _clean(self.lines[span.start])
        parts = [self._paragraph(span, path) for path in _markers(tail)]
        if any(p is None for p in parts):
            return None
        # A numbered rule that is one paragraph ("16. Failure to commence ...") is its own heading.
        text = "\n".join(p for p in parts if p) or heading
        return Quote(citation=citation, heading=heading, text=text, source=self.source)

    def _paragraph(self, rule: _Span, path: list[str]) -> str | None:
        """The text of paragraph ``path`` (letter, then roman item) inside a rule."""
        # Running page headers ("SECTION 3 • SNOOKER") fall inside rules: they are not rule text.
        body = [
            i for i in range(rule.start + 1, rule.end) if self.lines[i].strip() and not _SECTION.match(self.lines[i])
        ]
        if path and path[0].isdigit():
            return self._item(body, path[0])
        letters = self._paragraphs(body)
        if not path:
            # A whole rule is cited: its opening words, and which paragraphs follow (quoting
            # every paragraph of a long rule beside each finding would bury the finding).
            intro = [i for i in body if not letters or i < letters[0][1][0]]
            text = [_clean(self.lines[i]) for i in intro]
            if letters:
                text.append(f"[paragraphs ({letters[0][0]}) to ({letters[-1][0]}) follow]")
            return "\n".join(text)
        letter = next((p for p in letters if p[0] == path[0]), None)
        if letter is None:
            return None
        _, lines, items = letter
        if len(path) == 1:
            every = sorted([*lines, *(i for _, item in items for i in item)])
            return "\n".join(_clean(self.lines[i]) for i in every)
        item = next((it for it in items if it[0] == path[1]), None)
        if item is None:
            return None
        return "\n".join([_clean(self.lines[lines[0]]), *(_clean(self.lines[i]) for i in item[1])])

    def _item(self, body: list[int], number: str) -> str | None:
        """Numbered item ``(15)`` of a clause, up to the next numbered item."""
        marks = [(i, m.group(1)) for i in body if (m := _ITEM.match(self.lines[i]))]
        for k, (i, mark) in enumerate(marks):
            if mark == number:
                end = marks[k + 1][0] if k + 1 < len(marks) else body[-1] + 1
                return "\n".join(_clean(self.lines[j]) for j in body if i <= j < end)
        return None

    def _paragraphs(self, body: list[int]) -> list[tuple[str, list[int], list[tuple[str, list[int]]]]]:
        """Split a rule's lines into lettered paragraphs, each with its roman items.

        ``(i)`` is both a letter and a numeral: an indented marker, or one that continues
        the items of the current paragraph, is an item; the next letter at the margin is a
        paragraph."""
        letters: list[tuple[str, list[int], list[tuple[str, list[int]]]]] = []
        for i in body:
            items = letters[-1][2] if letters else []
            next_item = _ROMANS[len(items)] if len(items) < len(_ROMANS) else ""
            next_letter = chr(ord(letters[-1][0]) + 1) if letters else "a"
            m = _MARK.match(self.lines[i])
            mark = m.group(2) if m else ""
            if mark == "I" and next_letter == "l":  # the scanned text reads paragraph (l) as (I)
                mark = "l"
            if m is None or not mark.islower():
                if letters:
                    (items[-1][1] if items else letters[-1][1]).append(i)
                continue
            indented = bool(m.group(1))
            opens_items = not items and bool(letters) and self.lines[letters[-1][1][-1]].rstrip().endswith((":", "by"))
            if letters and mark == next_item and (indented or mark != next_letter or opens_items):
                items.append((mark, [i]))
            elif mark == next_letter or not letters:
                letters.append((mark, [i], []))
            else:
                (items[-1][1] if items else letters[-1][1]).append(i)
        return letters
