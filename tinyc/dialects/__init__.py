"""The dialects of tiny-c, one package each: ``tinyc.dialects.gibson`` is Tom Gibson's (gibson-dialect.md)."""
