"""The machine options, one record (issue 36 part 2): what every door (the command line, the kernel, the web
glue, the DAP server, the magics) builds a :class:`~tinyc.driver.session.Session` from, each default
written here once.  Reference sections 4, 9 and 14 give the options."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from typing import Any

    from ..engines.options import Optimisations
    from ..machine.sandbox import Policy

DEFAULT_ENGINE = "fast"       # every door, and a Session made by hand (tinyc.driver.session.Session)
DEFAULT_INT_BITS = 32         # the Linux port's ints (16: the DOS era, section 14 item 21)
DEFAULT_MAX_DEPTH = 1000      # active calls before error 17
DEFAULT_RANDOM_DIVISOR = 8    # the 2015 library's random (7: the 2017 one, section 14 item 3)


class MachineOptions:
    """The options of one machine (fixed once made; :meth:`replace` gives a changed copy).

    ``memory`` bytes (None: 1 MiB, or 65536 with 16-bit ints); ``int_bits`` 32 or 16; ``max_depth`` active
    calls before error 17/26; ``random_divisor`` 8 or 7; ``engine`` "fast" or "reference"; ``optimisations``
    the fast engine's (None: all); ``policy`` the sandbox (:class:`tinyc.machine.sandbox.Policy`: the files a
    program may open, Gibson's ``system()`` and ``#loadMC NAME.py``; None: the current directory tree and
    neither); ``strip_cr`` and ``echo`` the console's (section 14 items 9 and 10); ``quiet`` Gibson's ``-q``."""

    __slots__ = ("memory", "int_bits", "max_depth", "random_divisor", "engine", "optimisations", "policy",
                 "strip_cr", "echo", "quiet")

    memory: int | None
    int_bits: int
    max_depth: int
    random_divisor: int
    engine: str
    optimisations: Optimisations | None
    policy: Policy | None
    strip_cr: bool
    echo: bool
    quiet: bool

    def __init__(self, *, memory: int | None = None, int_bits: int = DEFAULT_INT_BITS,
                 max_depth: int = DEFAULT_MAX_DEPTH, random_divisor: int = DEFAULT_RANDOM_DIVISOR,
                 engine: str = DEFAULT_ENGINE, optimisations: Optimisations | None = None,
                 policy: Policy | None = None, strip_cr: bool = False, echo: bool = False, quiet: bool = False):
        values = dict(memory=memory, int_bits=int_bits, max_depth=max_depth, random_divisor=random_divisor,
                      engine=engine, optimisations=optimisations, policy=policy, strip_cr=strip_cr, echo=echo,
                      quiet=quiet)
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("MachineOptions are fixed once made: use replace()")

    def replace(self, **changes: Any) -> MachineOptions:
        """A copy with ``changes`` (TypeError for a name that is not an option)."""
        return MachineOptions(**{**self.as_dict(), **changes})

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MachineOptions) and self.as_dict() == other.as_dict()

    def __repr__(self) -> str:
        return f"MachineOptions({', '.join(f'{k}={v!r}' for k, v in self.as_dict().items())})"

    @classmethod
    def from_values(cls, values: object, policy: Policy | None = None,
                    optimisations: Optimisations | None = None) -> MachineOptions:
        """The options that the attributes of ``values`` give (the command line's parsed options, or any
        object with some of these names); an option it lacks keeps its default."""
        defaults = cls()
        given = {name: getattr(values, name, getattr(defaults, name)) for name in cls.__slots__
                 if name not in ("policy", "optimisations")}
        return cls(**given, policy=policy, optimisations=optimisations)


DEFAULTS = MachineOptions()  # the defaults, as one record (the command line's parser reads them here)
