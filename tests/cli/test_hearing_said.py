"""What `gm voice` refuses about models, microphones and WAV files is said in --lang's words
(the packs' errors.hearing, errors.wav, errors.file); English reads as the error says it."""

import wave
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.commands.common import said_in
from gm.hearing.cannot_listen import NoAudio, NoModel
from gm.hearing.model_check import check_model
from gm.hearing.recorded import BadWav, read_wav
from gm.text.lines import Pack

runner = CliRunner()


def silent_wav(path: Path) -> Path:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(bytes(3200))
    return path


def refusal(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    return result.stderr.strip()


@pytest.mark.parametrize("lang, said", [
    ("en", "gm: No such file or directory: '{path}'"), ("ja", "gm: 「{path}」というファイルやフォルダはありません"),
    ("ko", "gm: ‘{path}’라는 파일이나 폴더가 없어요"),
])
def test_a_wav_that_is_not_there(tmp_path, lang, said):
    path = tmp_path / "nope.wav"
    assert refusal("voice", "hear", str(path), "--answers", "はい", "--lang", lang) == said.format(path=path)


@pytest.mark.parametrize("lang, said", [
    ("en", "gm: {path}: not a WAV file (its header does not fit the file)"),
    ("ja", "gm: 「{path}」は WAV ファイルではありません (its header does not fit the file)"),
    ("ko", "gm: ‘{path}’은(는) WAV 파일이 아니에요 (its header does not fit the file)"),
])
def test_a_file_that_is_no_wav(tmp_path, lang, said):
    path = tmp_path / "noise.wav"
    path.write_text("x")
    assert refusal("voice", "hear", str(path), "--answers", "yes", "--lang", lang) == said.format(path=path)


@pytest.mark.parametrize("lang, said", [
    ("en", "gm: speech model '{path}' is not a directory"),
    ("ja", "gm: 音声モデル「{path}」はフォルダーではありません"),
    ("ko", "gm: 음성 모델 ‘{path}’은(는) 폴더가 아니에요"),
])
def test_a_model_that_is_no_folder(tmp_path, lang, said):
    path = tmp_path / "nonexist"
    assert refusal("voice", "model", str(path), "--lang", lang) == said.format(path=path)


@pytest.mark.parametrize("lang, said", [
    ("ja", "gm: ja の音声モデルがありません: --vosk-model でパスを指定するか GM_VOSK_MODEL を設定してください "
           "(または: gm voice model --get ja)"),
    ("ko", "gm: ko 음성 모델이 없어요: --vosk-model 로 경로를 주거나 GM_VOSK_MODEL를 설정하세요 (또는: "),
])
def test_no_model_for_the_language(tmp_path, monkeypatch, lang, said):
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    monkeypatch.setenv("GM_LISTENER", "vosk")
    monkeypatch.setattr("gm.hearing.models.default_model", lambda lang: None)
    wav = silent_wav(tmp_path / "a.wav")
    assert refusal("voice", "hear", str(wav), "--answers", "yes", "--lang", lang).startswith(said)


@pytest.mark.parametrize("lang, said", [
    ("en", "gm: no microphone to listen with (Error querying device -1)"),
    ("ja", "gm: 聞き取りに使うマイクがありません (Error querying device -1)"),
    ("ko", "gm: 들을 마이크가 없어요 (Error querying device -1)"),
])
def test_no_microphone(monkeypatch, lang, said):
    def no_microphone(*args, **kwargs):
        raise NoAudio("no microphone to listen with (Error querying device -1)", detail="Error querying device -1")

    monkeypatch.setattr("gm.hearing.microphone.input_devices", lambda: [])
    monkeypatch.setattr("gm.hearing.microphone.MicSource", no_microphone)
    assert refusal("voice", "check", "--lang", lang) == said


def test_english_says_each_refusal_as_the_error_does(tmp_path):
    incomplete = tmp_path / "incomplete"
    (incomplete / "am").mkdir(parents=True)
    errors = []
    for path in (tmp_path / "nonexist", incomplete, tmp_path / ("m" * 300)):
        with pytest.raises(NoModel) as caught:
            check_model(path, str(path))
        errors.append(caught.value)
    (tmp_path / "noise.wav").write_text("x")
    for wav in (tmp_path / "noise.wav", tmp_path):  # no WAV, and no regular file
        with pytest.raises(BadWav) as refused:
            read_wav(wav)
        errors.append(refused.value)
    errors.append(NoAudio("no microphone to listen with (x)", detail="x"))
    assert [said_in(Pack("en"), e) for e in errors] == [str(e) for e in errors]
    assert all(said_in(Pack("ja"), e) != str(e) for e in errors)
