"""ge.graph.Tensor: a host tensor for Session inputs and outputs (GE's `graph/tensor.py` surface).

Tensor(data=None, file_path=None, data_type=DT_FLOAT, format=FORMAT_ND, shape=None,
placement=PLACEMENT_HOST). `data` is a nested or flat list of numbers, bytes, or anything with
`tolist()` (numpy); `file_path` a raw binary file of the dtype. `.data` / `get_data()` give a
nested list by shape, `.shape` a Shape (a list), `.data_type` / `.format` GE's IntEnums.
"""
import struct

from .types import DataType, Format, Placement, dtype_of, format_of

_CODES = {DataType.DT_FLOAT: "f", DataType.DT_FLOAT16: "e", DataType.DT_INT8: "b", DataType.DT_INT32: "i",
          DataType.DT_UINT8: "B", DataType.DT_INT16: "h", DataType.DT_UINT16: "H", DataType.DT_UINT32: "I",
          DataType.DT_INT64: "q", DataType.DT_UINT64: "Q", DataType.DT_DOUBLE: "d", DataType.DT_BOOL: "?"}


class Shape(list):
    """A tensor's dims: a plain list of ints (prints as [1024])."""

    @property
    def dims(self):
        return list(self)

    @property
    def dim_num(self):
        return len(self)

    def get_shape_size(self):
        n = 1
        for d in self:
            n *= d
        return n


def _code(data_type):
    dt = dtype_of(int(data_type))
    if dt not in _CODES:
        raise TypeError("ge.graph.Tensor: data type {!r} has no host element format here (supported: {})".format(
            data_type, ", ".join(d.name for d in _CODES)))
    return _CODES[dt]


def _flatten(data):
    if hasattr(data, "tolist") and not isinstance(data, list):
        data = data.tolist()
    if not isinstance(data, (list, tuple)):
        return [data], []
    if not data:
        return [], [0]
    parts = [_flatten(d) for d in data]
    inner = parts[0][1]
    if any(p[1] != inner for p in parts):
        raise ValueError("ge.graph.Tensor: the nested list is ragged")
    flat = [v for p in parts for v in p[0]]
    return flat, [len(data)] + inner


def _nest(values, dims):
    if not dims:
        return values[0]
    if len(dims) == 1:
        return list(values)
    step = len(values) // dims[0] if dims[0] else 0
    return [_nest(values[k * step:(k + 1) * step], dims[1:]) for k in range(dims[0])]


class Tensor:
    def __init__(self, data=None, file_path=None, data_type=DataType.DT_FLOAT, format=Format.FORMAT_ND,
                 shape=None, placement=Placement.PLACEMENT_HOST):
        if int(placement) != Placement.PLACEMENT_HOST:
            raise ValueError("ge.graph.Tensor: only PLACEMENT_HOST tensors are supported on the host target")
        if data is not None and file_path is not None:
            raise ValueError("ge.graph.Tensor: give data or file_path, not both")
        self._data_type = dtype_of(int(data_type))
        self._format = format_of(int(format))
        self._placement = Placement.PLACEMENT_HOST
        code = _code(self._data_type)
        if file_path is not None:
            with open(file_path, "rb") as f:
                data = f.read()
        if isinstance(data, (bytes, bytearray)):
            self._bytes = bytes(data)
            count = len(self._bytes) // struct.calcsize(code)
            dims = [count]
        elif data is None:
            self._bytes, dims = b"", [0]
        else:
            flat, dims = _flatten(data)
            self._bytes = struct.pack("<{}{}".format(len(flat), code), *flat)
        if shape is not None:
            dims = [int(d) for d in shape]
        self._shape = Shape(dims)
        if shape is not None and self._shape.get_shape_size() * struct.calcsize(code) != len(self._bytes):
            raise ValueError("ge.graph.Tensor: shape {} needs {} elements but {} were given".format(
                list(dims), self._shape.get_shape_size(), len(self._bytes) // struct.calcsize(code)))

    @classmethod
    def _from_native(cls, item):
        data_type, fmt, dims, raw = item
        t = cls.__new__(cls)
        t._data_type, t._format, t._placement = dtype_of(data_type), format_of(fmt), Placement.PLACEMENT_HOST
        t._shape, t._bytes = Shape(dims), bytes(raw)
        return t

    def _to_native(self):
        return (int(self._data_type), int(self._format), list(self._shape), self._bytes)

    @property
    def data_type(self):
        return self._data_type

    @property
    def format(self):
        return self._format

    @property
    def shape(self):
        return Shape(self._shape)

    @property
    def placement(self):
        return self._placement

    def get_data(self):
        """The values as a nested list by shape (a scalar for rank 0)."""
        code = _code(self._data_type)
        n = len(self._bytes) // struct.calcsize(code)
        values = list(struct.unpack("<{}{}".format(n, code), self._bytes))
        return _nest(values, list(self._shape)) if self._shape or values else values

    @property
    def data(self):
        return self.get_data()

    def get_bytes(self):
        return self._bytes

    def __repr__(self):
        return "Tensor(shape={}, data_type={}, format={})".format(list(self._shape), self._data_type.name
                                                                 if hasattr(self._data_type, "name") else
                                                                 self._data_type, self._format)
