"""Edge code for sound: speaking (pyttsx3 + sounddevice) and listening (vosk + sounddevice).

Nothing here is imported by `gm --help`; each module imports its device library lazily.
"""
