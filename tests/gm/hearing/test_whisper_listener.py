"""The Whisper closed-set listener: its input features, how a phrase wins or is refused, which
listener a language gets, and (slow) real answers heard from rendered speech."""

from __future__ import annotations

import math
import shutil
import subprocess
import wave

import numpy as np
import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.hearing import model_loading, whisper
from gm.hearing.cannot_listen import NoModel
from gm.hearing.log_mel import FRAMES_PER_SECOND, N_MELS, RATE, log_mel, mel_filters
from gm.hearing.phrases import Phrasebook
from gm.hearing.whisper import REFUSAL, Scored, closest
from paths import ROOT


def test_log_mel_has_whisper_shape_and_pads_with_silence() -> None:
    tone = np.sin(2 * np.pi * 1000 * np.arange(RATE // 2) / RATE).astype(np.float32) * 0.5
    features = log_mel(tone, 2 * FRAMES_PER_SECOND)
    assert features.shape == (N_MELS, 2 * FRAMES_PER_SECOND)
    assert features.dtype == np.float32
    loud = features[:, 10:40].mean(axis=1)
    peak_hz = (mel_filters().argmax(axis=1) * RATE / 400)[int(loud.argmax())]
    assert 900 <= peak_hz <= 1100  # the tone lands in the band around 1 kHz
    assert features[:, 80:].max() <= features.max() - 1.0  # the padding is silence, clamped low


def test_the_best_phrase_is_as_sure_as_its_answers_share() -> None:
    scored = [Scored("yes", -1.0), Scored("yeah", -1.0), Scored("no", -1.0 - math.log(2))]
    meaning = {"yes": "yes", "yeah": "yes", "no": "no"}.get
    heard = closest(scored, Scored("yes", -1.0), lambda p: meaning(p) or p)
    assert heard.text == "yes"
    assert heard.words[0][1] == pytest.approx(0.8)  # yes and yeah: 2 of 2.5


def test_a_free_transcription_far_better_than_every_phrase_is_no_answer() -> None:
    scored = [Scored("three", -9.0), Scored("two", -12.0)]
    heard = closest(scored, Scored("hello everyone", -9.0 + REFUSAL + 0.1))
    assert heard.text == "hello everyone"
    book = Phrasebook({"three": "3", "two": "2"})
    assert book.match(heard) is None
    assert closest(scored, Scored("hello everyone", -9.0 + REFUSAL - 0.1)).text == "three"


def test_no_speech_is_heard_as_nothing() -> None:
    assert closest([Scored("three", -1.0)], None).text == ""
    assert closest([], Scored("you", -0.5)).text == "you"  # nothing of the table's was likely


def test_a_listener_that_is_no_listener_is_refused_in_one_line(tmp_path) -> None:
    result = CliRunner().invoke(app, ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", "--listener", "parrot",
                                      "--speech", "off", "--log", str(tmp_path / "n.jsonl")], input="")
    assert result.exit_code == 2
    assert "parrot" in result.stderr and "whisper" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "n.jsonl").exists()


def test_each_language_names_its_listener() -> None:
    assert model_loading.default_listener("en") == "whisper"
    assert model_loading.default_listener("ja") == "whisper"
    assert model_loading.default_listener("ko") == "vosk"


def test_a_default_whisper_not_installed_is_said_once_and_the_next_listener_goes_on(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(whisper, "available", lambda: False)
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    monkeypatch.delenv("GM_LISTENER", raising=False)
    monkeypatch.setattr("gm.hearing.models.default_model", lambda lang: tmp_path)  # a vosk model
    monkeypatch.setattr(model_loading, "check_model", lambda path, given: path)
    told: list[NoModel] = []
    load = model_loading.model_loader(None, "ja", None, fallback=told.append)  # Japanese: Whisper
    assert load.func is model_loading._loaded and load.args == (tmp_path.resolve(),)  # then vosk
    assert [e.key for e in told] == ["whisper_missing"]
    assert "gm-card-nights[whisper]" in str(told[0])
    with pytest.raises(NoModel) as chosen:
        model_loading.model_loader(None, "en", "whisper")
    assert chosen.value.key == "whisper_missing"


def test_pocketsphinx_is_chosen_by_name_and_hears_english_only(monkeypatch) -> None:
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    assert model_loading.model_loader(None, "en", "pocketsphinx") is __import__(
        "gm.hearing.sphinx", fromlist=["load"]).load
    with pytest.raises(NoModel):
        model_loading.model_loader(None, "ja", "pocketsphinx")


def test_a_model_whose_bytes_do_not_check_out_is_refused(monkeypatch, tmp_path) -> None:
    for index, part in enumerate(whisper.PARTS, start=1):
        data = tmp_path / part / "data"
        data.mkdir(parents=True)
        (data / f"model.bin.part{index}").write_bytes(b"not a model")
    monkeypatch.setattr(whisper, "_data", lambda package: tmp_path / package / "data")
    with pytest.raises(NoModel) as damaged:
        whisper.model_bytes()
    assert damaged.value.key == "whisper_damaged"
    assert "gm-card-nights[whisper]" in str(damaged.value)


def test_a_missing_part_names_its_package(monkeypatch) -> None:
    monkeypatch.setattr(whisper, "PARTS", ("gm_no_such_whisper_part", whisper.PARTS[1]))
    with pytest.raises(NoModel) as missing:
        whisper.model_bytes()
    assert "gm_no_such_whisper_part" in str(missing.value)


needs_whisper = pytest.mark.skipif(not whisper.available() or shutil.which("flite") is None,
                                   reason="needs gm-card-nights[whisper] and flite (./setup.sh --test installs both)")


def _flite(text: str, voice: str, path) -> bytes:
    subprocess.run(["flite", "-voice", voice, "-t", text, "-o", str(path)], check=True)
    with wave.open(str(path)) as wav:
        assert wav.getframerate() == 16000
        return wav.readframes(wav.getnframes())


@pytest.mark.slow
@needs_whisper
@pytest.mark.parametrize("voice", ["slt", "rms"])
def test_whisper_hears_counts_and_refuses_what_answers_nothing(tmp_path, voice: str) -> None:
    model = whisper.load("en")
    book = Phrasebook({"zero": "0", "0": "0", "one": "1", "1": "1", "two": "2", "2": "2", "two votes": "2",
                       "three": "3", "3": "3"}, others={"yes": "yes", "no": "no", "aki": "player"})
    for said, answer in (("three", "3"), ("two votes", "2"), ("one", "1")):
        heard = model.recogniser(16000, book).hear(_flite(said, voice, tmp_path / "a.wav"))
        assert book.match(heard) == answer, (said, heard)
    for said in ("hello everyone", "let me think", "Oliver"):
        heard = model.recogniser(16000, book).hear(_flite(said, voice, tmp_path / "b.wav"))
        assert book.match(heard) is None, (said, heard)
    assert model.recogniser(16000, book).hear(bytes(32000)).text == ""


def _espeak(text: str, voice: str, speed: int, pitch: int, path) -> bytes:
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(path), text], check=True)
    from gm.hearing.sphinx import _at_16k

    with wave.open(str(path)) as wav:
        return _at_16k(wav.readframes(wav.getnframes()), wav.getframerate())


def test_a_recogniser_that_fails_on_an_answer_hears_nothing_and_says_so_once(capsys, monkeypatch) -> None:
    from gm.hearing import recognition

    class Broken(recognition.UtteranceRecogniser):
        def hear(self, audio: bytes):
            raise RuntimeError("decoder out of memory")

    monkeypatch.setattr(recognition, "_FAILED", [])
    broken = Broken(16000)
    assert broken._heard(bytes(3200)).text == ""
    assert broken._heard(bytes(3200)).text == ""
    assert capsys.readouterr().err.count("gm: the listener failed on an answer (RuntimeError") == 1


def test_a_model_ctranslate2_cannot_load_is_no_model(monkeypatch) -> None:
    import ctranslate2

    monkeypatch.setattr(whisper, "model_bytes", lambda: (b"x", whisper._data(whisper.PARTS[0])))

    def refuse(*args, **kwargs):
        raise RuntimeError("Unsupported model binary version")

    monkeypatch.setattr(ctranslate2.models, "Whisper", refuse)
    with pytest.raises(NoModel) as broken:
        whisper.WhisperModel("en")
    assert broken.value.key == "whisper_damaged"


def test_counts_are_scored_as_whisper_writes_them_too() -> None:
    from gm.hearing.whisper import spellings

    meanings = {"two": "2", "two votes": "2", "no votes": "0", "zero": "0", "yes": "yes", "2": "2"}
    spelt = spellings(["two votes", "no votes", "yes", "two"], meanings)
    assert spelt["2 votes"] == "two votes" and spelt["two votes"] == "two votes"
    assert spelt["yes"] == "yes" and "no votes" in spelt
    assert spelt["8"] == "8"  # a number not asked is scored, and answers nothing
    assert Phrasebook({"two": "2"}).match(closest([Scored("8", -1.0), Scored("two", -5.0)], Scored("8", -1.0))) \
        is None


@pytest.mark.slow
@needs_whisper
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")
def test_the_deal_hears_done_as_it_asked_for_it(tmp_path) -> None:
    """The deal's "done", said by voices that Whisper heard as "john" or unsure (share 0.36)
    without the question: told what gm asked ("Say done when dealt."), it hears "done" surely."""
    from gm.text.vocabulary import Vocabulary
    from gm.hearing.utterance import levelled
    from gm.hearing.listening import STEP_CONFIDENCE, phrasebook
    from gm.table.questions import Table
    from gm.text.lines import Pack

    pack = Pack("en")
    model = whisper.load("en")
    players = ("Tom", "Lucy", "Kate", "Emma")
    deal = Table(pack, players).step("werewolf.deal", total=9, villagers=6, others=["Werewolf", "Traitor", "Seer"],
                                      graveyard=1)
    book = phrasebook(deal, model, Vocabulary.from_pack(pack), pack.spoken_word, players)
    assert book.context.endswith("Say done when dealt.")
    subprocess.run(["flite", "-voice", "slt", "--setf", "duration_stretch=1.08", "-t", "done", "-o",
                    str(tmp_path / "slt.wav")], check=True)
    with wave.open(str(tmp_path / "slt.wav")) as wav:
        slt = wav.readframes(wav.getnframes())
    for audio in (slt, _espeak("done", "en-us+m5", 153, 36, tmp_path / "m5.wav")):
        heard = model.recogniser(16000, book).hear(levelled(audio, 16000))
        assert book.match(heard) == "done" and min(c for _, c in heard.words) >= STEP_CONFIDENCE, heard
    for said in ("wait a moment", "I am still dealing"):
        heard = model.recogniser(16000, book).hear(levelled(_espeak(said, "en", 160, 50, tmp_path / "t.wav"), 16000))
        assert book.match(heard) is None, (said, heard)
    noise = (np.random.default_rng(0).normal(0, 1000, 16000)).astype("<i2").tobytes()
    assert model.recogniser(16000, book).hear(noise).text == ""


@pytest.mark.slow  # loads the Whisper models
def test_japanese_phrases_are_scored_as_written_without_the_packs_word_breaks() -> None:
    model = whisper.load("ja")
    assert model.tokens("三 票") == model.tokens("三票")
    assert whisper.load("en").tokens("two votes") == whisper.load("en").tokens("Two votes")


def test_an_answer_with_a_polite_ending_is_that_answer() -> None:
    from gm.hearing.whisper import polite

    scored = [Scored("完了", -6.0), Scored("三 票", -9.0)]
    assert closest(scored, polite(Scored("完了です", -0.5), scored, "ja")).text == "完了"
    assert closest(scored, polite(Scored("完了しない", -0.5), scored, "ja")).text == "完了しない"
    assert polite(Scored("done please", -0.5), [Scored("done", -3.0)], "en").phrase == "done please"
    assert polite(Scored("終わりです。", -0.5), [Scored("終わり", -3.0)], "ja").phrase == "終わり"  # and its stop


def test_a_japanese_transcription_that_reads_as_a_phrase_is_that_phrase() -> None:
    """Whisper wrote a table's 人狼と占い師です as 人狼 裏無い師です (ウラナイシ either way) and the
    hand was no answer, three nights running: a transcription that reads as a phrase, an ending
    after it or not, is that phrase; one that reads otherwise is itself, and English is never
    read (bench/table_nights_bench.py --lang ja --seed 4802)."""
    pytest.importorskip("pyopenjtalk")
    from gm.hearing.whisper import read_alike

    spelt = {"人狼 占い師": "人狼 占い師", "人狼と占い師": "人狼 占い師", "墓地": "墓地", "完了": "完了"}
    for said in ("人狼 裏無い師です。", "人狼と裏無い師", "人狼占い師"):
        assert read_alike(Scored(said, -0.5), spelt, "ja") == Scored("人狼 占い師", -0.5), said
    assert read_alike(Scored("ボチです", -0.5), spelt, "ja") == Scored("墓地", -0.5)
    for other in ("完了しない", "35", "人狼と占い"):
        assert read_alike(Scored(other, -0.5), spelt, "ja") == Scored(other, -0.5), other
    assert read_alike(Scored("wherewolf seer", -0.5), {"werewolf seer": "werewolf seer"}, "en").phrase == \
        "wherewolf seer"
    assert read_alike(None, spelt, "ja") is None


def test_a_japanese_transcription_that_nearly_reads_as_one_hand_is_that_hand() -> None:
    """Whisper wrote a table's 人狼と占い師 as 人狼 裏返しです, 人狼 狙い師, 人狼 伺い師 and 人狼 いがない師
    (two kana from ジンローウラナイシ), and the hand went to the keyboard (bench/table_nights_bench.py
    --lang ja, seeds 4810 and 4811): a transcription within two kana of one hand alone is that hand
    (read back for a yes); one as near two hands, far from every hand, or of another question is not."""
    pytest.importorskip("pyopenjtalk")
    from gm.hearing.whisper import read_alike

    hands = {"人狼 占い師": "人狼 占い師", "人狼と占い師": "人狼 占い師",
             "人狼 村人": "人狼 村人", "人狼と村人": "人狼 村人"}
    spelt = {**hands, "人狼": "人狼", "占い師": "占い師", "村人": "村人", "墓地": "墓地"}
    for said in ("人狼 裏返しです。", "人狼 狙い師。", "人狼 伺い師。", "人狼 いがない師"):
        assert read_alike(Scored(said, -0.5), spelt, "ja", (), set(hands.values())) == Scored("人狼 占い師", -0.5), said
        assert read_alike(Scored(said, -0.5), spelt, "ja") == Scored(said, -0.5), said  # no hand asked
    for other in ("運動 裏も。", "自分 7枚師で。", "占い", "人狼 うら"):
        assert read_alike(Scored(other, -0.5), spelt, "ja", (), set(hands.values())) == Scored(other, -0.5), other
    alike = {"人狼 占い師": "人狼 占い師", "人狼 裏返し": "人狼 裏返し"}  # two phrases as near: neither
    assert read_alike(Scored("人狼 裏返しだ", -0.5), alike, "ja", (), {"人狼 占い師"}).phrase == "人狼 裏返しだ"


def test_a_fix_written_with_the_topic_particle_after_the_name_is_that_fix() -> None:
    """Whisper wrote a table's ソラは0票 so, and as 空は0票, and the fix was no answer: a fix read
    with は after its name is that fix; a hand or a count is not read so, nor is a name alone."""
    pytest.importorskip("pyopenjtalk")
    from gm.hearing.whisper import read_alike

    spelt = {"ソラ 0": "ソラ 0", "ソラ ゼロ 票": "ソラ 0", "ミオ 二 票": "ミオ 二 票", "人狼 占い師": "人狼 占い師"}
    fixes = {"ソラ 0", "ミオ 二 票"}
    for said, fix in (("ソラは0票。", "ソラ 0"), ("空は0票", "ソラ 0"), ("ソラは 0 票。", "ソラ 0"),
                      ("ミオは二票です", "ミオ 二 票")):
        assert read_alike(Scored(said, -0.5), spelt, "ja", fixes) == Scored(fix, -0.5), said
        assert read_alike(Scored(said, -0.5), spelt, "ja") == Scored(said, -0.5), said
    assert read_alike(Scored("人狼は占い師", -0.5), spelt, "ja", fixes) == Scored("人狼は占い師", -0.5)
    for name_first in ("空は", "ソラは三票"):  # no fix asked: its count is asked alone (`fix_begun`)
        assert read_alike(Scored(name_first, -0.5), spelt, "ja", fixes) == Scored("ソラ", -0.5), name_first


def test_a_fix_written_as_a_name_and_what_is_not_a_count_is_that_name_whose_count_is_asked() -> None:
    """Whisper wrote a Japanese table's アキ 一 as アキオイチラ, アキント and アキチ, and the fix went to
    the keyboard (bench/table_nights_bench.py --lang ja --seed 4822, night 5): a transcription that
    begins with one fix's name is that name, whose count gm then asks alone; where two names begin
    it, or no fix is asked, or it is the name alone or another word, it is itself."""
    pytest.importorskip("pyopenjtalk")
    from gm.hearing.whisper import read_alike

    names = ("アキ", "ナオ", "ナオミ", "墓地")
    fixes = {f"{name} {n}" for name in names for n in range(3)}
    spelt = {**{fix: fix for fix in fixes}, **{name: name for name in names}}
    for said, name in (("アキオイチラ。", "アキ"), ("アキント。", "アキ"), ("アキチ。", "アキ"), ("ボチデ。", "墓地")):
        assert read_alike(Scored(said, -0.5), spelt, "ja", fixes) == Scored(name, -0.5), said
        assert read_alike(Scored(said, -0.5), spelt, "ja") == Scored(said, -0.5), said
    for other in ("ナオミサン。", "コーヒー", "人狼です"):  # ナオ and ナオミ begin it; no name does
        assert read_alike(Scored(other, -0.5), spelt, "ja", fixes) == Scored(other, -0.5), other


def test_a_japanese_fix_written_as_its_name_and_more_asks_that_candidates_count() -> None:
    """The whole way: at "which count is wrong?", the transcription アキチ。 is heard as アキ, and the
    question it leaves is アキ's count (`gm.table.counting.FixRest`), whose number is the fix."""
    pytest.importorskip("pyopenjtalk")
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Table
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary
    from gm.text.words import words_of

    pack = Pack("ja")
    players = ("アキ", "ケン", "ミオ", "ソラ")
    question = Table(pack).fix({"アキ": 2}, (*players, "graveyard"), 4)
    model = _Transcribes("ja", "アキチ。")
    heard = whisper.WhisperRecogniser(model, 16000, phrasebook(question, model, Vocabulary.from_pack(pack),  # type: ignore[arg-type]
                                                               pack.spoken_word, players)).hear(bytes(16000))
    rest = question.rest(words_of(heard.text))
    assert heard.text == "アキ" and rest is not None and rest.prompt.text == "アキは何票？"
    assert rest.parse("1") == {"アキ": 1}


def test_a_phrase_written_twice_is_that_phrase() -> None:
    """Whisper wrote a Japanese table's えーと、一票 as 「一票、一票。」, and the count was no answer
    (bench/table_nights_bench.py --lang ja --seed 4822, night 5)."""
    from gm.hearing.whisper import once

    assert once(Scored("一票、一票。", -0.5)) == Scored("一票", -0.5)
    assert once(Scored("Two, two.", -0.5)) == Scored("Two", -0.5)
    assert once(Scored("一 票、一票", -0.5)) == Scored("一 票", -0.5)
    for other in ("一票、二票。", "一票。", "えーと、一票", "Two votes."):
        assert once(Scored(other, -0.5)) == Scored(other, -0.5), other
    assert once(None) is None
    assert heard_by({}, ("One, one.", 5.0)).text == "One"


def test_a_card_written_with_its_last_vowel_drawn_out_is_that_card() -> None:
    """Whisper wrote a Japanese table's second card of a hand, 占い師, as ウラナイシー。, and the hand
    went to the keyboard (bench/table_nights_bench.py --lang ja --seed 4822): a reading with its last
    vowel drawn out is that phrase; a phrase whose reading ends drawn out (人狼) is still itself."""
    pytest.importorskip("pyopenjtalk")
    from gm.hearing.whisper import read_alike

    spelt = {"占い師": "占い師", "人狼": "人狼", "村人": "村人"}
    assert read_alike(Scored("ウラナイシー。", -0.5), spelt, "ja") == Scored("占い師", -0.5)
    assert read_alike(Scored("ジンロー", -0.5), spelt, "ja") == Scored("人狼", -0.5)
    assert read_alike(Scored("ジンロ", -0.5), spelt, "ja") == Scored("ジンロ", -0.5)
    assert read_alike(Scored("ムラビトー", -0.5), spelt, "ja") == Scored("村人", -0.5)
    assert read_alike(Scored("ー", -0.5), spelt, "ja") == Scored("ー", -0.5)


def test_a_count_heard_with_its_counter_misheard_is_that_count() -> None:
    """二票 is written にしょう or にしよう by Whisper base (ひょ heard as しょ), also in katakana:
    the number before the counter is the answer; a number with another ending is not."""
    from gm.hearing.whisper import polite

    scored = [Scored("に", -8.2), Scored("ミオ", -9.0), Scored("さん", -9.5)]
    for said in ("にしょう", "にしよう", "ニショー", "に票"):
        assert closest(scored, polite(Scored(said, -4.7), scored, "ja")).text == "に", said
    assert closest(scored, polite(Scored("サンピョウ", -4.0), scored, "ja")).text == "さん"
    for other in ("にせろ", "にしたい", "さんせい"):
        assert closest(scored, polite(Scored(other, -4.0), scored, "ja")).text == other


@pytest.mark.slow
@needs_whisper
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")
def test_a_short_fast_answer_is_speech_and_steady_noise_is_not(tmp_path) -> None:
    """espeak-ng's "none" at 194 words a minute, which Whisper rates 0.63 likely no speech, is heard
    as the phrase it says (unsure beside "no": asked again, not taken for silence); pink noise
    (0.73 and more) is still nothing (NO_SPEECH)."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    from virtual_table import pink_noise

    from gm.hearing.utterance import levelled

    model = whisper.load("en")
    book = Phrasebook({"zero": "0", "none": "0", "no votes": "0", "one": "1", "1": "1", "two": "2", "2": "2"},
                      others={"yes": "yes", "no": "no", "lucy": "player"}, context="How many votes for Lucy?")
    none = levelled(_espeak("none", "en+f4", 194, 52, tmp_path / "none.wav"), 16000)
    assert model.recogniser(16000, book).hear(none).text == "none"
    for seed in range(3):
        noise = (pink_noise(1.5, seed) * 1600).astype("<i2").tobytes()
        assert model.recogniser(16000, book).hear(noise).text == "", seed


def test_a_hand_is_scored_as_a_table_says_it_and_the_words_joining_it_are_no_card() -> None:
    """Two cards are said joined ("werewolf and seer", 人狼と占い師); Whisper writes what it heard
    with capitals and a stop, which is the phrase; near misses are read without "and" and "the"."""
    from gm.hearing.phrases import Heard
    from gm.hearing.whisper import joined_forms, named, unjoined, written

    assert "werewolf and seer" in joined_forms("werewolf seer", "en")
    assert "the werewolf and the seer" in joined_forms("werewolf seer", "en")
    assert "人狼と占い師" in joined_forms("人狼 占い師", "ja")
    assert named(["werewolf seer", "seer villager"], "en") == " Werewolf, Seer, Villager."
    assert named([], "en") == ""
    spelt = {"werewolf seer": "werewolf seer", "werewolf and seer": "werewolf seer", "seer": "seer"}
    scored = [Scored("werewolf seer", -5.3), Scored("seer", -4.1)]
    taken = written(Scored("werewolf and seer", -0.4), scored, spelt)
    assert closest(taken, Scored("werewolf and seer", -0.4)).text == "werewolf seer"
    assert written(Scored("where will see", -0.4), scored, spelt) == scored
    assert written(Scored("Wherewolf, seer.", -0.4), scored, spelt)[0] == Scored("werewolf seer", -0.4)
    assert unjoined(Heard("wherewolf and the seer", (("wherewolf", 1.0),)), "en").text == "wherewolf seer"
    assert unjoined(Heard("seer", (("seer", 0.9),)), "en").text == "seer"


def test_a_long_phrase_written_one_letter_off_is_that_phrase_and_a_short_one_is_not() -> None:
    """Whisper writes the table's "werewolf seer" as "wherewolf seer": one letter off a phrase of
    eight letters or more, and near no other phrase, it is that phrase; "nine" is not "none"."""
    from gm.hearing.whisper import misspelt

    spelt = {"werewolf seer": "werewolf seer", "werewolf and seer": "werewolf seer", "none": "none",
             "werewolf": "werewolf"}
    assert misspelt("wherewolf seer", spelt) == "werewolf seer"
    assert misspelt("Werewolf seers.", spelt) == "werewolf seer"
    assert misspelt("wherewolf", spelt) == "werewolf"
    assert misspelt("nine", spelt) is None  # short: one letter makes another word
    assert misspelt("wherewolf sheer", spelt) is None  # two letters off
    assert misspelt("villager seer", {"villagers seer": "villagers seer", "village seer": "village seer"}) is None


def test_a_card_is_not_ended_by_the_comma_after_which_the_hand_goes_on() -> None:
    """A phrase that another scored phrase goes on from after a pause ("werewolf" before "werewolf,
    seer") is not ended by that pause: ended by it, the card alone outscored every hand it begins."""
    model = object.__new__(whisper.WhisperModel)
    werewolf, comma, seer, stop, end = 1, 2, 3, 4, 5
    model._ends, model._pauses = [end, stop, comma], {comma}
    batch = [[werewolf], [werewolf, comma, seer]]
    assert model._going_on([werewolf], batch) == {comma}
    assert model._going_on([werewolf, comma, seer], batch) == set()
    rows = np.full((4, 6), -20.0)
    rows[0, werewolf] = rows[1, comma] = rows[2, seer] = rows[3, stop] = 0.0  # "Werewolf, seer."
    card = model._scored([werewolf], rows, model._going_on([werewolf], batch))
    hand = model._scored([werewolf, comma, seer], rows, model._going_on([werewolf, comma, seer], batch))
    assert hand > card + 10
    assert model._scored([werewolf], rows) > hand  # how a card alone won before


@pytest.mark.slow
@needs_whisper
def test_a_hand_said_without_and_is_heard_whole_not_as_its_first_card(tmp_path) -> None:
    """ "werewolf seer" said by espeak-ng and flite (heard before as "werewolf": no answer)."""
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Table
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary

    pack, players = Pack("en"), ("Alice", "Noah", "Olga", "Diego")
    hand = Table(pack, players).hand("werewolf.reveal.ask_hand", ("villager", "werewolf", "seer", "traitor"),
                                     players[1], name=players[1])
    model = whisper.load("en")
    book = phrasebook(hand, model, Vocabulary.from_pack(pack), pack.spoken_word, players)
    said = {"espeak-ng werewolf seer": _espeak("werewolf seer", "en-us", 175, 50, tmp_path / "a.wav"),
            "espeak-ng werewolf and seer": _espeak("werewolf and seer", "en-us", 175, 50, tmp_path / "b.wav"),
            "flite werewolf seer": _flite("werewolf seer", "rms", tmp_path / "c.wav")}
    for name, audio in said.items():
        heard = model.recogniser(16000, book).hear(bytes(16000) + audio + bytes(32000))
        assert book.match(heard) == "werewolf seer", (name, heard)


class ScoringModel:
    """Whisper as far as a recogniser asks it: each phrase's score from `scores` (else far behind)
    and the free transcription `free`."""

    lang = "en"

    def __init__(self, scores: dict[str, float], free: tuple[str, float]) -> None:
        self.scores = scores
        self.free = free

    def score(self, samples, phrases, context="", calibrated=frozenset()):
        return [Scored(p, self.scores.get(p, -30.0)) for p in phrases], Scored(*self.free)


COUNT_BOOK = Phrasebook({"zero": "0", "none": "0", "nobody": "0", "no votes": "0", "one": "1", "two": "2"},
                        others={"no": "no", "yes": "yes", "done": "done"}, decoys=("nine",))


def heard_by(scores: dict[str, float], free: tuple[str, float], book: Phrasebook = COUNT_BOOK):
    from gm.hearing.whisper import WhisperRecogniser

    return WhisperRecogniser(ScoringModel(scores, free), 16000, book).hear(b"\0\0" * 1600)  # type: ignore[arg-type]


def test_an_answer_to_the_question_asked_wins_a_close_call_against_the_tables_other_words() -> None:
    """In a noisy room a count's "none" was heard as "no" (three times, then the keyboard) and a
    step's "done" as "none": the question's own answers are a nat ahead of the rest."""
    heard = heard_by({"none": -3.2, "no": -2.5, "9": -4.3}, ("no", -2.5))
    assert heard.text == "none"  # unsure: asked again, and taken heard alike twice (gm.hearing.listening)
    step = Phrasebook({"done": "done"}, others={"none": "0", "no": "no", "one": "1"})
    assert step.match(heard_by({"done": -2.0, "none": -1.6}, ("none", -1.6), step)) == "done"


def test_a_plain_no_at_a_count_is_still_no_count() -> None:
    for scores, free in (({"no": -0.5, "none": -4.0}, ("no", -0.5)), ({"9": -0.8, "none": -3.0}, ("9", -0.8)),
                         ({"no": -1.0, "none": -1.9}, ("no", -1.0))):
        heard = heard_by(scores, free)
        assert COUNT_BOOK.match(heard) is None or not heard.sure(0.6), (scores, heard)


def test_a_count_written_in_the_other_number_is_that_count() -> None:
    """Piper's "no votes" is written "No vote.": scored as "no votes" it was refused by the free transcription."""
    from gm.hearing.whisper import spellings

    spelt = spellings(["no votes", "one vote", "two votes"], {"no votes": "0", "one vote": "1", "two": "2"})
    assert spelt["no vote"] == "no votes" and spelt["one votes"] == "one vote" and spelt["2 vote"] == "two votes"
    assert COUNT_BOOK.match(heard_by({"no votes": -3.8, "no vote": -0.3}, ("no vote", -0.3))) == "0"


class _Transcribes:
    """A Whisper stand-in whose free transcription is `free` (nothing scored), keeping the
    previous text it was given."""

    unk = False

    def __init__(self, lang: str, free: str) -> None:
        self.lang, self.free, self.contexts = lang, free, []

    def hears(self, word: str) -> bool:
        return bool(word)

    def score(self, samples, phrases, context="", calibrated=frozenset()):
        self.contexts.append(context)
        return [], Scored(self.free, -1.0)


class _Scores(_Transcribes):
    """A Whisper stand-in that scores `likely` far ahead of every other phrase it is given."""

    def __init__(self, lang: str, likely: str) -> None:
        super().__init__(lang, likely)
        self.phrases: list[str] = []

    def score(self, samples, phrases, context="", calibrated=frozenset()):
        self.phrases = list(phrases)
        return [Scored(p, -1.0 if p == self.free else -20.0) for p in phrases], Scored(self.free, -1.5)


@pytest.mark.parametrize(("lang", "players", "said", "count"), [
    ("en", ("Alice", "Mike", "Kate", "Tom"), "um, two", "2"),
    ("ja", ("アキ", "ケン", "ミオ", "ソラ"), "えーと、二 票", "2"),
    ("ja", ("アキ", "ケン", "ミオ", "ソラ"), "えっと、なし", "0")])
def test_a_count_begun_with_a_filler_is_that_count(lang, players, said, count) -> None:
    """ "um, two" and えーと、二票 are scored as the count (Whisper writes the filler, and the count
    alone scored from the start of the utterance was far behind it); a step scores no filler."""
    from gm.text.vocabulary import Vocabulary
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Counting, Table
    from gm.text.lines import Pack

    pack = Pack(lang)
    candidates = (*players, "graveyard")
    question = Table(pack).count(candidates[1:], 4, Counting(tuple(candidates), counted=1), first=False)
    model = _Scores(lang, said)
    book = phrasebook(question, model, Vocabulary.from_pack(pack), pack.spoken_word, players)
    assert book.match(whisper.WhisperRecogniser(model, 16000, book).hear(bytes(16000))) == count
    step = Table(pack).step("werewolf.seer_one")
    steps = phrasebook(step, model, Vocabulary.from_pack(pack), pack.spoken_word, players)
    whisper.WhisperRecogniser(model, 16000, steps).hear(bytes(16000))
    assert not any(p.startswith(whisper.FILLERS[lang]) for p in model.phrases)


def _count_heard(lang: str, players: tuple[str, ...], free: str):
    from gm.text.vocabulary import Vocabulary
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Counting, Table
    from gm.text.lines import Pack

    pack = Pack(lang)
    candidates = (*players, "graveyard")
    count = Table(pack).count(candidates[1:], 4, Counting(tuple(candidates), counted=1), first=False)
    model = _Transcribes(lang, free)
    book = phrasebook(count, model, Vocabulary.from_pack(pack), pack.spoken_word, players)
    heard = whisper.WhisperRecogniser(model, 16000, book).hear(bytes(16000))
    return book.match(heard), model.contexts[0]


def test_a_japanese_count_is_told_its_answers_and_heard_as_told() -> None:
    """Whisper is told a Japanese count's answers after the question (四票 as よん票, which it
    writes for よんひょう where told 四票 it writes 勇秀), and what it writes as told is that count."""
    players = ("アキ", "ケン", "ミオ", "ソラ")
    for said, count in (("よん票", "4"), ("二票", "2"), ("なし", "0"), ("勇秀", None), ("五票", None)):
        taken, context = _count_heard("ja", players, said)
        assert taken == count, said
    assert context.endswith("？ なし、一票、二票、三票、よん票。")
    taken, context = _count_heard("en", ("Alice", "Mike", "Kate", "Tom"), "two")
    assert taken == "2" and context.endswith("?")  # an English count is told nothing more


@pytest.mark.slow
@pytest.mark.skipif(not whisper.available(), reason="needs gm-card-nights[whisper] (./setup.sh --test installs it)")
def test_japanese_counts_said_by_open_jtalk_are_heard_and_talk_is_not() -> None:
    """二票, 三票 and 四票 said by Open JTalk in its three voices (`OPEN_JTALK_VOICES`; heard before
    as にしよう, サント and 陽車: no answer) are those counts; talk is no count."""
    pytest.importorskip("pyopenjtalk")
    model, book = _japanese_count()
    _said_by_open_jtalk(model, book, {"二票": "2", "三票": "3", "四票": "4"}, ("今日はいい天気ですね", "りんご"))


@pytest.mark.slow
@pytest.mark.skipif(not whisper.available(), reason="needs gm-card-nights[whisper] (./setup.sh --test installs it)")
def test_japanese_fixes_said_by_open_jtalk_at_which_count_is_wrong_are_heard_and_talk_is_not() -> None:
    """ミオ 二票 and アキ なし said by Open JTalk in its three voices (`OPEN_JTALK_VOICES`), asked
    「どの票数が違いますか？「アキ 0」のように…」 (ミオ 二票 was written みなにしよう: no answer) are
    those fixes; はい and talk are no fix."""
    pytest.importorskip("pyopenjtalk")
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Table
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary

    pack, players = Pack("ja"), ("アキ", "ミオ")
    which = Table(pack).fix({"アキ": 1}, (*players, "graveyard"), 2)
    model = whisper.load("ja")
    book = phrasebook(which, model, Vocabulary.from_pack(pack), pack.spoken_word, players)
    _said_by_open_jtalk(model, book, {"ミオ 二票": "ミオ=2", "アキ なし": "アキ=0"}, ("はい", "今日はいい天気ですね"))


OPEN_JTALK_VOICES = ((1.0, 0), (0.9, -3), (1.1, 2))
"""Open JTalk's speed and half tones in three voices: its own, slower and lower, faster and higher."""


def _said_by_open_jtalk(model, book, said: dict[str, str], talk: tuple[str, ...]) -> None:
    """Each of `said` (text → its answer), said by Open JTalk in its voices in turn (each phrase
    in one at least, each voice once at least: `OPEN_JTALK_VOICES`), is heard as that answer;
    each of `talk` is no answer."""
    phrases = list(said.items())
    for i in range(max(len(phrases), len(OPEN_JTALK_VOICES))):
        (text, answer), (speed, half_tone) = phrases[i % len(phrases)], OPEN_JTALK_VOICES[i % len(OPEN_JTALK_VOICES)]
        heard = model.recogniser(16000, book).hear(_open_jtalk(text, speed, half_tone))
        assert book.match(heard) == answer, (text, speed, heard)
    for line in talk:
        heard = model.recogniser(16000, book).hear(_open_jtalk(line))
        assert book.match(heard) is None, (line, heard)


def _japanese_count():
    """Whisper for Japanese and the phrasebook of a count at a 4-player table."""
    from gm.text.vocabulary import Vocabulary
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Counting, Table
    from gm.text.lines import Pack

    pack, players = Pack("ja"), ("アキ", "ケン", "ミオ", "ソラ")
    candidates = (*players, "graveyard")
    count = Table(pack).count(candidates[1:], 4, Counting(tuple(candidates), counted=1), first=False)
    model = whisper.load("ja")
    return model, phrasebook(count, model, Vocabulary.from_pack(pack), pack.spoken_word, players)


def _open_jtalk(text: str, speed: float = 1.0, half_tone: int = 0) -> bytes:
    """`text` said by Open JTalk, levelled, with 0.4 s of silence each side (16 kHz PCM)."""
    import pyopenjtalk

    from gm.hearing.sphinx import _at_16k
    from gm.hearing.utterance import levelled

    audio, rate = pyopenjtalk.tts(text, speed=speed, half_tone=half_tone)
    pcm = _at_16k((audio / max(float(np.abs(audio).max()), 1.0) * 16384).astype("<i2").tobytes(), rate)
    return levelled(bytes(12800) + pcm + bytes(12800), 16000)


@pytest.mark.slow
@pytest.mark.skipif(not whisper.available(), reason="needs gm-card-nights[whisper] (./setup.sh --test installs it)")
@pytest.mark.parametrize(("said", "fillers"), [("二票", set()), ("えっと、二票", {"えっと、"})])
def test_phrases_that_begin_alike_are_scored_only_where_their_beginning_could_win(monkeypatch, said, fillers):
    """The counts after a filler (えっと、二票, …) are scored only where their beginning is within
    STAGED nats of the best phrase, and of the filler's three spellings only after the one Whisper
    writes most readily: for 二票 none, each far below the best; for えっと、二票 those after えっと、.
    What is scored scores as when every phrase is scored at once (decoded in other batches: the same
    to a ten-thousandth of a nat), the best of them the best of all; what is left out is STAGED nats
    below the best or spelt with another spelling of the filler."""
    pytest.importorskip("pyopenjtalk")
    model, book = _japanese_count()
    monkeypatch.setattr(whisper, "CALIBRATION", 0.0)  # scores as the decoder gives them
    asked, score = [], model.score
    monkeypatch.setattr(model, "score", lambda *args: asked.append(args) or ([], None))  # what a hearing scores
    model.recogniser(16000, book).hear(_open_jtalk(said))
    staged, free = score(*asked[0])
    monkeypatch.setattr(whisper, "GROUPED", len(asked[0][1]) + 1)
    whole, free_whole = score(*asked[0])
    assert free == free_whole
    every = {s.phrase: s.score for s in whole}
    best = max(every, key=every.__getitem__)
    out = {s.phrase for s in staged if math.isinf(s.score) and not math.isinf(every[s.phrase])}
    spellings = whisper.FILLERS["ja"]
    assert {f for f in spellings for s in staged if s.phrase.startswith(f) and s.phrase not in out} == fillers
    assert all(every[p] < every[best] - whisper.STAGED or p.startswith(spellings) for p in out)
    assert best not in out
    assert [s.score for s in staged if s.phrase not in out] == pytest.approx(
        [every[s.phrase] for s in staged if s.phrase not in out], abs=1e-4)


class _Calibrates(_Transcribes):
    """A Whisper stand-in that keeps the phrases it was asked to calibrate."""

    def __init__(self, lang: str, free: str) -> None:
        super().__init__(lang, free)
        self.calibrated: frozenset[str] = frozenset()

    def score(self, samples, phrases, context="", calibrated=frozenset()):
        self.calibrated = frozenset(calibrated)
        return super().score(samples, phrases, context, calibrated)


def test_a_questions_own_answers_are_calibrated_but_not_yes_no_a_fix_or_a_correction() -> None:
    """Told "How many votes for Noah?", Whisper begins "1" and "Noah" far more readily than
    "nobody": the count's answers are scored against each other net of that (`CALIBRATION`);
    the table's other words, the decoys, a fix of the tally, a yes or no and a read-back's
    corrections are scored as they are."""
    from gm.hearing.listening import phrasebook, slots_book
    from gm.table.questions import Counting, Table
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary
    from gm.hearing.listening import YES_NO

    pack, players = Pack("en"), ("Alice", "Noah", "Kate", "Tom")
    vocabulary = Vocabulary.from_pack(pack)
    candidates = (*players, "graveyard")
    count = Table(pack).count(candidates[1:], 4, Counting(tuple(candidates), counted=1), first=False)
    model = _Calibrates("en", "nobody")
    book = phrasebook(count, model, vocabulary, pack.spoken_word, players)
    whisper.WhisperRecogniser(model, 16000, book).hear(bytes(16000))
    assert {"nobody", "none", "1", "one", "two votes", "um, two"} <= model.calibrated
    assert not model.calibrated & {"noah", "yes", "no", "graveyard", "nine"}
    tally = phrasebook(Table(pack, players).tally({"Noah": 2, "Kate": 2}, candidates, 4), model, vocabulary,
                       pack.spoken_word, players)
    assert "kate none" in tally.phrases
    whisper.WhisperRecogniser(model, 16000, tally).hear(bytes(16000))
    assert model.calibrated == frozenset()
    read_back = slots_book(YES_NO, str, "", model, vocabulary, pack.spoken_word, players).with_phrases(book.phrases)
    assert {"yes", "yeah", "nope"} <= read_back.asked() and "nobody" in set(read_back.phrases) - read_back.asked()
    whisper.WhisperRecogniser(model, 16000, read_back).hear(bytes(16000))
    assert model.calibrated == frozenset()
    step = phrasebook(Table(pack).step("werewolf.seer_one"), model, vocabulary, pack.spoken_word, players)
    whisper.WhisperRecogniser(model, 16000, step).hear(bytes(16000))
    assert "done" in model.calibrated


def test_japanese_counts_are_calibrated_and_its_other_answers_are_not() -> None:
    """A Japanese count's answers are scored net of how readily Whisper writes them with nothing
    said (えーと、四票 was written "8"); a step's are not (an English room's chatter alone was
    written おわった and taken as 完了), nor a hand's or a holder's."""
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Counting, Table
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary

    model = _Calibrates("ja", "なし")
    pack, players = Pack("ja"), ("アキ", "ケン", "ミオ", "ソラ")
    vocabulary = Vocabulary.from_pack(pack)
    count = Table(pack).count((*players[1:], "graveyard"), 4, Counting((*players, "graveyard"), counted=1),
                              first=False)
    book = phrasebook(count, model, vocabulary, pack.spoken_word, players)
    whisper.WhisperRecogniser(model, 16000, book).hear(bytes(16000))
    assert {"なし", "いない", "二 票", "えーと、二 票", "えと、四 票"} <= model.calibrated
    assert not model.calibrated & {"アキ", "ケン", "はい"}
    for question in (Table(pack).step("werewolf.seer_one"),
                     Table(pack, players).pick("werewolf.reveal.ask_holder", (*players, "graveyard"), card="人狼")):
        whisper.WhisperRecogniser(model, 16000, phrasebook(question, model, vocabulary, pack.spoken_word,
                                                           players)).hear(bytes(16000))
        assert model.calibrated == frozenset()


@pytest.mark.parametrize(("lang", "players", "told"), [
    ("ja", ("アキ", "ケン", "ミオ", "ソラ"), "。 アキ、ケン、ミオ、ソラ、墓地。"),
    ("en", ("Alice", "Mike", "Kate", "Tom"), "“Alice 0”. Alice, Mike, Kate, Tom, Graveyard."),
])
def test_which_count_is_wrong_tells_the_table_the_names_and_calibrates_its_fixes(lang, players, told) -> None:
    """Asked which count is wrong, Whisper is told the candidates' names after the question (it
    wrote ケン as 県, "Noah three" as "no") and scores the fixes calibrated (the question's example,
    アキ 0, and はい were written for other fixes); the read-back's fixes, beside its yes and no,
    are not calibrated."""
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Table
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary

    pack = Pack(lang)
    candidates = (*players, "graveyard")
    table = Table(pack)
    for question, calibrated in ((table.fix({players[0]: 1}, candidates, 4), True),
                                 (table.tally({players[0]: 1}, candidates, 4), False)):
        model = _Calibrates(lang, "")
        book = phrasebook(question, model, Vocabulary.from_pack(pack), pack.spoken_word, players)
        whisper.WhisperRecogniser(model, 16000, book).hear(bytes(16000))
        assert bool(model.calibrated) == calibrated, question.key
        assert model.calibrated <= set(whisper.WhisperRecogniser(model, 16000, book).plan().spelt)
        if question.key == "werewolf.vote.which":
            assert model.contexts[0].endswith(told), model.contexts[0]


def _holder_book(lang: str, players: tuple[str, ...], model: object):
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Table
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary

    pack = Pack(lang)
    question = Table(pack, players).pick("werewolf.reveal.ask_holder", (*players, "graveyard"),
                                         none_is="graveyard", card=pack.line("werewolf.cards.traitor"))
    return phrasebook(question, model, Vocabulary.from_pack(pack), pack.spoken_word, players)


@pytest.mark.parametrize(("lang", "players", "told"), [
    ("ja", ("アキ", "ケン", "ミオ", "ソラ"), "と答えてください。 アキ、ケン、ミオ、ソラ、墓地。"),
    ("en", ("Alice", "Mike", "Kate", "Tom"), "or the graveyard."),
])
def test_a_japanese_question_that_picks_a_player_tells_its_choices_and_its_read_back_does_not(
        lang, players, told) -> None:
    """Asked who holds a card, Whisper is told the choices after the question in Japanese (it wrote
    Open JTalk's 墓地 through the microphone as はい); the read-back's yes and no are told as before,
    without the names; English is told the question only."""
    from gm.hearing.listening import YES_NO, slots_book
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary

    model = _Transcribes(lang, "")
    book = _holder_book(lang, players, model)
    whisper.WhisperRecogniser(model, 16000, book).hear(bytes(16000))  # type: ignore[arg-type]
    assert model.contexts[0].endswith(told), model.contexts[0]
    pack = Pack(lang)
    read_back = slots_book(YES_NO, str, "墓地。いいですか？", model, Vocabulary.from_pack(pack), pack.spoken_word,
                           players).with_phrases(book.phrases)
    whisper.WhisperRecogniser(model, 16000, read_back).hear(bytes(16000))  # type: ignore[arg-type]
    assert players[0] not in model.contexts[1], model.contexts[1]


@pytest.mark.slow
@needs_whisper
@pytest.mark.parametrize("recording", ["bochi_1.wav", "bochi_2.wav", "bochi_3.wav"])
def test_open_jtalks_graveyard_through_the_microphone_is_the_graveyard(recording) -> None:
    """Open JTalk's 墓地 as gm's microphone took it (the virtual table: PulseAudio, pink noise 20 dB
    below), answering who holds the Traitor card: untold the choices, Whisper wrote the first as はい
    (at 0.4) and the others at 0.67 and 0.68; told them, each is the graveyard, read back for a yes."""
    import wave

    from paths import FIXTURES

    with wave.open(str(FIXTURES / "holder_ja" / recording)) as file:
        audio, rate = file.readframes(file.getnframes()), file.getframerate()
    model = whisper.load("ja")
    book = _holder_book("ja", ("アキ", "ケン", "ミオ", "ソラ"), model)
    heard = whisper.WhisperRecogniser(model, rate, book).hear(audio)
    assert book.match(heard) == "graveyard", heard
    assert heard.least() >= 0.7, heard


@pytest.mark.slow
@needs_whisper
def test_an_english_fix_said_by_flite_is_that_fix_and_a_name_or_talk_alone_is_none(tmp_path) -> None:
    """Asked which count is wrong after "Noah 2, Alice 1", Whisper untold the names and uncalibrated
    wrote flite's "Noah three" as "no" (slt, rms, awb and kal alike): told and calibrated it hears
    the fix; a name alone and talk are still no fix."""
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Table
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary

    pack, players = Pack("en"), ("Alice", "Noah", "Olga", "Diego")
    which = Table(pack, players).fix({"Noah": 2, "Alice": 1}, (*players, "graveyard"), 4)
    model = whisper.load("en")
    book = phrasebook(which, model, Vocabulary.from_pack(pack), pack.spoken_word, players)
    for said, fix in (("Noah three", "Noah=3"), ("Alice none", "Alice=0"), ("Noah", None),
                      ("I think it was him", None)):
        heard = model.recogniser(16000, book).hear(_flite(said, "slt", tmp_path / "a.wav"))
        assert book.match(heard) == fix, (said, heard)


@pytest.mark.parametrize(("lang", "players", "prompt", "told"), [
    ("ja", ("ソラ", "ミオ"), "ソラ 1票、ミオ 2票、ほかは0票ですね？", "ですね？ はい、いいえ。"),
    ("ja", ("ソラ", "ミオ"), "ミオさん、人狼、占い師。いいですか？", "いいですか？ はい、いいえ。"),
    ("ja", ("ソラ", "ミオ"), "同じカードで次の夜を遊びますか？", "同じカードで次の夜を遊びますか？ はい、いいえ。"),
    ("ja", ("ソラ", "ミオ"), "墓地。いいですか？", "墓地。いいですか？ はい、いいえ。"),
    ("en", ("Alice", "Noah"), "Alice 1, Noah 2, nobody else. Right?", "Alice 1, Noah 2, nobody else. Right?"),
])
def test_a_japanese_yes_or_no_that_names_a_player_is_told_only_its_ending(lang, players, prompt, told) -> None:
    """Told the tally read back, Whisper wrote a Japanese table's そう as ソラ and いいえ as ミオ: a
    Japanese yes or no whose question names a player is told only the question's ending; one that
    names nobody, or in English, is told the whole question."""
    from gm.hearing.listening import YES_NO, slots_book
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary

    pack = Pack(lang)
    model = _Transcribes(lang, "")
    book = slots_book(YES_NO, str, prompt, model, Vocabulary.from_pack(pack), pack.spoken_word, players)
    whisper.WhisperRecogniser(model, 16000, book).hear(bytes(16000))
    assert model.contexts == [told]
    assert book.context == prompt  # gm's own last word is still what `Phrasebook.echoes` compares


@pytest.mark.slow  # loads the Whisper model
@pytest.mark.skipif(not whisper.available(), reason="needs gm-card-nights[whisper] (./setup.sh --test installs it)")
def test_whisper_begins_a_count_more_readily_with_a_digit_than_with_nobody_after_the_question() -> None:
    model = whisper.load("en")
    prompt = (*model._context("How many votes for Noah?"), *model._start, model._no_timestamps)
    priors = model._priors(("1", "one", "nobody", "none", "two"), prompt)
    assert priors["1"] == 0.0 > priors["nobody"] >= -whisper.PRIOR_FLOOR
    assert all(value <= 0.0 for value in priors.values())


def test_calibrated_answers_are_lifted_by_their_priors_but_a_sentence_is_still_refused() -> None:
    """"1" (written most readily with nothing said) scored above "nobody": net of the priors
    "nobody" wins; the free transcription still refuses every phrase as the decoder scored them."""
    from gm.hearing.whisper import calibrated_scores, closest

    scored = calibrated_scores(["1", "nobody", "no", "two"], [-4.0, -4.5, -4.2, float("-inf")],
                               {"1": 0.0, "nobody": -3.5, "two": -1.0})
    by = {s.phrase: s for s in scored}
    assert by["nobody"].score == pytest.approx(-1.0) and by["nobody"].heard == pytest.approx(-4.5)
    assert (by["1"].score, by["no"].score, by["two"].score) == (-4.0, -4.2, float("-inf"))
    assert closest(scored, Scored("i think so", -3.0)).text == "nobody"
    assert closest(scored, Scored("i think it was him", -0.9)).text == "i think it was him"
