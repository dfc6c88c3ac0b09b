"""GE's graph enums with GE's values (IntEnum: "{}".format(DataType.DT_FLOAT) prints 0)."""
from enum import IntEnum


class DataType(IntEnum):
    DT_FLOAT = 0
    DT_FLOAT16 = 1
    DT_INT8 = 2
    DT_INT32 = 3
    DT_UINT8 = 4
    DT_INT16 = 6
    DT_UINT16 = 7
    DT_UINT32 = 8
    DT_INT64 = 9
    DT_UINT64 = 10
    DT_DOUBLE = 11
    DT_BOOL = 12
    DT_BF16 = 27
    DT_UNDEFINED = 28


class Format(IntEnum):
    FORMAT_NCHW = 0
    FORMAT_NHWC = 1
    FORMAT_ND = 2


class Placement(IntEnum):
    PLACEMENT_HOST = 0
    PLACEMENT_DEVICE = 1


def dtype_of(value):
    """A DataType member for GE's numeric value, or the plain int for values not listed here."""
    try:
        return DataType(value)
    except ValueError:
        return value


def format_of(value):
    try:
        return Format(value)
    except ValueError:
        return value
