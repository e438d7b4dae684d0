"""The tally said in one breath ("Aki three, Ken one"), typed or heard, and the vote's conversation
kept in the night log: fake recognisers drive the real listening asker through the real vote."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from fakes import FAST, FakeClock, listening_asker, said
from gm.cli import app
from gm.hearing.keyboard import AnswersExhausted
from gm.text.vocabulary import Vocabulary
from gm.night.context import NightContext
from gm.night.log import NightLog
from gm.night.vote import run_vote
from gm.ports import Refused
from gm.table.pairs import ByName
from gm.table.questions import Counting, Table
from gm.text.lines import Pack
from scorer.werewolf.decks import standard_deck
from paths import FIXTURES

PLAYERS = {"en": ["Aki", "Ken", "Mio", "Sora"], "ja": ["健", "美緒", "空", "愛"],
           "ko": ["민수", "지훈", "서연", "지민"]}
READINGS = {"健": "けん", "美緒": "みお", "空": "そら", "愛": "あい"}
STRANGERS = {"en": ["Yui", "Bob", "Zed"], "ja": ["翔", "りん", "ユイ"], "ko": ["하은", "도윤", "준호"]}
SEPARATORS = [" ", ", ", "、", ","]


def _table(lang):
    return Table(Pack(lang, READINGS if lang == "ja" else None), PLAYERS[lang])


def _count(lang, high=4):
    players = PLAYERS[lang]
    candidates = [*players, "graveyard"]
    return _table(lang).count(candidates, high, Counting(tuple(candidates), bounds=(3, 4)))


def _said_as(lang, who, n, phrase_at):
    """`who` then a count phrase of the pack (any of its `[listen.hear]` words for `n`)."""
    pack = Pack(lang)
    hear = Vocabulary.from_pack(pack)
    name = hear.phrases("graveyard")[0] if who == "graveyard" else who
    numbers = hear.phrases(str(n))
    return f"{name} {numbers[phrase_at % len(numbers)]}"


@st.composite
def _tallies(draw, lang):
    candidates = [*PLAYERS[lang], "graveyard"]
    named = draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=4, unique=True))
    counts, left = {}, 4
    for who in named:
        counts[who] = draw(st.integers(0, left))
        left -= counts[who]
    return counts


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
@given(data=st.data())
def test_any_tally_said_in_a_packs_words_reads_back_as_the_same_tally(lang, data):
    tally = data.draw(_tallies(lang))
    separator = data.draw(st.sampled_from(SEPARATORS))
    phrase_at = data.draw(st.integers(0, 3))
    line = separator.join(_said_as(lang, who, n, phrase_at) for who, n in tally.items())
    value = _count(lang).parse(line)
    assert isinstance(value, ByName) and dict(value) == tally


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
@given(data=st.data())
def test_a_tally_with_a_stranger_or_a_count_out_of_bounds_is_no_answer_never_a_part(lang, data):
    tally = data.draw(_tallies(lang))
    pairs = [_said_as(lang, who, n, 0) for who, n in tally.items()]
    at = data.draw(st.integers(0, len(pairs)))
    bad = data.draw(st.one_of(
        st.builds(lambda who: f"{who} 1", st.sampled_from(STRANGERS[lang])),  # nobody at the table
        st.builds(lambda n: f"{PLAYERS[lang][1]} {n}", st.integers(5, 99))))  # more than the deck's votes
    line = " ".join([*pairs[:at], bad, *pairs[at:]])
    assert isinstance(_count(lang).parse(line), Refused)


def test_counts_by_name_that_make_more_than_the_vote_has_say_what_it_can_have():
    refused = _count("en").parse("Aki three, Ken three")
    assert isinstance(refused, Refused) and refused.aloud
    assert refused.line.text == "That makes 6 votes, but this vote has 3–4."


def _vote(clock, script, lang="en", keyboard="", log=None):
    players = PLAYERS[lang]
    asker, out = listening_asker(clock, [said(s) if isinstance(s, str) else said(*s) for s in script],
                             keyboard=keyboard, pack=Pack(lang), seats=players)
    events = []
    ctx = NightContext(players=players, deck=standard_deck(4), pack=asker.pack, speaker=asker.speaker,
                       asker=asker, clock=clock, log=log or (lambda kind, **d: events.append({"type": kind, **d})))
    result = run_vote(ctx)
    return result, asker.speaker.lines, events


def _texts(lines, *keys):
    return [line.text for line in lines if line.key in keys]


def test_the_tally_said_in_one_breath_at_the_first_count_is_confirmed_once():
    clock = FakeClock()
    result, lines, events = _vote(clock, ["aki three ken one", "yes"])
    assert result.executed == "Aki"
    answers = [e for e in events if e["type"] == "answer"]
    assert [(e["key"], e["answer"]) for e in answers] == [("werewolf.vote.ask_count", {"Aki": 3, "Ken": 1}),
                                                         ("werewolf.vote.readback", True)]
    assert _texts(lines, "werewolf.vote.ask_count", "werewolf.vote.ask_next") == ["How many votes for Aki?"]
    assert _texts(lines, "werewolf.vote.readback") == ["Aki 3, Ken 1, nobody else. Right?"]


def test_a_tally_by_name_that_can_be_the_votes_leaves_the_rest_with_none_and_asks_nothing_more():
    # four players: 3–4 votes (HW-R4); "Aki two, the graveyard one" makes 3: nobody else is asked
    clock = FakeClock()
    result, lines, events = _vote(clock, ["aki two the graveyard one", "yes"])
    assert [e["counts"] for e in events if e["type"] == "vote"] == [
        {"Aki": 2, "Ken": 0, "Mio": 0, "Sora": 0, "graveyard": 1}]
    assert len([e for e in events if e["type"] == "answer"]) == 2
    assert _texts(lines, "werewolf.vote.readback") == ["Aki 2, the graveyard 1, nobody else. Right?"]


def test_a_tally_by_name_short_of_the_votes_asks_only_for_what_is_missing():
    clock = FakeClock()
    _, lines, events = _vote(clock, ["aki two ken zero", "one", "zero", "zero", "yes"])
    assert _texts(lines, "werewolf.vote.ask_count", "werewolf.vote.ask_next") == [
        "How many votes for Aki?", "Mio?", "Sora?", "The graveyard?"]
    assert [e["counts"] for e in events if e["type"] == "vote"] == [
        {"Aki": 2, "Ken": 0, "Mio": 1, "Sora": 0, "graveyard": 0}]


@pytest.mark.parametrize("heard", ["noah zero", "ken one", "aki three", "ken one mio zero"])
def test_a_name_heard_at_a_count_is_no_answer_not_a_count_nor_a_fix(heard):
    # issue 37: "one vote" heard surely as "noah zero" was taken as a fix at a count, and the total
    # no longer fit; a name with a number alone, or a breath of them without the candidate asked,
    # is asked again (typed, "Ken 1" still sets Ken's count: Count.read)
    clock = FakeClock()
    players = ["Aki", "Ken", "Mio", "Noah"]
    asker, _ = listening_asker(clock, [said(heard), said("three")], seats=players)
    candidates = [*players, "graveyard"]
    question = Table(Pack("en"), players).count(candidates, 4, Counting(tuple(candidates), bounds=(3, 4)),
                                                 by_name=True)
    assert asker.ask(question).value == {"Aki": 3}
    assert asker.speaker.keys() == ["listen.not_understood", "werewolf.vote.ask_count"]


def test_a_tally_heard_with_a_total_the_vote_cannot_have_says_what_it_can_have_and_asks_again():
    clock = FakeClock()
    _, lines, events = _vote(clock, ["aki three ken three", "aki three ken one", "yes"])
    assert "That makes 6 votes, but this vote has 3–4." in [line.text for line in lines]
    assert [e["counts"] for e in events if e["type"] == "vote"][0]["Ken"] == 1


def test_a_stranger_or_a_name_twice_in_a_breath_is_not_understood_never_partly_taken():
    clock = FakeClock()
    _, lines, events = _vote(clock, ["aki three yui one", "aki three ken one", "yes"])
    assert [line.key for line in lines].count("listen.not_understood") == 1
    answers = [e for e in events if e["type"] == "answer"]
    assert answers[0]["answer"] == {"Aki": 3, "Ken": 1}  # neither Aki 3 alone nor the stranger's vote
    assert isinstance(_count("en").parse("Aki three, Aki one"), Refused)


def test_a_fix_said_at_the_confirmation_changes_only_its_count_and_re_reads_only_the_tally():
    clock = FakeClock()
    _, lines, events = _vote(clock, ["three", "one", "ken zero mio one", "yes"])
    assert _texts(lines, "werewolf.vote.readback") == ["Aki 3, Ken 1, nobody else. Right?",
                                                       "Aki 3, Mio 1, nobody else. Right?"]
    assert _texts(lines, "werewolf.vote.ask_count", "werewolf.vote.ask_next") == ["How many votes for Aki?", "Ken?"]
    assert [(e["candidate"], e["votes"]) for e in events if e["type"] == "vote_corrected"] == [("Ken", 0), ("Mio", 1)]


def test_a_fix_heard_unsure_is_read_back_as_the_tally_it_makes_never_the_one_before():
    clock = FakeClock()
    _, lines, events = _vote(clock, ["three", "one", ("aki four ken zero", 0.7), "yes"])
    assert _texts(lines, "werewolf.vote.readback") == [
        "Aki 3, Ken 1, nobody else. Right?", "Aki 4, nobody else. Right?"]  # its yes confirms the tally
    assert [e["counts"] for e in events if e["type"] == "vote"][0]["Aki"] == 4


def test_a_fix_heard_unsure_is_confirmed_by_a_yes_heard_surely_not_by_two_unsure_ones():
    # a fix heard unsure is a count heard unsure: the yes to the tally it makes is its one check
    clock = FakeClock()
    _, lines, events = _vote(clock, ["three", "one", ("aki four ken zero", 0.7), ("yes", 0.5), ("yes", 0.5),
                                     ("yes", 0.5)], keyboard="yes\n")
    assert _texts(lines, "werewolf.vote.readback") == [
        "Aki 3, Ken 1, nobody else. Right?", "Aki 4, nobody else. Right?"]
    assert [line.key for line in lines].count("listen.yes_or_no") == 2  # then typed: the tally as it was
    assert not [e for e in events if e["type"] == "vote_corrected"]
    assert [e["counts"] for e in events if e["type"] == "vote"][0]["Aki"] == 3
    clock = FakeClock()
    _, lines, events = _vote(clock, ["three", "one", ("aki four ken zero", 0.7), ("yes", 0.5), "yes"])
    assert [e["counts"] for e in events if e["type"] == "vote"][0]["Aki"] == 4


def test_a_fix_whose_tally_is_refused_is_kept_and_which_count_is_wrong_is_asked_at_once():
    # two counts heard wrong (Aki 3 for 2, Mio none for 1): the table fixes one at a time, and says
    # no to the tally the first fix makes, since Mio's is still wrong (HW-R4). The fix is kept, heard
    # unsure; gm asks at once which count is wrong; the tally both fixes make takes a sure yes
    # (bench/table_nights_bench.py --lang ja --seed 4811, night 1: the table's right fix, heard
    # unsure and read back, was refused for the other count, three times, and the vote was typed)
    clock = FakeClock()
    _, lines, events = _vote(clock, ["aki three ken one", "no", ("aki two", 0.7), "no", "mio one", ("yes", 0.7),
                                     "yes"])
    assert _texts(lines, "werewolf.vote.readback") == [
        "Aki 3, Ken 1, nobody else. Right?", "Aki 2, Ken 1, nobody else. Right?",
        "Aki 2, Ken 1, Mio 1, nobody else. Right?"]
    spoken = [line.key for line in lines]
    assert spoken.count("werewolf.vote.which") == 2 and "listen.again" not in spoken
    assert [e["counts"] for e in events if e["type"] == "vote"][0] == {"Aki": 2, "Ken": 1, "Mio": 1, "Sora": 0,
                                                                       "graveyard": 0}
    assert "listen.yes_or_no" in spoken  # the tally holds a count heard unsure: its yes is heard surely


def test_a_count_heard_unsure_is_asked_again_and_never_replaced_by_the_count_before():
    clock = FakeClock()
    _, lines, events = _vote(clock, ["three", ("two", 0.7), "one", "yes"])
    counts = [(e["answer"], e["sure"]) for e in events if e["type"] == "answer" and e["key"].endswith("ask_count")]
    assert counts == [({"Aki": 3}, True), ({"Ken": 1}, True)]
    asked = _texts(lines, "werewolf.vote.ask_count", "werewolf.vote.ask_next")
    assert asked == ["How many votes for Aki?", "Ken?", "Ken?"]


def test_korean_counts_hear_a_number_and_the_tally_hears_a_breath_of_fixes():
    # bench/one_breath_bench.py: with names in a count's grammar the Korean model heard 영 as 묘지 없어요
    clock = FakeClock()
    table = _table("ko")
    candidates = [*PLAYERS["ko"], "graveyard"]
    assert not table.one_breath and all(a.isdigit() for a in table.count(candidates, 4).answers)
    result, lines, events = _vote(clock, ["셋", "하나", "지훈 영 서연 하나", "맞아"], lang="ko")
    assert [(e["candidate"], e["votes"]) for e in events if e["type"] == "vote_corrected"] == [
        ("지훈", 0), ("서연", 1)]
    assert _texts(lines, "werewolf.vote.readback")[-1] == "민수 3표, 서연 1표, 나머지는 없죠?"


def test_the_night_log_keeps_every_question_answer_re_ask_and_read_back_with_how_it_came(tmp_path):
    clock = FakeClock()
    path = tmp_path / "night.jsonl"
    log = NightLog(path, clock, pack=Pack("en"))
    _vote(clock, [("aki three", 0.7), "aki three ken one", ("aki two", 0.7), "no", "aki two"], keyboard="\n",
          log=log)
    log.close()
    events = [json.loads(line) for line in path.read_text().splitlines()]
    kinds = [e["type"] for e in events if e["type"] in ("question", "heard", "typed", "reask", "readback", "answer")]
    assert kinds[:6] == ["question", "heard", "reask", "reask", "heard", "answer"]
    heard = [(e["text"], e["by"], e["sure"]) for e in events if e["type"] == "heard"]
    assert heard[:2] == [("aki three", "voice", False), ("aki three ken one", "voice", True)]
    assert [e["line"] for e in events if e["type"] == "reask"][:2] == ["listen.not_understood",
                                                                       "werewolf.vote.ask_count"]
    readback = next(e for e in events if e["type"] == "readback")
    assert readback["text"] == "Aki 2, Ken 1, nobody else. Right?" and readback["key"] == "werewolf.vote.readback"
    assert [e["by"] for e in events if e["type"] == "typed"] == ["keyboard"]
    assert all(e["t"] <= later["t"] for e, later in zip(events, events[1:]))


def test_the_night_log_keeps_what_was_heard_with_its_confidence_when_the_keyboard_meets_the_end(tmp_path):
    # the count is heard unsure three times (its tries), the keyboard takes it over and its input
    # has ended: the three hearings are in the log all the same, each with its least sure word
    clock = FakeClock()
    path = tmp_path / "night.jsonl"
    log = NightLog(path, clock, pack=Pack("en"))
    with pytest.raises(AnswersExhausted):
        _vote(clock, [("three", 0.7), ("two", 0.55), ("one", 0.4)], log=log)
    log.close()
    events = [json.loads(line) for line in path.read_text().splitlines()]
    heard = [(e["key"], e["text"], e["sure"], e["confidence"]) for e in events if e["type"] == "heard"]
    assert heard == [("werewolf.vote.ask_count", "three", False, 0.7), ("werewolf.vote.ask_count", "two", False, 0.55),
                     ("werewolf.vote.ask_count", "one", False, 0.4)]
    assert [e["line"] for e in events if e["type"] == "reask"][-1] == "listen.type_it"
    assert not [e for e in events if e["type"] == "answer"]


def test_a_typed_night_takes_the_tally_in_one_line_at_the_first_count(tmp_path):
    log = tmp_path / "night.jsonl"
    answers = "\n\n\n\n" + "Aki 2, graveyard 1\n" + "\n" + "werewolf villager\n" + "graveyard\n"
    result = CliRunner().invoke(app, ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", *FAST,
                                      "--speech", "off", "--log", str(log)], input=answers)
    assert result.exit_code == 0, result.output
    assert "Aki 2, the graveyard 1, nobody else. Right?" in result.stdout
    assert "Ken?" not in result.stdout  # nobody else asked
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["counts"] for e in events if e["type"] == "vote"] == [
        {"Aki": 2, "Ken": 0, "Mio": 0, "Sora": 0, "graveyard": 1}]
    assert [e["text"] for e in events if e["type"] == "typed"][:5] == ["", "", "", "", "Aki 2, graveyard 1"]


def test_counts_said_in_one_breath_must_survive_the_second_decode_too():
    from gm.hearing.phrases import Heard, Phrasebook
    from gm.hearing.recorded import read_wav
    from gm.hearing.recognition import UtteranceRecogniser

    tally = _table("en").tally({"Aki": 3, "Ken": 1}, ["Aki", "Ken"], 4)
    book = Phrasebook({"aki three": "Aki=3", "ken one": "Ken=1", "yes": "yes"})

    class Decoder(UtteranceRecogniser):
        def __init__(self, second):
            super().__init__(16000.0, book)
            self.second = second

        def hear(self, audio):
            return Heard("aki three ken one", tuple((w, 1.0) for w in "aki three ken one".split()))

        def confirm(self, audio):
            return self.second

    _, speech = read_wav(FIXTURES / "vad" / "two_votes.wav")  # speech to the cutter
    for second, sure in (("aki three ken one", True), ("aki three then won", False)):
        decoder = Decoder(second)
        heard = decoder.accept(bytes(8000) + speech + bytes(32000)) or decoder.finish()
        assert heard.text == "aki three ken one" and heard.sure(0.9) is sure
    assert tally.parse("Aki=3 Ken=1") == {"Aki": 3, "Ken": 1}


def test_question_mark_at_a_count_lists_the_numbers_not_every_pair_it_hears():
    players = PLAYERS["en"]
    candidates = [*players, "graveyard"]
    question = _table("en").count(candidates, 4, Counting(tuple(candidates)), by_name=True)
    assert "Aki=3" in question.answers
    assert question.choices().text == "Answers: 0, 1, 2, 3, 4."
