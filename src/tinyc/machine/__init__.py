"""The machine: flat byte memory, the console, the machine calls (MC), the :class:`Machine` that links
programs and boots a system file (IPL), the start-up cache, the program workspace and the shipped programs,
for tiny-c and for Gibson's dialect.

May import: :mod:`tinyc.engines` (to make the engine a machine runs), :mod:`tinyc.link`,
:mod:`tinyc.syntax`, :mod:`tinyc.errors`, :mod:`tinyc.ast`, :mod:`tinyc.dirs`.
"""
