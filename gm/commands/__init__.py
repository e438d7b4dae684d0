"""One Typer sub-app per command group; each imports device libraries only inside commands."""
