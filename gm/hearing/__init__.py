"""Listening: the listening asker and the keyboard, answer phrases, speech models (vosk, pocketsphinx),
audio sources, the microphone and the listening session."""
