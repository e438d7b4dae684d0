"""Voice packs turned into printed and spoken lines (kana, Japanese readings)."""
