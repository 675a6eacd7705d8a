"""The language server of ``tinyc lsp`` (:mod:`tinyc.lsp.server`, on pygls) and what it knows of a
document (:mod:`tinyc.lsp.analysis`).

May import: :mod:`tinyc.shell` (the highlighter) and everything below it; not :mod:`tinyc.cli` or a
dialect's package (a dialect's parts are reached through its hooks, :mod:`tinyc.driver.dialect`).
"""
