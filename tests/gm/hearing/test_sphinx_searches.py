"""gm's pocketsphinx searches are finite-state grammars it makes itself, cheaper than the JSGF
grammars of the same phrases and weights, and they hear what those JSGF grammars hear: a
question's one-of grammar (phrases spoken alike included) and an answer against the loop of
free phones. The audio is said here by espeak-ng and flite."""

import pytest

from gm.hearing import sphinx
from test_sphinx_hearing import book, pytestmark, said  # noqa: F401  (the same skips)
from paths import FIXTURES


def jsgf(rules: str) -> str:
    """A JSGF search of `rules` on gm's grammar decoder, as gm's searches were made before."""
    model = sphinx.load()
    name = f"jsgf{abs(hash(rules))}"
    model._decoder.add_jsgf_string(name, f"#JSGF V1.0;\ngrammar gm;\n{rules}\n")
    return name


def one_of(phrases: list[str]) -> str:
    return jsgf(f"public <said> = {' | '.join(p for p in phrases if p != sphinx.UNK)} ;")


def free_phones(phrase: str) -> str:
    loop = " | ".join(sphinx.PHONE_WORD + p.lower() for p in sphinx.PHONES)
    weight = sphinx.GARBAGE * sphinx.LONGER ** max(0, len(sphinx.load()._phones(phrase)) - sphinx.LONG)
    return jsgf(f"<phone> = {loop} ;\npublic <said> = /1/ ({phrase}) | /{weight:.3g}/ <phone>+ ;")


SAID = [("no", "flite:rms"), ("no", "en-us"), ("no", "flite:kal"), ("know", "flite:slt"), ("two", "en"),
        ("the graveyard", "flite:awb"), ("zero", "en-us+f2"), ("apple", "en"), ("I am not the werewolf", "flite:slt")]


@pytest.mark.parametrize("key", ["count", "who", "card"])
def test_a_question_is_heard_as_by_its_jsgf_grammar(tmp_path, key):
    """At a count, "no" (another phrase) and the decoy "know" tie: the JSGF grammar heard the later."""
    model = sphinx.load()
    phrases = model.rivals(book(key))
    for text, voice in SAID:
        rate, audio = said(tmp_path, text, voice)
        assert model.decode(model.search(phrases), audio, rate) == model.decode(one_of(phrases), audio, rate), text


@pytest.mark.parametrize("phrase", ["one", "two", "no", "the graveyard", "werewolf seer"])
def test_an_answer_meets_the_free_phones_as_in_its_jsgf_grammar(tmp_path, phrase):
    model = sphinx.load()
    for text, voice in [*SAID, (phrase, "en-us"), (phrase, "flite:kal16")]:
        rate, audio = said(tmp_path, text, voice)
        assert model.decode(model.guard(phrase), audio, rate) == model.decode(free_phones(phrase), audio, rate), text


def test_an_answer_the_loop_nearly_prunes_survives_as_in_its_jsgf_grammar():
    """A "one" of a whole night (tests/fixtures/sphinx_one_pruned.wav, the utterance as gm cut and
    levelled it) that beats the free phones only while their paths are pruned as JSGF's `<phone>+`
    prunes them: priced all on the phone instead of half on the way to it, the loop took it."""

    from gm.hearing.recorded import read_wav

    rate, audio = read_wav(FIXTURES / "sphinx_one_pruned.wav")
    model = sphinx.load()
    assert model.decode(free_phones("one"), audio, rate).text == "one"
    assert model.beats_free_phones("one", audio, rate)
