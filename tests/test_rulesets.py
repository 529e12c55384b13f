"""Rulesets as data: ``cuelog rules list/show``, ruleset files, ``cuelog replay --rules``."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuelog.cli import app
from cuelog.replay import billiards, snooker
from cuelog.replay.params import BadParameter, override, parameters
from cuelog.replay.pool import eightball, nineball, straight_pool

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def ruleset_file(tmp_path: Path, text: str, name: str = "draft.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("edition_cls", [snooker.Edition, billiards.Edition, nineball.Edition, straight_pool.Edition])
def test_every_edition_field_carries_its_rule_and_meaning(edition_cls: type) -> None:
    names = [f.name for f in dataclasses.fields(edition_cls) if f.name != "name"]
    listed = parameters(edition_cls)
    assert [p.name for p in listed] == names
    assert all(p.rule and p.meaning for p in listed)


def test_parameters_of_an_edition_show_its_values_and_the_defaults() -> None:
    six = {p.name: p for p in parameters(snooker.EDITIONS["six-reds-2024"])}
    assert (six["reds"].default, six["reds"].value, six["reds"].rule) == (15, 6, "S3 R21(c)")
    assert (six["warn_after"].type, six["warn_after"].value) == ("int", 4)
    assert six["miss_cap"].type == "int | None" and six["miss_cap"].value == 5


def test_override_replaces_only_the_named_parameters() -> None:
    base = snooker.EDITIONS["wpbsa-2024"]
    draft = override(base, "draft", {"minimum": 5})
    assert draft.minimum == 5 and draft.name == "draft"
    assert dataclasses.replace(draft, name="wpbsa-2024", minimum=4) == base


@pytest.mark.parametrize(
    ("values", "key", "expected"),
    [
        ({"minimum": "5"}, "minimum", "int"),
        ({"minimum": True}, "minimum", "int"),
        ({"miss_rule": 1}, "miss_rule", "bool"),
        ({"minimun": 5}, "minimun", "minimum"),
    ],
)
def test_override_rejects_unknown_keys_and_wrong_types(values: dict[str, object], key: str, expected: str) -> None:
    with pytest.raises(BadParameter) as info:
        override(snooker.EDITIONS["wpbsa-2024"], "draft", values)
    assert info.value.key == key and expected in info.value.expected


def test_rules_list_json_names_every_ruleset_and_its_engine() -> None:
    result = runner.invoke(app, ["rules", "list", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["id"]: r for r in json.loads(result.stdout)["rulesets"]}
    assert rows["snooker/wpbsa-2024"]["engine"] is True
    assert rows["billiards/one-red"]["engine"] is True
    assert rows["snooker/wpbsa-2024"]["source"] == "WPBSA Official Rules, September 2024"


def test_rules_show_lists_name_type_default_value_meaning_rule() -> None:
    result = runner.invoke(app, ["rules", "show", "snooker/six-reds-2024", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    warn = next(p for p in doc["parameters"] if p["name"] == "warn_after")
    assert warn == {
        "name": "warn_after",
        "type": "int",
        "default": 2,
        "value": 4,
        "changed": True,
        "settable": True,
        "rule": "S3 R14(d)",
        "meaning": "Failures from the original position after which the Warning is given.",
    }
    human = runner.invoke(app, ["rules", "show", "billiards/one-red"])
    assert human.exit_code == 0 and "miss_is_foul" in human.stdout and "1R 2.11(15)" in human.stdout


def test_rules_show_of_a_ruleset_file_marks_the_changed_parameter(tmp_path: Path) -> None:
    text = (
        'name = "show-draft"\nbase = "snooker/wpbsa-2024"\ndescription = "five [b]minimum[/b]"\n[params]\nminimum = 5\n'
    )
    path = ruleset_file(tmp_path, text)
    doc = json.loads(runner.invoke(app, ["rules", "show", str(path), "--json"]).stdout)
    assert doc["id"] == "snooker/show-draft" and doc["base"] == "snooker/wpbsa-2024"
    assert doc["description"] == "five [b]minimum[/b]"
    assert [p["name"] for p in doc["parameters"] if p["changed"]] == ["minimum"]
    human = runner.invoke(app, ["rules", "show", str(path)], terminal_width=200).stdout
    assert "five [b]minimum[/b]" in human  # printed as written, not as markup
    assert "minimum: int = 5 (default 4; S3 R11)  * changed" in human


def test_ruleset_file_problems_name_file_line_key_and_choices(tmp_path: Path) -> None:
    path = ruleset_file(
        tmp_path,
        'name = "bad-draft"\nbase = "snooker/wpbsa-2024"\n\n[params]\nminimum = "five"\nwarn_afterr = 1\n',
    )
    result = runner.invoke(app, ["rules", "show", str(path), "--json"])
    assert result.exit_code == 2
    problems = json.loads(result.stdout)["problems"]
    assert [(p["file"], p["line"], p["field"], p["code"]) for p in problems] == [
        (str(path), 5, "params.minimum", "wrong_type"),
        (str(path), 6, "params.warn_afterr", "unknown_parameter"),
    ]
    assert problems[0]["expected"] == "int" and "warn_after" in problems[1]["expected"].split(", ")


@pytest.mark.parametrize(
    ("text", "field", "code"),
    [
        ('name = "x"\nbase = "snooker/nope"\n', "base", "unknown_base"),
        ('name = "wpbsa-2024"\nbase = "snooker/wpbsa-2024"\n', "name", "name_taken"),
        ('base = "snooker/wpbsa-2024"\n', "name", "missing_key"),
        ('name = "x"\nbase = "snooker/wpbsa-2024"\nbasis = 1\n', "basis", "unknown_key"),
        ('name = "x"\nbase = [', "", "bad_toml"),
    ],
)
def test_ruleset_file_top_level_problems(tmp_path: Path, text: str, field: str, code: str) -> None:
    result = runner.invoke(app, ["rules", "show", str(ruleset_file(tmp_path, text)), "--json"])
    assert result.exit_code == 2, result.output
    (problem,) = json.loads(result.stdout)["problems"]
    assert (problem["field"], problem["code"]) == (field, code)


def test_unknown_rules_argument_is_exit_2_with_the_choices() -> None:
    result = runner.invoke(app, ["rules", "show", "snooker/nope"])
    assert result.exit_code == 2 and "snooker/wpbsa-2024" in result.stderr


def test_replay_rules_file_replays_under_the_derived_ruleset(tmp_path: Path) -> None:
    path = ruleset_file(tmp_path, 'name = "replay-min5"\nbase = "snooker/wpbsa-2024"\n[params]\nminimum = 5\n')
    log = str(ROOT / "examples" / "snooker-officiating.jsonl")
    before = json.loads(runner.invoke(app, ["replay", log, "--json"]).stdout)
    after = json.loads(runner.invoke(app, ["replay", log, "--rules", str(path), "--json"]).stdout)
    assert after["matches"][0]["rules"] == "snooker/replay-min5"
    # The strokes are the same; only a rule's values changed, so no finding changes kind here.
    assert [f["kind"] for f in after["matches"][0]["frames"][0]["findings"]] == [
        f["kind"] for f in before["matches"][0]["frames"][0]["findings"]
    ]


def test_replay_rules_of_another_discipline_is_exit_2() -> None:
    log = str(ROOT / "examples" / "snooker-officiating.jsonl")
    result = runner.invoke(app, ["replay", log, "--rules", "billiards/wpbsa-2024"])
    assert result.exit_code == 2 and "another discipline" in result.stderr


def test_a_table_parameter_cannot_be_set_from_a_file(tmp_path: Path) -> None:
    fouls = next(p for p in parameters(billiards.EDITIONS["wpbsa-2024"]) if p.name == "fouls")
    assert fouls.type == "Mapping[str, str]" and not fouls.settable
    path = ruleset_file(tmp_path, 'name = "b-draft"\nbase = "billiards/wpbsa-2024"\n[params]\nfouls = {}\n')
    result = runner.invoke(app, ["rules", "show", str(path), "--json"])
    assert result.exit_code == 2
    (problem,) = json.loads(result.stdout)["problems"]
    assert (problem["line"], problem["field"], problem["code"]) == (4, "params.fouls", "wrong_type")
    assert "cannot be set" in problem["found"]


def test_eightball_edition_parameters_carry_their_rule_and_meaning() -> None:
    # The citation style and the lookup tables are not rules a ruleset file can change.
    names = [f.name for f in dataclasses.fields(eightball.Edition) if f.name not in {"name", "prefix", "fouls", "cite"}]
    listed = parameters(eightball.Edition)
    assert [p.name for p in listed] == names
    assert all(p.rule and p.meaning for p in listed)
    wpa = {p.name: p for p in parameters(eightball.EDITIONS["wpa"])}
    assert wpa["penalty"].value == "ball_in_hand" and wpa["penalty"].default == "two_visits"
    assert "WPA 3.9" in wpa["penalty"].rule


def test_a_ruleset_file_derives_an_eightball_ruleset(tmp_path: Path) -> None:
    # WE I(1): the time allowed for a shot, here a league's draft of 30 s instead of 60.
    path = ruleset_file(tmp_path, 'name = "league-30s"\nbase = "eightball/world-2015"\n[params]\nshot_clock_s = 30\n')
    doc = json.loads(runner.invoke(app, ["rules", "show", str(path), "--json"]).stdout)
    changed = {p["name"]: p["value"] for p in doc["parameters"] if p["changed"]}
    assert changed == {"shot_clock_s": 30.0}


@pytest.mark.parametrize(
    ("rules", "names"),
    [
        ("nineball/wpa", ["break_rails", "three_point_break", "push_out", "serious_fouls", "warning_required"]),
        (
            "straight-pool/wpa",
            [
                "standard_foul",
                "breaking_foul",
                "break_rails",
                "serious_fouls",
                "serious_penalty",
                "warning_required",
                "target",
            ],
        ),
    ],
)
def test_rules_show_lists_the_nineball_and_straight_pool_parameters(rules: str, names: list[str]) -> None:
    # WPA 2.3-2.8 and 4.3-4.11: the numbers of the pool rules that were literals before.
    result = runner.invoke(app, ["rules", "show", rules, "--json"])
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert [p["name"] for p in doc["parameters"]] == names
    assert all(p["rule"].startswith("WPA ") and p["meaning"] and p["settable"] for p in doc["parameters"])


def test_a_ruleset_file_derives_straight_pool_and_checks_its_keys(tmp_path: Path) -> None:
    # WPA 4.9, 4.11: a league that takes two points for a standard foul and ten more on the third.
    text = 'name = "league"\nbase = "straight-pool/wpa"\n[params]\nstandard_foul = 2\nserious_penalty = 10\n'
    doc = json.loads(runner.invoke(app, ["rules", "show", str(ruleset_file(tmp_path, text)), "--json"]).stdout)
    assert {p["name"]: p["value"] for p in doc["parameters"] if p["changed"]} == {
        "standard_foul": 2,
        "serious_penalty": 10,
    }
    bad = ruleset_file(tmp_path, 'name = "x"\nbase = "nineball/wpa"\n[params]\nthree_point = true\n', "bad.toml")
    result = runner.invoke(app, ["rules", "show", str(bad), "--json"])
    assert result.exit_code == 2
    (problem,) = json.loads(result.stdout)["problems"]
    assert (problem["line"], problem["field"], problem["code"]) == (4, "params.three_point", "unknown_parameter")
    assert "three_point_break" in problem["expected"]
