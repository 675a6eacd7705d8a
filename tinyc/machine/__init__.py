"""The hardware under the engines: flat byte memory, the console, the machine calls (MC) of tiny-c/PC, the
file sandbox, the shipped programs, and the small interface the engines see a machine through (:mod:`.port`).

May import: :mod:`tinyc.link`, :mod:`tinyc.syntax`, :mod:`tinyc.errors`, :mod:`tinyc.ast`, :mod:`tinyc.dirs`.
"""
