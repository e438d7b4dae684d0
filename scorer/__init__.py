"""The rules of the three games, pure (values in, values out or a precise refusal; no terminal,
audio, file or clock): Half Werewolf, Humalien scoring, 7th Sense Training and its solver."""
