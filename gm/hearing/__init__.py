"""Listening: answer matching, the voice asker, the keyboard, vosk."""
