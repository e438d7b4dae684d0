"""The rules of the three games, pure: values in, values out or a precise refusal; no terminal,
audio, file, clock or compiler. Half Werewolf (`werewolf`), Humalien scoring (`humalien`),
7th Sense Training and its solver's search (`solitaire`; gm/solitaire/compiled.py compiles it)."""
