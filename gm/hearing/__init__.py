"""Listening: the voice asker and keyboard, answer phrases, speech models (vosk, pocketsphinx),
audio sources, the microphone and the listening session."""
