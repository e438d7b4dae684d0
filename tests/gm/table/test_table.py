"""The conversation's questions read what people type, in every pack's language (gm/table)."""

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from typer.testing import CliRunner

from fakes import FAST, FakeClock
from gm.cli import app
from gm.hearing.keyboard import KeyboardAsker
from gm.ports import Answer, How, Refused
from gm.table.asked import Done
from gm.table.questions import Counting, Table
from gm.files import printable
from gm.text.words import fold, words_of
from gm.text.lines import Pack

EN_PLAYERS = ["Aki", "Ken", "Mio", "Sora"]
JA_PLAYERS = ["健", "美緒", "空", "愛"]
JA_READINGS = {"健": "けん", "美緒": "みお", "空": "そら", "愛": "あい"}
KO_PLAYERS = ["민수", "지훈", "서연", "지민"]
CARDS = ("villager", "werewolf", "traitor", "seer")
REVEAL = "werewolf.reveal.ask_hand"


def table(lang):
    if lang == "ja":
        return Table(Pack("ja", JA_READINGS), JA_PLAYERS), JA_PLAYERS
    players = KO_PLAYERS if lang == "ko" else EN_PLAYERS
    return Table(Pack(lang), players), players


def count(lang, high=4):
    questions, players = table(lang)
    candidates = [*players, "graveyard"]
    return questions.count(candidates, high, Counting(tuple(candidates)))


def test_fold_makes_full_width_and_katakana_as_typed_otherwise():
    assert fold("ｇｒａｖｅｙａｒｄ") == "graveyard" and fold("３") == "3"
    assert fold("ジンロウ") == fold("じんろう") and fold("  Aki   Ken ") == "aki ken"
    assert words_of("ken1") == ["ken", "1"] and words_of("Ken=1, Aki:2") == ["ken", "1", "aki", "2"]
    assert words_of("けん２") == ["けん", "2"] and words_of("人狼、村人") == ["人狼", "村人"]


@pytest.mark.parametrize("lang, typed, counts", [
    ("en", "2", {"Aki": 2}), ("en", "two", {"Aki": 2}), ("en", "２", {"Aki": 2}), ("en", "2 votes", {"Aki": 2}),
    ("en", "Ken 1", {"Ken": 1}), ("en", "Ken=1", {"Ken": 1}), ("en", "ken1", {"Ken": 1}),
    ("en", "Aki three, Ken one", {"Aki": 3, "Ken": 1}), ("en", "3 1 0 0 0", dict(zip(
        [*EN_PLAYERS, "graveyard"], (3, 1, 0, 0, 0)))), ("en", "graveyard 1", {"graveyard": 1}),
    ("ja", "３", {"健": 3}), ("ja", "さん", {"健": 3}), ("ja", "三", {"健": 3}), ("ja", "3票", {"健": 3}),
    ("ja", "けん 2", {"健": 2}), ("ja", "けん２", {"健": 2}), ("ja", "健=1", {"健": 1}), ("ja", "み 1", {"美緒": 1}),
    ("ja", "ぼち１", {"graveyard": 1}), ("ja", "墓地 1", {"graveyard": 1}), ("ja", "ken 2", {"健": 2}),
    ("ko", "둘", {"민수": 2}), ("ko", "두 표", {"민수": 2}), ("ko", "２", {"민수": 2}), ("ko", "2표", {"민수": 2}),
    ("ja", "健2票、墓地1票", {"健": 2, "graveyard": 1}), ("ja", "健は2票、墓地は1票", {"健": 2, "graveyard": 1}),
    ("ja", "けん に 2", {"健": 2}), ("ja", "健 2票 墓地 1票", {"健": 2, "graveyard": 1}),
    ("ja", "けん2 墓地1", {"健": 2, "graveyard": 1}), ("ja", "みおが１ひょう", {"美緒": 1}),
    ("ko", "민수에게 2표", {"민수": 2}), ("ko", "민수한테 2표, 묘지는 1표", {"민수": 2, "graveyard": 1}),
    ("ko", "지훈이 1", {"지훈": 1}), ("ko", "지훈 이 1", {"지훈": 1}),
    ("ko", "지훈 1", {"지훈": 1}), ("ko", "지훈1", {"지훈": 1}), ("ko", "묘지 1", {"graveyard": 1}),
])
def test_a_count_reads_numbers_and_names_as_people_type_them(lang, typed, counts):
    assert dict(count(lang).parse(typed)) == counts


@pytest.mark.parametrize("lang, typed, key", [
    ("en", "5", "table.out_of_range"), ("en", "3 3", "table.too_many_votes"), ("en", "Yui 1", "table.unknown_part"),
    ("en", "abc", "table.not_count"), ("ja", "ゆい 2", "table.unknown_part"),
    ("ko", "유이에게 2표", "table.unknown_part"),
    ("ja", "５", "table.out_of_range"), ("ko", "다섯", "table.out_of_range"), ("en", "", "table.empty"),
    ("en", "1 1 1 0 0 0", "table.too_many_numbers"),
])
def test_a_count_the_vote_cannot_have_is_refused_by_a_pack_line(lang, typed, key):
    refused = count(lang).parse(typed)
    assert isinstance(refused, Refused) and refused.line.key == key and refused.near is None


@pytest.mark.parametrize("lang, typed, card", [
    ("en", "Werewolf", "werewolf"), ("en", "ｗｅｒｅｗｏｌｆ", "werewolf"), ("en", "fortune teller", "seer"),
    ("ja", "じんろう", "werewolf"), ("ja", "人狼", "werewolf"), ("ja", "うらぎりもの", "traitor"),
    ("ja", "ウラギリモノ", "traitor"), ("ja", "werewolf", "werewolf"), ("ko", "늑대인간", "werewolf"),
    ("ko", "배신자", "traitor"), ("ko", "Seer", "seer"),
])
def test_a_card_reads_every_languages_names_and_readings(lang, typed, card):
    questions, players = table(lang)
    assert questions.card(REVEAL, CARDS, players[0], name=players[0]).parse(typed) == card


@pytest.mark.parametrize("lang, typed", [
    ("en", "werewolf villager"), ("en", "werewolf, villager"), ("en", "Werewolf,Villager"),
    ("ja", "人狼 村人"), ("ja", "人狼、村人"), ("ja", "人狼村人"), ("ja", "じんろう　むらびと"),
    ("ko", "늑대인간 시민"), ("ko", "늑대인간, 시민"),
])
def test_a_whole_hand_is_one_line(lang, typed):
    questions, players = table(lang)
    assert questions.hand(REVEAL, CARDS, players[0], name=players[0]).parse(typed) == ("werewolf", "villager")


def test_a_hand_of_one_card_or_a_card_not_in_the_deck_says_why():
    questions, _ = table("en")
    hand = questions.hand(REVEAL, CARDS, "Aki", name="Aki")
    assert hand.parse("werewolf").line.text == "“werewolf”: 2 cards, please, like “Villager Werewolf”."
    assert hand.parse("werewolf gorilla").line.text == "“werewolf gorilla”: Gorilla is not in tonight's deck."


@pytest.mark.parametrize("lang, typed, player", [
    ("en", "aki", "Aki"), ("en", "mi", "Mio"), ("en", "ＳＯＲＡ", "Sora"), ("en", "graveyard", "graveyard"),
    ("en", "ｇｒａｖｅｙａｒｄ", "graveyard"), ("en", "no vote", None), ("ja", "けん", "健"), ("ja", "み", "美緒"),
    ("ja", "ken", "健"), ("ja", "墓地", "graveyard"), ("ja", "ぼち", "graveyard"), ("ja", "投票しない", None),
    ("ko", "민수", "민수"), ("ko", "서", "서연"), ("ko", "묘지", "graveyard"), ("ko", "투표 안 함", None),
])
def test_a_player_is_named_by_name_reading_or_a_prefix_only_they_have(lang, typed, player):
    questions, players = table(lang)
    pick = questions.pick("werewolf.vote.ask_voter", [*players, "graveyard"], "werewolf.vote.abstain",
                          voter=players[0])
    assert pick.parse(typed) == player


@pytest.mark.parametrize("lang, yes, no", [("en", ["y", "yes", "Yes", "yeah"], ["n", "no", "nope"]),
                                           ("ja", ["y", "はい", "うん"], ["いいえ", "n"]),
                                           ("ko", ["y", "네", "맞아"], ["아니요", "아니"])])
def test_yes_and_no_in_every_language(lang, yes, no):
    question = table(lang)[0].yes_no("werewolf.evening.again")
    assert [question.parse(t) for t in yes] == [True] * len(yes)
    assert [question.parse(t) for t in no] == [False] * len(no)


def test_a_suggestion_only_when_near_and_y_in_the_nights_language_takes_it():
    questions, _ = table("en")
    card = questions.card(REVEAL, CARDS, "Aki", name="Aki")
    assert card.parse("vilager").near == "villager"
    assert card.parse("Aki").near is None  # no "Traitor?" for a name
    assert count("en").parse("3 1 0 0 0 0").near is None  # no "0?" for a tally typed at a count
    for lang, typed, take in (("en", "vilager", "y"), ("ja", "むらびど", "はい"), ("ko", "시민이", "네")):
        questions, players = table(lang)
        out = []
        asker = KeyboardAsker(FakeClock(), io.StringIO(f"{typed}\n{take}\n"), echo=out.append)
        assert asker.ask(questions.card(REVEAL, CARDS, players[0], name=players[0])) == Answer("villager")
        assert out[1].startswith("  ? ") and "(y)" in out[1]


def test_the_tally_takes_enter_yes_no_or_fixes_in_one_line():
    questions, players = table("en")
    tally = questions.tally({"Aki": 3, "Ken": 1, "Mio": 0, "Sora": 0, "graveyard": 0}, [*players, "graveyard"], 4)
    assert tally.prompt.text == "Aki 3, Ken 1, nobody else. Right?"
    assert tally.has_default and tally.default is True
    assert [tally.parse(t) for t in ("yes", "y", "no")] == [True, True, False]
    assert dict(tally.parse("Aki 2")) == {"Aki": 2} and dict(tally.parse("ken=2, mio 1")) == {"Ken": 2, "Mio": 1}
    assert tally.hint() == "Enter = yes · or a fix, like “Aki 2”"
    asker = KeyboardAsker(FakeClock(), io.StringIO("\n"), echo=lambda _: None)
    assert asker.ask(tally) == Answer(True, How.DEFAULT)  # one keystroke


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_the_last_count_of_an_exact_total_is_what_it_leaves_and_enter_takes_it(lang):
    """HW-R4: a 5- or 6-player standard deck's vote has exactly one vote per player, and a
    runoff's total is the first round's; the last count asked can only be what is left."""
    questions, players = table(lang)
    candidates = [*players, "graveyard"]
    last = questions.count(["graveyard"], 2, Counting(tuple(candidates), 4, (6, 6)))
    assert last.has_default and dict(last.default) == {"graveyard": 2}
    assert last.hint().endswith("Enter = 2")
    assert last.implied.key == "werewolf.vote.implied" and "2" in last.implied.text
    asker = KeyboardAsker(FakeClock(), io.StringIO("\n"), echo=lambda _: None)
    answer = asker.ask(last)
    assert dict(answer.value) == {"graveyard": 2} and answer.how == How.DEFAULT
    assert dict(last.parse("1")) == {"graveyard": 1}  # said otherwise, taken: the total then refuses it
    ranged = questions.count(["graveyard"], 2, Counting(tuple(candidates), 2, (3, 4)))
    not_last = questions.count([players[3], "graveyard"], 2, Counting(tuple(candidates), 4, (6, 6)))
    for open_count in (ranged, not_last, count(lang)):  # 4 players: 3 or 4 votes; two still to ask
        assert not open_count.has_default and open_count.implied is None
        assert "Enter" not in open_count.hint()


def test_question_mark_lists_the_choices_and_the_prompt_does_not():
    questions, players = table("ja")
    out = []
    asker = KeyboardAsker(FakeClock(), io.StringIO("?\n人狼\n"), echo=out.append)
    assert asker.ask(questions.card(REVEAL, CARDS, players[0], name=players[0])).value == "werewolf"
    assert out[1] == "  答え：村人、人狼、裏切り者、占い師。"


def test_a_step_goes_on_with_enter_or_done_in_the_nights_language():
    questions, _ = table("ja")
    step = questions.step("werewolf.lay_down")
    assert [step.parse(t) for t in ("完了", "done", "ｄｏｎｅ")] == [Done.DONE] * 3


@pytest.mark.parametrize(("lang", "yes", "no"),
                         [("en", "yeah", "nope"), ("ja", "はい", "いいえ"), ("ko", "맞아", "아니요")])
def test_a_step_that_goes_on_by_itself_takes_the_tables_yes_as_done_typed_and_heard(lang, yes, no):
    """The pass and the seer's look go on by themselves: a yes is their "done"; the deal, which
    waits through the table's talk, takes only "done"; a no is never one."""
    from gm.hearing.phrases import question_phrases
    from gm.text.vocabulary import Vocabulary

    questions, _ = table(lang)
    pack = Pack(lang)
    timed, deal = questions.step("werewolf.lay_down", timeout=20), questions.step("werewolf.lay_down")
    assert timed.parse(yes) == Done.DONE and isinstance(deal.parse(yes), Refused)
    assert isinstance(timed.parse(no), Refused)
    goes_on, waits = (question_phrases(q, Vocabulary.from_pack(pack), pack.spoken_word) for q in (timed, deal))
    assert goes_on[yes] == "done" and yes not in waits and no not in goes_on
    assert set(waits.items()) < set(goes_on.items())


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_every_prompt_tip_fits_a_line(lang):
    questions, players = table(lang)
    candidates = [*players, "graveyard"]
    asked = [questions.step("werewolf.lay_down", timeout=20), questions.yes_no("werewolf.evening.again"),
             count(lang, 6), questions.card(REVEAL, CARDS, players[0], name=players[0]),
             questions.hand(REVEAL, CARDS, players[0], name=players[0]),
             questions.tally(dict.fromkeys(candidates, 1), candidates, 6),
             questions.pick("werewolf.vote.ask_voter", candidates, "werewolf.vote.abstain", voter=players[0])]
    for question in asked:
        assert cell_len(f"  [{question.hint(20.0)}] > ") <= 80, question.key  # columns: 健 takes two


# -- whole nights typed as people type ------------------------------------------------------------
def play(players, lang, typed):
    return CliRunner().invoke(app, ["werewolf", "play", "--players", players, "--lang", lang, *FAST,
                                    "--speech", "off", "--listen", "off"], input=typed)


def test_a_japanese_night_typed_with_an_ime_has_no_refusal():
    """Full-width digits, kana names and cards, a whole hand in one line, はい: nothing refused."""
    typed = "\n完了\n\n完了\n" + "けん　３\nみお１\n" + "はい\n" + "じんろう　うらぎりもの\n" + "いいえ\n"
    result = play("健=けん,美緒=みお,空=そら,愛=あい", "ja", typed)
    assert result.exit_code == 0, result.output
    assert "  ? " not in result.stdout  # no refusal
    assert "健さんが処刑されます。" in result.stdout
    assert "健 3票、美緒 1票、ほかは0票ですね？" in result.stdout


def test_a_korean_night_typed_has_no_refusal_and_no_english_line():
    typed = "\n완료\n\n\n" + "셋\n1\n" + "네\n" + "늑대인간 배신자\n" + "아니요\n"
    result = play("민수,지훈,서연,지민", "ko", typed)
    assert result.exit_code == 0, result.output
    assert "  ? " not in result.stdout
    said = [line for line in result.stdout.splitlines() if not line.startswith("  > ")]
    assert [line for line in said if any("a" <= ch.lower() <= "z" for ch in line)] == []
    assert "민수 3표, 지훈 1표, 나머지는 없죠?" in result.stdout


@pytest.mark.parametrize("lang, players, reason", [
    ("en", "Aki,Ken,Mio,done", "'done': it is an answer word (done)"),
    ("en", "Aki,Ken,Mio,ＮＯＮＥ", "'ＮＯＮＥ': it is an answer word (none)"),
    ("en", "Aki,Ken,Mio,Yes", "'Yes': it is an answer word (yes)"),
    ("en", "Aki,Ken,Mio,3", "'3': it is an answer word (3)"),
    ("en", "Aki,Ken,Mio,ｇｒａｖｅｙａｒｄ", "'ｇｒａｖｅｙａｒｄ': that is the graveyard's name"),
    ("ja", "健,美緒,空,完了", "「完了」はプレイヤーの名前にできません：答えの言葉（完了）です"),
    ("ja", "健,美緒,空,いいえ", "「いいえ」はプレイヤーの名前にできません：答えの言葉（いいえ）です"),
    ("ko", "민수,지훈,서연,없음", "‘없음’은(는) 플레이어 이름이 될 수 없어요: 대답하는 말(없음)이에요"),
    ("ko", "민수,지훈,서연,완료", "‘완료’은(는) 플레이어 이름이 될 수 없어요: 대답하는 말(완료)이에요"),
    ("en", "Aki,Ken,Mio,R", "'R': typing r repeats the question or lists its answers"),
    ("ja", "健,美緒,空,ｒ", "「ｒ」はプレイヤーの名前にできません：rと打つと質問の繰り返しか答えの一覧になります"),
    ("ko", "민수,지훈,서연,？", "플레이어 이름이 될 수 없어요: ?를 치면 질문을 다시 하거나 대답을 보여 줘요"),
])
def test_a_name_that_is_an_answer_word_is_refused_at_set_up_in_one_line(lang, players, reason):
    result = CliRunner().invoke(app, ["werewolf", "play", "--players", players, "--lang", lang], input="")
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.rstrip().endswith(reason), result.stderr


def test_a_recording_that_is_no_file_is_refused_before_the_speaker_says_anything(tmp_path):
    result = CliRunner().invoke(app, ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", "--listen-from",
                                      str(tmp_path / "missing.wav")], input="")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.stderr


def test_what_was_typed_before_a_question_opened_is_dropped_on_a_terminal(capsys):
    import os
    import pty
    import threading

    from gm.clock import RealClock

    master, slave = pty.openpty()
    try:
        with os.fdopen(slave, "r", closefd=False) as stream:
            asker = KeyboardAsker(RealClock(0.001), stream, echo=lambda _: None)
            question = table("en")[0].choice("werewolf.timer.interrupted", ("resume", "vote"), default="resume",
                                             timeout=20)
            os.write(master, b"vote\n")  # three quick keys while the night was still talking
            assert asker.ask(question) == Answer("resume", How.DEFAULT)  # not "vote": it went on by itself
            assert capsys.readouterr().out.endswith("\n")  # the prompt line was ended: nothing is printed onto it
            later = threading.Timer(0.3, os.write, (master, b"vote\n"))  # typed once the question is open
            later.start()
            asker.clock = RealClock(1.0)  # 20 s to answer
            assert asker.ask(question) == Answer("vote")
            later.join()
    finally:
        os.close(master)
        os.close(slave)


FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


@given(st.lists(st.tuples(st.sampled_from([*EN_PLAYERS, "graveyard"]), st.integers(0, 4)), min_size=1, max_size=5,
                unique_by=lambda pair: pair[0]),
       st.sampled_from([" ", "=", ":", ""]), st.sampled_from([", ", " ", "、", ","]), st.booleans(), st.booleans())
def test_a_tally_typed_any_way_reads_back_as_typed(pairs, between, separator, wide, lower):
    questions, players = table("en")
    candidates = [*players, "graveyard"]
    tally = questions.tally(dict.fromkeys(candidates, 1), candidates, 4)
    typed = separator.join(f"{who}{between}{n}" for who, n in pairs)
    typed = typed.translate(FULL_WIDTH) if wide else typed
    assert dict(tally.parse(typed.lower() if lower else typed)) == dict(pairs)


PARTICLES = {"ja": ["", "は", "に", "が", "の"], "ko": ["", "에게", "한테", "은", "는", "이", "가"]}
COUNTER = {"ja": "票", "ko": "표"}


@given(st.sampled_from(["ja", "ko"]), st.data(), st.booleans(), st.sampled_from(["、", "，", ", ", " ", "、 "]),
       st.booleans(), st.booleans())
def test_a_whole_tally_with_particles_and_counters_reads_back_at_the_first_count(lang, data, apart, separator,
                                                                                 counter, wide):
    questions, players = table(lang)
    named = {"ja": {"graveyard": "墓地"}, "ko": {"graveyard": "묘지"}}[lang]
    pairs = data.draw(st.lists(st.tuples(st.sampled_from([*players, "graveyard"]), st.integers(0, 1)), min_size=1,
                               max_size=3, unique_by=lambda pair: pair[0]))
    particle = data.draw(st.sampled_from(PARTICLES[lang]))
    gap = " " if apart else ""
    typed = separator.join(f"{named.get(who, who)}{gap}{particle}{gap}{n}{COUNTER[lang] if counter else ''}"
                           for who, n in pairs)
    typed = typed.translate(FULL_WIDTH) if wide else typed
    assert dict(count(lang).parse(typed)) == dict(pairs), typed
    stranger = {"ja": "ゆい", "ko": "유이"}[lang]
    refused = count(lang).parse(f"{stranger}{gap}{particle}{gap}1{COUNTER[lang] if counter else ''}")
    assert isinstance(refused, Refused) and refused.line.key == "table.unknown_part"  # names the stranger
    assert refused.line.fields["part"].startswith(stranger)


def test_control_characters_typed_are_shown_escaped_never_sent_to_the_terminal():
    out = []
    asker = KeyboardAsker(FakeClock(), io.StringIO("\x1b]0;owned\x07\nwerewolf\n"), echo=out.append)
    questions, _ = table("en")
    assert asker.ask(questions.card(REVEAL, CARDS, "Aki", name="Aki")).value == "werewolf"
    assert out[:2] == ["  > \\x1b]0;owned\\x07", "  ? “\\x1b]0;owned\\x07” answers nothing here; ? lists the answers."]
    assert not any("\x1b" in line for line in out)
    assert printable("けん　３ Aki") == "けん　３ Aki"  # an ideographic space is no control character


def test_the_tally_command_reads_names_as_typed_with_an_ime():
    result = CliRunner().invoke(app, ["werewolf", "tally", "--players", "Aki,Ken,Mio,Sora", "--votes",
                                      "ＡＫＩ=３,ken=1,ｇｒａｖｅｙａｒｄ=0", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["executed"] == "Aki"


@pytest.mark.parametrize("lang, typed, named", [
    ("en", "Aki Ken", ("Aki", "Ken")), ("en", "aki, sora", ("Aki", "Sora")), ("en", "none", ()),
    ("ja", "けん、みお", ("健", "美緒")), ("ja", "健 空", ("健", "空")), ("ja", "いない", ()),
    ("ko", "민수, 서연", ("민수", "서연")), ("ko", "없음", ()),
])
def test_some_players_are_named_in_one_line(lang, typed, named):
    questions, players = table(lang)
    assert questions.roster("werewolf.reveal.magician_seen", players).parse(typed) == named


def test_a_roster_naming_someone_twice_or_a_stranger_is_refused():
    roster = table("en")[0].roster("werewolf.reveal.magician_seen", EN_PLAYERS)
    assert isinstance(roster.parse("Aki Aki"), Refused) and isinstance(roster.parse("Aki Zed"), Refused)


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
@pytest.mark.parametrize("typed", ["r", "R", "ｒ"])
def test_r_says_the_question_again_and_never_names_a_player_by_prefix(lang, typed):
    players = ["Aki", "Ken", "Mio", "Sora", "Yui", "Rei"]
    pick = Table(Pack(lang), players).pick("werewolf.vote.ask_voter", [*players, "graveyard"],
                                            "werewolf.vote.abstain", "Aki", voter="Aki")
    said, out = [], []
    asker = KeyboardAsker(FakeClock(), io.StringIO(f"{typed}\n？\nRei\n"), echo=out.append, say=said.append)
    assert asker.ask(pick).value == "Rei"
    assert said == [pick.prompt]  # r said the question once more; it voted for nobody
    assert out[-2] == "  " + pick.choices().text  # a full-width ？ lists the answers, as ? does


@pytest.mark.parametrize("lang, names, heard, prompt", [
    ("en", ("Alice", "Noah"), "alice", "How many votes for Alice?"),
    ("en", ("Alice", "Noah"), "the graveyard", "How many votes for the graveyard?"),
    ("ja", ("アキ", "ケン"), "アキ", "アキは何票？"),
])
def test_which_count_is_wrong_asks_the_count_of_a_candidate_named_alone(lang, names, heard, prompt):
    """HW-R4: a fix is a candidate's count; heard by name alone, that count is asked for, and its
    answer is the fix, read back unsure as the tally it makes."""
    table = Table(Pack(lang), names)
    candidates = (*names, "graveyard")
    which = table.fix({names[1]: 2, names[0]: 1}, candidates, 4)
    rest = which.rest(words_of(heard))
    assert rest is not None and rest.prompt.text == prompt
    who = rest.who
    assert rest.answers == ("0", "1", "2", "3", "4", *(f"{who}={n}" for n in range(5)))  # a number, or the fix whole
    assert rest.parse("3") == {who: 3} and rest.parse("5") != {who: 5} and rest.rest(["3"]) is None
    assert [rest.slot(t).value for t in ("0", "2", f"{who}=2")] == [{who: 0}, {who: 2}, {who: 2}]
    line = rest.readback(rest.parse("0"), sure=False)
    assert line is not None and line == which.readback(rest.parse("0"), sure=False)
    assert which.rest(["werewolf"]) is None and table.tally(which.shown, candidates, 4).rest(words_of(heard)) is None
