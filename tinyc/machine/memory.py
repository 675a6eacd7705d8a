"""The flat byte memory that holds program text, globals, string literals and call frames (section 3).

Addresses are plain integers (byte offsets into one ``bytearray``).  ``int`` is 4 bytes little-endian
(2 with ``int_bits=16``), ``char`` 1 byte, sign-extended on read (section 14 items 1 and 14).
"""

from __future__ import annotations

from ..errors import MemoryFault as MemoryFault  # raised here; defined at the bottom for the engines

DEFAULT_MEMORY = 1 << 20  # bytes of a machine's memory when --memory is not given (32-bit ints)
MEMORY_16 = 65_536  # 16-bit ints address 64 KB: the machine's size, and the most --memory may ask (14 item 21)


class Memory:
    """``size`` bytes of zeroed memory with typed little-endian access.

    ``int_bits`` is 32 (default, the Linux port) or 16 (the DOS era).  Values returned are Python ints
    already in the signed range of their type.
    """

    def __init__(self, size: int = DEFAULT_MEMORY, int_bits: int = 32):
        if int_bits not in (16, 32):
            raise ValueError("int_bits must be 16 or 32")
        self.data = bytearray(size)
        self.size = size
        self.int_bits = int_bits
        self.int_size = int_bits // 8
        self._half = 1 << (int_bits - 1)
        self._mask = (1 << int_bits) - 1

    def wrap(self, value: int) -> int:
        """``value`` wrapped to a signed int of ``int_bits`` bits, as C int arithmetic wraps on x86."""
        return ((value + self._half) & self._mask) - self._half

    def address(self, value: int) -> int:
        """An int used as an address (an array pointer, an address argument of a machine call): with
        16-bit ints an unsigned 16-bit number, as on the DOS-era machine (section 14 item 21); with
        32-bit ints the int itself (a negative one is outside memory)."""
        return value & 0xFFFF if self.int_bits == 16 else value

    def sizeof(self, type_: str) -> int:
        """Bytes of one element of ``type_`` ("int" or "char")."""
        return self.int_size if type_ == "int" else 1

    def _check(self, addr: int, n: int) -> None:
        if addr < 0 or addr + n > self.size:
            raise MemoryFault(addr)

    def read(self, addr: int, type_: str) -> int:
        """The value of type ``type_`` stored at ``addr``; chars are sign-extended."""
        if type_ == "char":
            if not 0 <= addr < self.size:
                raise MemoryFault(addr)
            b = self.data[addr]
            return b - 256 if b > 127 else b
        n = self.int_size
        self._check(addr, n)
        return int.from_bytes(self.data[addr:addr + n], "little", signed=True)

    def write(self, addr: int, type_: str, value: int) -> int:
        """Store ``value`` at ``addr`` (chars keep the low byte) and return the value as stored and read back."""
        if type_ == "char":
            if not 0 <= addr < self.size:
                raise MemoryFault(addr)
            b = value & 0xFF
            self.data[addr] = b
            return b - 256 if b > 127 else b
        n = self.int_size
        self._check(addr, n)
        value = self.wrap(value)
        self.data[addr:addr + n] = value.to_bytes(n, "little", signed=True)
        return value

    def byte(self, addr: int) -> int:
        """The unsigned byte at ``addr`` (0..255)."""
        if not 0 <= addr < self.size:
            raise MemoryFault(addr)
        return self.data[addr]

    def block(self, first: int, last: int) -> bytes:
        """Bytes ``first..last`` inclusive (empty when last < first)."""
        if last < first:
            return b""
        self._check(first, last - first + 1)
        return bytes(self.data[first:last + 1])

    def store(self, addr: int, data: bytes) -> None:
        """Copy ``data`` into memory at ``addr``."""
        self._check(addr, len(data))
        self.data[addr:addr + len(data)] = data

    def fill(self, addr: int, count: int, value: int) -> None:
        """Set ``count`` bytes from ``addr`` to ``value & 0xFF``."""
        if count <= 0:
            return
        self._check(addr, count)
        self.data[addr:addr + count] = bytes([value & 0xFF]) * count

    def cstring(self, addr: int) -> bytes:
        """The NUL-terminated byte string at ``addr`` (without the NUL)."""
        if not 0 <= addr < self.size:
            raise MemoryFault(addr)
        end = self.data.find(0, addr)
        return bytes(self.data[addr:end if end >= 0 else self.size])
