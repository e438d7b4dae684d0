"""Speaking: the settings, the speaking thread and speaker, the engines (flite, Open JTalk,
pyttsx3), rendering and loudness, and where rendered lines go (sounddevice or WAV files).
Listening is in `gm.hearing`.

Nothing here is imported by `gm --help`; each module imports its device library lazily.
"""
