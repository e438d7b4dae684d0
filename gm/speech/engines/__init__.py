"""Text-to-speech engines, one module each: `pyttsx3_engine` (the platform's voices), `flite`
(CMU Flite, English on Linux: in process by `flite_library`, else by `flite_program`) and
`openjtalk` (Japanese, from the `gm-card-nights[ja]` extra).

Each module has `NAME`, `available()`, `voices()` (FoundVoice list) and an `Engine(settings)`
that declares `protocol.Engine`: `voice`, `reads_kanji`, `render(text) -> Audio | Samples`,
`warm_up()`, `close()` and `render_parts` — None, or for an engine that renders sentences in
parts itself (Open JTalk, see `openjtalk_parts`) a method giving them back part by part.
gm.speech.tts picks the engine for a language and puts what it gives through the loudness
stage. Each imports its library or runs its program only when used.
"""
