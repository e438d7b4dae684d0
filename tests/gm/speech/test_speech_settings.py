"""Speech settings made of a night's lines: the speaker says them in their language, with their
readings, without looking the language up again."""

from __future__ import annotations

from gm.speech.notes import Notes
from gm.speech.output import spoken_form
from gm.speech.settings import SpeechSettings
from gm.text import lines
from gm.text.lines import Pack
from gm.ports import Line


def test_readings_added_to_a_pack_leave_the_pack_they_came_from_as_it_was():
    ja = Pack("ja", {"健": "けん"})
    night = ja.with_readings({"美緒": "みお"})
    assert night.readings["美緒"] == "みお" and night.readings["健"] == "けん" and "美緒" not in ja.readings
    assert night.lang == "ja" and night.language is ja.language
    assert night.spoken_word("美緒") == "みお"


def test_settings_of_a_pack_speak_its_lines_and_readings_without_looking_the_language_up(monkeypatch):
    pack = Pack("ja").with_readings({"健": "たける"})
    made = []
    real = lines.Pack.__init__
    monkeypatch.setattr(lines.Pack, "__init__", lambda self, *a, **k: (made.append(a), real(self, *a, **k))[1])
    settings = SpeechSettings.of(pack, "off", rate=170)
    assert (settings.lang, settings.speech, settings.rate, dict(settings.readings)) == ("ja", "off", 170, {
        **pack.readings})
    assert settings == SpeechSettings("ja", "off", rate=170)
    line = Line("k", "健に3票です。", "健に3票です。")
    assert spoken_form(settings, Notes(settings.lines), reads_kanji=True)(line) == "たけるに3票です。"
    assert made == []
