"""Re-encode a GGUF model's weight matrices as Q8_0 (docs/architecture.md).

SmolLM2-135M ships as Q4_1. On the x86 CPUs Remora targets, llama.cpp's
Q8_0 kernels read a prompt about 1.3x faster than Q4_1 ones (85 -> 110 tokens/s
for SmolLM2-135M on one thread, benchmarks/embedded.py), and prompt reading is
most of an agent turn. Q8_0 holds every Q4_1 value to within half an 8-bit step
of its block's largest value, so the model's answers barely move; the file grows
from 92 to 145 MB. Reading and writing use ``gguf``, llama.cpp's own Python
package; 1-D tensors (norms) and tensors that are already Q8_0 or F32 are
copied as they are.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from remora.errors import ModelUnavailableError

__all__ = ["requantize_q8_0"]

# llama.cpp's LLAMA_FTYPE_MOSTLY_Q8_0: the "file type" a Q8_0 model declares.
_FTYPE_MOSTLY_Q8_0 = 7
# Keys the writer sets itself: from the header, the tensors, its constructor and below.
_WRITER_OWNED = {
    "GGUF.version",
    "GGUF.tensor_count",
    "GGUF.kv_count",
    "general.architecture",
    "general.file_type",
}


def requantize_q8_0(source: Path, dest: Path) -> None:
    """Write ``source`` with its quantized 2-D weights as Q8_0 into ``dest``.

    ``dest`` appears whole or not at all (written beside it, then renamed).
    """
    import gguf

    try:
        reader = gguf.GGUFReader(source)
    except (OSError, ValueError) as exc:
        raise ModelUnavailableError(
            f"cannot read GGUF file {source}: {exc}",
            "delete it so that Remora fetches the model again, or set model.path",
        ) from exc
    arch = str(reader.fields["general.architecture"].contents())
    partial = dest.with_name(f".{dest.name}.partial")
    writer = gguf.GGUFWriter(partial, arch)
    try:
        for name, field in reader.fields.items():
            if name not in _WRITER_OWNED:
                _copy_field(writer, field)
        writer.add_file_type(_FTYPE_MOSTLY_Q8_0)
        for tensor in reader.tensors:
            data, kind = _converted(tensor)
            writer.add_tensor(tensor.name, data, raw_dtype=kind)
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)


def _copy_field(writer: Any, field: Any) -> None:
    import gguf

    kind = field.types[0]
    sub_type = field.types[1] if kind == gguf.GGUFValueType.ARRAY else None
    writer.add_key_value(field.name, field.contents(), kind, sub_type=sub_type)


def _converted(tensor: Any) -> tuple[np.ndarray[Any, Any], Any]:
    """The tensor's data for the new file and its GGML type."""
    from gguf import GGMLQuantizationType as Kind
    from gguf import quants

    kind = tensor.tensor_type
    if kind in (Kind.F32, Kind.F16, Kind.Q8_0) or len(tensor.shape) < 2:
        return tensor.data, kind
    values = quants.dequantize(tensor.data, kind)
    return quants.quantize(values, Kind.Q8_0), Kind.Q8_0
