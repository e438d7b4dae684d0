"""Which phrases answer a question, and whether a recogniser result names one (pure)."""

import json

from hypothesis import given
from hypothesis import strategies as st

from gm.ports import fix_token
from gm.hearing.phrases import (
    COMMANDS, Heard, Phrasebook, alike, command_phrases, numbered, other_phrases, question_phrases, unhearable,
)
from gm.text.vocabulary import Vocabulary
from gm.text.decoys import DECOYS
from gm.text.lines import Pack
from gm.ports import Line
from gm.table.questions import Table
from voices import LANGUAGES

EN = Vocabulary.from_pack(Pack("en"))


def _q(*answers, labels=None):
    return Table(Pack("en")).choice("q", answers, labels, prompt=Line("q", "?", "?"))


def _heard(text, conf=1.0):
    return Heard(text, tuple((w, conf) for w in text.split()))


def test_every_pack_hears_every_answer_id_and_command():
    for lang in LANGUAGES:
        hear = Vocabulary.from_pack(Pack(lang)).hear
        for key in ("yes", "no", "graveyard", "wake", *map(str, range(7)), *COMMANDS):
            assert hear[key], f"{lang}: nothing to hear for {key}"


def test_japanese_phrases_are_both_the_written_forms_and_their_kana():
    ja = Vocabulary.from_pack(Pack("ja"))
    assert {"墓地", "ぼち"} <= set(ja.phrases("graveyard"))
    assert {"二", "に", "にひょう"} <= set(ja.phrases("2"))


def test_heard_reads_vosk_results_with_and_without_word_confidences():
    result = json.loads('{"result": [{"conf": 0.5, "word": "two"}, {"conf": 0.9, "word": "votes"}], '
                        '"text": "two votes"}')
    assert Heard.from_result(result) == Heard("two votes", (("two", 0.5), ("votes", 0.9)))
    assert not Heard.from_result(result).sure(0.6) and Heard.from_result(result).sure(0.5)
    assert Heard.from_result({"text": " Yes "}) == Heard("yes", (("yes", 1.0),))
    assert Heard.from_result({"text": ""}).text == ""


def test_question_phrases_come_from_vocabulary_labels_and_readings():
    q = _q("Aki", "健", "graveyard", labels={"graveyard": "the graveyard"})
    phrases = question_phrases(q, EN, Pack("en", {"健": "けん"}).spoken_word)
    assert phrases["grave"] == phrases["the graveyard"] == "graveyard"
    assert phrases["aki"] == "Aki"
    assert phrases["健"] == phrases["ken"] == "健"  # the English voice and model spell the reading


def test_seat_numbers_answer_for_players_only_where_no_number_is_an_answer():
    names = _q("Aki", "Ken", "graveyard")
    phrases = question_phrases(names, EN, str, seats=("Aki", "Sora", "Ken"), numbered=("Aki", "Sora", "Ken"))
    assert phrases["one"] == "Aki" and phrases["three"] == "Ken"
    assert "two" not in phrases  # Sora is not an answer here
    counts = _q("0", "1", "2", "3")
    assert question_phrases(counts, EN, str, seats=("Aki", "Ken"), numbered=("Aki", "Ken"))["one"] == "1"


def test_a_seat_number_answers_only_for_a_player_the_table_was_told_to_number():
    """A table names its players; it says a seat number only where gm asked it to (a name the
    model cannot hear, names that sound alike), so another seat number is no answer: with every
    seat numbered, names of people not at the table were heard as seat numbers."""
    names = _q("Aki", "Zoë", "Ken", "graveyard")
    phrases = question_phrases(names, EN, str, seats=("Aki", "Zoë", "Ken"), numbered=("Zoë",))
    assert phrases["two"] == "Zoë"
    assert "one" not in phrases and "three" not in phrases
    assert "two" not in question_phrases(names, EN, str, seats=("Aki", "Zoë", "Ken"))


def test_the_players_numbered_are_those_the_model_cannot_hear_and_those_alike():
    hears = {"aki", "mio", "miho", "ken"}.__contains__
    assert numbered(("Aki", "Zoë", "Mio", "Ken", "Miho"), hears, str) == ("Zoë", "Mio", "Miho")
    assert numbered(("Aki", "Ken"), hears, str) == ()


def test_exact_phrases_match_and_unk_or_unsure_words_are_rejected():
    book = Phrasebook({"two": "2", "two votes": "2", "three": "3"})
    assert book.match(_heard("two votes")) == "2"
    assert book.match(_heard("three")) == "3"
    assert book.match(_heard("")) is None
    assert book.match(_heard("[unk]")) is None
    assert book.match(_heard("two [unk]")) is None
    assert book.match(_heard("three", conf=0.4)) is None
    unsure_word = Heard("two votes", (("two", 0.9), ("votes", 0.3)))
    assert book.match(unsure_word) is None  # one unsure word rejects the whole utterance


def test_no_answer_is_built_from_parts():
    """Table talk "오늘 날씨 좋다" heard as "영 둘 셋", two words unsure: no answer, never 0."""
    book = Phrasebook({w: str(n) for n, w in enumerate(("영", "하나", "둘", "셋", "넷", "다섯", "여섯"))})
    assert book.match(Heard("영 둘 셋", (("영", 1.0), ("둘", 0.478), ("셋", 0.554)))) is None
    assert book.match(_heard("영 둘 셋")) is None  # three answers, sure or not, are no answer
    unsure_noise = Heard("two uh votes", (("two", 0.9), ("uh", 0.3), ("votes", 1.0)))
    assert Phrasebook({"two votes": "2"}).match(unsure_noise) is None


def test_near_misses_of_one_whole_phrase_match_but_never_choose_between_answers():
    book = Phrasebook({"two votes": "2", "two": "2", "three": "3"})
    assert book.match(_heard("two two votes")) == "2"  # only words of "2"
    assert book.match(_heard("two three votes")) is None  # a word of another answer
    commands = Phrasebook(command_phrases(Vocabulary({
        "wake": ("게임 마스터",), "resume": ("계속",), "add_minute": ("일분 더",)})))
    assert commands.match(_heard("게임 마스터 계속 계속")) == "resume"
    assert commands.match(_heard("게임 마스터 더 계속 더")) is None  # resume 81.8, add_minute 75
    names = Phrasebook({"ken": "Ken", "kenta": "Kenta"})
    assert names.match(_heard("kent")) is None  # near both: do not guess
    strict = Phrasebook({"two votes": "2"}, near_miss=99)
    assert strict.match(_heard("two two votes")) is None


def test_a_result_holding_a_decoy_is_no_answer_and_decoys_go_into_the_grammar():
    book = Phrasebook({"two": "2", "two votes": "2", "the graveyard": "graveyard"},
                      decoys=("the", "weather", "two", "is"))
    assert json.loads(book.grammar()) == ["two", "two votes", "the graveyard", "weather", "is"]
    assert book.decoy_words() == ("weather", "is")  # a word of a phrase is no decoy
    assert book.match(_heard("weather")) is None
    assert book.match(_heard("two weather")) is None
    assert book.match(_heard("the graveyard")) == "graveyard"
    assert book.only(lambda w: w != "weather").decoys == ("the", "two", "is")


def test_every_language_has_decoys_and_none_is_an_answer_phrase():
    for lang in LANGUAGES:
        vocabulary = Vocabulary.from_pack(Pack(lang))
        assert vocabulary.decoys[-len(DECOYS[lang]):] == DECOYS[lang]  # after the pack's own decoy words
        assert "decoy" not in vocabulary.hear and len(vocabulary.decoys) > len(DECOYS[lang])
        phrases = {p for ps in vocabulary.hear.values() for p in ps}
        assert not phrases & (set(vocabulary.decoys) - set(vocabulary.decoys_of(()))), lang  # but the pack's own


def test_a_word_the_pack_makes_a_decoy_is_no_answer_by_itself_but_is_in_a_longer_phrase():
    # the Korean model hears 여섯 and 학교 as 영: 영 is typed as 0, and heard only in 영 표 or "지훈 영"
    ko = Vocabulary.from_pack(Pack("ko"))
    table = Table(Pack("ko"), ("지훈", "서연"))
    phrases = question_phrases(table.count(["지훈"], 2), ko, str)
    assert "영" not in phrases and phrases["없어요"] == phrases["영 표"] == "0"
    fix = question_phrases(_q(fix_token("지훈", 0), fix_token("서연", 1)), ko, str)
    assert fix["지훈 영"] == "지훈=0"
    assert ko.hear["0"][:2] == ("없어요", "영")  # the typed word


def test_korean_counting_forms_alone_are_counts_and_ne_is_never_four():
    # 하나, 둘, 셋 become 한, 두, 세 before a counter (한 표); the model often hears them so alone.
    # 네 is that form of 4 but is also "yes": 4 is said 사 (the pack's decoy line)
    ko = Vocabulary.from_pack(Pack("ko"))
    table = Table(Pack("ko"), ("지훈", "서연"))
    book = Phrasebook(question_phrases(table.count(["지훈"], 4), ko, str), decoys=ko.decoys)
    assert [book.match(_heard(w)) for w in ("한", "두", "세", "하나", "두 표", "셋")] == ["1", "2", "3", "1", "2", "3"]
    assert book.match(_heard("네")) is None and book.match(_heard("사")) == "4"


def test_a_correction_is_a_name_then_a_number():
    q = _q(fix_token("Aki", 2), fix_token("graveyard", 0), labels={"graveyard": "the graveyard"})
    phrases = question_phrases(q, EN, str)
    assert phrases["aki two"] == phrases["aki 2"] == "Aki=2"
    assert phrases["the graveyard zero"] == phrases["grave nobody"] == "graveyard=0"


@given(st.dictionaries(st.text("abcdefgh", min_size=1, max_size=8), st.sampled_from("xyz"), min_size=1))
def test_every_phrase_said_clearly_gives_its_answer(phrases):
    book = Phrasebook(phrases)
    for phrase, answer in phrases.items():
        assert book.match(_heard(phrase)) == answer


def test_grammar_holds_the_phrases_and_unk_only_where_the_model_has_it():
    book = Phrasebook({"셋": "3", "넷": "4"})
    assert json.loads(book.grammar()) == ["셋", "넷"]
    assert json.loads(Phrasebook({"yes": "yes"}, unk=True).grammar()) == ["yes", "[unk]"]
    assert book.only(lambda w: w == "넷").phrases == {"넷": "4"}
    assert Phrasebook({"vote now": "end"}).only(lambda w: w != "now").phrases == {}


def test_commands_need_the_wake_phrase():
    phrases = command_phrases(EN)
    assert phrases["game master pause"] == "pause"
    assert phrases["game master one more minute"] == "add_minute"
    assert phrases["game master vote now"] == "end"
    assert all(p.startswith("game master ") for p in phrases)
    assert set(phrases.values()) == set(COMMANDS)


def test_unhearable_names_and_names_too_alike():
    known = {"aki", "けん"}.__contains__
    assert unhearable(["Aki", "健", "Zoë"], known, lambda n: (n, {"健": "けん"}.get(n, n))) == ["Zoë"]
    assert alike(["Ken", "Kenta", "Mio", "Miho", "Aki"]) == [("Ken", "Kenta"), ("Mio", "Miho")]
    assert alike(["健", "賢"], {"健": "けん", "賢": "けん"}.get) == [("健", "賢")]
    assert alike(["Aki", "Sora"]) == []


def _book(question, seats=("Aki", "Ken", "Mio")):
    phrases = question_phrases(question, EN, str, seats)
    return Phrasebook(phrases, decoys=EN.decoys, others=other_phrases(EN, str, seats))


def test_the_grammar_holds_every_phrase_of_the_table_and_only_this_questions_answer_it():
    count = _q("0", "1", "2", "3")
    book = _book(count)
    grammar = set(book.grammar_phrases())
    assert {"yes", "no", "five", "six", "aki", "ken", "mio", "graveyard", "werewolf", "seer", "game master",
            "whatever"} <= grammar  # other answers, numbers not asked, players, cards, the wake phrase, decoys
    assert not {"game master pause", "pause", "repeat"} & grammar  # the commands' words took answers
    assert book.match(_heard("two")) == "2"
    for other in ("yes", "five", "six", "aki", "werewolf", "graveyard", "whatever", "game master"):
        assert book.match(_heard(other)) is None, other
    assert book.match(_heard("fives")) is None  # nearer a number not asked than any answer: no guess


def test_a_phrase_of_the_question_is_never_one_of_its_others():
    book = _book(_q("Aki", "Ken", "graveyard"))
    assert "aki" in book.phrases and "aki" not in book.others and "graveyard" not in book.others
    assert book.match(_heard("aki")) == "Aki" and book.match(_heard("mio")) is None
    merged = _book(_q("yes", "no")).with_phrases(book.phrases)
    assert merged.match(_heard("ken")) == "Ken" and "ken" not in merged.others


def test_whatever_starts_with_the_wake_phrase_is_passed_over_at_a_question():
    book = _book(_q("yes", "no"))
    assert book.passed_over(_heard("game master")) and book.passed_over(_heard("game master yes"))
    assert not book.passed_over(_heard("yes")) and not book.passed_over(_heard("master"))
    commands = Phrasebook(command_phrases(EN), others=other_phrases(EN))
    assert not commands.passed_over(_heard("game master pause"))  # a command, to the book of commands


def test_the_pack_says_which_of_two_words_the_model_cannot_tell_apart_is_a_decoy():
    ko = Vocabulary.from_pack(Pack("ko"))
    assert {"넷", "네"} <= set(ko.decoys) and "넷" not in ko.hear["4"]
    count = Table(Pack("ko")).choice("votes", tuple(str(n) for n in range(5)), prompt=Line("votes", "?", ""))
    book = Phrasebook(question_phrases(count, ko, str), decoys=ko.decoys, others=other_phrases(ko))
    assert book.match(_heard("넷")) is None and book.match(_heard("네")) is None and book.match(_heard("사")) == "4"


def test_a_steps_done_is_heard_at_a_step_only():
    # 됐어요 and 했어요 in a count's grammar took 없어요 (0): they are no other phrase of the table
    vocabulary = Vocabulary.from_pack(Pack("ko"))
    assert vocabulary.phrases("done")[:2] == ("됐어요", "했어요")
    assert not set(vocabulary.phrases("done")) & set(other_phrases(vocabulary, seats=("민수", "지훈")))
    step = Table(Pack("ko")).step("werewolf.deal", total=9, villagers=6, others="", graveyard=1)
    assert {"됐어요", "했어요", "완료"} <= set(question_phrases(step, vocabulary, Pack("ko").spoken_word))
