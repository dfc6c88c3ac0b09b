"""acl.mdl: OM models, their descriptions and datasets over libascendcl's aclmdl* functions
(include/acl/acl_mdl.h). Handles are ints; size and count getters return the C value (0 when
the handle or index is bad, with the reason in acl.get_recent_err_msg())."""
import ctypes

from ._lib import ACL_ERROR_INVALID_PARAM, DATA_BUFFERS, FN, IODims, addr


def load_from_file(model_path):
    model_id = ctypes.c_uint32(0)
    ret = FN["aclmdlLoadFromFile"](str(model_path).encode(), ctypes.byref(model_id))
    return model_id.value, ret


def load_from_mem(model, model_size):
    """(model_id, ret); model is a bytes-like object or a host address."""
    keep = None
    if isinstance(model, (bytes, bytearray, memoryview)):
        keep = ctypes.create_string_buffer(bytes(model), len(model))
        model = ctypes.addressof(keep)
    model_id = ctypes.c_uint32(0)
    ret = FN["aclmdlLoadFromMem"](addr(model), model_size, ctypes.byref(model_id))
    del keep
    return model_id.value, ret


def unload(model_id):
    return FN["aclmdlUnload"](model_id)


def create_desc():
    return FN["aclmdlCreateDesc"]() or 0


def destroy_desc(model_desc):
    return FN["aclmdlDestroyDesc"](addr(model_desc))


def get_desc(model_desc, model_id):
    return FN["aclmdlGetDesc"](addr(model_desc), model_id)


def get_num_inputs(model_desc):
    return FN["aclmdlGetNumInputs"](addr(model_desc))


def get_num_outputs(model_desc):
    return FN["aclmdlGetNumOutputs"](addr(model_desc))


def get_input_size_by_index(model_desc, index):
    return FN["aclmdlGetInputSizeByIndex"](addr(model_desc), index)


def get_output_size_by_index(model_desc, index):
    return FN["aclmdlGetOutputSizeByIndex"](addr(model_desc), index)


def _text(raw):
    return raw.decode(errors="replace") if raw else ""


def get_input_name_by_index(model_desc, index):
    return _text(FN["aclmdlGetInputNameByIndex"](addr(model_desc), index))


def get_output_name_by_index(model_desc, index):
    return _text(FN["aclmdlGetOutputNameByIndex"](addr(model_desc), index))


def get_input_data_type(model_desc, index):
    return FN["aclmdlGetInputDataType"](addr(model_desc), index)


def get_output_data_type(model_desc, index):
    return FN["aclmdlGetOutputDataType"](addr(model_desc), index)


def get_input_format(model_desc, index):
    return FN["aclmdlGetInputFormat"](addr(model_desc), index)


def get_output_format(model_desc, index):
    return FN["aclmdlGetOutputFormat"](addr(model_desc), index)


def _dims(fn, model_desc, index):
    dims = IODims()
    ret = FN[fn](addr(model_desc), index, ctypes.byref(dims))
    if ret != 0:
        return {}, ret
    count = dims.dimCount
    return {"name": _text(dims.name), "dimCount": count, "dims": list(dims.dims[:count])}, ret


def get_input_dims(model_desc, index):
    """({"name", "dimCount", "dims"}, ret), as pyACL."""
    return _dims("aclmdlGetInputDims", model_desc, index)


def get_output_dims(model_desc, index):
    return _dims("aclmdlGetOutputDims", model_desc, index)


def create_dataset():
    return FN["aclmdlCreateDataset"]() or 0


def destroy_dataset(dataset):
    return FN["aclmdlDestroyDataset"](addr(dataset))


def add_dataset_buffer(dataset, data_buffer):
    """(dataset, ret), as pyACL. A data buffer not made by acl.create_data_buffer (or taken from
    acl.mdl.get_dataset_buffer) -> ACL_ERROR_INVALID_PARAM."""
    if not DATA_BUFFERS.known(addr(data_buffer)):
        return dataset, ACL_ERROR_INVALID_PARAM
    ret = FN["aclmdlAddDatasetBuffer"](addr(dataset), data_buffer)
    return dataset, ret


def get_dataset_num_buffers(dataset):
    return FN["aclmdlGetDatasetNumBuffers"](addr(dataset))


def get_dataset_buffer(dataset, index):
    return DATA_BUFFERS.add(FN["aclmdlGetDatasetBuffer"](addr(dataset), index) or 0)


def execute(model_id, input_dataset, output_dataset):
    return FN["aclmdlExecute"](model_id, addr(input_dataset), addr(output_dataset))


def execute_async(model_id, input_dataset, output_dataset, stream):
    return FN["aclmdlExecuteAsync"](model_id, addr(input_dataset), addr(output_dataset), addr(stream))




def init_dump():
    """aclmdlInitDump (docs/acl.md §8)."""
    return FN["aclmdlInitDump"]()


def set_dump(dump_cfg_path):
    """aclmdlSetDump: the config file with a "dump" section, for models loaded afterwards."""
    return FN["aclmdlSetDump"](str(dump_cfg_path).encode())


def finalize_dump():
    """aclmdlFinalizeDump."""
    return FN["aclmdlFinalizeDump"]()
