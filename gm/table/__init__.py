"""The conversation with the table: typed questions and the words a table answers with (pure).

The night asks through these (`gm.night.context.NightContext.ask`); the askers (the keyboard,
the voice) read replies with the question's own parser. Audio edges stay in `gm.hearing`.
"""
