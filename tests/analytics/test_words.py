"""Every finding kind reads in words wherever a person reads it."""

from __future__ import annotations

from cuelog.analytics.words import KIND_WORDS, kind_words
from cuelog.replay.model import FINDING_KINDS


def test_every_finding_kind_has_words_of_its_own():
    assert set(KIND_WORDS) == set(FINDING_KINDS)
    assert len(set(KIND_WORDS.values())) == len(KIND_WORDS)
    assert all("_" not in words for words in KIND_WORDS.values())


def test_a_kind_without_words_is_shown_as_its_code_in_words():
    assert kind_words("respot_in_error") == "ball spotted that had to stay off"
    assert kind_words("brand_new_kind") == "brand new kind"
