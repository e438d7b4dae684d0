"""Text-to-speech engines, one module each: `pyttsx3_engine` (the platform's voices), `flite`
(CMU Flite, English on Linux: in process by `flite_library`, else by `flite_program`) and
`openjtalk` (Japanese, from the `gm[ja]` extra).

Each module has `NAME`, `available()`, `voices()` (FoundVoice list) and an `Engine(settings)`
with `voice`, `reads_kanji`, `render(text) -> Audio | Samples` and `close()`; an engine that
renders sentences in parts itself also has `render_parts(sentences) -> Iterator[Samples]` (Open
JTalk, see `openjtalk_parts`). gm.speech.tts puts what they give through the loudness stage.
Each imports its library or runs its program only when used.
gm.speech.tts picks the engine for a language.
"""
