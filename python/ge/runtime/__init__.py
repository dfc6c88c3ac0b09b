"""ge.runtime: the value types callbacks see (Tensor, TensorDesc, Shape, StorageShape).

Tensors handed to a callback are borrowed: once the callback returns they raise RuntimeError
("Borrowed native object has expired"), as GE's do.
"""
from ..graph.types import DataType, Format, dtype_of, format_of


class Shape:
    """A shape; `dims` is a plain list (samples print `shape=[1024]`)."""

    def __init__(self, dims=None):
        self._dims = [int(d) for d in (dims or [])]

    @property
    def dims(self):
        return list(self._dims)

    @property
    def dim_num(self):
        return len(self._dims)

    @property
    def size(self):
        n = 1
        for d in self._dims:
            n *= d
        return n

    @property
    def is_scalar(self):
        return not self._dims

    def get_dim(self, i):
        return self._dims[i]

    def set_dim(self, i, v):
        self._dims[i] = int(v)

    def append_dim(self, v):
        self._dims.append(int(v))

    def set_scalar(self):
        self._dims = []

    def __eq__(self, other):
        return isinstance(other, Shape) and other._dims == self._dims

    def __repr__(self):
        return "Shape(%s)" % self._dims


class StorageShape:
    def __init__(self, origin=None, storage=None):
        self.origin_shape = origin if isinstance(origin, Shape) else Shape(origin)
        if storage is None:
            storage = self.origin_shape.dims
        self.storage_shape = storage if isinstance(storage, Shape) else Shape(storage)

    def __eq__(self, other):
        return (isinstance(other, StorageShape) and other.origin_shape == self.origin_shape
                and other.storage_shape == self.storage_shape)

    def __repr__(self):
        return "StorageShape(%s)" % self.origin_shape.dims


class StorageFormat:
    def __init__(self, origin_format=Format.FORMAT_ND, storage_format=None, expand_dims_type=0):
        self.origin_format = format_of(int(origin_format))
        self.storage_format = format_of(int(origin_format if storage_format is None else storage_format))
        self.expand_dims_type = expand_dims_type


def _as_storage_shape(shape):
    if shape is None:
        return StorageShape()
    if isinstance(shape, StorageShape):
        return shape
    if isinstance(shape, Shape):
        return StorageShape(shape.dims)
    return StorageShape(list(shape))


class TensorDesc:
    """infer_meta's inputs and outputs: TensorDesc(shape, data_type)."""

    def __init__(self, shape=None, data_type=DataType.DT_FLOAT):
        self.shape = _as_storage_shape(shape)
        self.data_type = dtype_of(int(data_type))

    def __repr__(self):
        return "TensorDesc(%s, %r)" % (self.shape.origin_shape.dims, self.data_type)


class Tensor:
    """A tensor borrowed from the runtime for the duration of one callback (not constructible)."""

    def __init__(self, *_args, **_kwargs):
        raise TypeError("ge.runtime.Tensor cannot be constructed; callbacks receive it from the runtime")

    @classmethod
    def _borrow(cls, dims, data_type, fmt, addr, size):
        t = object.__new__(cls)
        t._valid = True
        t._shape = StorageShape(list(dims))
        t._data_type = dtype_of(int(data_type))
        t._format = StorageFormat(fmt)
        t._addr = int(addr)
        t._size = int(size)
        return t

    def _invalidate(self):
        self._valid = False

    def _check(self):
        if not self._valid:
            raise RuntimeError("Borrowed native object has expired")

    @property
    def addr(self):
        self._check()
        return self._addr

    @property
    def size(self):
        self._check()
        return self._size

    @property
    def shape_size(self):
        self._check()
        return self._shape.storage_shape.size

    @property
    def shape(self):
        self._check()
        return self._shape

    @property
    def origin_shape(self):
        self._check()
        return self._shape.origin_shape

    @property
    def storage_shape(self):
        self._check()
        return self._shape.storage_shape

    @property
    def format(self):
        self._check()
        return self._format

    @property
    def storage_format(self):
        self._check()
        return self._format.storage_format

    @property
    def origin_format(self):
        self._check()
        return self._format.origin_format

    @property
    def data_type(self):
        self._check()
        return self._data_type

    def __repr__(self):
        if not self._valid:
            return "Tensor(<expired>)"
        return "Tensor(shape=%s, data_type=%r)" % (self._shape.origin_shape.dims, self._data_type)
