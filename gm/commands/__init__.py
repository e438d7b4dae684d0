"""One Typer sub-app per command group, their shared options and the error edge; device
libraries are imported only inside commands."""
