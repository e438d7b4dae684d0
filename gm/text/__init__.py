"""Voice packs turned into printed and spoken lines (kana, Japanese and Korean readings, verdicts
in words), what people type read into values, and the rulings in every pack's language."""
