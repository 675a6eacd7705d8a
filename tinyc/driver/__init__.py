"""The driver above the engines: the :class:`~tinyc.driver.session.Session` (the one way in), the
:class:`~tinyc.driver.interpreter.Machine` it builds (symbol levels, linking, booting a system file, MC 11),
the start-up cache, the program workspace and the dialect registry.

May import: :mod:`tinyc.engines`, :mod:`tinyc.machine` and below; never a dialect package (the Session
loads one by its name).
"""
