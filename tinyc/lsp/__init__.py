"""The language server of ``tinyc lsp`` (:mod:`tinyc.lsp.server`) and what it knows of a document
(:mod:`tinyc.lsp.analysis`)."""
