"""`gm werewolf rules`: the deck in play explained to a new table, `play --teach`, and every ruling
an error or the code cites, looked up in every pack's language."""

import json
import re
import sys

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.text.rulings import RULING_ID, ruling_ids, rulings
from voices import LANGUAGES
from paths import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, ["werewolf", *args], input=input, env={"GM_SPEECH": "off"})


def cited_ids():
    """Every ruling id named in gm/, scorer/ and voices/ (refusals, code, packs)."""
    found = set()
    for folder in ("gm", "scorer", "voices"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".toml") and "rulings" not in path.parts:
                found |= set(RULING_ID.findall(path.read_text(encoding="utf-8")))
    return sorted(found)


def test_the_code_cites_rulings():
    assert {"HW-R1", "HW-R4", "HU-R6", "SS-R5"} <= set(cited_ids())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("ruling_id", cited_ids())
def test_every_cited_ruling_can_be_looked_up(ruling_id, lang):
    result = run("rules", ruling_id, "--lang", lang)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(ruling_id) and len(lines) == 3
    data = json.loads(run("rules", ruling_id, "--lang", lang, "--json").stdout)
    assert data["id"] == ruling_id and data["lang"] == lang
    assert data["text"] in result.stdout and data["book"] in lines[2]


def test_each_language_has_every_ruling_in_its_own_words_and_one_book_sentence():
    folder = ROOT / "voices" / "rulings"
    book = tomllib.loads((folder / "book.toml").read_text(encoding="utf-8"))
    for lang in LANGUAGES:
        table = tomllib.loads((folder / f"{lang}.toml").read_text(encoding="utf-8"))
        assert list(table) == list(book) == list(ruling_ids())
        assert all(set(entry) == {"title", "text"} and entry["title"] and entry["text"] for entry in table.values())
    english = {r.id: r.text for r in rulings("en")}
    for lang in ("ja", "ko"):
        assert all(r.text != english[r.id] and r.book == book[r.id] for r in rulings(lang))
    assert all(re.search(r"[ぁ-んァ-ン一-龯]", sentence) for sentence in book.values())  # the book's own words


def test_a_ruling_is_found_in_any_case_and_in_full_width_letters():
    assert run("rules", "ｈｗ-ｒ４").stdout == run("rules", "HW-R4").stdout != ""


def test_an_unknown_ruling_is_one_line_naming_it_in_the_chosen_language():
    result = run("rules", "HW-R99", "--lang", "ja")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("gm: 「HW-R99」という裁定はありません") and len(result.stderr.splitlines()) == 1


def lesson(*args):
    result = run("rules", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_four_player_deck_is_taught_card_by_card_with_the_four_player_rules():
    data = lesson("--players", "4")
    keys = [line["key"] for line in data["lines"]]
    assert data["cards"] == {"villager": 6, "werewolf": 1, "traitor": 1, "seer": 1}
    assert keys == ["werewolf.teach.setup", "werewolf.teach.morning", "werewolf.teach.cards.villager",
                    "werewolf.teach.cards.werewolf", "werewolf.teach.cards.traitor",
                    "werewolf.teach.traitor_werewolf", "werewolf.teach.cards.seer_four",
                    "werewolf.teach.day", "werewolf.teach.vote", "werewolf.teach.four_players"]
    assert data["lines"][0]["text"] == "Two cards each, and 1 card in the graveyard."


@pytest.mark.parametrize("options", [
    ["--players", "5"], ["--players", "6", "--variant", "magician", "--with", "gorilla,angel,apprentice"],
    ["--players", "6", "--variant", "dead"], ["--players", "4", "--with", "ゴリラ"],
])
def test_every_card_in_play_and_only_those_is_explained(options):
    data = lesson(*options)
    taught = {line["key"].rsplit(".", 1)[1].removesuffix("_four") for line in data["lines"] if ".cards." in line["key"]}
    assert taught == set(data["cards"])
    assert "werewolf.teach.four_players" not in [line["key"] for line in data["lines"]] or options[1] == "4"


def test_the_players_names_count_as_the_player_count():
    assert lesson("--players", "Aki,Ken,Mio,Sora,Ren") == lesson("--players", "5")


@pytest.mark.parametrize(("lang", "said"), [
    ("ja", "ただし、4人プレイ時に裏切り人狼が登場した場合、そのプレイヤーは投票権を持ちます。"),
    ("ko", "배신자 늑대인간은 투표합니다"),
])
def test_the_four_player_lesson_says_a_traitor_werewolf_votes(lang, said):
    # ※4人プレイ時に裏切り人狼が登場した場合、そのプレイヤーは投票権を持つ: taught with the rule that
    # the traitor has no vote, in the rulebook's own sentence in Japanese
    lines = lesson("--players", "4", "--lang", lang)["lines"]
    four = [line["text"] for line in lines if line["key"] == "werewolf.teach.four_players"]
    assert len(four) == 1 and said in four[0]


def test_japanese_lesson_uses_the_books_words():
    text = " ".join(line["text"] for line in lesson("--players", "6", "--variant", "dead", "--lang", "ja")["lines"])
    for word in ("墓地", "人狼陣営", "死者陣営", "生者陣営", "決選投票", "処刑", "何の能力も持ちません"):
        assert word in text


def test_a_deck_the_rules_refuse_is_refused_and_no_deck_at_all_says_what_to_give():
    result = run("rules", "--players", "4", "--variant", "dead")
    assert result.exit_code == 2 and "HW-R1" in result.stderr
    result = run("rules")
    assert result.exit_code == 2 and "--players" in result.stderr and result.stdout == ""


def test_play_teach_explains_the_deck_before_the_deal(tmp_path):
    night = "\n\n\n\n3\n0\n0\n0\n0\n\nwerewolf villager\nKen\nno\n"
    # the default discussion, whose 3 minutes the lesson names
    args = ["play", "--players", "Aki,Ken,Mio,Sora", "--time-scale", "0.001", "--listen", "off",
            "--log", str(tmp_path / "n.jsonl")]
    taught_run, plain_run = run(*args, "--teach", input=night), run(*args, input=night)
    assert taught_run.exit_code == plain_run.exit_code == 0, taught_run.output
    taught, plain = taught_run.stdout.splitlines(), plain_run.stdout.splitlines()
    lesson_text = [line["text"] for line in lesson("--players", "4")["lines"]]
    assert taught[:len(lesson_text)] == lesson_text
    assert taught[len(lesson_text)] == plain[0] and plain[0].startswith("Half Werewolf for 4 players")
