"""`gm voice say TEXT --to WAV` read without Typer (gm.launch): the same file, report and errors as the full
command line."""

import json
import sys

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

import gm.cli
from gm import launch
from gm.speech import say as say_module
from gm.speech.say import Said

runner = CliRunner()


def run_quick(monkeypatch, capsys, args):
    """`gm ARGS` through gm.launch; returns (stdout, stderr, exit code, whether gm.cli was needed)."""
    needed = []
    real_cli = gm.cli.main

    def full_command_line():
        needed.append(True)
        real_cli()

    monkeypatch.setattr(gm.cli, "main", full_command_line)
    monkeypatch.setattr(sys, "argv", ["gm", *args])
    code = 0
    try:
        launch.main()
    except SystemExit as end:
        code = end.code if isinstance(end.code, int) else 1
    out, err = capsys.readouterr()
    return out, err, code, bool(needed)


@pytest.mark.parametrize("args, expected", [
    (["Hello.", "--to", "a.wav"], {"text": "Hello.", "--to": "a.wav"}),
    (["--to=a.wav", "--rate", "180", "Hi", "--json"], {"text": "Hi", "--to": "a.wav", "--rate": "180", "--json": True}),
    (["Hi", "--to", "a.wav", "--lang", "ja", "--voice", "openjtalk", "--volume", "0.5"],
     {"text": "Hi", "--to": "a.wav", "--lang": "ja", "--voice": "openjtalk", "--volume": "0.5"}),
])
def test_a_plain_call_is_read(args, expected):
    assert launch.say_call(args) == expected


@pytest.mark.parametrize("args", [
    ["Hello."],  # no --to: it is played, which the full command line does
    ["Hello.", "there", "--to", "a.wav"],  # two texts
    ["--to", "a.wav"],  # no text (the greeting)
    ["Hello.", "--to", "a.wav", "--help"],
    ["Hello.", "--to", "a.wav", "--to", "b.wav"],  # an option twice
    ["Hello.", "--to", "a.wav", "--json", "--json"],
    ["Hello.", "--to"],  # an option without its value
    ["Hello.", "--to", "--json"],
    ["-5 votes", "--to", "a.wav"],  # a text that looks like an option
    ["--", "Hello.", "--to", "a.wav"],
    ["Hello.", "--to", "a.wav", "--speed", "3"],  # an unknown option
    ["Hello.", "--to", "a.wav", "--json=yes"],
])
def test_anything_else_is_left_to_the_full_command_line(args):
    assert launch.say_call(args) is None


@pytest.mark.espeak
@pytest.mark.parametrize("extra", [[], ["--json"], ["--rate", "200", "--volume", "0.5"]])
def test_the_quick_way_writes_the_same_file_and_report(engine, monkeypatch, capsys, tmp_path, extra):
    quick, full = tmp_path / "quick.wav", tmp_path / "full.wav"
    args = ["voice", "say", "Ken has 5 votes.", "--to"]
    out, err, code, needed = run_quick(monkeypatch, capsys, [*args, str(quick), *extra])
    result = runner.invoke(gm.cli.app, [*args, str(full), *extra])
    assert (code, needed, err) == (0, False, "")
    assert result.exit_code == 0
    assert out == result.stdout.replace(str(full), str(quick))
    assert quick.read_bytes() == full.read_bytes() and quick.stat().st_size > 1000
    if extra == ["--json"]:
        assert json.loads(out)["file"] == str(quick)


@pytest.mark.espeak
@pytest.mark.parametrize("bad, message", [
    (["--rate", "20"], "--rate: must be 80–400 words per minute, not 20"),
    (["--lang", "xx"], "no voice pack for language 'xx' (have: en, ja, ko)"),
    (["--voice", "nobody"], "no voice 'nobody': `gm voice list` shows the voices found"),
])
def test_bad_input_is_reported_by_the_full_command_line_and_writes_nothing(engine, monkeypatch, capsys, tmp_path,
                                                                          bad, message):
    out = tmp_path / "x.wav"
    stdout, err, code, needed = run_quick(monkeypatch, capsys, ["voice", "say", "Hi.", "--to", str(out), *bad])
    assert (code, needed, stdout) == (2, True, "")
    assert err.startswith("gm: ") and err.endswith(f"{message}\n") and err.count("\n") == 1
    assert not out.exists()


@pytest.mark.espeak
def test_a_text_with_nothing_to_say_is_one_line_and_no_file(engine, monkeypatch, capsys, tmp_path):
    out = tmp_path / "x.wav"
    stdout, err, code, needed = run_quick(monkeypatch, capsys, ["voice", "say", "...", "--to", str(out)])
    assert (code, needed) == (2, True) and err.count("\n") == 1 and "nothing to say" in err
    assert not out.exists()


_OPTIONS = [("--rate", "150"), ("--rate", "20"), ("--rate=x",), ("--rate=95",), ("--lang", "en"), ("--lang", "zz"),
            ("--voice", "slt"), ("--volume", "0.5"), ("--volume", "2"), ("--json",)]
_ODD = [("--to=b.wav",), ("--help",), ("--",), ("-x",), ("",), ("Hello.",), ("--volume",)]
_CALLS = st.tuples(st.lists(st.sampled_from(_OPTIONS), max_size=3),
                   st.lists(st.sampled_from(_OPTIONS + _ODD), max_size=2)).map(
    lambda parts: [*(t for pair in parts[0] for t in pair), "--to", "a.wav",
                   *(t for pair in parts[1] for t in pair), "Ken has 5 votes."])


@settings(max_examples=200, deadline=None)
@given(_CALLS)
def test_what_the_quick_way_takes_the_full_command_line_takes_alike(tokens):
    """Any call the quick way renders, Typer reads to the same settings, text, file and --json."""
    calls: list[tuple] = []

    def record(settings, line, to, notes):
        calls.append((settings, line.text, to))
        return Said(line.text, line.text, str(to), "e", None, 16000, 1.0)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(say_module, "say_to_wav", record)
        call = launch.say_call(tokens)
        printed = launch.quick_say(call) if call is not None else None
        if printed is None:
            return
        result = runner.invoke(gm.cli.app, ["voice", "say", *tokens])
    assert result.exit_code == 0, result.output
    assert len(calls) == 2 and calls[0] == calls[1]
    assert printed + "\n" == result.stdout
