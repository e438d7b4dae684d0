"""Pure domain code with no terminal or audio: Humalien scoring and 7th Sense Training."""
